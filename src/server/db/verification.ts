/**
 * Verification selfies, their decisions and the badge (docs/decisions/0040). The rules that must
 * hold however many requests race (one waiting selfie per member, three a day, never a fictional
 * profile, the badge only with the main photo the moderator saw) are conditions of the writes.
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import {
  SELFIE_RETENTION_DAYS,
  VERIFICATION_ATTEMPTS_PER_DAY,
  VERIFICATION_NEW_POSES_PER_DAY,
  VERIFICATION_POSE_SECONDS,
} from "../../shared/verification";
import type { Statement } from "./audit-log";
import type { Database } from "./database";
import {
  conversations,
  moderationDecisions,
  photos,
  profiles,
  users,
  verificationPoses,
  verifications,
} from "./schema";

export type Verification = typeof verifications.$inferSelect;

const DAY = 86_400;

/**
 * Whether a profile carries the verified badge now (docs/decisions/0049): approved by a moderator
 * beside its main photo, and that main photo is public (approved) now. The one condition every read
 * of the badge uses (profile, cards, chats, search's filter, the verified-only rule); without an
 * approved main photo the badge pauses.
 */
export function badgeShows() {
  return sql<number>`(${profiles.verified} = 1 AND ${profiles.hasPhoto} = 1)`.mapWith(Boolean);
}

/** The member's latest drawn pose: the one a selfie is accepted for while unused and live. */
const latestPose = (profileId: number) =>
  sql`(SELECT MAX(${verificationPoses.id}) FROM ${verificationPoses} WHERE ${verificationPoses.profileId} = ${profileId})`;

/** Other poses the member asked for in the 24 hours before `now`. */
const posesAsked = (db: Database, profileId: number, now: number) =>
  db.$count(
    verificationPoses,
    and(
      eq(verificationPoses.profileId, profileId),
      eq(verificationPoses.asked, true),
      gte(verificationPoses.drawnAt, now - DAY),
    ),
  );

/** What a member's state needs: their profile's badge, their setting, their last verification and today's attempts. */
export async function verificationStanding(db: Database, userId: number, profileId: number, now: number) {
  const [standing, last, pose] = await db.batch([
    db
      .select({
        verified: profiles.verified,
        hasPhoto: sql<number>`${profiles.hasPhoto}`.mapWith(Boolean),
        verifiedPhotoId: profiles.verifiedPhotoId,
        mainPhotoId: profiles.mainPhotoId,
        fictional: profiles.fictional,
        verifiedOnly: users.verifiedOnly,
        attempts: db.$count(
          verifications,
          and(
            eq(verifications.profileId, profileId),
            eq(verifications.kind, "selfie"),
            gte(verifications.askedAt, now - DAY),
          ),
        ),
        posesAsked: posesAsked(db, profileId, now),
      })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(and(eq(profiles.id, profileId), eq(users.id, userId))),
    db
      .select()
      .from(verifications)
      .where(eq(verifications.profileId, profileId))
      .orderBy(desc(verifications.id))
      .limit(1),
    db
      .select()
      .from(verificationPoses)
      .where(eq(verificationPoses.profileId, profileId))
      .orderBy(desc(verificationPoses.id))
      .limit(1),
  ]);
  return standing[0] ? { ...standing[0], last: last[0] ?? null, pose: pose[0] ?? null } : undefined;
}

export type DrawnPose = typeof verificationPoses.$inferSelect;

/** Whether a drawn pose is still the one to take at `now`. */
export const poseIsLive = (pose: DrawnPose | null, now: number): pose is DrawnPose =>
  pose !== null && pose.usedAt === null && now < pose.drawnAt + VERIFICATION_POSE_SECONDS;

/**
 * Keep `pose` as the member's pose unless one is live already (however many requests race, one
 * pose is drawn). Answers whether it was kept.
 */
