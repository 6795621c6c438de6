/**
 * A notifier contests the dismissal of their notice (DSA Art. 20(1), docs/decisions/0062): an appeal
 * row with by_notifier = 1 against the dismissal's decision, in the same queue as members' appeals.
 * Reversed, the report opens again for a new decision.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "./database";
import { appeals, moderationDecisions, reports } from "./schema";

/**
 * File the notifier's appeal of a dismissal taken at or after `notBefore`: once per decision (its
 * unique index), and only of a dismissal. Answers the new id, or null when nothing was stored.
 */
export async function insertNotifierAppeal(
  db: Database,
  appeal: { decisionId: number; userId: number | null; text: string; notBefore: number },
  now: number,
): Promise<number | null> {
  const row = await db.get<{ id: number } | undefined>(sql`
    INSERT INTO ${appeals} (decision_id, user_id, text, status, created_at, by_notifier)
    SELECT id, ${appeal.userId}, ${appeal.text}, 'open', ${now}, 1 FROM ${moderationDecisions}
    WHERE id = ${appeal.decisionId} AND outcome = 'dismiss' AND created_at >= ${appeal.notBefore}
    ON CONFLICT (decision_id) DO NOTHING
    RETURNING id`);
  return row?.id ?? null;
}

/** A dismissed report opened again for a new decision (its first statement of a reversed notifier's appeal). */
export function reopenReportQuery(db: Database, reportId: number) {
  return db
    .update(reports)
    .set({ status: "open", handledAt: null })
    .where(and(eq(reports.id, reportId), eq(reports.status, "rejected")));
}
