/**
 * Web push: the browsers members subscribed (push_subscriptions) and, in development and tests, the
 * pushes that would have been sent (outgoing_push). "A subscription that may be pushed to" — its
 * account live, the login that stored it still live, not expired by the browser — is written here once.
 */
import { and, desc, eq, gt, isNull, lte, ne, or, sql } from "drizzle-orm";
import { accountIsLive } from "./accounts";
import type { Database } from "./database";
import { outgoingPush, profiles, pushKeyMismatches, pushSubscriptions, sessions, users } from "./schema";
import { sessionIsLive } from "./sessions";

type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
export type StoredSubscription = Pick<PushSubscriptionRow, "id" | "endpoint" | "p256dh" | "auth">;

/**
 * Store a browser's subscription for the member and the login that gave it. The endpoint is the
 * browser's: stored for another member before (same browser, new login), it moves to this one. A
 * login is one browser, which has one subscription for the site: one it stored before is replaced.
 */
export async function storeSubscription(
  db: Database,
  subscription: Pick<PushSubscriptionRow, "userId" | "endpoint" | "p256dh" | "auth" | "expiresAt"> & {
    sessionId: string;
  },
  now: number,
): Promise<void> {
  const { endpoint, ...fields } = subscription;
  const sameMember = sql`${pushSubscriptions.userId} = excluded.user_id`;
  await db.batch([
    db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.sessionId, subscription.sessionId), ne(pushSubscriptions.endpoint, endpoint))),
    db
      .insert(pushSubscriptions)
      .values({ ...subscription, createdAt: now })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          ...fields,
          createdAt: sql`CASE WHEN ${sameMember} THEN ${pushSubscriptions.createdAt} ELSE excluded.created_at END`,
          lastSuccessAt: sql`CASE WHEN ${sameMember} THEN ${pushSubscriptions.lastSuccessAt} END`,
        },
      }),
  ]);
}

/** Forget one browser of the member (push turned off, or the browser dropped it). */
export async function forgetSubscription(db: Database, userId: number, endpoint: string): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

/** Forget the browsers a login subscribed (logout, or push turned off without naming the endpoint). */
export async function forgetSessionSubscriptions(db: Database, userId: number, sessionId: string): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.sessionId, sessionId)));
}

/** Forget every browser of a member: the statement, for the batch of an account's deletion. */
export function forgetMemberSubscriptions(db: Database, userId: number) {
  return db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}

/** The push service answered that the subscription is gone (404, 410). */
export async function deleteSubscription(db: Database, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function markPushDelivered(db: Database, id: number, now: number): Promise<void> {
  await db.update(pushSubscriptions).set({ lastSuccessAt: now }).where(eq(pushSubscriptions.id, id));
}

/** The push service refused a push as too large even shortened (413): counted, the subscription kept. */
export async function countTooLargePush(db: Database, id: number): Promise<void> {
  await db
    .update(pushSubscriptions)
    .set({ failures: sql`${pushSubscriptions.failures} + 1` })
    .where(eq(pushSubscriptions.id, id));
}

/** The push service asked to wait (429): nothing goes to the subscription before `until`. */
export async function deferSubscription(db: Database, id: number, until: number): Promise<void> {
  await db.update(pushSubscriptions).set({ retryAfter: until }).where(eq(pushSubscriptions.id, id));
}

/** A push service refused our VAPID key (403): answers true only the first time for that key, so it is logged once per deployment. */
export async function recordKeyMismatch(db: Database, publicKey: string, now: number): Promise<boolean> {
  const result = await db.insert(pushKeyMismatches).values({ publicKey, firstAt: now }).onConflictDoNothing().run();
  return result.meta.changes > 0;
}

/** The most browsers one event is pushed to (the newest subscriptions): a member's devices, not a fan-out. */
const MAX_BROWSERS = 10;

export type PushRecipient = {
  userId: number;
  language: string;
  siteDomain: string;
  subscriptions: StoredSubscription[];
};

/**
 * The member behind a profile with the subscriptions that may be pushed to now, or null when the
 * account is not live. One query: a member without subscriptions costs nothing more.
 */
export async function pushRecipient(db: Database, profileId: number, now: number): Promise<PushRecipient | null> {
  const rows = await db
    .select({
      userId: users.id,
      language: users.language,
      siteDomain: users.siteDomain,
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(profiles)
    .innerJoin(users, and(eq(users.id, profiles.userId), accountIsLive()))
    .leftJoin(
      pushSubscriptions,
      and(
        eq(pushSubscriptions.userId, users.id),
        or(isNull(pushSubscriptions.expiresAt), gt(pushSubscriptions.expiresAt, now)),
        // A push service that asked to wait (429 Retry-After) gets nothing before then.
        or(isNull(pushSubscriptions.retryAfter), lte(pushSubscriptions.retryAfter, now)),
        sql`EXISTS (SELECT 1 FROM ${sessions} WHERE ${sessions.id} = ${pushSubscriptions.sessionId} AND ${sessionIsLive(now)})`,
      ),
    )
    .where(eq(profiles.id, profileId))
    .orderBy(desc(pushSubscriptions.id))
    .limit(MAX_BROWSERS)
    .all();
  const [first] = rows;
  if (!first) return null;
  return {
    userId: first.userId,
    language: first.language,
    siteDomain: first.siteDomain,
    subscriptions: rows.flatMap((r) =>
      r.id === null || r.endpoint === null || r.p256dh === null || r.auth === null
        ? []
        : [{ id: r.id, endpoint: r.endpoint, p256dh: r.p256dh, auth: r.auth }],
    ),
  };
}

/** The member's subscriptions for their data export: the push service and dates, never the keys. */
export async function subscriptionsForExport(db: Database, userId: number) {
  const rows = await db
    .select({
      endpoint: pushSubscriptions.endpoint,
      created_at: pushSubscriptions.createdAt,
      last_success_at: pushSubscriptions.lastSuccessAt,
      expires_at: pushSubscriptions.expiresAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(pushSubscriptions.id)
    .all();
  return rows.map(({ endpoint, ...row }) => ({ push_service: new URL(endpoint).origin, ...row }));
}

type OutgoingPush = typeof outgoingPush.$inferInsert;

export async function recordPush(db: Database, push: Omit<OutgoingPush, "id">): Promise<void> {
  await db.insert(outgoingPush).values(push);
}

/** The push outbox, newest first (development page, tests). */
export function latestPushes(db: Database, limit = 50) {
  return db.select().from(outgoingPush).orderBy(desc(outgoingPush.id)).limit(limit).all();
}