export async function keepPose(db: Database, profileId: number, pose: string, now: number): Promise<boolean> {
  const result = await db.run(sql`INSERT INTO ${verificationPoses} (profile_id, pose, drawn_at, asked)
    SELECT ${profileId}, ${pose}, ${now}, 0
    WHERE NOT EXISTS (SELECT 1 FROM ${verificationPoses} WHERE ${verificationPoses.id} = ${latestPose(profileId)}
      AND ${verificationPoses.usedAt} IS NULL AND ${verificationPoses.drawnAt} > ${now - VERIFICATION_POSE_SECONDS})`);
  return result.meta.changes > 0;
}

/**
 * Another pose the member asked for, kept while they asked for fewer than
 * VERIFICATION_NEW_POSES_PER_DAY in the last 24 hours (a condition of the insert, so racing requests
 * keep no more). Answers whether it was kept.
 */
export async function keepAskedPose(db: Database, profileId: number, pose: string, now: number): Promise<boolean> {
  const result = await db.run(sql`INSERT INTO ${verificationPoses} (profile_id, pose, drawn_at, asked)
    SELECT ${profileId}, ${pose}, ${now}, 1
    WHERE (${posesAsked(db, profileId, now)}) < ${VERIFICATION_NEW_POSES_PER_DAY}`);
  return result.meta.changes > 0;
}

/**
 * A new selfie, waiting for a moderator: stored only while the profile is not fictional, not
 * verified, has no selfie waiting, sent fewer than VERIFICATION_ATTEMPTS_PER_DAY in the last 24
 * hours and `pose` is its live drawn pose, which the same batch marks used. The photo recorded is
 * the main photo only while it is approved (what a moderator is shown). Answers whether it was stored.
 */
export async function insertSelfie(
  db: Database,
  s: { profileId: number; siteDomain: string; pose: string; selfieKey: string; now: number },
): Promise<boolean> {
  const attempts = db.$count(
    verifications,
    and(
      eq(verifications.profileId, s.profileId),
      eq(verifications.kind, "selfie"),
      gte(verifications.askedAt, s.now - DAY),
    ),
  );
  const [result] = await db.batch([
    db
      .insert(verifications)
      .select(
        // An insert's select names every column in the table's order.
        db
          .select({
            id: sql<number>`NULL`.as("id"),
            profileId: profiles.id,
            siteDomain: sql<string>`${s.siteDomain}`.as("site_domain"),
            kind: sql<string>`'selfie'`.as("kind"),
            pose: sql<string>`${s.pose}`.as("pose"),
            selfieKey: sql<string>`${s.selfieKey}`.as("selfie_key"),
            photoId: sql<number | null>`CASE WHEN ${profiles.hasPhoto} = 1 THEN ${profiles.mainPhotoId} END`.as(
              "photo_id",
            ),
            status: sql<string>`'pending'`.as("status"),
            reason: sql<null>`NULL`.as("reason"),
            askedAt: sql<number>`${s.now}`.as("asked_at"),
            decidedAt: sql<null>`NULL`.as("decided_at"),
            decidedBy: sql<null>`NULL`.as("decided_by"),
          })
          .from(profiles)
          .where(
            sql`${profiles.id} = ${s.profileId} AND ${profiles.fictional} = 0 AND ${profiles.verified} = 0 AND ${profiles.status} = 'active'
      AND (${attempts}) < ${VERIFICATION_ATTEMPTS_PER_DAY}
      AND EXISTS (SELECT 1 FROM ${verificationPoses} WHERE ${verificationPoses.id} = ${latestPose(s.profileId)}
        AND ${verificationPoses.pose} = ${s.pose} AND ${verificationPoses.usedAt} IS NULL
        AND ${verificationPoses.drawnAt} > ${s.now - VERIFICATION_POSE_SECONDS})`,
          ),
      )
      .onConflictDoNothing(),
    db
      .update(verificationPoses)
      .set({ usedAt: s.now })
      .where(
        and(
          eq(verificationPoses.profileId, s.profileId),
          isNull(verificationPoses.usedAt),
          sql`EXISTS (SELECT 1 FROM ${verifications} WHERE ${verifications.selfieKey} = ${s.selfieKey})`,
        ),
      ),
  ]);
  return result.meta.changes > 0;
}

