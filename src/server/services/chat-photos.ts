/**
 * Photos sent in a chat (SPEC §2: image messages). They go through the same pipeline as profile
 * photos (content checks, metadata stripped, re-encoded, thumbnail and blurred version made on the
 * server) but are not part of the profile: no limit of 3/25, no moderation queue. The original
 * reaches only the sender and premium members of a conversation it was sent in (api/media.ts).
 */
import type { ChatPhotoResponse } from "../../shared/chat";
import { processPhoto } from "./images";
import { newPhotoKey, type PhotoStore } from "./photos";

/** Store a photo a member is about to send; all of it or nothing. */
export async function uploadChatPhoto(store: PhotoStore, profileId: number, bytes: Uint8Array, prefix: string): Promise<ChatPhotoResponse["photo"]> {
  const processed = await processPhoto(bytes);
  const keys = { key: newPhotoKey("cp"), thumbKey: newPhotoKey("ct"), blurKey: newPhotoKey("cb") };
  const objects: [string, Uint8Array][] = [
    [keys.key, processed.original],
    [keys.thumbKey, processed.thumb],
    [keys.blurKey, processed.blur],
  ];
  try {
    const puts = await Promise.allSettled(objects.map(([key, body]) => store.bucket.put(key, body, { httpMetadata: { contentType: "image/jpeg" } })));
    const failed = puts.find((p): p is PromiseRejectedResult => p.status === "rejected");
    if (failed) throw failed.reason;
    const row = await store.db
      .prepare("INSERT INTO chat_photos (profile_id, key, thumb_key, blur_key, width, height) VALUES (?, ?, ?, ?, ?, ?) RETURNING id")
      .bind(profileId, keys.key, keys.thumbKey, keys.blurKey, processed.width, processed.height)
      .first<{ id: number }>();
    return { id: row!.id, thumb: prefix + keys.thumbKey, image: prefix + keys.key, width: processed.width, height: processed.height };
  } catch (error) {
    await store.bucket.delete(objects.map(([key]) => key)).catch(() => undefined);
    throw error;
  }
}
