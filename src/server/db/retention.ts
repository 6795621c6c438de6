/**
 * What the clock work deletes once it is past its age (docs/decisions/0032): copies of sent mail,
 * SMS and pushes, ended login sessions and their push subscriptions, used or expired links and SMS
 * codes, login-failure counters whose window and block are over, reports handled long enough ago. Each call deletes at most one batch
 * (the oldest rows first), so the daily run is bounded however much is due.
 *
 * D1 has no DELETE ... LIMIT, so each delete names its batch through a subquery on the key.
 */
import { and, asc, inArray, isNotNull, isNull, lt, ne, notExists, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./database";
import {
  activeMonths,
  authTokens,
  loginAttempts,
  outgoingMail,
  outgoingPush,
  outgoingSms,
  pushSubscriptions,
  reports,
  sessions,
  smsCodes,
} from "./schema";

/** The kinds of row the clock work deletes, each one batch at a time. */
export type RetainedKind =
  | "mail"
  | "sms"
  | "push"
  | "sessions"
  | "push_subscriptions"
  | "auth_tokens"
  | "sms_codes"
  | "login_attempts"
  | "reports"
  | "active_months";

/** Cut-off moments (unix seconds): rows older than these go. */
/** `months`: the first month (YYYY-MM) whose active members are kept. */
export type Cutoffs = { outbox: number; ended: number; reports: number; now: number; months: string };

/** Delete up to `batch` rows of `table` that `where` names, oldest key first; answers how many went. */
async function deleteBatch(
  db: Database,
  table: SQLiteTable,
  key: SQLiteColumn,
  where: SQL | undefined,
  batch: number,
): Promise<number> {
  const keys = db.select({ key }).from(table).where(where).orderBy(asc(key)).limit(batch);
  return (await db.delete(table).where(inArray(key, keys)).run()).meta.changes;
}

/** Delete one batch of `kind` past its cut-off; answers how many rows went. */
export async function deleteExpiredBatch(
  db: Database,
  kind: RetainedKind,
  cutoffs: Cutoffs,
  batch: number,
): Promise<number> {
  const { outbox, ended, reports: reportsBefore, now } = cutoffs;
  const endedBy = (expiresAt: SQLiteColumn, doneAt: SQLiteColumn) =>
    or(lt(expiresAt, ended), and(isNotNull(doneAt), lt(doneAt, ended)));
  switch (kind) {
    // Never a mail or SMS the provider has not taken (sent_at null: the local outbox, or one not sent yet).
    case "mail":
      return deleteBatch(
        db,
        outgoingMail,
        outgoingMail.id,
        and(isNotNull(outgoingMail.sentAt), lt(outgoingMail.createdAt, outbox)),
        batch,
      );
    case "sms":
      return deleteBatch(
        db,
        outgoingSms,
        outgoingSms.id,
        and(isNotNull(outgoingSms.sentAt), lt(outgoingSms.createdAt, outbox)),
        batch,
      );
    // The push outbox is a log of pushes handed to the push service (or, locally, shown at /dev/outbox).
    case "push":
      return deleteBatch(db, outgoingPush, outgoingPush.id, lt(outgoingPush.createdAt, outbox), batch);
    case "sessions":
      return deleteBatch(db, sessions, sessions.id, endedBy(sessions.expiresAt, sessions.revokedAt), batch);
    // A subscription stored by a login that no longer exists can never be pushed to.
    case "push_subscriptions":
      return deleteBatch(
        db,
        pushSubscriptions,
        pushSubscriptions.id,
        and(
          isNotNull(pushSubscriptions.sessionId),
          notExists(
            db
              .select({ one: sql`1` })
              .from(sessions)
              .where(sql`${sessions.id} = ${pushSubscriptions.sessionId}`),
          ),
        ),
        batch,
      );
    case "auth_tokens":
      return deleteBatch(db, authTokens, authTokens.tokenHash, endedBy(authTokens.expiresAt, authTokens.usedAt), batch);
    case "sms_codes":
      return deleteBatch(db, smsCodes, smsCodes.id, endedBy(smsCodes.expiresAt, smsCodes.usedAt), batch);
    // A handled report (never an open one) is kept REPORT_RETENTION_DAYS after it was handled.
    case "reports":
      return deleteBatch(
        db,
        reports,
        reports.id,
        and(ne(reports.status, "open"), lt(reports.handledAt, reportsBefore)),
        batch,
      );
    // Who was active in a month is kept for the transparency reports of two years (docs/decisions/0063).
    // (By member, each member's old months only: the table has no single key to batch on.)
    case "active_months": {
      const old = lt(activeMonths.month, cutoffs.months);
      const members = db.select({ id: activeMonths.userId }).from(activeMonths).where(old).limit(batch);
      return (
        await db
          .delete(activeMonths)
          .where(and(old, inArray(activeMonths.userId, members)))
          .run()
      ).meta.changes;
    }
    case "login_attempts":
      return deleteBatch(
        db,
        loginAttempts,
        loginAttempts.key,
        and(
          lt(loginAttempts.windowStart, ended),
          or(isNull(loginAttempts.blockedUntil), lt(loginAttempts.blockedUntil, now)),
        ),
        batch,
      );
  }
}