/** Where the main photo of a verified member is not the one the moderator saw: the badge goes, and a photo check waits when the selfie is still kept. */
export async function suspendBadgeOnNewMainPhoto(db: Database, profileId: number, now: number): Promise<boolean> {
  const unseen = and(
    eq(profiles.id, profileId),
    eq(profiles.verified, true),
    sql`${profiles.mainPhotoId} IS NOT ${profiles.verifiedPhotoId}`,
  );
  const [, suspended] = await db.batch([
    // First, while the badge still shows: the approved selfie beside the new main photo, for a moderator.
    db.insert(verifications).select(
      db
        // An insert's select names every column in the table's order.
        .select({
          id: sql<number>`NULL`.as("id"),
          profileId: verifications.profileId,
          siteDomain: verifications.siteDomain,
          kind: sql<string>`'photo_check'`.as("kind"),
          pose: verifications.pose,
          selfieKey: verifications.selfieKey,
          photoId: sql<number | null>`CASE WHEN ${profiles.hasPhoto} = 1 THEN ${profiles.mainPhotoId} END`.as(
            "photo_id",
          ),
          status: sql<string>`'pending'`.as("status"),
          reason: sql<null>`NULL`.as("reason"),
          askedAt: sql<number>`${now}`.as("asked_at"),
          decidedAt: sql<null>`NULL`.as("decided_at"),
          decidedBy: sql<null>`NULL`.as("decided_by"),
        })
        .from(verifications)
        .innerJoin(profiles, eq(profiles.id, verifications.profileId))
        .where(
          and(
            unseen,
            eq(verifications.profileId, profileId),
            eq(verifications.status, "approved"),
            isNotNull(verifications.selfieKey),
            isNotNull(profiles.mainPhotoId),
            sql`NOT EXISTS (SELECT 1 FROM ${verifications} w WHERE w.profile_id = ${profileId} AND w.status = 'pending')`,
          ),
        )
        .orderBy(desc(verifications.id))
        .limit(1),
    ),
    db.update(profiles).set({ verified: false }).where(unseen),
  ]);
  return suspended.meta.changes > 0;
}

/** The waiting verifications, oldest first, with what a moderator needs beside each. */
export async function verificationQueue(db: Database, limit: number, offset = 0) {
  return db
    .select({
      id: verifications.id,
      kind: verifications.kind,
      pose: verifications.pose,
      selfieKey: verifications.selfieKey,
      askedAt: verifications.askedAt,
      siteDomain: verifications.siteDomain,
      profileId: profiles.id,
      name: profiles.name,
      fictional: profiles.fictional,
      mainPhotoId: profiles.mainPhotoId,
    })
    .from(verifications)
    .innerJoin(profiles, eq(profiles.id, verifications.profileId))
    .where(eq(verifications.status, "pending"))
    .orderBy(asc(verifications.askedAt), asc(verifications.id))
    .limit(limit)
    .offset(offset);
}

/** How many verifications wait, counted as verificationQueue lists them. */
export async function countVerificationQueue(db: Database): Promise<number> {
  const row = await db
    .select({ count: sql<number>`count(*)` })
    .from(verifications)
    .innerJoin(profiles, eq(profiles.id, verifications.profileId))
    .where(eq(verifications.status, "pending"))
    .get();
  return row?.count ?? 0;
}

