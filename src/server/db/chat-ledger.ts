/**
 * The chat's ledger in D1 (docs/decisions/0015, 0021, 0031): what the conversations' objects read and
 * write there about sends. The facts the send rules read, each message's D1 side (the conversation's
 * last message under the members' standing, both members' summaries, the charge in the member's
 * rolled-up ledger row of the conversation and day (docs/decisions/0033), the photo marked sent)
 * recorded in one batch with the senders' credit holds, and the holds given back. Only a
 * conversation's object writes these rows about its conversation.
 *
 * Reads and the holds' give-back are drizzle's builder, with `sql` fragments inside it only where the
 * builder has no words for a thing (EXISTS over another table, a correlated count or sum). The batch
 * that records sends is `sql` text, for the CPU it costs on every message (see `batch` below).
 */
import { and, eq, gt, ne, sql, type SQL } from "drizzle-orm";
import { alias, SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { MessageKind } from "../../shared/chat";
import { accountIsLive } from "./accounts";
import { notBlockedWith } from "./blocks";
import type { Database } from "./database";
import { unheldCredits } from "./ledger";
import { blocks, chatCreditHolds, chatPhotos, conversationMembers, conversations, profiles, users } from "./schema";

/** What the send rules read in D1: the sender's account, the recipient, blocks, the free allowance used elsewhere. */
export type SendFactsRow = NonNullable<Awaited<ReturnType<typeof sendFactsRow>>>;

export async function sendFactsRow(
  db: Database,
  senderUserId: number,
  sender: number,
  recipient: number,
  conversationId: number | null,
) {
  const rp = alias(profiles, "rp");
  const ru = alias(users, "ru");
  const blocked = (blocker: number, blockedId: number) =>
    sql<boolean>`EXISTS (SELECT 1 FROM ${blocks} WHERE ${blocks.blockerId} = ${blocker} AND ${blocks.blockedId} = ${blockedId})`.mapWith(
      Boolean,
    );
  return db
    .select({
      senderStatus: users.status,
      /** A moderator's chat restriction or suspension (migration 0038): no sends before it ends. */
      chatRestrictedUntil: users.chatRestrictedUntil,
      suspendedUntil: users.suspendedUntil,
      credits: users.credits,
      paid: users.paidUser,
      recipientName: rp.name,
      recipientStatus: ru.status,
      recipientProfileStatus: rp.status,
      recipientInvisible: ru.invisible,
      blockedByMe: blocked(sender, recipient),
      blockedMe: blocked(recipient, sender),
      // Counts and sums of other tables for the one sender row: correlated sub-selects.
      freeConversationsUsed:
        sql<number>`(SELECT COUNT(*) FROM ${conversationMembers} WHERE ${conversationMembers.profileId} = ${sender} AND ${conversationMembers.freeMessagesUsed} > 0)`.mapWith(
          Number,
        ),
      /** Credits of the sender that other conversations hold (docs/decisions/0021): not spendable here. */
      heldElsewhere:
        sql<number>`(SELECT COALESCE(SUM(${chatCreditHolds.credits}), 0) FROM ${chatCreditHolds} WHERE ${chatCreditHolds.userId} = ${users.id} AND ${chatCreditHolds.conversationId} != ${conversationId ?? 0})`.mapWith(
          Number,
        ),
    })
    .from(users)
    .leftJoin(rp, eq(rp.id, recipient))
    .leftJoin(ru, eq(ru.id, rp.userId))
    .where(eq(users.id, senderUserId))
    .get();
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

/** The ledger reason of a member's chat charges in a conversation on a day, rolled up in one row (docs/decisions/0033). */
export const CHAT_LEDGER_REASON = "chat";

/**
 * The reference of a member's rolled-up chat row: the conversation, the sender and the UTC day of
 * the message (`now` in seconds, the message's own time, so a replay names the same row).
 */
export const chatDayRef = (conversationId: number, senderProfileId: number, now: number) =>
  `chat:${conversationId}:${senderProfileId}:${new Date(now * 1000).toISOString().slice(0, 10)}`;

/** What the standing of a send depends on: the members, and for a free message the allowance. */
export type SendStanding = Pick<
  SendRecord,
  "senderUserId" | "senderProfileId" | "recipientProfileId" | "recipientHasWritten"
> &
  Partial<SendRecord>;

/**
 * Whether the members' standing allows a send: the rules of services/chat-rules.ts again, in SQL, for
 * D1 to check inside the batch that records the send (test/integration/chat-rules-agree.test.ts runs
 * every case through both). A predicate over other tables (EXISTS, correlated counts): `sql` terms.
 */
export function sendAllowed(s: SendStanding): SQL {
  const checks: SQL[] = [
    sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${s.senderUserId} AND ${accountIsLive()})`,
    // Invisible members cannot be messaged, except in a conversation they wrote in themselves.
    sql`EXISTS (SELECT 1 FROM ${profiles} JOIN ${users} ON ${users.id} = ${profiles.userId}
                WHERE ${profiles.id} = ${s.recipientProfileId} AND ${profiles.status} = 'active' AND ${users.status} = 'active'
                  AND (${users.invisible} = 0 OR ${s.recipientHasWritten ? 1 : 0} = 1))`,
    notBlockedWith(s.senderProfileId, s.recipientProfileId),
  ];
  if (s.free) {
    const used = s.freeUsedHere ?? 0;
    const allowance = s.allowance ?? { freeMessages: 0, freeConversations: 0 };
    const conversationsUsedElsewhere = sql`(SELECT COUNT(*) FROM ${conversationMembers}
      WHERE ${conversationMembers.profileId} = ${s.senderProfileId} AND ${conversationMembers.freeMessagesUsed} > 0 AND ${conversationMembers.conversationId} != ${s.conversationId ?? 0})`;
    checks.push(
      sql`(SELECT ${users.paidUser} FROM ${users} WHERE ${users.id} = ${s.senderUserId}) = 0`,
      sql`${used} < ${allowance.freeMessages}`,
      sql`(${used} > 0 OR ${conversationsUsedElsewhere} < ${allowance.freeConversations})`,
    );
  }
  if (s.photoId !== undefined && s.photoId !== null) {
    checks.push(
      sql`EXISTS (SELECT 1 FROM ${chatPhotos} WHERE ${chatPhotos.id} = ${s.photoId} AND ${chatPhotos.profileId} = ${s.senderProfileId})`,
    );
  }
  return and(...checks)!;
}

/**
 * The statements that record a send are `sql` text, bound and run as one D1 batch here, not builder
 * statements: they run for every message on the conversation object's single thread, where the
 * chat's throughput is decided. Rendered by the builder they cost about six times the CPU (measured
 * in node: about 260 µs a message against 40 µs), which showed as a slower burst in `npm run bench`;
 * even `sql` templates naming the schema's columns cost about 1.8 times plain text (some 15 names a
 * message). So this text names tables and columns as D1 has them (docs/decisions/0031). drizzle's
 * own batch takes only builder statements.
 */
const dialect = new SQLiteAsyncDialect();

async function batch(db: Database, statements: readonly SQL[]): Promise<D1Result[]> {
  const client = db.$client;
  return client.batch(
    statements.map((statement) => {
      const query = dialect.sqlToQuery(statement);
      return client.prepare(query.sql).bind(...query.params);
    }),
  );
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
  if (s.credits > 0) statements.push(...chargeStatements(s, ours));
  if (s.photoId !== null)
    statements.push(
      sql`UPDATE chat_photos SET sent_in_conversation_id = COALESCE(sent_in_conversation_id, ${c}) WHERE id = ${s.photoId} AND ${ours}`,
    );
  statements.push(sql`SELECT (SELECT credits FROM users WHERE id = ${s.senderUserId}) AS credits, ${ours} AS recorded`);
  return statements;
}

/**
 * The charge of one message (docs/decisions/0033): the hold it is paid from, the balance, and the
 * member's rolled-up row of the conversation and day, upserted with its count, sum and watermark.
 * Each runs only while the row's watermark is below the message (`uncharged`, read before the row
 * moves it): a charge taken before, in a batch replayed after its answer was lost, does nothing,
 * so the balance and its ledger move together or not at all.
 */
export function chargeStatements(
  s: Pick<
    SendRecord,
    "conversationId" | "messageId" | "senderProfileId" | "senderUserId" | "credits" | "now" | "fromHold"
  >,
  ours: SQL,
): SQL[] {
  const c = s.conversationId;
  const ref = chatDayRef(c, s.senderProfileId, s.now);
  const uncharged = sql`${ours} AND NOT EXISTS (SELECT 1 FROM credit_ledger WHERE reason = ${CHAT_LEDGER_REASON} AND ref = ${ref} AND through_message_id >= ${s.messageId})`;
  return [
    ...(s.fromHold
      ? [
          sql`UPDATE chat_credit_holds SET credits = credits - ${s.credits}, updated_at = ${s.now} WHERE user_id = ${s.senderUserId} AND conversation_id = ${c} AND ${uncharged}`,
        ]
      : []),
    sql`UPDATE users SET credits = credits - ${s.credits} WHERE id = ${s.senderUserId} AND ${uncharged}`,
    // The row's conflict target is the unique (reason, ref) index, partial as the index is.
    sql`
      INSERT INTO credit_ledger (user_id, delta, reason, ref, created_at, messages, through_message_id)
      SELECT ${s.senderUserId}, ${-s.credits}, ${CHAT_LEDGER_REASON}, ${ref}, ${s.now}, 1, ${s.messageId} WHERE ${ours}
      ON CONFLICT (reason, ref) WHERE ref IS NOT NULL DO UPDATE
        SET delta = delta + excluded.delta, messages = messages + 1, through_message_id = excluded.through_message_id
        WHERE through_message_id < excluded.through_message_id`,
  ];
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
 * its rolled-up ledger row (from the hold for those), the photo marked sent, and the balance read back; then
 * the senders' holds as asked (docs/decisions/0021). A standing that no longer allows a send (trigger
 * conversations_send_allowed), a balance below zero or below what is held (triggers
 * users_credits_not_negative, users_credits_cover_holds), a message id recorded before (trigger
 * conversations_message_once) aborts all of it: the group is recorded whole or not at all. A charge
 * D1 took before does nothing again (its rolled-up row's watermark, chargeStatements).
 */
export async function recordSends(
  db: Database,
  sends: readonly SendRecord[],
  holds: readonly HoldRequest[] = [],
): Promise<SendRecordResult> {
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
    if (text.includes("message_already_recorded")) return { alreadyRecorded: true };
    throw error;
  }
}

/** The message of an error and of its causes (drizzle wraps D1's error). */
function errorText(error: unknown): string {
  const parts: string[] = [];
  for (
    let e: unknown = error;
    e !== undefined && e !== null && parts.length < 5;
    e = (e as { cause?: unknown }).cause
  ) {
    parts.push(e instanceof Error ? e.message : String(e));
    if (!(e instanceof Error)) break;
  }
  return parts.join(" | ");
}

/** Give a conversation's holds back to the balances (of one member, or all); only its object calls this, with nothing of theirs waiting to be recorded. */
export async function returnHolds(db: Database, conversationId: number, userId?: number): Promise<void> {
  const conversation = eq(chatCreditHolds.conversationId, conversationId);
  await db
    .delete(chatCreditHolds)
    .where(userId === undefined ? conversation : and(conversation, eq(chatCreditHolds.userId, userId)));
}

/** The pairs of the other conversations holding a member's credits. */
export async function holdingConversations(
  db: Database,
  userId: number,
  conversationId: number | null,
): Promise<{ profileA: number; profileB: number }[]> {
  const rows = await db
    .select({ profileA: conversations.profileA, profileB: conversations.profileB })
    .from(chatCreditHolds)
    .innerJoin(conversations, eq(conversations.id, chatCreditHolds.conversationId))
    .where(
      and(
        eq(chatCreditHolds.userId, userId),
        ne(chatCreditHolds.conversationId, conversationId ?? 0),
        gt(chatCreditHolds.credits, 0),
      ),
    );
  return rows.map((r) => ({ profileA: r.profileA!, profileB: r.profileB! }));
}

/** The id of the conversation's last message D1 has recorded (ids are recorded in increasing order only, groups whole). */
export async function lastRecordedId(db: Database, conversationId: number): Promise<number> {
  const row = await db
    .select({ last: conversations.lastMessageId })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
    .get();
  return row?.last ?? 0;
}

/** The member's unread count in the chat list follows the object's (after a read mark). */
export async function setUnreadCount(
  db: Database,
  conversationId: number,
  profileId: number,
  unread: number,
): Promise<void> {
  await db
    .update(conversationMembers)
    .set({ unreadCount: unread })
    .where(and(eq(conversationMembers.conversationId, conversationId), eq(conversationMembers.profileId, profileId)));
}

/** A moderator removed the message: when it is the chat list's last message, its preview text goes too (docs/decisions/0041). */
export async function forgetRemovedPreview(db: Database, conversationId: number, messageId: number): Promise<void> {
  await db
    .update(conversations)
    .set({ lastMessagePreview: null })
    .where(and(eq(conversations.id, conversationId), eq(conversations.lastMessageId, messageId)));
}
