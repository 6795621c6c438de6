/**
 * Chat messages in D1: how one is stored together with its charge, how a stored one is shown to a
 * viewer, and the pages of a conversation's history. Only the conversation's Durable Object calls
 * `storeMessage`, one send at a time, so a conversation's messages are stored in order.
 */
import type { i18n } from "i18next";
import type { ChatMessage, MessageKind } from "../../shared/chat";
import { giftImage, isGiftSlug } from "../../shared/gifts";
import { KIND_LEDGER_REASON, type Price } from "./chat-rules";

/** A stored message as D1 gives it, with its chat photo's keys. */
export type MessageRow = Pick<ChatMessage, "id" | "conversation_id" | "sender_id" | "client_id" | "kind" | "body" | "created_at"> & {
  gift: string | null;
  credits_charged: number;
  photo_key: string | null;
  photo_thumb_key: string | null;
  photo_blur_key: string | null;
  photo_width: number | null;
  photo_height: number | null;
};

export const MESSAGE_SELECT = `SELECT m.id, m.conversation_id, m.sender_id, m.client_id, m.kind, m.body, m.gift, m.credits_charged, m.created_at,
  cp.key AS photo_key, cp.thumb_key AS photo_thumb_key, cp.blur_key AS photo_blur_key, cp.width AS photo_width, cp.height AS photo_height
  FROM messages m LEFT JOIN chat_photos cp ON cp.id = m.photo_id`;

/** Who is looking at a message: its sender sees their photo and what it cost; others see a photo per entitlement. */
export type Viewer = { profileId: number; premium: boolean };

/** A stored message as one viewer may see it (SPEC §6: a non-premium viewer never gets a photo's original). */
export function messageView(row: MessageRow, viewer: Viewer, prefix: string, t: i18n["t"]): ChatMessage {
  const own = row.sender_id === viewer.profileId;
  let image: ChatMessage["image"] = null;
  if (row.kind === "image" && row.photo_key && row.photo_thumb_key && row.photo_blur_key) {
    const open = own || viewer.premium;
    image = {
      thumb: prefix + (open ? row.photo_thumb_key : row.photo_blur_key),
      image: prefix + (open ? row.photo_key : row.photo_blur_key),
      locked: !open,
      width: row.photo_width ?? 0,
      height: row.photo_height ?? 0,
    };
  }
  const gift = row.kind === "gift" && row.gift && isGiftSlug(row.gift) ? { slug: row.gift, name: t(`gifts.${row.gift}`), image: giftImage(row.gift) } : null;
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    sender_id: row.sender_id,
    client_id: own ? row.client_id : "",
    kind: row.kind,
    body: row.kind === "text" ? row.body : null,
    image,
    gift,
    credits: own ? row.credits_charged : 0,
    created_at: row.created_at,
  };
}

export type NewMessage = {
  conversationId: number;
  senderProfileId: number;
  senderUserId: number;
  recipientProfileId: number;
  clientId: string;
  kind: MessageKind;
  body: string | null;
  photoId: number | null;
  gift: string | null;
  price: Price;
  /** The site's free allowance, re-checked in the write for a free message. */
  allowance: { freeMessages: number; freeConversations: number };
};

export type StoreResult =
  | { stored: true; row: MessageRow; credits: number; recipientUnread: number }
  /** The same client id was stored before (a retried send): that message, charged once. */
  | { stored: false; row: MessageRow; credits: number }
  | { insufficientCredits: true }
  /** The write's own check of the members' standing failed (a block, a status, the allowance changed): nothing stored. */
  | { standingChanged: true };

/** The message a sender stored under a client id, if any (how a retried send is answered). */
export async function findByClientId(db: D1Database, message: Pick<NewMessage, "conversationId" | "senderProfileId" | "clientId">): Promise<MessageRow | null> {
  return db
    .prepare(`${MESSAGE_SELECT} WHERE m.conversation_id = ? AND m.sender_id = ? AND m.client_id = ?`)
    .bind(message.conversationId, message.senderProfileId, message.clientId)
    .first<MessageRow>();
}

async function balance(db: D1Database, userId: number): Promise<number> {
  return (await db.prepare("SELECT credits FROM users WHERE id = ?").bind(userId).first<{ credits: number }>())?.credits ?? 0;
}

/**
 * The members' standing, checked again inside the write (numbered parameters: ?1 conversation,
 * ?2 sender profile, ?3 sender user, ?4 recipient profile, ?5 free, ?6 free messages, ?7 free
 * conversations): the sender's account is live; the recipient is active, confirmed and visible (or
 * wrote here); neither blocked the other; a free message is still within the allowance. The same
 * rules as chat-rules.ts, so a decision made from facts read a moment earlier cannot store a message
 * those rules would now refuse.
 */