/** A verification with its profile's main photo now. */
export async function verificationById(db: Database, id: number) {
  return db
    .select({
      verification: verifications,
      mainPhotoId: profiles.mainPhotoId,
      hasPhoto: sql<number>`${profiles.hasPhoto}`.mapWith(Boolean),
      fictional: profiles.fictional,
      name: profiles.name,
      userId: profiles.userId,
    })
    .from(verifications)
    .innerJoin(profiles, eq(profiles.id, verifications.profileId))
    .where(eq(verifications.id, id))
    .get();
}

/** The public photos beside a selfie: the member's active photos, main first. */
export async function publicPhotosOf(db: Database, profileId: number) {
  return db
    .select({ id: photos.id, key: photos.key, thumbKey: photos.thumbKey })
    .from(photos)
    .where(and(eq(photos.profileId, profileId), eq(photos.status, "active")))
    .orderBy(asc(photos.position), asc(photos.id));
}

/**
 * The statements of a moderator's decision on a waiting verification, the guarded one first (it
 * holds only while the verification waits: the first decision wins). An approval holds only for the
 * photo the moderator was shown (`seenPhotoId`) while it is still the member's approved main photo
 * (docs/decisions/0049); it records that photo and gives the badge for it, never to a fictional profile.
 */
export function verificationDecisionStatements(
  db: Database,
  d: {
    id: number;
    profileId: number;
    approve: boolean;
    reason: string | null;
    operator: string;
    seenPhotoId: number | null;
    now: number;
  },
): [Statement, ...Statement[]] {
  const seenIsApprovedMain =
    d.seenPhotoId === null
      ? sql`0`
      : sql`EXISTS (SELECT 1 FROM ${photos} INNER JOIN ${profiles} ON ${profiles.mainPhotoId} = ${photos.id}
          WHERE ${photos.id} = ${d.seenPhotoId} AND ${photos.profileId} = ${d.profileId} AND ${photos.status} = 'active'
            AND ${profiles.id} = ${d.profileId})`;
  const decide = db
    .update(verifications)
    .set({
      status: d.approve ? "approved" : "rejected",
      reason: d.approve ? null : d.reason,
      decidedAt: d.now,
      decidedBy: d.operator,
      ...(d.approve ? { photoId: d.seenPhotoId } : {}),
    })
    .where(
      and(
        eq(verifications.id, d.id),
        eq(verifications.profileId, d.profileId),
        eq(verifications.status, "pending"),
        sql`EXISTS (SELECT 1 FROM ${profiles} WHERE ${profiles.id} = ${d.profileId} AND ${profiles.fictional} = 0)`,
        d.approve ? seenIsApprovedMain : undefined,
      ),
    );
  if (!d.approve) return [decide];
  return [
    decide,
    db
      .update(profiles)
      .set({ verified: sql`${profiles.mainPhotoId} IS ${d.seenPhotoId}`, verifiedPhotoId: d.seenPhotoId })
      .where(
        and(
          eq(profiles.id, d.profileId),
          eq(profiles.fictional, false),
          sql`EXISTS (SELECT 1 FROM ${verifications} WHERE ${verifications.id} = ${d.id} AND ${verifications.status} = 'approved' AND ${verifications.decidedAt} = ${d.now} AND ${verifications.decidedBy} = ${d.operator})`,
        ),
      ),
  ];
}

/** Selfies decided more than SELFIE_RETENTION_DAYS ago whose object is still kept (none a waiting check still needs), oldest first. */
export async function selfiesPastRetention(
  db: Database,
  now: number,
  batch: number,
): Promise<{ id: number; selfieKey: string }[]> {
  const rows = await db
    .select({ id: verifications.id, selfieKey: verifications.selfieKey })
    .from(verifications)
    .where(
      and(
        isNotNull(verifications.selfieKey),
        lt(verifications.decidedAt, now - SELFIE_RETENTION_DAYS * DAY),
        sql`NOT EXISTS (SELECT 1 FROM ${verifications} w WHERE w.selfie_key = ${verifications.selfieKey} AND w.status = 'pending')`,
      ),
    )
    .orderBy(asc(verifications.decidedAt))
    .limit(batch);
  return rows.flatMap((r) => (r.selfieKey ? [{ id: r.id, selfieKey: r.selfieKey }] : []));
}

