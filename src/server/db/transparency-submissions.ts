/**
 * The queue of statements of reasons for the DSA Transparency Database (migration 0040,
 * docs/decisions/0063): rows made for the restricting decisions of the sites that submit, claimed by
 * one run of the job at a time, and marked with what the database answered.
 */
import { and, count, desc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "./database";
import { noticeOfDecision, restrictingDecisions } from "./transparency";
import { moderationDecisions, reports, transparencySubmissions as queue, users } from "./schema";

/** A row a run holds: which decision, whose statement, and until when the run holds it. */
export type ClaimedSubmission = {
  decisionId: number;
  companyId: string;
  puid: string;
  attempts: number;
  claim: number;
};

/**
 * Queue the restricting decisions of these sites (a company's) that are not queued yet, at most
 * `limit`, each with the puid `<prefix>-<decision id>`.
 */
export async function enqueueStatements(
  db: Database,
  company: { id: string; puidPrefix: string; sites: string[] },
  now: number,
  limit: number,
): Promise<number> {
  if (company.sites.length === 0) return 0;
  const d = moderationDecisions;
  const pending = db
    .select({ id: d.id })
    .from(d)
    .leftJoin(reports, noticeOfDecision)
    .leftJoin(users, eq(users.id, d.userId))
    .where(
      and(
        restrictingDecisions(),
        inArray(sql`COALESCE(${reports.siteDomain}, ${users.siteDomain})`, company.sites),
        sql`NOT EXISTS (SELECT 1 FROM ${queue} WHERE ${queue.decisionId} = ${d.id})`,
      ),
    )
    .orderBy(d.id)
    .limit(limit);
  // "WHERE true": SQLite reads an upsert's ON after a bare SELECT ... FROM as a join's (its INSERT docs).
  const result = await db.run(
    sql`INSERT INTO ${queue} (decision_id, company_id, puid, state, attempts, next_attempt_at, created_at)
      SELECT id, ${company.id}, ${company.puidPrefix} || '-' || id, 'waiting', 0, ${now}, ${now} FROM (${pending}) WHERE true
      ON CONFLICT DO NOTHING`,
  );
  return result.meta.changes ?? 0;
}

/**
 * Hold up to `limit` due rows for this run until `claim` (one statement: another run that comes
 * meanwhile gets other rows or none). A row whose holder never finished is due again once its claim
 * has passed.
 */
export async function claimDue(db: Database, now: number, claim: number, limit: number): Promise<ClaimedSubmission[]> {
  const free = or(isNull(queue.claimedUntil), lte(queue.claimedUntil, now));
  const due = db
    .select({ id: queue.decisionId })
    .from(queue)
    .where(and(eq(queue.state, "waiting"), lte(queue.nextAttemptAt, now), free))
    .orderBy(queue.nextAttemptAt, queue.decisionId)
    .limit(limit);
  const rows = await db
    .update(queue)
    .set({ claimedUntil: claim })
    .where(and(inArray(queue.decisionId, due), free))
    .returning({
      decisionId: queue.decisionId,
      companyId: queue.companyId,
      puid: queue.puid,
      attempts: queue.attempts,
    });
  return rows.map((row) => ({ ...row, claim }));
}

const held = (row: ClaimedSubmission) => and(eq(queue.decisionId, row.decisionId), eq(queue.claimedUntil, row.claim));

/** The database took the statement (or had it already): its id kept, the row done. */
export async function markAccepted(
  db: Database,
  row: ClaimedSubmission,
  answer: { status: number; uuid: string | null },
  now: number,
): Promise<void> {
  await db
    .update(queue)
    .set({
      state: "accepted",
      uuid: answer.uuid,
      submittedAt: now,
      attempts: row.attempts + 1,
      lastStatus: answer.status,
      lastError: null,
      claimedUntil: null,
    })
    .where(held(row));
}

/** The attempt was refused or failed: why, and when to try again. */
export async function markFailed(
  db: Database,
  row: ClaimedSubmission,
  failure: { status: number; error: string },
  nextAttemptAt: number,
): Promise<void> {
  await db
    .update(queue)
    .set({
      attempts: row.attempts + 1,
      lastStatus: failure.status,
      lastError: failure.error.slice(0, 2000),
      nextAttemptAt,
      claimedUntil: null,
    })
    .where(held(row));
}

/** No site of the decision is in the EU or the EEA: there is nothing to submit. */
export async function markOutsideUnion(db: Database, row: ClaimedSubmission): Promise<void> {
  await db.update(queue).set({ state: "outside_union", claimedUntil: null }).where(held(row));
}

/** How many statements are in each state, and the latest refusals of those still waiting. */
export async function submissionSummary(db: Database) {
  const [states, refused] = await Promise.all([
    db.select({ state: queue.state, n: count() }).from(queue).groupBy(queue.state).all(),
    db
      .select({
        decisionId: queue.decisionId,
        attempts: queue.attempts,
        lastStatus: queue.lastStatus,
        lastError: queue.lastError,
        nextAttemptAt: queue.nextAttemptAt,
      })
      .from(queue)
      .where(and(eq(queue.state, "waiting"), sql`${queue.attempts} > 0`))
      .orderBy(desc(queue.attempts), queue.decisionId)
      .limit(10)
      .all(),
  ]);
  return { states, refused };
}

/** A decision's row in the queue, if it has one. */
export function submissionOf(db: Database, decisionId: number) {
  return db.select().from(queue).where(eq(queue.decisionId, decisionId)).get();
}
