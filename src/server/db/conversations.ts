/**
 * Conversations in D1 (SPEC §3 chat state, §4): what crosses conversations stays here (one row per
 * pair, each member's summary for the chat list with the unread count and the free allowance used,
 * and the charge of a paid message with its ledger entry); the messages live in each
 * conversation's Durable Object (db/conversation-store.ts), chat photos in db/photos.ts.
 */
import { sql, type SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { MessageKind } from "../../shared/chat";
import { accountIsLive } from "./accounts";
import { notBlockedWith } from "./blocks";
import type { Database } from "./database";

/** The pair of a conversation: the lower profile id first. */
export function pairOf(one: number, other: number): [number, number] {
  return one < other ? [one, other] : [other, one];
}

const dialect = new SQLiteAsyncDialect();

/**
 * Run statements written with drizzle's `sql` template as one D1 batch (one transaction); drizzle's
 * own batch does not take raw `sql` statements with parameters.
 */
async function batch(db: Database, statements: readonly SQL[]): Promise<D1Result[]> {
  const client = db.$client;
  return client.batch(
    statements.map((statement) => {
      const query = dialect.sqlToQuery(statement);
      return client.prepare(query.sql).bind(...query.params);
    }),
  );
}

/** A pair's conversation in D1 (its messages live in the conversation's object). */
export type ConversationRecord = { id: number };

export async function conversationOf(db: Database, one: number, other: number): Promise<ConversationRecord | null> {
  const [a, b] = pairOf(one, other);
  const row = await db.get<{ id: number }>(sql`SELECT id FROM conversations WHERE profile_a = ${a} AND profile_b = ${b}`);
  return row ? { id: row.id } : null;
}

/** The pair's conversation, made with both memberships on its first message. */
export async function ensureConversation(db: Database, sender: number, recipient: number): Promise<number> {
  const [a, b] = pairOf(sender, recipient);
  const member = (profileId: number) =>
    sql`INSERT OR IGNORE INTO conversation_members (conversation_id, profile_id) SELECT id, ${profileId} FROM conversations WHERE profile_a = ${a} AND profile_b = ${b}`;
  const [, , , found] = await batch(db, [
    sql`INSERT INTO conversations (profile_a, profile_b, started_by) VALUES (${a}, ${b}, ${sender}) ON CONFLICT (profile_a, profile_b) DO NOTHING`,
    member(a),
    member(b),
    sql`SELECT id FROM conversations WHERE profile_a = ${a} AND profile_b = ${b}`,
  ]);
  return (found!.results[0] as { id: number }).id;
}


/** The other member as the chat shows them. */
export type ChatProfileRow = {
  id: number;
  name: string;
  birth_date: string;
  city: string | null;
  fictional: number;
  last_active_at: number;
  photo_key: string | null;
  photo_thumb_key: string | null;
  photo_status: string | null;
  paid_user: number;
};

const PROFILE_COLUMNS = sql`p.id, p.name, p.birth_date, p.city, p.fictional, p.last_active_at,
  ph.key AS photo_key, ph.thumb_key AS photo_thumb_key, ph.status AS photo_status, u.paid_user`;

type ChatListRow = ChatProfileRow & {
  conversation_id: number;
  unread_count: number;
  last_message_at: number;
  last_kind: MessageKind | null;
  last_preview: string | null;
  last_sender: number | null;
};

/**
 * A member's conversations with a message, newest first, with the other member and the last message
 * (unless the member removed it). Removed conversations, those with an account that is gone and those
 * with a block either way are left out.
 */
export async function chatListRows(db: Database, profileId: number): Promise<ChatListRow[]> {
  return db.all<ChatListRow>(sql`
    SELECT cm.conversation_id, cm.unread_count, cm.last_message_at,
           CASE WHEN c.last_message_id > cm.hidden_before_id THEN c.last_message_kind END AS last_kind,
           CASE WHEN c.last_message_id > cm.hidden_before_id THEN c.last_message_preview END AS last_preview,
           CASE WHEN c.last_message_id > cm.hidden_before_id THEN c.last_message_sender_id END AS last_sender,
           ${PROFILE_COLUMNS}
    ${listedConversations(profileId, sql`LEFT JOIN photos ph ON ph.id = p.main_photo_id`)}
    ORDER BY cm.last_message_at DESC, cm.conversation_id DESC
    LIMIT 500`);
}

/** FROM ... WHERE of the conversations a member's chat list shows (`cm` theirs, `p` the other member). */
function listedConversations(profileId: number, joins = sql``): SQL {
  return sql`FROM conversation_members cm
    JOIN conversations c ON c.id = cm.conversation_id
    JOIN profiles p ON p.id = CASE WHEN c.profile_a = ${profileId} THEN c.profile_b ELSE c.profile_a END
    JOIN users u ON u.id = p.user_id AND ${accountIsLive(sql`u.status`)}
    ${joins}
    WHERE cm.profile_id = ${profileId} AND cm.removed_at IS NULL AND cm.last_message_at IS NOT NULL
      AND ${notBlockedWith(profileId, sql`p.id`)}`;
}

/** The member's unread messages over the conversations of their chat list: the Messages badge's count. */
export async function unreadTotalOf(db: Database, profileId: number): Promise<number> {
  const row = await db.get<{ n: number | null }>(sql`SELECT sum(cm.unread_count) AS n ${listedConversations(profileId)} AND cm.unread_count > 0`);
  return row?.n ?? 0;
}

/** The other member of a conversation the member is in, or null when they are not in it. */
export async function peerIn(db: Database, conversationId: number, profileId: number): Promise<number | null> {
  const row = await db.get<{ peer: number }>(sql`
    SELECT CASE WHEN c.profile_a = ${profileId} THEN c.profile_b ELSE c.profile_a END AS peer
    FROM conversations c JOIN conversation_members cm ON cm.conversation_id = c.id AND cm.profile_id = ${profileId}
    WHERE c.id = ${conversationId}`);
  return row?.peer ?? null;
}

/** A profile one may chat with: active, with a live account. */
export async function chatProfileRow(db: Database, profileId: number): Promise<ChatProfileRow | undefined> {
  return db.get<ChatProfileRow>(sql`
    SELECT ${PROFILE_COLUMNS} FROM profiles p JOIN users u ON u.id = p.user_id LEFT JOIN photos ph ON ph.id = p.main_photo_id
    WHERE p.id = ${profileId} AND p.status = 'active' AND ${accountIsLive(sql`u.status`)}`);
}

/** Messages up to this id were removed for the member (0 when none). */
export async function hiddenBeforeOf(db: Database, conversationId: number, profileId: number): Promise<number> {
  const row = await db.get<{ hidden: number }>(sql`SELECT hidden_before_id AS hidden FROM conversation_members WHERE conversation_id = ${conversationId} AND profile_id = ${profileId}`);
  return row?.hidden ?? 0;
}

/** Who a socket is opened to: their name, whether they blocked the member; the member's own name and whether they are premium. */
export async function socketPeerRow(db: Database, peer: number, profileId: number, userId: number) {
  return db.get<{ name: string; own_name: string; paid_user: number; blocked_me: number }>(sql`
    SELECT p.name, (SELECT name FROM profiles WHERE id = ${profileId}) AS own_name, (SELECT paid_user FROM users WHERE id = ${userId}) AS paid_user,
           EXISTS (SELECT 1 FROM blocks WHERE blocker_id = p.id AND blocked_id = ${profileId}) AS blocked_me
    FROM profiles p JOIN users u ON u.id = p.user_id
    WHERE p.id = ${peer} AND p.status = 'active' AND ${accountIsLive(sql`u.status`)}`);
}

type RemovedConversation = { id: number; profileA: number; profileB: number };

/**
 * Remove conversations for the member (the other member keeps theirs): by conversation, or every
 * conversation with a profile. Their messages so far are hidden for them and count as read.
 */
export async function removeConversations(db: Database, profileId: number, target: { conversationId: number } | { profileId: number }, now: number): Promise<RemovedConversation[]> {
  const rows =
    "conversationId" in target
      ? await db.all<{ id: number; profile_a: number; profile_b: number }>(sql`
          SELECT c.id, c.profile_a, c.profile_b FROM conversations c
          WHERE c.id = ${target.conversationId} AND EXISTS (SELECT 1 FROM conversation_members WHERE conversation_id = c.id AND profile_id = ${profileId})`)
      : await db.all<{ id: number; profile_a: number; profile_b: number }>(sql`
          SELECT id, profile_a, profile_b FROM conversations WHERE profile_a = ${pairOf(profileId, target.profileId)[0]} AND profile_b = ${pairOf(profileId, target.profileId)[1]}`);
  if (rows.length === 0) return [];
  await batch(
    db,
    rows.map(
      (r) => sql`
        UPDATE conversation_members SET removed_at = ${now}, unread_count = 0,
               hidden_before_id = COALESCE((SELECT last_message_id FROM conversations WHERE id = ${r.id}), 0)
        WHERE conversation_id = ${r.id} AND profile_id = ${profileId}`,
    ),
  );
  return rows.map((r) => ({ id: r.id, profileA: r.profile_a, profileB: r.profile_b }));
}

/** The conversations (with their pairs) the given profiles are in. */
export async function conversationsOfProfiles(db: Database, profileIds: readonly number[]): Promise<{ id: number; profileId: number; profileA: number; profileB: number }[]> {
  if (profileIds.length === 0) return [];
  const rows = await db.all<{ id: number; profile_id: number; profile_a: number; profile_b: number }>(sql`
    SELECT c.id, cm.profile_id, c.profile_a, c.profile_b FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation_id
    WHERE cm.profile_id IN (${sql.join(profileIds.map((id) => sql`${id}`), sql`, `)}) ORDER BY c.id`);
  return rows.map((r) => ({ id: r.id, profileId: r.profile_id, profileA: r.profile_a, profileB: r.profile_b }));
}

/** The profiles of the given accounts. */
export async function profilesOfUsers(db: Database, userIds: readonly number[]): Promise<{ id: number; userId: number }[]> {
  if (userIds.length === 0) return [];
  const rows = await db.all<{ id: number; user_id: number }>(sql`SELECT id, user_id FROM profiles WHERE user_id IN (${sql.join(userIds.map((id) => sql`${id}`), sql`, `)})`);
  return rows.map((r) => ({ id: r.id, userId: r.user_id }));
}
