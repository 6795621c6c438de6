/**
 * The messages of one conversation in its Durable Object's own SQLite storage (`ctx.storage.sql`):
 * the schema with its migrations, and every query the object runs on it. Only the conversation's
 * object opens this storage, one step at a time, so these functions are synchronous.
 *
 * A message is written `recorded = 0` before its charge and the conversation's summary go to D1,
 * and becomes `recorded = 1` once D1 has them (docs/decisions/0015). Only recorded messages are
 * shown, counted or exported; an unrecorded one is settled against D1 when the object next works.
 * A message paid from the conversation's credit hold is written recorded at once, with its D1 side
 * marked on its row (`d1_sender_user`, the journal) until D1 has it (docs/decisions/0021).
 */
import type { MessageKind } from "../../shared/chat";

/** A message with its chat photo's keys, as both D1's old messages table and the object's storage hold it. */
export type MessageRow = {
  id: number;
  sender_id: number;
  client_id: string;
  kind: MessageKind;
  body: string | null;
  gift: string | null;
  photo_id: number | null;
  photo_key: string | null;
  photo_thumb_key: string | null;
  photo_blur_key: string | null;
  photo_width: number | null;
  photo_height: number | null;
  credits_charged: number;
  free: number;
  created_at: number;
};

/**
 * A stored message, as the views need it: `recorded` once D1 has its charge and summary;
 * `removed_at` once a moderator removed it (its text, gift and photo gone, its charge kept).
 */
export type StoredMessage = MessageRow & { recorded: number; removed_at?: number | null };

/** Whether a moderator removed the message. */
export const isRemoved = (m: Pick<StoredMessage, "removed_at">): boolean => (m.removed_at ?? null) !== null;

export type NewStoredMessage = Omit<MessageRow, "id">;

/** Every column of a message row, in the table's order (the AUTOINCREMENT rebuild copies them all). */
const STORED_COLUMNS_ALL = `id, sender_id, client_id, kind, body, gift, photo_id, photo_key, photo_thumb_key, photo_blur_key, photo_width, photo_height, credits_charged, free, created_at, recorded, d1_sender_user, removed_at`;

