/**
 * How a stored chat message is shown to one viewer (SPEC §6): its sender sees their photo and what
 * it cost; another member sees a photo's original only when premium.
 */
import type { Translate } from "../../shared/translator";
import type { ChatMessage } from "../../shared/chat";
import { giftImage, isGiftSlug } from "../../shared/gifts";
import { isRemoved, type StoredMessage } from "../db/conversation-store";

/** Who is looking at a message. */
export type Viewer = { profileId: number; premium: boolean };

/** A stored message of conversation `conversationId` as one viewer may see it. */
export function messageView(
  row: StoredMessage,
  conversationId: number,
  viewer: Viewer,
  prefix: string,
  t: Translate,
): ChatMessage {
  const own = row.sender_id === viewer.profileId;
  let image: ChatMessage["image"] = null;
  const removed = isRemoved(row);
  if (!removed && row.kind === "image" && row.photo_key && row.photo_thumb_key && row.photo_blur_key) {
    const open = own || viewer.premium;
    image = {
      thumb: prefix + (open ? row.photo_thumb_key : row.photo_blur_key),
      image: prefix + (open ? row.photo_key : row.photo_blur_key),
      locked: !open,
      width: row.photo_width ?? 0,
      height: row.photo_height ?? 0,
    };
  }
  const gift =
    !removed && row.kind === "gift" && row.gift && isGiftSlug(row.gift)
      ? { slug: row.gift, name: t(`gifts.${row.gift}`), image: giftImage(row.gift) }
      : null;
  return {
    id: row.id,
    conversation_id: conversationId,
    sender_id: row.sender_id,
    client_id: own ? row.client_id : "",
    kind: row.kind,
    body: !removed && row.kind === "text" ? row.body : null,
    image,
    gift,
    credits: own ? row.credits_charged : 0,
    created_at: row.created_at,
    removed,
  };
}
