/**
 * Photos sent in a chat (SPEC §2: image messages). They go through the same pipeline as profile
 * photos (content checks, metadata stripped, re-encoded, thumbnail and blurred version made on the
 * server) but are not part of the profile: no limit of 3/25, no moderation queue. A chat photo is
 * sent in one conversation; its original reaches only the sender and premium members of that
 * conversation (api/media.ts).
 */
import type { ChatPhotoResponse } from "../../shared/chat";
import { deleteUnsentChatPhotos, insertChatPhoto } from "../db/photos";
import { databaseOf } from "../db/database";
import { processPhoto } from "./images";
import { newPhotoKey, type PhotoStore, storeVariants } from "./photos";

/** Store a photo a member is about to send; all of it or nothing. */
export async function uploadChatPhoto(
  store: PhotoStore,
  profileId: number,
  bytes: Uint8Array,
  prefix: string,
): Promise<ChatPhotoResponse["photo"]> {
  const processed = await processPhoto(bytes);
  const keys = { key: newPhotoKey("cp"), thumbKey: newPhotoKey("ct"), blurKey: newPhotoKey("cb") };
  return storeVariants(store.bucket, processed, keys, async () => {
    const id = await insertChatPhoto(store.db, {
      profileId,
      ...keys,
      width: processed.width,
      height: processed.height,
    });
    return {
      id,
      thumb: prefix + keys.thumbKey,
      image: prefix + keys.key,
      width: processed.width,
      height: processed.height,
    };
  });
}

/** A photo uploaded for a chat but not sent within this long is removed by the daily clock work. */
const UNSENT_CHAT_PHOTO_SECONDS = 24 * 3600;

/** Remove chat photos that were uploaded but never sent (rows first, then their objects). Returns how many. */
export async function purgeUnsentChatPhotos(
  db: D1Database,
  bucket: R2Bucket,
  now = Math.floor(Date.now() / 1000),
): Promise<number> {
  const rows = await deleteUnsentChatPhotos(databaseOf(db), now - UNSENT_CHAT_PHOTO_SECONDS);
  const keys = rows.flatMap((r) => [r.key, r.thumbKey, r.blurKey]);
  // R2 deletes at most 1,000 keys per call.
  for (let i = 0; i < keys.length; i += 999) await bucket.delete(keys.slice(i, i + 999));
  return rows.length;
}
