/**
 * Conversations in D1 (SPEC §3 chat state, §4): one per pair of profiles, the facts the send rules
 * need, a member's chat list, a chat with its newest history page, read marks and removal.
 */
import type { i18n } from "i18next";
import type { ChatItem, ChatProfile, ChatResponse, ChatsResponse, MessageKind } from "../../shared/chat";
import { HISTORY_PAGE_SIZE } from "../../shared/chat";
import type { SiteSettings } from "../../shared/settings";
import { AppError } from "../errors";
import { ageOn } from "../../shared/ages";
import { blockedReason, freeMessagesLeft, textPrice, type SendFacts } from "./chat-rules";
import { historyPage, messageView } from "./chat-messages";
import { mainImage } from "./profile-card";

/** The pair of a conversation: the lower profile id first. */
export function pairOf(one: number, other: number): [number, number] {
  return one < other ? [one, other] : [other, one];
}

/** The name of a pair's Durable Object. */
export const roomName = (one: number, other: number) => pairOf(one, other).join(":");

export async function conversationIdOf(db: D1Database, one: number, other: number): Promise<number | null> {
  const [a, b] = pairOf(one, other);
  const row = await db.prepare("SELECT id FROM conversations WHERE profile_a = ? AND profile_b = ?").bind(a, b).first<{ id: number }>();
  return row?.id ?? null;
}

/** The pair's conversation, made with both memberships on its first message. */
export async function ensureConversation(db: D1Database, sender: number, recipient: number): Promise<number> {
  const [a, b] = pairOf(sender, recipient);
  const [, , , found] = await db.batch([
    db.prepare("INSERT INTO conversations (profile_a, profile_b, started_by) VALUES (?, ?, ?) ON CONFLICT (profile_a, profile_b) DO NOTHING").bind(a, b, sender),
    db
      .prepare("INSERT OR IGNORE INTO conversation_members (conversation_id, profile_id) SELECT id, ?3 FROM conversations WHERE profile_a = ?1 AND profile_b = ?2")
      .bind(a, b, a),
    db
      .prepare("INSERT OR IGNORE INTO conversation_members (conversation_id, profile_id) SELECT id, ?3 FROM conversations WHERE profile_a = ?1 AND profile_b = ?2")
      .bind(a, b, b),
    db.prepare("SELECT id FROM conversations WHERE profile_a = ? AND profile_b = ?").bind(a, b),
  ]);
  return (found!.results[0] as { id: number }).id;
}

type FactsRow = {
  sender_status: string;
  credits: number;
  paid_user: number;
  recipient_name: string | null;
  recipient_status: string | null;
  recipient_profile_status: string | null;
  recipient_invisible: number | null;
  recipient_has_written: number;
  blocked_by_me: number;
  blocked_me: number;
  free_used_here: number;
  free_conversations_used: number;
};

/** What the send rules need, read in one query. */
export async function loadSendFacts(db: D1Database, senderUserId: number, sender: number, recipient: number, conversationId: number | null): Promise<SendFacts> {
  const row = await db
    .prepare(
      `SELECT u.status AS sender_status, u.credits, u.paid_user,
              rp.name AS recipient_name, ru.status AS recipient_status, rp.status AS recipient_profile_status, ru.invisible AS recipient_invisible,
              EXISTS (SELECT 1 FROM messages WHERE conversation_id = ?4 AND sender_id = ?3) AS recipient_has_written,
              EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?2 AND blocked_id = ?3) AS blocked_by_me,
              EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?3 AND blocked_id = ?2) AS blocked_me,
              (SELECT COUNT(*) FROM messages WHERE sender_id = ?2 AND free = 1 AND conversation_id = ?4) AS free_used_here,
              (SELECT COUNT(DISTINCT conversation_id) FROM messages WHERE sender_id = ?2 AND free = 1) AS free_conversations_used
       FROM users u
       LEFT JOIN profiles rp ON rp.id = ?3
       LEFT JOIN users ru ON ru.id = rp.user_id
       WHERE u.id = ?1`,
    )
    .bind(senderUserId, sender, recipient, conversationId ?? 0)
    .first<FactsRow>();
  if (!row) throw new AppError({ status: 403, code: "authentication_required", key: "errors.authentication_required" });
  return {
    senderStatus: row.sender_status,
    senderPaid: row.paid_user === 1,
    credits: row.credits,
    recipient:
      row.recipient_name === null
        ? null
        : {
            name: row.recipient_name,
            status: row.recipient_status ?? "gone",
            profileStatus: row.recipient_profile_status ?? "gone",
            invisible: row.recipient_invisible === 1,
            hasWritten: row.recipient_has_written === 1,
          },
    blockedByMe: row.blocked_by_me === 1,
    blockedMe: row.blocked_me === 1,
    freeUsedHere: row.free_used_here,
    freeConversationsUsed: row.free_conversations_used,
  };
}

