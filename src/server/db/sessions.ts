/**
 * Sessions: the rows the session cookies name. Logout, a password change and account deletion revoke
 * them, so a stolen or old cookie stops working at once. "Revoke a member's sessions" is written here once.
 */
import { and, eq, exists, gt, inArray, isNull, sql, type SQLWrapper } from "drizzle-orm";
import { accountIsLive } from "./accounts";
import type { Database } from "./database";
import { blocks, profiles, sessions, users } from "./schema";

type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(db: Database, session: Pick<SessionRow, "id" | "userId" | "createdAt" | "expiresAt">): Promise<void> {
  await db.insert(sessions).values(session);
}

/**
 * Revoke every live session of a member (password change, reset, deletion): the statement, to run
 * alone or in the batch of the change that ends them. `member` is the user id, or a subquery naming it.
 */
export function revokeMemberSessions(db: Database, member: number | SQLWrapper, now: number) {
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(typeof member === "number" ? eq(sessions.userId, member) : inArray(sessions.userId, member), isNull(sessions.revokedAt)));
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
    .select({ status: users.status, profileId: profiles.id, gender: profiles.gender, sexuality: profiles.sexuality, country: profiles.country })
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
    .select({ viewerProfileId: sql<number>`${profiles.id}`.as("viewer_profile_id"), viewerPremium: sql<number>`${users.paidUser}`.as("viewer_paid_user") })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(liveSession(sessionId, userId))
    .as("v");
}