/** Each entry brings the storage from the version before it to its own; never change an entry, add one. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE messages (
     id INTEGER PRIMARY KEY,
     sender_id INTEGER NOT NULL,
     client_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     body TEXT,
     gift TEXT,
     photo_id INTEGER,
     photo_key TEXT,
     photo_thumb_key TEXT,
     photo_blur_key TEXT,
     photo_width INTEGER,
     photo_height INTEGER,
     credits_charged INTEGER NOT NULL DEFAULT 0,
     free INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     recorded INTEGER NOT NULL DEFAULT 1
   );
   CREATE UNIQUE INDEX messages_client_idx ON messages (sender_id, client_id);
   CREATE INDEX messages_unrecorded_idx ON messages (id) WHERE recorded = 0;
   CREATE TABLE members (
     profile_id INTEGER PRIMARY KEY,
     last_read_message_id INTEGER NOT NULL DEFAULT 0,
     unread_count INTEGER NOT NULL DEFAULT 0
   );`,
  // What D1 must still record of messages acknowledged before it heard of them (docs/decisions/0021).
  `CREATE TABLE d1_journal (
     message_id INTEGER PRIMARY KEY,
     sender_id INTEGER NOT NULL,
     credits INTEGER NOT NULL,
     record TEXT NOT NULL
   );`,
  // A message paid from the hold carries its pending D1 side itself: the sender's account
  // (d1_sender_user), null once D1 has recorded it; the rest of the D1 side is the message
  // (docs/decisions/0021). One row less per such send. The journal's rows move over.
  `ALTER TABLE messages ADD COLUMN d1_sender_user INTEGER;
   CREATE INDEX messages_d1_pending_idx ON messages (id) WHERE d1_sender_user IS NOT NULL;
   UPDATE messages SET d1_sender_user = (SELECT json_extract(j.record, '$.senderUserId') FROM d1_journal j WHERE j.message_id = messages.id)
     WHERE id IN (SELECT message_id FROM d1_journal);
   DROP TABLE d1_journal;`,
  // Whether a chat photo was sent here (hasImageOf, asked on every view of one) without reading every message.
  `CREATE INDEX messages_photo_idx ON messages (photo_id) WHERE photo_id IS NOT NULL;`,
  // A message a moderator removed keeps its row (its id, sender, kind, charge and time) with this mark (docs/decisions/0041).
  `ALTER TABLE messages ADD COLUMN removed_at INTEGER;`,
  // Message ids are never reused (docs/decisions/0048): a report, a removal or a read mark that names
  // a message deleted since (an unrecorded send given up, a deleted sender's messages) must not name
  // the next one. AUTOINCREMENT, its sequence above every id this storage still names.
  `CREATE TABLE messages_once (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     sender_id INTEGER NOT NULL,
     client_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     body TEXT,
     gift TEXT,
     photo_id INTEGER,
     photo_key TEXT,
     photo_thumb_key TEXT,
     photo_blur_key TEXT,
     photo_width INTEGER,
     photo_height INTEGER,
     credits_charged INTEGER NOT NULL DEFAULT 0,
     free INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     recorded INTEGER NOT NULL DEFAULT 1,
     d1_sender_user INTEGER,
     removed_at INTEGER
   );
   INSERT INTO messages_once (${STORED_COLUMNS_ALL}) SELECT ${STORED_COLUMNS_ALL} FROM messages ORDER BY id;
   DROP TABLE messages;
   ALTER TABLE messages_once RENAME TO messages;
   CREATE UNIQUE INDEX messages_client_idx ON messages (sender_id, client_id);
   CREATE INDEX messages_unrecorded_idx ON messages (id) WHERE recorded = 0;
   CREATE INDEX messages_d1_pending_idx ON messages (id) WHERE d1_sender_user IS NOT NULL;
   CREATE INDEX messages_photo_idx ON messages (photo_id) WHERE photo_id IS NOT NULL;
   INSERT INTO sqlite_sequence (name, seq) SELECT 'messages', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'messages');
   UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT MAX(id) FROM messages), 0), COALESCE((SELECT MAX(last_read_message_id) FROM members), 0))
     WHERE name = 'messages';`,
];

const VERSION_KEY = "schema_version";

/** Bring the object's storage to the newest schema (called in the constructor, under blockConcurrencyWhile). */
export function migrateConversationStore(storage: DurableObjectStorage): void {
  const done = storage.kv.get<number>(VERSION_KEY) ?? 0;
  if (done >= MIGRATIONS.length) return;
  storage.transactionSync(() => {
    for (const step of MIGRATIONS.slice(done)) storage.sql.exec(step);
    storage.kv.put(VERSION_KEY, MIGRATIONS.length);
  });
}

const COLUMNS = `id, sender_id, client_id, kind, body, gift, photo_id, photo_key, photo_thumb_key, photo_blur_key, photo_width, photo_height, credits_charged, free, created_at, recorded`;
const STORED_COLUMNS = `${COLUMNS}, removed_at`;

/** A new message's values in the order of COLUMNS after `id`, all but `recorded`. */
function fieldValues(m: NewStoredMessage) {
  return [
    m.sender_id,
    m.client_id,
    m.kind,
    m.body,
    m.gift,
    m.photo_id,
    m.photo_key,
    m.photo_thumb_key,
    m.photo_blur_key,
    m.photo_width,
    m.photo_height,
    m.credits_charged,
    m.free,
    m.created_at,
  ];
}

/**
 * A new message's row, its id given by SQLite in the same statement (AUTOINCREMENT left null): ids
 * count from 1, follow the order of the writes and are never reused after a delete. Null,
 * with nothing written, when the sender stored a message under the same client id before (a retry:
 * see messageByClientId). The retry is looked for first: an insert that meets the unique index still
 * uses up an AUTOINCREMENT id, and a retry must not leave a gap before the next message.
 */
