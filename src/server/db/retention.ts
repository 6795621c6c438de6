/**
 * What the clock work deletes once it is past its age (docs/decisions/0032): copies of sent mail,
 * SMS and pushes, ended login sessions and their push subscriptions, used or expired links and SMS
 * codes, login-failure counters whose window and block are over. Each call deletes at most one batch
 * (the oldest rows first), so the daily run is bounded however much is due.
 *
 * D1 has no DELETE ... LIMIT, so each delete names its batch through a subquery on the key.
 */
import { and, asc, inArray, isNotNull, isNull, lt, notExists, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "./database";
import { authTokens, loginAttempts, outgoingMail, outgoingPush, outgoingSms, pushSubscriptions, sessions, smsCodes } from "./schema";

/** The kinds of row the clock work deletes, each one batch at a time. */
export type RetainedKind = "mail" | "sms" | "push" | "sessions" | "push_subscriptions" | "auth_tokens" | "sms_codes" | "login_attempts";

/** Cut-off moments (unix seconds): rows older than these go. */
export type Cutoffs = { outbox: number; ended: number; now: number };

/** Delete one batch of `kind` past its cut-off; answers how many rows went. */
export async function deleteExpiredBatch(db: Database, kind: RetainedKind, cutoffs: Cutoffs, batch: number): Promise<number> {
  const { outbox, ended, now } = cutoffs;
  const byId = async <T extends typeof outgoingMail | typeof outgoingSms | typeof outgoingPush | typeof pushSubscriptions | typeof smsCodes>(table: T, where: SQL | undefined) => {
    const ids = db.select({ id: table.id }).from(table).where(where).orderBy(asc(table.id)).limit(batch);
    return (await db.delete(table).where(inArray(table.id, ids)).run()).meta.changes;
  };
  switch (kind) {
    // Never a mail or SMS the provider has not taken (sent_at null: the local outbox, or one not sent yet).
    case "mail":
      return byId(outgoingMail, and(isNotNull(outgoingMail.sentAt), lt(outgoingMail.createdAt, outbox)));
    case "sms":
      return byId(outgoingSms, and(isNotNull(outgoingSms.sentAt), lt(outgoingSms.createdAt, outbox)));
    // The push outbox is a log of pushes handed to the push service (or, locally, shown at /dev/outbox).
    case "push":
      return byId(outgoingPush, lt(outgoingPush.createdAt, outbox));
    case "sessions": {
      const ids = db
        .select({ id: sessions.id })
        .from(sessions)
        .where(or(lt(sessions.expiresAt, ended), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, ended))))
        .limit(batch);
      return (await db.delete(sessions).where(inArray(sessions.id, ids)).run()).meta.changes;
    }
    // A subscription stored by a login that no longer exists can never be pushed to.
    case "push_subscriptions":
      return byId(
        pushSubscriptions,
        and(isNotNull(pushSubscriptions.sessionId), notExists(db.select({ one: sql`1` }).from(sessions).where(sql`${sessions.id} = ${pushSubscriptions.sessionId}`))),
      );
    case "auth_tokens": {
      const hashes = db
        .select({ hash: authTokens.tokenHash })
        .from(authTokens)
        .where(or(lt(authTokens.expiresAt, ended), and(isNotNull(authTokens.usedAt), lt(authTokens.usedAt, ended))))
        .limit(batch);
      return (await db.delete(authTokens).where(inArray(authTokens.tokenHash, hashes)).run()).meta.changes;
    }
    case "sms_codes":
      return byId(smsCodes, or(lt(smsCodes.expiresAt, ended), and(isNotNull(smsCodes.usedAt), lt(smsCodes.usedAt, ended))));
    case "login_attempts": {
      const keys = db
        .select({ key: loginAttempts.key })
        .from(loginAttempts)
        .where(and(lt(loginAttempts.windowStart, ended), or(isNull(loginAttempts.blockedUntil), lt(loginAttempts.blockedUntil, now))))
        .limit(batch);
      return (await db.delete(loginAttempts).where(inArray(loginAttempts.key, keys)).run()).meta.changes;
    }
  }
}
