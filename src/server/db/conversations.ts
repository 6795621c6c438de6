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
import { unheldCredits } from "./ledger";

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

/** What the send rules read in D1: the sender's account, the recipient, blocks, the free allowance used elsewhere. */
export type SendFactsRow = {
  sender_status: string;
  credits: number;
  paid_user: number;
  recipient_name: string | null;
  recipient_status: string | null;
  recipient_profile_status: string | null;
  recipient_invisible: number | null;
  blocked_by_me: number;
  blocked_me: number;
  free_conversations_used: number;
  /** Credits of the sender that other conversations hold (docs/decisions/0021): not spendable here. */
  held_elsewhere: number;
};

export async function sendFactsRow(db: Database, senderUserId: number, sender: number, recipient: number, conversationId: number | null): Promise<SendFactsRow | undefined> {
  return db.get<SendFactsRow>(sql`
    SELECT u.status AS sender_status, u.credits, u.paid_user,
           rp.name AS recipient_name, ru.status AS recipient_status, rp.status AS recipient_profile_status, ru.invisible AS recipient_invisible,
           EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${sender} AND blocked_id = ${recipient}) AS blocked_by_me,
           EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ${recipient} AND blocked_id = ${sender}) AS blocked_me,
           (SELECT COUNT(*) FROM conversation_members WHERE profile_id = ${sender} AND free_messages_used > 0) AS free_conversations_used,
           (SELECT COALESCE(SUM(credits), 0) FROM chat_credit_holds WHERE user_id = u.id AND conversation_id != ${conversationId ?? 0}) AS held_elsewhere
    FROM users u
    LEFT JOIN profiles rp ON rp.id = ${recipient}
    LEFT JOIN users ru ON ru.id = rp.user_id
    WHERE u.id = ${senderUserId}`);
}

/** One message's side in D1, written in one batch by the conversation's object. */
export type SendRecord = {
  conversationId: number;
  /** The message's id in the object; D1 records ids in increasing order only. */
  messageId: number;
  /** Unique to this attempt: the batch's later statements run only if its first one recorded this write. */
  write: string;
  senderProfileId: number;
  senderUserId: number;
  recipientProfileId: number;
  kind: MessageKind;
  /** The text's start for the chat list (text messages). */
  preview: string | null;
  credits: number;
  free: boolean;
  /** The ledger reason of a paid message. */
  reason: string;
  photoId: number | null;
  /** From the object: facts of this conversation the standing depends on. */
  recipientHasWritten: boolean;
  freeUsedHere: number;
  allowance: { freeMessages: number; freeConversations: number };
  /** The recipient's unread count with this message (the object counts it). */
  recipientUnread: number;
  now: number;
  /**
   * Acknowledged already, paid from the conversation's hold (docs/decisions/0021): recorded whatever
   * the standing is now (the hold was only taken while it allowed sends), charged from the hold.
   */
  fromHold?: boolean;
};

/** A member's hold in a conversation, topped up by a batch: by up to `want` credits, never more than half of what nobody holds. */
export type HoldRequest = {
  conversationId: number;
  userId: number;
  /** The standing a send needs (a paid one): no hold is taken without it. */
  standing: Pick<SendRecord, "senderUserId" | "senderProfileId" | "recipientProfileId" | "recipientHasWritten">;
  /** Give the hold back to the balance first (a send here paid from the balance). */
  release: boolean;
  want: number;
  /** The least worth holding (one message's price). */
  least: number;
  now: number;
};

/** A hold after the batch, the balance it is part of, and whether the standing allowed it. */
export type HoldState = { userId: number; hold: number; credits: number; allowed: boolean };

export type SendRecordResult =
  /** Every message of the group is recorded; the sender's balance after each, and the holds asked for. */
  | { recorded: true; credits: number[]; holds?: HoldState[] }
  | { insufficientCredits: true }
  /** The members' standing no longer allows a send (a block, a status, the allowance): nothing written. */
  | { standingChanged: true }
  /** A message id was recorded before (an earlier attempt whose answer was lost): nothing written. */
  | { alreadyRecorded: true };

/** The ledger reference of a chat message: unique, so a message is never charged twice. */
const chatLedgerRef = (conversationId: number, messageId: number) => `chat:${conversationId}:${messageId}`;