function insertNew(sql: SqlStorage, m: NewStoredMessage, recorded: 0 | 1, senderUserId: number | null): number | null {
  const retry = sql
    .exec("SELECT 1 FROM messages WHERE sender_id = ? AND client_id = ?", m.sender_id, m.client_id)
    .toArray();
  if (retry.length > 0) return null;
  return (
    sql
      .exec<{ id: number }>(
        `INSERT INTO messages (${COLUMNS}, d1_sender_user) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (sender_id, client_id) DO NOTHING RETURNING id`,
        ...fieldValues(m),
        recorded,
        senderUserId,
      )
      .toArray()[0]?.id ?? null
  );
}

/** Write a message before its D1 side is stored: invisible until markRecorded. Null: its client id was used before (nothing written). */
export function insertUnrecorded(sql: SqlStorage, m: NewStoredMessage): StoredMessage | null {
  const id = insertNew(sql, m, 0, null);
  return id === null ? null : { ...m, id, recorded: 0 };
}

/** D1 has the message's charge and summary: it counts from now on, one more unread for the recipient. */
export function markRecorded(storage: DurableObjectStorage, id: number, recipientId: number): number {
  return storage.transactionSync(() => {
    storage.sql.exec("UPDATE messages SET recorded = 1 WHERE id = ? AND recorded = 0", id);
    storage.sql.exec(
      `INSERT INTO members (profile_id, unread_count) VALUES (?1, 1)
       ON CONFLICT (profile_id) DO UPDATE SET unread_count = unread_count + 1`,
      recipientId,
    );
    return unreadCountOf(storage.sql, recipientId);
  });
}

/**
 * A message paid from the conversation's hold, stored and counted at once (it is acknowledged before
 * D1 hears of it), marked as waiting for D1 by its sender's account. Two statements and no savepoint
 * of their own: they run in the object's implicit transaction with nothing awaited between them, so
 * they commit together, in the one write the ack waits for. The insert goes first: a client id seen
 * before leaves it undone, and then nothing is written (null). Returns the message with its id, and
 * the recipient's unread count.
 */
export function insertAcknowledged(
  sql: SqlStorage,
  m: NewStoredMessage,
  senderUserId: number,
  recipientId: number,
): { message: StoredMessage; unread: number } | null {
  const id = insertNew(sql, m, 1, senderUserId);
  if (id === null) return null;
  const message: StoredMessage = { ...m, id, recorded: 1 };
  const unread = sql
    .exec<{ unread_count: number }>(
      `INSERT INTO members (profile_id, unread_count) VALUES (?1, 1)
       ON CONFLICT (profile_id) DO UPDATE SET unread_count = unread_count + 1 RETURNING unread_count`,
      recipientId,
    )
    .one().unread_count;
  return { message, unread };
}

/** A message whose D1 side waits (the journal): what D1 must record of it. */
export type JournalEntry = Pick<
  StoredMessage,
  "id" | "sender_id" | "kind" | "body" | "photo_id" | "credits_charged" | "created_at"
> & { sender_user_id: number };

/** What D1 must still record (after message `after`, which D1 is known to have), oldest first. */
export function journalEntries(sql: SqlStorage, after: number): JournalEntry[] {
  return sql
    .exec<JournalEntry>(
      "SELECT id, sender_id, kind, body, photo_id, credits_charged, created_at, d1_sender_user AS sender_user_id FROM messages WHERE d1_sender_user IS NOT NULL AND id > ? ORDER BY id",
      after,
    )
    .toArray();
}

/** D1 has recorded every message up to this id. */
export function dropJournal(sql: SqlStorage, upToId: number): void {
  sql.exec("UPDATE messages SET d1_sender_user = NULL WHERE d1_sender_user IS NOT NULL AND id <= ?", upToId);
}

/**
 * Credits of a sender's messages D1 has not charged yet (after message `after`). Read through the
 * index of the marked rows (a handful): left to itself SQLite takes the sender's index and walks
 * every message they ever wrote here.
 */
export function journalCredits(sql: SqlStorage, senderId: number, after: number): number {
  return sql
    .exec<{ n: number }>(
      "SELECT COALESCE(SUM(credits_charged), 0) AS n FROM messages INDEXED BY messages_d1_pending_idx WHERE d1_sender_user IS NOT NULL AND id > ? AND sender_id = ?",
      after,
      senderId,
    )
    .one().n;
}

