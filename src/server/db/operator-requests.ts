/**
 * Requests that a second operator confirms (migration 0036, docs/decisions/0060): the statements
 * that ask, confirm, decline and expire them, each guarded so that it holds once, and the console's
 * reading of them. The audit rows are the callers' (db/audit-log.ts withAudit), in the same batch.
 */
import { and, desc, eq, gt, inArray, lte, ne, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Database } from "./database";
import { auditLog, operatorRequests, operators } from "./schema";

export type OperatorRequest = typeof operatorRequests.$inferSelect;

/** A new waiting request; nothing when one for the same action and target is waiting already (the unique index). */
export function insertRequest(
  db: Database,
  request: Omit<typeof operatorRequests.$inferInsert, "id" | "status" | "decidedBy" | "decidedAt" | "outcome">,
) {
  return db.insert(operatorRequests).values(request).onConflictDoNothing().returning({ id: operatorRequests.id });
}

/**
 * The confirmation: it holds only while the request waits, before it expires, and for an operator
 * other than the one who asked, so of many confirmations at once exactly one changes the row.
 */
export function confirmRequestStatement(db: Database, id: number, operatorId: number, now: number) {
  return db
    .update(operatorRequests)
    .set({ status: "confirmed", decidedBy: operatorId, decidedAt: now })
    .where(
      and(
        eq(operatorRequests.id, id),
        eq(operatorRequests.status, "waiting"),
        gt(operatorRequests.expiresAt, now),
        ne(operatorRequests.requestedBy, operatorId),
      ),
    );
}

/** A decline (by anyone with the role, the one who asked too: then it is withdrawn), while it waits. */
export function declineRequestStatement(db: Database, id: number, operatorId: number, reason: string, now: number) {
  return db
    .update(operatorRequests)
    .set({ status: "declined", decidedBy: operatorId, decidedAt: now, outcome: reason })
    .where(
      and(eq(operatorRequests.id, id), eq(operatorRequests.status, "waiting"), gt(operatorRequests.expiresAt, now)),
    );
}

/** A confirmed request whose action could not be done (the member was disabled meanwhile, the provider refused ...). */
export function failRequestStatement(db: Database, id: number, outcome: string) {
  return db
    .update(operatorRequests)
    .set({ status: "failed", outcome })
    .where(and(eq(operatorRequests.id, id), eq(operatorRequests.status, "confirmed")));
}

/**
 * Every waiting request past its time becomes expired, each with its audit row (written first, from
 * the same rows, in one batch: a batch is one transaction, so two at once never write a row twice).
 */
export function expireRequestsStatements(db: Database, now: number) {
  const due = and(eq(operatorRequests.status, "waiting"), lte(operatorRequests.expiresAt, now));
  return [
    // Every column of audit_log in the table's order, as auditEntryQuery writes them.
    db.insert(auditLog).select(sql`
      SELECT NULL, NULL, 'console', action || '.expired', target_kind, target_id,
        json_object('status', 'waiting', 'request', id), json_object('status', 'expired', 'request', id),
        'not confirmed by a second operator in time', ${now}
      FROM ${operatorRequests} WHERE status = 'waiting' AND expires_at <= ${now}`),
    db.update(operatorRequests).set({ status: "expired", decidedAt: now }).where(due),
  ] as const;
}

export function requestById(db: Database, id: number) {
  return db.select().from(operatorRequests).where(eq(operatorRequests.id, id)).get();
}

const requester = alias(operators, "requester");
const decider = alias(operators, "decider");

/** Requests with the addresses of who asked and who decided: the waiting ones oldest first, or the latest decided. */
export function listRequests(db: Database, which: "waiting" | "decided", limit = 100) {
  const query = db
    .select({ request: operatorRequests, requester: requester.email, decider: decider.email })
    .from(operatorRequests)
    .innerJoin(requester, eq(requester.id, operatorRequests.requestedBy))
    .leftJoin(decider, eq(decider.id, operatorRequests.decidedBy));
  return which === "waiting"
    ? query.where(eq(operatorRequests.status, "waiting")).orderBy(operatorRequests.id).limit(limit)
    : query
        .where(inArray(operatorRequests.status, ["confirmed", "declined", "expired", "failed"]))
        .orderBy(desc(operatorRequests.decidedAt), desc(operatorRequests.id))
        .limit(limit);
}

export type WaitingRequest = { request: OperatorRequest; requester: string };

/** The waiting requests about a member or one of their orders (the member's page shows them). */
export function waitingAbout(db: Database, userId: number, orderIds: readonly number[]): Promise<WaitingRequest[]> {
  const about = or(
    and(eq(operatorRequests.targetKind, "member"), eq(operatorRequests.targetId, String(userId))),
    orderIds.length
      ? and(
          eq(operatorRequests.targetKind, "order"),
          inArray(
            operatorRequests.targetId,
            orderIds.map((id) => String(id)),
          ),
        )
      : undefined,
  );
  return db
    .select({ request: operatorRequests, requester: requester.email })
    .from(operatorRequests)
    .innerJoin(requester, eq(requester.id, operatorRequests.requestedBy))
    .where(and(eq(operatorRequests.status, "waiting"), about))
    .orderBy(operatorRequests.id);
}