/** Whether the members' standing allows a send: the rules of chat-rules.ts again, in SQL. */
function sendAllowed(s: Pick<SendRecord, "senderUserId" | "senderProfileId" | "recipientProfileId" | "recipientHasWritten"> & Partial<SendRecord>): SQL {
  const free = s.free ? 1 : 0;
  const c = s.conversationId ?? 0;
  return sql`
    EXISTS (SELECT 1 FROM users WHERE id = ${s.senderUserId} AND ${accountIsLive(sql`status`)})
    AND EXISTS (SELECT 1 FROM profiles rp JOIN users ru ON ru.id = rp.user_id WHERE rp.id = ${s.recipientProfileId} AND rp.status = 'active' AND ru.status = 'active'
                AND (ru.invisible = 0 OR ${s.recipientHasWritten ? 1 : 0} = 1))
    AND ${notBlockedWith(s.senderProfileId, s.recipientProfileId)}
    AND (${free} = 0 OR ((SELECT paid_user FROM users WHERE id = ${s.senderUserId}) = 0
         AND ${s.freeUsedHere ?? 0} < ${s.allowance?.freeMessages ?? 0}
         AND (${s.freeUsedHere ?? 0} > 0
              OR (SELECT COUNT(*) FROM conversation_members WHERE profile_id = ${s.senderProfileId} AND free_messages_used > 0 AND conversation_id != ${c}) < ${s.allowance?.freeConversations ?? 0})))
    AND (${s.photoId ?? null} IS NULL OR EXISTS (SELECT 1 FROM chat_photos WHERE id = ${s.photoId ?? null} AND profile_id = ${s.senderProfileId}))`;
}

/** The statements of one message's D1 side; the last one reads the sender's balance back. */
function sendStatements(s: SendRecord): SQL[] {
  const c = s.conversationId;
  const free = s.free ? 1 : 0;
  const standing = s.fromHold ? sql`1` : sendAllowed(s);
  const ours = sql`EXISTS (SELECT 1 FROM conversations WHERE id = ${c} AND last_message_write = ${s.write})`;
  const statements = [
    // A standing that no longer allows the send sets no id, which trigger conversations_send_allowed refuses.
    sql`
      UPDATE conversations SET last_message_id = CASE WHEN ${standing} THEN ${s.messageId} END, last_message_at = ${s.now},
             last_message_sender_id = ${s.senderProfileId}, last_message_kind = ${s.kind}, last_message_preview = ${s.preview}, last_message_write = ${s.write}
      WHERE id = ${c}`,
    sql`
      UPDATE conversation_members SET last_message_at = ${s.now}, removed_at = NULL,
             unread_count = CASE WHEN profile_id = ${s.recipientProfileId} THEN ${s.recipientUnread} ELSE unread_count END,
             free_messages_used = free_messages_used + (profile_id = ${s.senderProfileId} AND ${free} = 1)
      WHERE conversation_id = ${c} AND ${ours}`,
  ];
  if (s.credits > 0) {
    if (s.fromHold) statements.push(sql`UPDATE chat_credit_holds SET credits = credits - ${s.credits}, updated_at = ${s.now} WHERE user_id = ${s.senderUserId} AND conversation_id = ${c} AND ${ours}`);
    statements.push(
      sql`UPDATE users SET credits = credits - ${s.credits} WHERE id = ${s.senderUserId} AND ${ours}`,
      sql`
        INSERT INTO credit_ledger (user_id, delta, reason, ref, created_at)
        SELECT ${s.senderUserId}, ${-s.credits}, ${s.reason}, ${chatLedgerRef(c, s.messageId)}, ${s.now} WHERE ${ours}`,
    );
  }
  if (s.photoId !== null) statements.push(sql`UPDATE chat_photos SET sent_in_conversation_id = COALESCE(sent_in_conversation_id, ${c}) WHERE id = ${s.photoId} AND ${ours}`);
  statements.push(sql`SELECT (SELECT credits FROM users WHERE id = ${s.senderUserId}) AS credits, ${ours} AS recorded`);
  return statements;
}

/** A member's hold here: given back to the balance first when asked, then topped up; the last statement reads it back. */
function holdStatements(h: HoldRequest): { release: SQL[]; topUp: SQL[] } {
  const key = sql`user_id = ${h.userId} AND conversation_id = ${h.conversationId}`;
  const allowed = sendAllowed(h.standing);
  const amount = sql`MIN(${h.want}, ${unheldCredits(h.userId)} / 2)`;
  return {
    release: h.release ? [sql`UPDATE chat_credit_holds SET credits = 0, updated_at = ${h.now} WHERE ${key}`] : [],
    topUp: [
      sql`INSERT INTO chat_credit_holds (user_id, conversation_id, credits, updated_at)
          SELECT ${h.userId}, ${h.conversationId}, 0, ${h.now} WHERE ${h.want} >= ${h.least} ON CONFLICT (user_id, conversation_id) DO NOTHING`,
      sql`UPDATE chat_credit_holds SET credits = credits + ${amount}, updated_at = ${h.now}
          WHERE ${key} AND ${h.want} >= ${h.least} AND ${amount} >= ${h.least} AND ${allowed}`,
      sql`SELECT COALESCE((SELECT credits FROM chat_credit_holds WHERE ${key}), 0) AS hold, (SELECT credits FROM users WHERE id = ${h.userId}) AS credits, ${allowed} AS allowed`,
    ],
  };
}