/** D1 refused or never got the message's side: the message was never sent. */
export function discardUnrecorded(sql: SqlStorage, id: number): void {
  sql.exec("DELETE FROM messages WHERE id = ? AND recorded = 0", id);
}

/** Messages whose D1 side is not known to be stored (left by an eviction or a failed call), oldest first. */
export function unrecordedMessages(sql: SqlStorage): StoredMessage[] {
  return sql.exec<StoredMessage>(`SELECT ${STORED_COLUMNS} FROM messages WHERE recorded = 0 ORDER BY id`).toArray();
}

/** The message a sender stored under a client id (recorded or not), if any. */
export function messageByClientId(sql: SqlStorage, senderId: number, clientId: string): StoredMessage | null {
  return (
    sql
      .exec<StoredMessage>(
        `SELECT ${STORED_COLUMNS} FROM messages WHERE sender_id = ? AND client_id = ?`,
        senderId,
        clientId,
      )
      .toArray()[0] ?? null
  );
}

/** One page of history, oldest first: the newest, or the one before message `before`; nothing up to `hiddenBeforeId`. */
export function historyPage(
  sql: SqlStorage,
  hiddenBeforeId: number,
  before: number | null,
  size: number,
): { rows: StoredMessage[]; hasMore: boolean } {
  const rows = sql
    .exec<StoredMessage>(
      `SELECT ${STORED_COLUMNS} FROM messages WHERE recorded = 1 AND id > ? AND id < ? ORDER BY id DESC LIMIT ?`,
      hiddenBeforeId,
      before ?? Number.MAX_SAFE_INTEGER,
      size + 1,
    )
    .toArray();
  return { rows: rows.slice(0, size).toReversed(), hasMore: rows.length > size };
}

/** Whether a chat photo was sent here. */
export function hasImageOf(sql: SqlStorage, photoId: number): boolean {
  return (
    sql
      .exec<{ found: number }>(
        "SELECT EXISTS (SELECT 1 FROM messages WHERE photo_id = ? AND kind = 'image' AND recorded = 1) AS found",
        photoId,
      )
      .one().found === 1
  );
}

/**
 * A moderator removed a recorded message (docs/decisions/0041): its text, gift and photo go, a mark
 * says when; its sender, kind, charge and time stay, so money and counts are as they were. Once:
 * what was removed (for the decision to keep, docs/decisions/0059), or null when there is no such
 * message or it was removed before (nothing changed).
 */
export function removeMessage(sql: SqlStorage, id: number, now: number): RemovedContent | null {
  const before = sql
    .exec<RemovedContent>(
      `SELECT ${REMOVED_COLUMNS} FROM messages WHERE id = ? AND recorded = 1 AND removed_at IS NULL`,
      id,
    )
    .toArray()[0];
  if (!before) return null;
  sql.exec(
    `UPDATE messages SET body = NULL, gift = NULL, photo_id = NULL, photo_key = NULL, photo_thumb_key = NULL, photo_blur_key = NULL,
            photo_width = NULL, photo_height = NULL, removed_at = ?
     WHERE id = ? AND removed_at IS NULL`,
    now,
    id,
  );
  return before;
}

/** What a removal takes from a message: kept with the decision, so a reversed appeal puts it back. */
export type RemovedContent = Pick<
  MessageRow,
  | "id"
  | "kind"
  | "body"
  | "gift"
  | "photo_id"
  | "photo_key"
  | "photo_thumb_key"
  | "photo_blur_key"
  | "photo_width"
  | "photo_height"
>;
const REMOVED_COLUMNS =
  "id, kind, body, gift, photo_id, photo_key, photo_thumb_key, photo_blur_key, photo_width, photo_height";

/** Put a removed message's content back (an appeal reversed the removal); false when it is not removed. */
export function restoreMessage(sql: SqlStorage, kept: RemovedContent): boolean {
  return (
    sql
      .exec(
        `UPDATE messages SET body = ?, gift = ?, photo_id = ?, photo_key = ?, photo_thumb_key = ?, photo_blur_key = ?,
                photo_width = ?, photo_height = ?, removed_at = NULL
         WHERE id = ? AND removed_at IS NOT NULL RETURNING id`,
        kept.body,
        kept.gift,
        kept.photo_id,
        kept.photo_key,
        kept.photo_thumb_key,
        kept.photo_blur_key,
        kept.photo_width,
        kept.photo_height,
        kept.id,
      )
      .toArray().length > 0
  );
}

