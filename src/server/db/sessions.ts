/**
 * Sessions: the rows the session cookies name. Logout, a password change and account deletion revoke
 * them, so a stolen or old cookie stops working at once. "Revoke a member's sessions" is written here once.
 */
import { and, desc, eq, exists, gt, gte, inArray, isNull, lte, ne, or, sql, type SQLWrapper } from "drizzle-orm";
import { accountIsLive } from "./accounts";
import type { Database } from "./database";
import { blocks, profiles, sessions, users } from "./schema";

type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(
  db: Database,
  session: Pick<SessionRow, "id" | "publicId" | "userId" | "createdAt" | "expiresAt" | "device">,
): Promise<void> {
  await db.insert(sessions).values({ ...session, lastUsedAt: session.createdAt });
}

/** A member's live sessions for the sessions list, last used first: the public id only, never the row id. */
export async function liveSessionsOf(db: Database, userId: number) {
  return db
    .select({
      publicId: sessions.publicId,
      device: sessions.device,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), sessionIsLive()))
    .orderBy(
      desc(sql`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})`),
      desc(sessions.createdAt),
      desc(sql`rowid`),
    );
}

/**
 * End one of a member's sessions by its public id, never the session making the call (logout does
 * that). Returns whether a live session of that member was ended.
 */
export async function revokeSessionByPublicId(
  db: Database,
  userId: number,
  publicId: string,
  currentSessionId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.publicId, publicId),
        eq(sessions.userId, userId),
        ne(sessions.id, currentSessionId),
        isNull(sessions.revokedAt),
      ),
    );
  return result.meta.changes > 0;
}

/** End every live session of a member except the one making the call ("log out everywhere else"). Returns the public ids of those ended. */
export async function revokeOtherSessions(
  db: Database,
  userId: number,
  currentSessionId: string,
  now: number,
): Promise<string[]> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId), isNull(sessions.revokedAt)))
    .returning({ publicId: sessions.publicId });
  return ended.flatMap((row) => (row.publicId === null ? [] : [row.publicId]));
}

/** Record that a session was used now, unless that was written less than `everySeconds` ago (a page view is not a D1 write). */
export async function touchSession(db: Database, sessionId: string, now: number, everySeconds: number): Promise<void> {
  await db
    .update(sessions)
    .set({ lastUsedAt: now })
    .where(
      and(eq(sessions.id, sessionId), or(isNull(sessions.lastUsedAt), lte(sessions.lastUsedAt, now - everySeconds))),
    );
}

/**
 * Revoke every live session of a member (password change, reset, deletion): the statement, to run
 * alone or in the batch of the change that ends them. `member` is the user id, or a subquery naming it.
 */
export function revokeMemberSessions(db: Database, member: number | SQLWrapper, now: number) {
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        typeof member === "number" ? eq(sessions.userId, member) : inArray(sessions.userId, member),
        isNull(sessions.revokedAt),
      ),
    );
}

/**
 * The public ids of a member's sessions revoked at `since` or later: those a change that ended them
 * all (a password change or reset, a deletion) must close the sockets of, found after its write, so
 * a login that raced the change is not missed.
 */
export async function sessionsRevokedSince(db: Database, userId: number, since: number): Promise<string[]> {
  const rows = await db
    .select({ publicId: sessions.publicId })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gte(sessions.revokedAt, since)));
  return rows.flatMap((row) => (row.publicId === null ? [] : [row.publicId]));
}

/**
 * Whether the session with this public id is still live for its member (not revoked, not expired at
 * `now`, the account live): the check a conversation's object makes of a socket's session.
 */
export async function publicSessionIsLive(
  db: Database,
  publicId: string,
  userId: number,
  now: number,
): Promise<boolean> {
  const row = await db
    .select({ one: sql`1` })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.publicId, publicId), eq(sessions.userId, userId), sessionIsLive(now), accountIsLive()))
    .get();
  return row !== undefined;
}

/** Revoke one session (logout). */
export async function revokeSession(db: Database, userId: number, sessionId: string, now: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/**
 * The one test of a live session, for every query that trusts a cookie: the row is the cookie's,
 * not revoked, not expired, and its account live. Join users and profiles as `liveSessionOf` does.
 */
function liveSession(sessionId: string, userId: number) {
  return and(eq(sessions.id, sessionId), eq(sessions.userId, userId), sessionIsLive(), accountIsLive());
}

/** The session row is neither revoked nor expired (at `now`, or the database's clock). */
export function sessionIsLive(now: number | SQLWrapper = sql`unixepoch()`) {
  return and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now));
}

/** The signed-in member behind a session cookie's claims, or undefined when the session is not live. */
export async function liveSessionMember(db: Database, sessionId: string, userId: number) {
  return db
    .select({
      status: users.status,
      profileId: profiles.id,
      gender: profiles.gender,
      sexuality: profiles.sexuality,
      country: profiles.country,
      publicId: sessions.publicId,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(liveSession(sessionId, userId))
    .get();
}

/**
 * Who asks for a photo that is not public, in one query: the live session's profile, whether they
 * are premium, and whether `ownerProfileId` blocked them.
 */
export async function photoViewer(db: Database, sessionId: string, userId: number, ownerProfileId: number) {
  return db
    .select({
      profileId: profiles.id,
      premium: users.paidUser,
      blocked: exists(
        db
          .select({ one: sql`1` })
          .from(blocks)
          .where(and(eq(blocks.blockerId, ownerProfileId), eq(blocks.blockedId, profiles.id))),
      ).mapWith(Boolean),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(liveSession(sessionId, userId))
    .get();
}

/** The live session's profile and premium flag, as a subquery `v` to join other reads to. */
export function liveSessionViewer(db: Database, sessionId: string, userId: number) {
  return db
    .select({
      viewerProfileId: sql<number>`${profiles.id}`.as("viewer_profile_id"),
      viewerPremium: sql<number>`${users.paidUser}`.as("viewer_paid_user"),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(liveSession(sessionId, userId))
    .as("v");
}
