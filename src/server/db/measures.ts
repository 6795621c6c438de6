/**
 * Graded, time-limited measures on an account (docs/decisions/0061, migration 0038): the users'
 * `chat_restricted_until`, `suspended_until` and `restricted_at`/`restricted_until` are always set
 * from the decisions in force, so starting one, ending one by its time, lifting one early and a
 * reversed appeal are all the same recomputation, run in the decision's own batch.
 */
import { and, desc, eq, isNotNull, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { Database } from "./database";
import { refreshSearchableQuery } from "./profiles";
import { appeals, moderationDecisions, photos, profiles, users } from "./schema";
import { UNTIL_LIFTED, type Measure } from "../../shared/moderation";

/** The latest end of the decisions of this measure in force for the user at `now` (UNTIL_LIFTED when one has none); NULL when none is. */
function endInForce(measure: Measure, now: number): SQL {
  // A search restriction decided before migration 0037 has no measure: its outcome says it.
  const kind =
    measure === "restrict_search"
      ? sql`(d.measure = 'restrict_search' OR (d.measure IS NULL AND d.outcome = 'restrict'))`
      : sql`d.measure = ${measure}`;
  return sql`(SELECT MAX(COALESCE(d.ends_at, ${UNTIL_LIFTED})) FROM ${moderationDecisions} d
    WHERE d.user_id = ${users.id} AND ${kind} AND d.lifted_at IS NULL
      AND (d.ends_at IS NULL OR d.ends_at > ${now})
      AND NOT EXISTS (SELECT 1 FROM ${appeals} a WHERE a.decision_id = d.id AND a.status = 'reversed'))`;
}

/** Set the member's restrictions from the decisions in force at `now`, and whether search shows them. */
export function refreshMeasuresQueries(db: Database, userId: number, now: number) {
  const search = endInForce("restrict_search", now);
  return [
    db
      .update(users)
      .set({
        chatRestrictedUntil: endInForce("restrict_chat", now),
        suspendedUntil: endInForce("suspend", now),
        restrictedAt: sql`CASE WHEN ${search} IS NULL THEN NULL ELSE COALESCE(${users.restrictedAt}, ${now}) END`,
        restrictedUntil: sql`CASE WHEN ${search} = ${UNTIL_LIFTED} THEN NULL ELSE ${search} END`,
      })
      .where(eq(users.id, userId)),
    refreshSearchableQuery(db, userId),
  ] as const;
}

/** Mark a timed decision lifted at `now` (an operator lifted it, or its appeal was reversed); guarded: once. */
export function liftDecisionQuery(db: Database, decisionId: number, now: number) {
  return db
    .update(moderationDecisions)
    .set({ liftedAt: now })
    .where(and(eq(moderationDecisions.id, decisionId), isNull(moderationDecisions.liftedAt)));
}

/** Members whose search restriction has reached its end (the five-minute clock gives them back to search). */
export function searchRestrictionsEnded(db: Database, now: number, limit = 200) {
  return db
    .select({ userId: users.id })
    .from(users)
    .where(and(isNotNull(users.restrictedAt), isNotNull(users.restrictedUntil), lte(users.restrictedUntil, now)))
    .limit(limit);
}

/** A member's restrictions as the member side enforces them. */
export function restrictionsOf(db: Database, userId: number) {
  return db
    .select({
      chatRestrictedUntil: users.chatRestrictedUntil,
      suspendedUntil: users.suspendedUntil,
      restrictedAt: users.restrictedAt,
      restrictedUntil: users.restrictedUntil,
    })
    .from(users)
    .where(eq(users.id, userId))
    .get();
}

/** What removing one photo takes, read in the decision's insert (KeptContent JSON): the photo's status and the main photo. */
export function keptPhotoSql(profileId: number, photoId: number): SQL {
  return sql`(SELECT json_object('aboutMe', NULL, 'mainPhotoId', ${profiles.mainPhotoId}, 'photos',
    json((SELECT json_group_array(json_object('id', ${photos.id}, 'status', ${photos.status})) FROM ${photos}
          WHERE ${photos.id} = ${photoId} AND ${photos.profileId} = ${profileId} AND ${photos.status} IN ('active', 'pending'))))
    FROM ${profiles} WHERE ${profiles.id} = ${profileId})`;
}

/** What removing the text takes (KeptContent JSON). */
export function keptTextSql(profileId: number): SQL {
  return sql`(SELECT json_object('aboutMe', ${profiles.aboutMe}, 'mainPhotoId', ${profiles.mainPhotoId}, 'photos', json('[]'))
    FROM ${profiles} WHERE ${profiles.id} = ${profileId})`;
}

/** Remove one photo of a profile (refused, kept in R2); the main photo goes with it when it was that one. */
export function removePhotoQueries(db: Database, profileId: number, photoId: number) {
  return [
    db
      .update(photos)
      .set({ status: "rejected" })
      .where(
        and(eq(photos.id, photoId), eq(photos.profileId, profileId), sql`${photos.status} IN ('active', 'pending')`),
      ),
    db
      .update(profiles)
      .set({ mainPhotoId: null })
      .where(and(eq(profiles.id, profileId), eq(profiles.mainPhotoId, photoId))),
  ] as const;
}

/** Remove the text about the member, and nothing else. */
export function removeTextQuery(db: Database, profileId: number) {
  return db.update(profiles).set({ aboutMe: null }).where(eq(profiles.id, profileId));
}

/** The newest decision of this outcome about a user (the one a console action just wrote). */
export function latestDecisionOf(db: Database, userId: number, outcome: string) {
  return db
    .select({ id: moderationDecisions.id })
    .from(moderationDecisions)
    .where(and(eq(moderationDecisions.userId, userId), eq(moderationDecisions.outcome, outcome)))
    .orderBy(desc(moderationDecisions.id))
    .get();
}

/** What a disabling changed, read right after its first statement (the account's status is kept in status_before_disabled by then). */
export function keptStatusAfterDisablingSql(profileId: number): SQL {
  return sql`(SELECT json_object('account', json_object('status', COALESCE(${users.statusBeforeDisabled}, ${users.status}), 'profileStatus', ${profiles.status}))
    FROM ${profiles} INNER JOIN ${users} ON ${users.id} = ${profiles.userId} WHERE ${profiles.id} = ${profileId})`;
}
