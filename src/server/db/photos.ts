/**
 * Profile photos (the photos table and the profile's main photo choice), and who may see a photo.
 */
import { and, asc, eq, exists, inArray, isNull, lt, ne, sql } from "drizzle-orm";
import type { Database } from "./database";
import { accountIsLive } from "./accounts";
import { blocks, chatPhotos, conversations, photos, profiles, users } from "./schema";
import { liveSessionViewer } from "./sessions";

export type Photo = typeof photos.$inferSelect;

/** What the upload limit needs of a member: premium or not, and the photos that count (all but rejected ones). */
export async function photoQuota(db: Database, userId: number, profileId: number) {
  return db
    .select({
      paidUser: users.paidUser,
      count: db.$count(photos, and(eq(photos.profileId, profiles.id), ne(photos.status, "rejected"))),
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.id, userId), eq(profiles.id, profileId)))
    .get();
}

/** The member's photos in their order, pending and rejected ones included. */
export async function photosOf(db: Database, profileId: number): Promise<Photo[]> {
  return db.select().from(photos).where(eq(photos.profileId, profileId)).orderBy(asc(photos.position), asc(photos.id));
}

export async function mainPhotoIdOf(db: Database, profileId: number): Promise<number | null> {
  const row = await db
    .select({ mainPhotoId: profiles.mainPhotoId })
    .from(profiles)
    .where(eq(profiles.id, profileId))
    .get();
  return row?.mainPhotoId ?? null;
}

type NewPhoto = Pick<Photo, "profileId" | "key" | "thumbKey" | "blurKey" | "width" | "height">;

/**
 * Add a pending photo at the end of the member's order, only while the member has fewer than `max`
 * photos that count (checked in the insert, which two parallel uploads cannot both pass), and make
 * it the main photo when the member has none (or only a rejected one). One batch; returns the new
 * photo's id (undefined when the limit refused it) and the main photo after it.
 */
export async function insertPhotoWithinLimit(
  db: Database,
  photo: NewPhoto,
  max: number,
): Promise<{ id: number | undefined; mainPhotoId: number | null }> {
  const { profileId, key } = photo;
  const counted = sql`(SELECT COUNT(*) FROM ${photos} WHERE ${photos.profileId} = ${profileId} AND ${photos.status} != 'rejected')`;
  const [inserted, , main] = await db.batch([
    db
      .insert(photos)
      .select(
        db
          // An insert's select names every column in the table's order: the id and created_at as their defaults would.
          .select({
            id: sql<number>`NULL`.as("id"),
            profileId: profiles.id,
            key: sql<string>`${key}`.as("key"),
            thumbKey: sql<string>`${photo.thumbKey}`.as("thumb_key"),
            blurKey: sql<string>`${photo.blurKey}`.as("blur_key"),
            status: sql<string>`'pending'`.as("status"),
            position:
              sql<number>`COALESCE((SELECT MAX(${photos.position}) FROM ${photos} WHERE ${photos.profileId} = ${profileId}), -1) + 1`.as(
                "position",
              ),
            width: sql<number>`${photo.width}`.as("width"),
            height: sql<number>`${photo.height}`.as("height"),
            createdAt: sql<number>`unixepoch()`.as("created_at"),
          })
          .from(profiles)
          .where(and(eq(profiles.id, profileId), sql`${counted} < ${max}`)),
      )
      .returning({ id: photos.id }),
    // The first photo, or the first after the main one was rejected, becomes the main photo.
    db
      .update(profiles)
      .set({ mainPhotoId: sql`(SELECT ${photos.id} FROM ${photos} WHERE ${photos.key} = ${key})` })
      .where(
        and(
          eq(profiles.id, profileId),
          sql`EXISTS (SELECT 1 FROM ${photos} WHERE ${photos.key} = ${key})`,
          sql`(${profiles.mainPhotoId} IS NULL OR ${profiles.mainPhotoId} NOT IN (SELECT ${photos.id} FROM ${photos} WHERE ${photos.profileId} = ${profileId} AND ${photos.status} != 'rejected'))`,
        ),
      ),
    db.select({ mainPhotoId: profiles.mainPhotoId }).from(profiles).where(eq(profiles.id, profileId)),
  ]);
  return { id: inserted[0]?.id, mainPhotoId: main[0]?.mainPhotoId ?? null };
}

export async function ownPhoto(db: Database, profileId: number, photoId: number): Promise<Photo | undefined> {
  return db
    .select()
    .from(photos)
    .where(and(eq(photos.id, photoId), eq(photos.profileId, profileId)))
    .get();
}

/** Remove a photo's row, and the main photo choice if it was that one. */
export async function deletePhotoRow(db: Database, profileId: number, photoId: number): Promise<void> {
  await db.batch([
    db
      .update(profiles)
      .set({ mainPhotoId: null })
      .where(and(eq(profiles.id, profileId), eq(profiles.mainPhotoId, photoId))),
    db.delete(photos).where(and(eq(photos.id, photoId), eq(photos.profileId, profileId))),
  ]);
}