type ProfileRow = {
  id: number;
  name: string;
  birth_date: string;
  city: string | null;
  fictional: number;
  last_active_at: number;
  photo_key: string | null;
  photo_thumb_key: string | null;
  photo_status: string | null;
};

const PROFILE_COLUMNS = `p.id, p.name, p.birth_date, p.city, p.fictional, p.last_active_at,
  ph.key AS photo_key, ph.thumb_key AS photo_thumb_key, ph.status AS photo_status`;

function chatProfile(row: ProfileRow): ChatProfile {
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.birth_date),
    city: row.city,
    main_image: mainImage(row.photo_key, row.photo_thumb_key, row.photo_status),
    fictional: row.fictional === 1,
    last_active_at: row.last_active_at,
  };
}

/**
 * GET /api/chats.php: the member's conversations with a message, newest first, with the other
 * member, the unread count and the last message (what the overview shows). Removed conversations,
 * and those with a member who blocked the other either way, are left out.
 */
export async function listChats(db: D1Database, profileId: number): Promise<ChatsResponse> {
  const rows = await db
    .prepare(
      `SELECT cm.conversation_id, cm.unread_count, cm.last_message_at,
              m.kind AS last_kind, m.body AS last_body, m.sender_id AS last_sender, m.created_at AS last_created_at,
              ${PROFILE_COLUMNS}
       FROM conversation_members cm
       JOIN conversations c ON c.id = cm.conversation_id
       JOIN profiles p ON p.id = CASE WHEN c.profile_a = ?1 THEN c.profile_b ELSE c.profile_a END
       JOIN users u ON u.id = p.user_id AND u.status IN ('active', 'not_confirmed')
       LEFT JOIN photos ph ON ph.id = p.main_photo_id
       LEFT JOIN messages m ON m.id = c.last_message_id AND m.id > cm.hidden_before_id
       WHERE cm.profile_id = ?1 AND cm.removed_at IS NULL AND cm.last_message_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ?1 AND b.blocked_id = p.id) OR (b.blocker_id = p.id AND b.blocked_id = ?1))
       ORDER BY cm.last_message_at DESC, cm.conversation_id DESC
       LIMIT 500`,
    )
    .bind(profileId)
    .all<ProfileRow & { conversation_id: number; unread_count: number; last_message_at: number; last_kind: MessageKind; last_body: string | null; last_sender: number | null; last_created_at: number | null }>();
  const chats: ChatItem[] = rows.results.map((row) => ({
    conversation: { id: row.conversation_id },
    profile: chatProfile(row),
    num_unread_messages: row.unread_count,
    last_message:
      row.last_sender === null || row.last_created_at === null
        ? null
        : { kind: row.last_kind, body: row.last_kind === "text" ? (row.last_body ?? "").slice(0, 140) : null, sender_id: row.last_sender, created_at: row.last_created_at },
    last_message_at: row.last_message_at,
  }));
  return { chats, total_unread: chats.reduce((sum, chat) => sum + chat.num_unread_messages, 0) };
}