const STANDING = `EXISTS (SELECT 1 FROM users WHERE id = ?3 AND status IN ('active', 'not_confirmed'))
  AND EXISTS (SELECT 1 FROM profiles rp JOIN users ru ON ru.id = rp.user_id WHERE rp.id = ?4 AND rp.status = 'active' AND ru.status = 'active'
              AND (ru.invisible = 0 OR EXISTS (SELECT 1 FROM messages WHERE conversation_id = ?1 AND sender_id = ?4)))
  AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ?2 AND blocked_id = ?4) OR (blocker_id = ?4 AND blocked_id = ?2))
  AND (?5 = 0 OR ((SELECT paid_user FROM users WHERE id = ?3) = 0
       AND (SELECT COUNT(*) FROM messages WHERE conversation_id = ?1 AND sender_id = ?2 AND free = 1) < ?6
       AND (EXISTS (SELECT 1 FROM messages WHERE conversation_id = ?1 AND sender_id = ?2 AND free = 1)
            OR (SELECT COUNT(DISTINCT conversation_id) FROM messages WHERE sender_id = ?2 AND free = 1) < ?7)))`;

/**
 * Store a message with its charge in one batch (one transaction, one round trip): the message row
 * (only if the members' standing still allows it), the credits taken with their ledger entry, the
 * conversation's last message and the recipient's unread count, and the stored message read back. If
 * the balance would go below zero the database aborts the whole batch (trigger
 * users_credits_not_negative), and a client id stored before makes the insert fail: either way
 * nothing is written twice.
 */
export async function storeMessage(db: D1Database, message: NewMessage, now = Math.floor(Date.now() / 1000)): Promise<StoreResult> {
  const { conversationId: c, senderProfileId: sender, clientId } = message;
  const byClientId = "SELECT id FROM messages WHERE conversation_id = ?1 AND sender_id = ?2 AND client_id = ?3";
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `INSERT INTO messages (conversation_id, sender_id, client_id, kind, body, photo_id, gift, credits_charged, free, created_at)
         SELECT ?1, ?2, ?8, ?9, ?10, ?11, ?12, ?13, ?5, ?14 WHERE ${STANDING}`,
      )
      .bind(
        c,
        sender,
        message.senderUserId,
        message.recipientProfileId,
        message.price.free ? 1 : 0,
        message.allowance.freeMessages,
        message.allowance.freeConversations,
        clientId,
        message.kind,
        message.body,
        message.photoId,
        message.gift,
        message.price.credits,
        now,
      ),
  ];
  if (message.price.credits > 0) {
    statements.push(
      db.prepare(`UPDATE users SET credits = credits - ?4 WHERE id = ?5 AND EXISTS (${byClientId})`).bind(c, sender, clientId, message.price.credits, message.senderUserId),
      db
        .prepare(`INSERT INTO credit_ledger (user_id, delta, reason, ref, created_at) SELECT ?4, ?5, ?6, 'message:' || id, ?7 FROM messages WHERE id = (${byClientId})`)
        .bind(c, sender, clientId, message.senderUserId, -message.price.credits, KIND_LEDGER_REASON[message.kind], now),
    );
  }
  statements.push(
    db.prepare(`UPDATE conversations SET last_message_at = ?4, last_message_id = (${byClientId}) WHERE id = ?1 AND EXISTS (${byClientId})`).bind(c, sender, clientId, now),
    // A conversation a member removed comes back with the new message; the recipient has one more unread.
    db
      .prepare(
        `UPDATE conversation_members SET last_message_at = ?4, removed_at = NULL, unread_count = unread_count + (profile_id = ?5)
         WHERE conversation_id = ?1 AND EXISTS (${byClientId})`,
      )
      .bind(c, sender, clientId, now, message.recipientProfileId),
    db
      .prepare(
        `${MESSAGE_SELECT.replace("SELECT ", "SELECT (SELECT credits FROM users WHERE id = ?4) AS balance, (SELECT unread_count FROM conversation_members WHERE conversation_id = ?1 AND profile_id = ?5) AS recipient_unread, ")}
         WHERE m.id = (${byClientId})`,
      )
      .bind(c, sender, clientId, message.senderUserId, message.recipientProfileId),
  );
  try {
    const results = await db.batch(statements);
    const row = results.at(-1)!.results[0] as (MessageRow & { balance: number; recipient_unread: number | null }) | undefined;
    if (!row) return { standingChanged: true };
    const { balance: credits, recipient_unread, ...stored } = row;
    return { stored: true, row: stored, credits, recipientUnread: recipient_unread ?? 0 };
  } catch (error) {
    const text = String(error instanceof Error ? error.message : error);
    if (text.includes("insufficient_credits")) return { insufficientCredits: true };
    if (text.includes("UNIQUE") && text.includes("messages.")) {
      const row = await findByClientId(db, message);
      if (row) return { stored: false, row, credits: await balance(db, message.senderUserId) };
    }
    throw error;
  }
}

/**
 * One page of a conversation's history for a member, oldest first: the newest page, or the page
 * before message `before`. Messages the member removed (hidden_before_id) are not part of it.
 */
export async function historyPage(db: D1Database, conversationId: number, hiddenBeforeId: number, before: number | null, size: number): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
  const result = await db
    .prepare(`${MESSAGE_SELECT} WHERE m.conversation_id = ?1 AND m.id > ?2 AND m.id < ?3 ORDER BY m.id DESC LIMIT ?4`)
    .bind(conversationId, hiddenBeforeId, before ?? 2_147_483_647, size + 1)
    .all<MessageRow>();
  const rows = result.results.slice(0, size).toReversed();
  return { rows, hasMore: result.results.length > size };
}