/** Make one of the member's own photos (not a rejected one) the main photo; false when there is no such photo. */
export async function setMainPhoto(db: Database, profileId: number, photoId: number): Promise<boolean> {
  const own = db
    .select({ one: sql`1` })
    .from(photos)
    .where(and(eq(photos.id, photoId), eq(photos.profileId, profileId), ne(photos.status, "rejected")));
  const result = await db
    .update(profiles)
    .set({ mainPhotoId: photoId })
    .where(and(eq(profiles.id, profileId), exists(own)));
  return result.meta.changes > 0;
}

export async function photoIdsInOrder(db: Database, profileId: number): Promise<number[]> {
  const rows = await db
    .select({ id: photos.id })
    .from(photos)
    .where(eq(photos.profileId, profileId))
    .orderBy(asc(photos.position), asc(photos.id));
  return rows.map((r) => r.id);
}

/** Rewrite the positions of a member's photos to this order, in one batch. */
export async function setPhotoOrder(db: Database, profileId: number, order: number[]): Promise<void> {
  const [first, ...rest] = order.map((id, index) =>
    db
      .update(photos)
      .set({ position: index })
      .where(and(eq(photos.id, id), eq(photos.profileId, profileId))),
  );
  if (first) await db.batch([first, ...rest]);
}

/**
 * The photo behind a media key of one variant (`key`, `thumbKey` or `blurKey`), with what access needs
 * of its profile. A deleted account's photos go with its profile: its profile counts as not active.
 */
export async function photoByObjectKey(db: Database, variant: "key" | "thumbKey" | "blurKey", objectKey: string) {
  return db
    .select({
      id: photos.id,
      status: photos.status,
      profileId: photos.profileId,
      mainPhotoId: profiles.mainPhotoId,
      profileStatus: sql<string>`CASE WHEN ${accountIsLive()} THEN ${profiles.status} ELSE 'gone' END`,
    })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(photos[variant], objectKey))
    .get();
}

/** A photo a member uploaded to send in a chat. */
export async function insertChatPhoto(
  db: Database,
  photo: { profileId: number; key: string; thumbKey: string; blurKey: string; width: number; height: number },
): Promise<number> {
  const [row] = await db.insert(chatPhotos).values(photo).returning({ id: chatPhotos.id });
  return row!.id;
}

type ChatPhotoRow = typeof chatPhotos.$inferSelect;

/** A chat photo the member may send: their own. */
export async function ownChatPhoto(
  db: Database,
  photoId: number,
  profileId: number,
): Promise<ChatPhotoRow | undefined> {
  const [row] = await db
    .select()
    .from(chatPhotos)
    .where(and(eq(chatPhotos.id, photoId), eq(chatPhotos.profileId, profileId)));
  return row;
}

/** Remove the chat photos uploaded before `before` and never sent; returns their R2 keys. */
export async function deleteUnsentChatPhotos(db: Database, before: number) {
  return db
    .delete(chatPhotos)
    .where(and(lt(chatPhotos.createdAt, before), isNull(chatPhotos.sentInConversationId)))
    .returning({ key: chatPhotos.key, thumbKey: chatPhotos.thumbKey, blurKey: chatPhotos.blurKey });
}

/**
 * What chat photo access needs, in one query: the live session's profile and premium flag, the
 * photo's sender, whether the sender blocked the viewer, and whether it was sent and the viewer has a
 * conversation with its sender. Undefined when the session is not live or there is no such photo.
 */
export async function chatPhotoViewer(
  db: Database,
  sessionId: string,
  userId: number,
  variant: "key" | "thumbKey" | "blurKey",
  objectKey: string,
) {
  const viewer = liveSessionViewer(db, sessionId, userId);
  return db
    .select({
      profileId: viewer.viewerProfileId,
      premium: sql<boolean>`${viewer.viewerPremium}`.mapWith(Boolean),
      owner: chatPhotos.profileId,
      blocked: exists(
        db
          .select({ one: sql`1` })
          .from(blocks)
          .where(and(eq(blocks.blockerId, chatPhotos.profileId), eq(blocks.blockedId, viewer.viewerProfileId))),
      ).mapWith(Boolean),
      photoId: chatPhotos.id,
      // Sent, and to a member the viewer has a conversation with; whether it was this one, the
      // conversation's object knows (it keeps the messages).
      sentToPair:
        sql<boolean>`${chatPhotos.sentInConversationId} IS NOT NULL AND EXISTS (SELECT 1 FROM ${conversations} c
        WHERE c.profile_a = MIN(${chatPhotos.profileId}, ${viewer.viewerProfileId}) AND c.profile_b = MAX(${chatPhotos.profileId}, ${viewer.viewerProfileId}))`.mapWith(
          Boolean,
        ),
    })
    .from(chatPhotos)
    .innerJoin(viewer, sql`1`)
    .where(eq(chatPhotos[variant], objectKey))
    .get();
}

/** The R2 objects of the photos of these accounts, on their profiles and sent in chats (for their erasure). */
export function photoObjectsOfAccounts(db: Database, userIds: number[]) {
  return db
    .select({ key: photos.key, thumbKey: photos.thumbKey, blurKey: photos.blurKey })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .where(inArray(profiles.userId, userIds))
    .unionAll(
      db
        .select({ key: chatPhotos.key, thumbKey: chatPhotos.thumbKey, blurKey: chatPhotos.blurKey })
        .from(chatPhotos)
        .innerJoin(profiles, eq(profiles.id, chatPhotos.profileId))
        .where(inArray(profiles.userId, userIds)),
    );
}