/** The other member of a conversation the member is in, or null when they are not in it. */
export async function peerOf(db: D1Database, conversationId: number, profileId: number): Promise<number | null> {
  const row = await db
    .prepare(
      `SELECT CASE WHEN c.profile_a = ?2 THEN c.profile_b ELSE c.profile_a END AS peer
       FROM conversations c JOIN conversation_members cm ON cm.conversation_id = c.id AND cm.profile_id = ?2
       WHERE c.id = ?1`,
    )
    .bind(conversationId, profileId)
    .first<{ peer: number }>();
  return row?.peer ?? null;
}

export type ChatViewer = { userId: number; profileId: number; country: string | null };

/**
 * GET /api/chat.php: the conversation with one member as the viewer sees it: that member, a page of
 * history (the newest, or the one before `before`), their read mark, whether and at what cost the
 * viewer may write. A profile that does not exist (or is gone) is a 404.
 */
export async function loadChat(db: D1Database, site: SiteSettings, t: i18n["t"], viewer: ChatViewer, peerId: number, before: number | null): Promise<ChatResponse> {
  if (peerId === viewer.profileId) throw new AppError({ status: 404, code: "not_found", key: "errors.profile_not_found", field: "profile" });
  const profile = await db
    .prepare(
      `SELECT ${PROFILE_COLUMNS} FROM profiles p JOIN users u ON u.id = p.user_id LEFT JOIN photos ph ON ph.id = p.main_photo_id
       WHERE p.id = ? AND p.status = 'active' AND u.status IN ('active', 'not_confirmed')`,
    )
    .bind(peerId)
    .first<ProfileRow>();
  if (!profile) throw new AppError({ status: 404, code: "not_found", key: "errors.profile_not_found", field: "profile" });
  const conversationId = await conversationIdOf(db, viewer.profileId, peerId);
  const [facts, membership, peerMark] = await Promise.all([
    loadSendFacts(db, viewer.userId, viewer.profileId, peerId, conversationId),
    conversationId === null
      ? null
      : db
          .prepare("SELECT hidden_before_id, unread_count FROM conversation_members WHERE conversation_id = ? AND profile_id = ?")
          .bind(conversationId, viewer.profileId)
          .first<{ hidden_before_id: number; unread_count: number }>(),
    conversationId === null
      ? null
      : db
          .prepare("SELECT last_read_message_id FROM conversation_members WHERE conversation_id = ? AND profile_id = ?")
          .bind(conversationId, peerId)
          .first<{ last_read_message_id: number | null }>(),
  ]);
  if (facts.blockedMe) throw new AppError({ status: 403, code: "blocked_by", key: "errors.blocked_by", values: { name: profile.name } });
  const page = conversationId === null ? { rows: [], hasMore: false } : await historyPage(db, conversationId, membership?.hidden_before_id ?? 0, before, HISTORY_PAGE_SIZE);
  const viewerSide = { profileId: viewer.profileId, premium: facts.senderPaid };
  const country = viewer.country ?? site.countries[0]!;
  return {
    conversation: conversationId === null ? null : { id: conversationId },
    profile: chatProfile(profile),
    messages: page.rows.map((row) => messageView(row, viewerSide, site.cdn_prefix, t)),
    has_more: page.hasMore,
    peer_read_id: peerMark?.last_read_message_id ?? null,
    blocked_reason: blockedReason(facts),
    costs: {
      message: textPrice(site, facts).credits,
      photo: site.photo_credits,
      free_messages_left: freeMessagesLeft(site, facts),
      minimum_message_costs: site.minimum_message_costs[country] ?? null,
    },
    credits: facts.credits,
    paid_user: facts.senderPaid,
    message_length: site.message_length,
  };
}

/**
 * The member has seen the conversation up to `messageId`: their read mark moves forward (never
 * back) and their unread count becomes what is left after it. Returns the count and the mark.
 */