/** The selfie objects are gone: their rows keep the decision without the key. */
export async function forgetSelfies(db: Database, keys: string[]): Promise<void> {
  if (keys.length)
    await db.update(verifications).set({ selfieKey: null }).where(inArray(verifications.selfieKey, keys));
}

/** Every selfie object of these accounts, for their erasure. */
export async function selfieKeysOfAccounts(db: Database, userIds: number[]): Promise<string[]> {
  if (!userIds.length) return [];
  const rows = await db
    .selectDistinct({ key: verifications.selfieKey })
    .from(verifications)
    .innerJoin(profiles, eq(profiles.id, verifications.profileId))
    .where(and(inArray(profiles.userId, userIds), isNotNull(verifications.selfieKey)));
  return rows.flatMap((r) => (r.key ? [r.key] : []));
}

/** The member's "only verified members may write to me". */
export async function setVerifiedOnly(db: Database, userId: number, on: boolean): Promise<void> {
  await db.update(users).set({ verifiedOnly: on }).where(eq(users.id, userId));
}

/** What the first-message rule needs of a pair (docs/decisions/0040). */
export type VerificationGate = {
  senderVerified: boolean;
  recipientVerifiedOnly: boolean;
  conversationStarted: boolean;
};

/**
 * What the first-message rule needs of a pair: whether the sender carries the badge, whether the
 * recipient takes first messages from verified members only, whether the pair has a conversation
 * with a message. One read beside the send facts (kept out of the chat ledger's read on purpose).
 */
export async function verificationGate(
  db: Database,
  senderProfileId: number,
  recipientProfileId: number,
): Promise<VerificationGate> {
  const [a, b] =
    senderProfileId < recipientProfileId
      ? [senderProfileId, recipientProfileId]
      : [recipientProfileId, senderProfileId];
  const row = await db
    .select({
      senderVerified:
        sql<number>`(SELECT ${badgeShows()} FROM ${profiles} WHERE ${profiles.id} = ${senderProfileId})`.mapWith(
          Boolean,
        ),
      recipientVerifiedOnly: users.verifiedOnly,
      // EXISTS over another table: the builder has no words for it inside a select.
      conversationStarted:
        sql<number>`EXISTS (SELECT 1 FROM ${conversations} WHERE ${conversations.profileA} = ${a} AND ${conversations.profileB} = ${b} AND ${conversations.lastMessageId} IS NOT NULL)`.mapWith(
          Boolean,
        ),
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, recipientProfileId))
    .get();
  return {
    senderVerified: row?.senderVerified === true,
    recipientVerifiedOnly: row?.recipientVerifiedOnly === true,
    conversationStarted: row?.conversationStarted === true,
  };
}

/** Verifications asked from `from` (unix seconds) on, with their decisions, for the figures. */
export async function verificationsSince(db: Database, from: number) {
  return db
    .select({
      siteDomain: verifications.siteDomain,
      kind: verifications.kind,
      status: verifications.status,
      askedAt: verifications.askedAt,
      decidedAt: verifications.decidedAt,
    })
    .from(verifications)
    .where(sql`${verifications.askedAt} >= ${from} OR ${verifications.decidedAt} >= ${from}`);
}

/** The statement of a verification rejected at `at` for this member (to mail it after its batch). */
export async function verificationDecisionOf(db: Database, userId: number, at: number) {
  return db
    .select()
    .from(moderationDecisions)
    .where(
      and(
        eq(moderationDecisions.userId, userId),
        eq(moderationDecisions.source, "verification"),
        eq(moderationDecisions.createdAt, at),
      ),
    )
    .orderBy(desc(moderationDecisions.id))
    .get();
}
