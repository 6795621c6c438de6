/**
 * A member's own photos (SPEC §3 main_image, §5 limits, §6 entitlement): upload, list, choose the
 * main photo, delete. Each photo is three R2 objects (original, thumbnail, blurred), all JPEG made
 * on the server (see images.ts), under independent unguessable keys, and one row of `photos`. A new
 * photo is `pending` until moderation makes it `active`; only active photos are shown to others.
 *
 * An upload either stores all of it or nothing: objects already put are deleted again when a later
 * step fails, and the row goes in with its limit check in one statement.
 */
import { FREE_PHOTO_LIMIT, type OwnPhoto, PREMIUM_PHOTO_LIMIT } from "../../shared/photos";
import { AppError } from "../errors";
import { processPhoto, type ProcessedPhoto } from "./images";

export type PhotoStore = { db: D1Database; bucket: R2Bucket };

type PhotoRow = { id: number; status: string; key: string; thumb_key: string; blur_key: string; width: number; height: number };

function photoLimit(paidUser: boolean): number {
  return paidUser ? PREMIUM_PHOTO_LIMIT : FREE_PHOTO_LIMIT;
}

/** A fresh object key: the variant's prefix (with a `c` before it for chat photos) and 128 random bits. */
export function newPhotoKey(variant: "p" | "t" | "b" | "cp" | "ct" | "cb"): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${variant}/${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}.jpg`;
}

function ownPhoto(row: PhotoRow, mainPhotoId: number | null, prefix: string): OwnPhoto {
  const visible = row.status !== "rejected";
  return {
    id: row.id,
    status: row.status,
    thumb: visible ? prefix + row.thumb_key : null,
    image: visible ? prefix + row.key : null,
    main: row.id === mainPhotoId,
    width: row.width,
    height: row.height,
  };
}

const limitError = (max: number) => new AppError(400, "photo_limit", "errors.photo_limit", { max }, "photo");
const notFound = () => new AppError(404, "not_found", "errors.photo_not_found", {}, "photo_id");

/** What the upload limit needs of a member: premium or not, and the photos that count (all but rejected ones). */
async function member(db: D1Database, userId: number, profileId: number): Promise<{ paid: boolean; count: number }> {
  const row = await db
    .prepare(
      `SELECT u.paid_user, (SELECT COUNT(*) FROM photos WHERE profile_id = p.id AND status != 'rejected') AS count
       FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ? AND p.id = ?`,
    )
    .bind(userId, profileId)
    .first<{ paid_user: number; count: number }>();
  if (!row) throw new AppError(403, "authentication_required", "errors.authentication_required");
  return { paid: row.paid_user === 1, count: row.count };
}

/** The member's photos in their order, pending and rejected ones included, with the upload limit. */
export async function listOwnPhotos(db: D1Database, userId: number, profileId: number, prefix: string): Promise<{ photos: OwnPhoto[]; limit: number }> {
  const [{ paid }, rows, profile] = await Promise.all([
    member(db, userId, profileId),
    db
      .prepare("SELECT id, status, key, thumb_key, blur_key, width, height FROM photos WHERE profile_id = ? ORDER BY position, id")
      .bind(profileId)
      .all<PhotoRow>(),
    db.prepare("SELECT main_photo_id FROM profiles WHERE id = ?").bind(profileId).first<{ main_photo_id: number | null }>(),
  ]);
  const mainPhotoId = profile?.main_photo_id ?? null;
  return { photos: rows.results.map((row) => ownPhoto(row, mainPhotoId, prefix)), limit: photoLimit(paid) };
}

/**
 * Store an upload for a member: checked and remade (images.ts), put to R2, then its row, as the main
 * photo when the member has none. Throws the member's error (type, size, pixels, limit) with nothing
 * stored.
 */
export async function uploadPhoto(store: PhotoStore, userId: number, profileId: number, bytes: Uint8Array, prefix: string): Promise<OwnPhoto> {
  const { paid, count } = await member(store.db, userId, profileId);
  const max = photoLimit(paid);
  // Refused before any decoding work; checked again in the insert, which two parallel uploads cannot both pass.
  if (count >= max) throw limitError(max);

  const processed = await processPhoto(bytes);
  const keys = { key: newPhotoKey("p"), thumbKey: newPhotoKey("t"), blurKey: newPhotoKey("b") };
  return storeVariants(store.bucket, processed, keys, async () => {
    const [inserted, , main] = await store.db.batch([
      store.db
        .prepare(
          `INSERT INTO photos (profile_id, key, thumb_key, blur_key, status, position, width, height)
           SELECT ?1, ?2, ?3, ?4, 'pending', COALESCE((SELECT MAX(position) FROM photos WHERE profile_id = ?1), -1) + 1, ?5, ?6
           WHERE (SELECT COUNT(*) FROM photos WHERE profile_id = ?1 AND status != 'rejected') < ?7
           RETURNING id`,
        )
        .bind(profileId, keys.key, keys.thumbKey, keys.blurKey, processed.width, processed.height, max),
      // The first photo, or the first after the main one was rejected, becomes the main photo.
      store.db
        .prepare(
          `UPDATE profiles SET main_photo_id = (SELECT id FROM photos WHERE key = ?2)
           WHERE id = ?1 AND EXISTS (SELECT 1 FROM photos WHERE key = ?2)
             AND (main_photo_id IS NULL OR main_photo_id NOT IN (SELECT id FROM photos WHERE profile_id = ?1 AND status != 'rejected'))`,
        )
        .bind(profileId, keys.key),
      store.db.prepare("SELECT main_photo_id FROM profiles WHERE id = ?").bind(profileId),
    ]);
    const id = (inserted?.results[0] as { id: number } | undefined)?.id;
    if (id === undefined) throw limitError(max);
    const mainPhotoId = (main?.results[0] as { main_photo_id: number | null } | undefined)?.main_photo_id ?? null;
    return ownPhoto({ id, status: "pending", key: keys.key, thumb_key: keys.thumbKey, blur_key: keys.blurKey, width: processed.width, height: processed.height }, mainPhotoId, prefix);
  });
}

type VariantKeys = { key: string; thumbKey: string; blurKey: string };

/**
 * Put the three variants of a processed photo under their keys, then `record` it: all of it or
 * nothing. When a put or `record` fails, the objects already put are deleted again (every put
 * settles first, so a cleanup never runs ahead of a put still under way).
 */
export async function storeVariants<T>(bucket: R2Bucket, processed: ProcessedPhoto, keys: VariantKeys, record: () => Promise<T>): Promise<T> {
  const objects: [string, Uint8Array][] = [
    [keys.key, processed.original],
    [keys.thumbKey, processed.thumb],
    [keys.blurKey, processed.blur],
  ];
  try {
    const puts = await Promise.allSettled(objects.map(([key, body]) => bucket.put(key, body, { httpMetadata: { contentType: "image/jpeg" } })));
    const failed = puts.find((p): p is PromiseRejectedResult => p.status === "rejected");
    if (failed) throw failed.reason;
    return await record();
  } catch (error) {
    await bucket.delete(objects.map(([key]) => key)).catch((cleanup: unknown) => {
      console.error(JSON.stringify({ event: "photo_cleanup_failed", keys: objects.map(([key]) => key), message: String(cleanup) }));
    });
    throw error;
  }
}

/** Remove one of the member's own photos: its row (and the main photo choice if it was that one), then its objects. */
export async function deletePhoto(store: PhotoStore, profileId: number, photoId: number): Promise<void> {
  const row = await store.db
    .prepare("SELECT key, thumb_key, blur_key FROM photos WHERE id = ? AND profile_id = ?")
    .bind(photoId, profileId)
    .first<{ key: string; thumb_key: string; blur_key: string }>();
  if (!row) throw notFound();
  await store.db.batch([
    store.db.prepare("UPDATE profiles SET main_photo_id = NULL WHERE id = ? AND main_photo_id = ?").bind(profileId, photoId),
    store.db.prepare("DELETE FROM photos WHERE id = ? AND profile_id = ?").bind(photoId, profileId),
  ]);
  // After the row: a photo without objects is never listed, whereas objects without a row are served to no one.
  await store.bucket.delete([row.key, row.thumb_key, row.blur_key]);
}

/** Make one of the member's own photos (not a rejected one) the main photo. */
export async function setMainPhoto(db: D1Database, profileId: number, photoId: number): Promise<void> {
  const result = await db
    .prepare("UPDATE profiles SET main_photo_id = ?2 WHERE id = ?1 AND EXISTS (SELECT 1 FROM photos WHERE id = ?2 AND profile_id = ?1 AND status != 'rejected')")
    .bind(profileId, photoId)
    .run();
  if (result.meta.changes === 0) throw notFound();
}

/**
 * Move one of the member's photos to another place in their order (0 is first); the others keep
 * their relative order. All positions are rewritten in one batch.
 */
export async function movePhoto(db: D1Database, profileId: number, photoId: number, position: number): Promise<void> {
  const rows = await db.prepare("SELECT id FROM photos WHERE profile_id = ? ORDER BY position, id").bind(profileId).all<{ id: number }>();
  const order = rows.results.map((r) => r.id);
  const from = order.indexOf(photoId);
  if (from === -1) throw notFound();
  order.splice(from, 1);
  order.splice(Math.min(position, order.length), 0, photoId);
  await db.batch(order.map((id, index) => db.prepare("UPDATE photos SET position = ? WHERE id = ? AND profile_id = ?").bind(index, id, profileId)));
}