export async function markRead(db: D1Database, conversationId: number, profileId: number, messageId: number): Promise<{ unread: number; readId: number }> {
  // A mark past the newest message would claim messages not yet written as seen: it stops there.
  const mark = "MIN(?3, COALESCE((SELECT MAX(id) FROM messages WHERE conversation_id = ?1), 0))";
  const [, row] = await db.batch([
    db
      .prepare(
        `UPDATE conversation_members
         SET last_read_message_id = MAX(COALESCE(last_read_message_id, 0), ${mark}),
             unread_count = (SELECT COUNT(*) FROM messages WHERE conversation_id = ?1 AND sender_id != ?2 AND id > MAX(COALESCE(last_read_message_id, 0), ${mark}))
         WHERE conversation_id = ?1 AND profile_id = ?2`,
      )
      .bind(conversationId, profileId, messageId),
    db.prepare("SELECT unread_count, last_read_message_id FROM conversation_members WHERE conversation_id = ? AND profile_id = ?").bind(conversationId, profileId),
  ]);
  const result = row!.results[0] as { unread_count: number; last_read_message_id: number | null } | undefined;
  return { unread: result?.unread_count ?? 0, readId: result?.last_read_message_id ?? 0 };
}

/** The member's unread count and the other member's read mark in a conversation. */
export async function readState(db: D1Database, conversationId: number, profileId: number, peerId: number): Promise<{ unread: number; peerReadId: number | null }> {
  const rows = await db
    .prepare("SELECT profile_id, unread_count, last_read_message_id FROM conversation_members WHERE conversation_id = ? AND profile_id IN (?, ?)")
    .bind(conversationId, profileId, peerId)
    .all<{ profile_id: number; unread_count: number; last_read_message_id: number | null }>();
  const mine = rows.results.find((r) => r.profile_id === profileId);
  const theirs = rows.results.find((r) => r.profile_id === peerId);
  return { unread: mine?.unread_count ?? 0, peerReadId: theirs?.last_read_message_id ?? null };
}

/**
 * DELETE /api/chat.php: remove conversations for the member (the other member keeps theirs): by
 * conversation, or every conversation with a profile. Their messages so far are hidden for the
 * member; a new message brings the conversation back. Returns how many were removed; 404 when the
 * member is in none of them.
 */
export async function removeChats(db: D1Database, profileId: number, target: { conversationId: number } | { profileId: number }): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const which =
    "conversationId" in target
      ? db.prepare("SELECT ?2 AS id WHERE EXISTS (SELECT 1 FROM conversation_members WHERE conversation_id = ?2 AND profile_id = ?1)").bind(profileId, target.conversationId)
      : db.prepare("SELECT id FROM conversations WHERE (profile_a = ?1 AND profile_b = ?2) OR (profile_a = ?2 AND profile_b = ?1)").bind(profileId, target.profileId);
  const ids = (await which.all<{ id: number }>()).results.map((r) => r.id);
  if (ids.length === 0) throw new AppError({ status: 404, code: "not_found", key: "errors.chat_not_found" });
  await db.batch(
    ids.map((id) =>
      db
        .prepare(
          `UPDATE conversation_members SET removed_at = ?3, unread_count = 0,
             hidden_before_id = COALESCE((SELECT last_message_id FROM conversations WHERE id = ?1), 0),
             last_read_message_id = COALESCE((SELECT last_message_id FROM conversations WHERE id = ?1), last_read_message_id)
           WHERE conversation_id = ?1 AND profile_id = ?2`,
        )
        .bind(id, profileId, now),
    ),
  );
  return ids.length;
}

/** The other member of each of a member's conversations (whose objects must hear when the member turns premium). */
export async function conversationPeersOfUser(db: D1Database, userId: number): Promise<{ profileId: number; peers: number[] } | null> {
  const profile = await db.prepare("SELECT id FROM profiles WHERE user_id = ?").bind(userId).first<{ id: number }>();
  if (!profile) return null;
  const { results } = await db
    .prepare("SELECT CASE WHEN profile_a = ?1 THEN profile_b ELSE profile_a END AS peer FROM conversations WHERE profile_a = ?1 OR profile_b = ?1")
    .bind(profile.id)
    .all<{ peer: number }>();
  return { profileId: profile.id, peers: results.map((r) => r.peer) };
}