/**
 * Record the D1 side of one or more messages of a conversation, in their order, in one batch (one
 * transaction): for each, the conversation's last message (only while the members' standing allows
 * the send: live accounts, the recipient active and visible or a writer here, no block either way, a
 * free message within the allowance, an image's photo the sender's own; a message paid from a hold
 * was acknowledged already and is recorded regardless), both members' summaries, the charge with
 * its ledger entry (from the hold for those), the photo marked sent, and the balance read back; then
 * the senders' holds as asked (docs/decisions/0021). A standing that no longer allows a send (trigger
 * conversations_send_allowed), a balance below zero or below what is held (triggers
 * users_credits_not_negative, users_credits_cover_holds), a message id recorded before (trigger
 * conversations_message_once) or a ledger reference used before aborts all of it: the group is
 * recorded whole or not at all.
 */
export async function recordSends(db: Database, sends: readonly SendRecord[], holds: readonly HoldRequest[] = []): Promise<SendRecordResult> {
  const perSend = sends.map(sendStatements);
  const perHold = holds.map(holdStatements);
  // Holds given back first, so a charge from the balance may take what this conversation held.
  const releases = perHold.flatMap((h) => h.release);
  try {
    const results = await batch(db, [...releases, ...perSend.flat(), ...perHold.flatMap((h) => h.topUp)]);
    const credits: number[] = [];
    let at = releases.length;
    for (const statements of perSend) {
      at += statements.length;
      const row = results[at - 1]?.results[0] as { credits: number; recorded: number } | undefined;
      if (!row || row.recorded !== 1) throw new Error("chat send: a statement of a recorded send did not apply");
      credits.push(row.credits);
    }
    const states: HoldState[] = [];
    for (const [i, { topUp }] of perHold.entries()) {
      at += topUp.length;
      const row = results[at - 1]!.results[0] as { hold: number; credits: number; allowed: number };
      states.push({ userId: holds[i]!.userId, hold: row.hold, credits: row.credits, allowed: row.allowed === 1 });
    }
    return { recorded: true, credits, ...(holds.length ? { holds: states } : {}) };
  } catch (error) {
    const text = errorText(error);
    if (text.includes("insufficient_credits")) return { insufficientCredits: true };
    if (text.includes("chat_standing_changed")) return { standingChanged: true };
    if (text.includes("message_already_recorded") || (text.includes("UNIQUE") && text.includes("credit_ledger"))) return { alreadyRecorded: true };
    throw error;
  }
}

/** Give a conversation's holds back to the balances (of one member, or all); only its object calls this, with nothing of theirs waiting to be recorded. */
export async function returnHolds(db: Database, conversationId: number, userId?: number): Promise<void> {
  await db.run(sql`DELETE FROM chat_credit_holds WHERE conversation_id = ${conversationId} AND (${userId ?? null} IS NULL OR user_id = ${userId ?? null})`);
}

/** The pairs of the other conversations holding a member's credits. */
export async function holdingConversations(db: Database, userId: number, conversationId: number | null): Promise<{ profileA: number; profileB: number }[]> {
  const rows = await db.all<{ profile_a: number; profile_b: number }>(sql`
    SELECT c.profile_a, c.profile_b FROM chat_credit_holds h JOIN conversations c ON c.id = h.conversation_id
    WHERE h.user_id = ${userId} AND h.conversation_id != ${conversationId ?? 0} AND h.credits > 0`);
  return rows.map((r) => ({ profileA: r.profile_a, profileB: r.profile_b }));
}

/** The message of an error and of its causes (drizzle wraps D1's error). */
function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && e !== null && parts.length < 5; e = (e as { cause?: unknown }).cause) {
    parts.push(e instanceof Error ? e.message : String(e));
    if (!(e instanceof Error)) break;
  }
  return parts.join(" | ");
}

/** The id of the conversation's last message D1 has recorded (ids are recorded in increasing order only, groups whole). */
export async function lastRecordedId(db: Database, conversationId: number): Promise<number> {
  const row = await db.get<{ last: number | null }>(sql`SELECT last_message_id AS last FROM conversations WHERE id = ${conversationId}`);
  return row?.last ?? 0;
}

/** A member's balance. */
export async function creditsOf(db: Database, userId: number): Promise<number> {
  return (await db.get<{ credits: number }>(sql`SELECT credits FROM users WHERE id = ${userId}`))?.credits ?? 0;
}

/** The member's unread count in the chat list follows the object's (after a read mark). */
export async function setUnreadCount(db: Database, conversationId: number, profileId: number, unread: number): Promise<void> {
  await db.run(sql`UPDATE conversation_members SET unread_count = ${unread} WHERE conversation_id = ${conversationId} AND profile_id = ${profileId}`);
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

/** Whether a member is premium now (has ever paid). */
export async function isPremium(db: Database, profileId: number): Promise<boolean> {
  const row = await db.get<{ paid: number }>(sql`SELECT u.paid_user AS paid FROM profiles p JOIN users u ON u.id = p.user_id WHERE p.id = ${profileId}`);
  return row?.paid === 1;
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
