/**
 * Support's questions (docs/decisions/0062): what /complaints receives about billing, the account,
 * personal data or anything else that is no notice about content. They are rows of `reports` with
 * queue = 'support', so the confirmation, limits and retention are the reports' own; the moderators'
 * queue never shows them.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "./database";
import { reports } from "./schema";

const open = and(eq(reports.queue, "support"), eq(reports.status, "open"));

/** Open questions, oldest first, a page at a time. */
export function openSupportQuestions(db: Database, limit: number, offset = 0) {
  return db
    .select({
      id: reports.id,
      subject: reports.subject,
      email: reports.email,
      siteDomain: reports.siteDomain,
      createdAt: reports.createdAt,
    })
    .from(reports)
    .where(open)
    .orderBy(asc(reports.createdAt), asc(reports.id))
    .limit(limit)
    .offset(offset);
}

export async function countOpenSupportQuestions(db: Database): Promise<number> {
  const row = await db
    .select({ count: sql<number>`count(*)` })
    .from(reports)
    .where(open)
    .get();
  return row?.count ?? 0;
}

export function supportQuestionById(db: Database, id: number) {
  return db
    .select()
    .from(reports)
    .where(and(eq(reports.id, id), eq(reports.queue, "support")))
    .get();
}

/** Answer an open question: closed as resolved with support's answer; an answered one stays as it is. */
export function answerSupportQuestionQuery(db: Database, id: number, answer: string, now: number) {
  return db
    .update(reports)
    .set({ status: "resolved", operatorNote: answer, handledAt: now })
    .where(and(eq(reports.id, id), eq(reports.queue, "support"), eq(reports.status, "open")));
}