/** Every recorded message, oldest first (a member's data export). */
export function allMessages(sql: SqlStorage): StoredMessage[] {
  return sql.exec<StoredMessage>(`SELECT ${STORED_COLUMNS} FROM messages WHERE recorded = 1 ORDER BY id`).toArray();
}

export function unreadCountOf(sql: SqlStorage, profileId: number): number {
  return (
    sql.exec<{ n: number }>("SELECT unread_count AS n FROM members WHERE profile_id = ?", profileId).toArray()[0]?.n ??
    0
  );
}

/** A member's read mark: messages up to it have been seen; null before they read any. */
export function readMarkOf(sql: SqlStorage, profileId: number): number | null {
  const mark =
    sql
      .exec<{ id: number }>("SELECT last_read_message_id AS id FROM members WHERE profile_id = ?", profileId)
      .toArray()[0]?.id ?? 0;
  return mark > 0 ? mark : null;
}

/**
 * The member has seen the conversation up to `messageId` (never past the newest message, never
 * back): the mark moves, the unread count becomes what the other member wrote after it.
 */
export function markRead(
  storage: DurableObjectStorage,
  profileId: number,
  messageId: number,
): { unread: number; readId: number } {
  return storage.transactionSync(() => {
    const newest =
      storage.sql.exec<{ id: number | null }>("SELECT MAX(id) AS id FROM messages WHERE recorded = 1").one().id ?? 0;
    const mark = Math.max(readMarkOf(storage.sql, profileId) ?? 0, Math.min(messageId, newest));
    const unread = storage.sql
      .exec<{ n: number }>(
        "SELECT COUNT(*) AS n FROM messages WHERE recorded = 1 AND sender_id != ? AND id > ?",
        profileId,
        mark,
      )
      .one().n;
    storage.sql.exec(
      `INSERT INTO members (profile_id, last_read_message_id, unread_count) VALUES (?1, ?2, ?3)
       ON CONFLICT (profile_id) DO UPDATE SET last_read_message_id = ?2, unread_count = ?3`,
      profileId,
      mark,
      unread,
    );
    return { unread, readId: mark };
  });
}

/**
 * What the send rules need from the conversation itself: the sender's free messages here (counted
 * only when `countFree`: a member who has paid never sends free, and the count reads all their
 * messages), whether the other member wrote here.
 */
export function conversationFacts(
  sql: SqlStorage,
  senderId: number,
  recipientId: number,
  countFree = true,
): { freeUsedHere: number; recipientHasWritten: boolean } {
  const row = sql
    .exec<{ free: number; written: number }>(
      `SELECT CASE WHEN ?3 THEN (SELECT COUNT(*) FROM messages WHERE sender_id = ?1 AND free = 1 AND recorded = 1) ELSE 0 END AS free,
              EXISTS (SELECT 1 FROM messages WHERE sender_id = ?2 AND recorded = 1) AS written`,
      senderId,
      recipientId,
      countFree ? 1 : 0,
    )
    .one();
  return { freeUsedHere: row.free, recipientHasWritten: row.written === 1 };
}

/** An erased member's messages and read mark go; the other member's unread count follows. Returns how many messages went. */
export function eraseMember(storage: DurableObjectStorage, profileId: number): number {
  return storage.transactionSync(() => {
    const erased = storage.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages WHERE sender_id = ?", profileId)
      .one().n;
    storage.sql.exec("DELETE FROM messages WHERE sender_id = ?", profileId);
    storage.sql.exec("DELETE FROM members WHERE profile_id = ?", profileId);
    storage.sql.exec(
      `UPDATE members SET unread_count = (SELECT COUNT(*) FROM messages m WHERE m.recorded = 1 AND m.sender_id != members.profile_id AND m.id > members.last_read_message_id)`,
    );
    return erased;
  });
}
