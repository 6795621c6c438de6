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
import type { Database } from "../db/database";
import {
  deletePhotoRow,
  insertPhotoWithinLimit,
  mainPhotoIdOf,
  ownPhoto as ownPhotoRow,
  type Photo,
  photoIdsInOrder,
  photoQuota,
  photosOf,
  setMainPhoto as chooseMainPhoto,
  setPhotoOrder,
} from "../db/photos";
import { AppError } from "../errors";
import { processPhoto, type ProcessedPhoto } from "./images";
import { checkBadgeAfterMainPhoto } from "./verification";

const unixNow = () => Math.floor(Date.now() / 1000);

export type PhotoStore = { db: Database; bucket: R2Bucket };

function photoLimit(paidUser: boolean): number {
  return paidUser ? PREMIUM_PHOTO_LIMIT : FREE_PHOTO_LIMIT;
}

/** A fresh object key: the variant's prefix (with a `c` before it for chat photos) and 128 random bits. */
export function newPhotoKey(variant: "p" | "t" | "b" | "cp" | "ct" | "cb"): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${variant}/${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}.jpg`;
}

function ownPhoto(
  row: Pick<Photo, "id" | "status" | "key" | "thumbKey" | "width" | "height">,
  mainPhotoId: number | null,
  prefix: string,
): OwnPhoto {
  const visible = row.status !== "rejected";
  return {
    id: row.id,
    status: row.status,
    thumb: visible ? prefix + row.thumbKey : null,
    image: visible ? prefix + row.key : null,
    main: row.id === mainPhotoId,
    width: row.width,
    height: row.height,
  };
}

const limitError = (max: number) =>
  new AppError({ status: 400, code: "photo_limit", key: "errors.photo_limit", values: { count: max }, field: "photo" });
const notFound = () =>
  new AppError({ status: 404, code: "not_found", key: "errors.photo_not_found", field: "photo_id" });

/** What the upload limit needs of a member: premium or not, and the photos that count (all but rejected ones). */
async function member(db: Database, userId: number, profileId: number): Promise<{ paid: boolean; count: number }> {
  const row = await photoQuota(db, userId, profileId);
  if (!row) throw new AppError({ status: 403, code: "authentication_required", key: "errors.authentication_required" });
  return { paid: row.paidUser, count: row.count };
}

/** The member's photos in their order, pending and rejected ones included, with the upload limit. */
export async function listOwnPhotos(
  db: Database,
  userId: number,
  profileId: number,
  prefix: string,
): Promise<{ photos: OwnPhoto[]; limit: number }> {
  const [{ paid }, rows, mainPhotoId] = await Promise.all([
    member(db, userId, profileId),
    photosOf(db, profileId),
    mainPhotoIdOf(db, profileId),
  ]);
  return { photos: rows.map((row) => ownPhoto(row, mainPhotoId, prefix)), limit: photoLimit(paid) };
}

/**
 * Store an upload for a member: checked and remade (images.ts), put to R2, then its row, as the main
 * photo when the member has none. Throws the member's error (type, size, pixels, limit) with nothing
 * stored.
 */
export async function uploadPhoto(
  store: PhotoStore,
  userId: number,
  profileId: number,
  bytes: Uint8Array,
  prefix: string,
): Promise<OwnPhoto> {
  const { paid, count } = await member(store.db, userId, profileId);
  const max = photoLimit(paid);
  // Refused before any decoding work; checked again in the insert, which two parallel uploads cannot both pass.
  if (count >= max) throw limitError(max);

  const processed = await processPhoto(bytes);
  const keys = { key: newPhotoKey("p"), thumbKey: newPhotoKey("t"), blurKey: newPhotoKey("b") };
  return storeVariants(store.bucket, processed, keys, async () => {
    const { id, mainPhotoId } = await insertPhotoWithinLimit(
      store.db,
      { profileId, ...keys, width: processed.width, height: processed.height },
      max,
    );
    if (id === undefined) throw limitError(max);
    if (mainPhotoId === id) await checkBadgeAfterMainPhoto(store.db, profileId, unixNow());
    return ownPhoto(
      {
        id,
        status: "pending",
        key: keys.key,
        thumbKey: keys.thumbKey,
        width: processed.width,
        height: processed.height,
      },
      mainPhotoId,
      prefix,
    );
  });
}

type VariantKeys = { key: string; thumbKey: string; blurKey: string };

/**
 * Put the three variants of a processed photo under their keys, then `record` it: all of it or
 * nothing. When a put or `record` fails, the objects already put are deleted again (every put
 * settles first, so a cleanup never runs ahead of a put still under way).
 */
export async function storeVariants<T>(
  bucket: R2Bucket,
  processed: ProcessedPhoto,
  keys: VariantKeys,
  record: () => Promise<T>,
): Promise<T> {
  const objects: [string, Uint8Array][] = [
    [keys.key, processed.original],
    [keys.thumbKey, processed.thumb],
    [keys.blurKey, processed.blur],
  ];
  try {
    const puts = await Promise.allSettled(
      objects.map(([key, body]) => bucket.put(key, body, { httpMetadata: { contentType: "image/jpeg" } })),
    );
    const failed = puts.find((p): p is PromiseRejectedResult => p.status === "rejected");
    if (failed) throw failed.reason;
    return await record();
  } catch (error) {
    await bucket.delete(objects.map(([key]) => key)).catch((cleanup: unknown) => {
      console.error(
        JSON.stringify({ event: "photo_cleanup_failed", keys: objects.map(([key]) => key), message: String(cleanup) }),
      );
    });
    throw error;
  }
}

/** Remove one of the member's own photos: its row (and the main photo choice if it was that one), then its objects. */
export async function deletePhoto(store: PhotoStore, profileId: number, photoId: number): Promise<void> {
  const row = await ownPhotoRow(store.db, profileId, photoId);
  if (!row) throw notFound();
  await deletePhotoRow(store.db, profileId, photoId);
  await checkBadgeAfterMainPhoto(store.db, profileId, unixNow());
  // After the row: a photo without objects is never listed, whereas objects without a row are served to no one.
  await store.bucket.delete([row.key, row.thumbKey, row.blurKey]);
}

/** Make one of the member's own photos (not a rejected one) the main photo; a verified member's badge waits for a moderator to see it. */
export async function setMainPhoto(db: Database, profileId: number, photoId: number, now = unixNow()): Promise<void> {
  if (!(await chooseMainPhoto(db, profileId, photoId))) throw notFound();
  await checkBadgeAfterMainPhoto(db, profileId, now);
}

/**
 * Move one of the member's photos to another place in their order (0 is first); the others keep
 * their relative order. All positions are rewritten in one batch.
 */
export async function movePhoto(db: Database, profileId: number, photoId: number, position: number): Promise<void> {
  const order = await photoIdsInOrder(db, profileId);
  const from = order.indexOf(photoId);
  if (from === -1) throw notFound();
  order.splice(from, 1);
  order.splice(Math.min(position, order.length), 0, photoId);
  await setPhotoOrder(db, profileId, order);
}
