/**
 * Conversations in D1 (SPEC §3 chat state, §4): one row per pair, each member's summary for the chat
 * list (the unread count, removal, hidden history), and who is in which conversation. What sends
 * read and write here (the charge, the ledger row, the standing, the holds) is in db/chat-ledger.ts;
 * the messages live in each conversation's Durable Object (db/conversation-store.ts), chat photos in
 * db/photos.ts.
 */
import { and, desc, eq, gt, inArray, isNotNull, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { MessageKind } from "../../shared/chat";
import { accountIsLive } from "./accounts";
import { notBlockedWith } from "./blocks";
import type { Database } from "./database";
import { blocks, conversationMembers, conversations, photos, profiles, users } from "./schema";
import { badgeShows } from "./verification";

/** The pair of a conversation: the lower profile id first. */
export function pairOf(one: number, other: number): [number, number] {
  return one < other ? [one, other] : [other, one];
}

const isPair = (a: number, b: number) => and(eq(conversations.profileA, a), eq(conversations.profileB, b));

/** A pair's conversation in D1 (its messages live in the conversation's object). */
export type ConversationRecord = { id: number };

export async function conversationOf(db: Database, one: number, other: number): Promise<ConversationRecord | null> {
  const [a, b] = pairOf(one, other);
  return (await db.select({ id: conversations.id }).from(conversations).where(isPair(a, b)).get()) ?? null;
}

/** The pair's conversation, made with both memberships on its first message (one batch). */
export async function ensureConversation(db: Database, sender: number, recipient: number): Promise<number> {
  const [a, b] = pairOf(sender, recipient);
  // The id the first statement made or found, inside the same batch: a sub-select, which the builder takes as a value.
  const id = sql<number>`(SELECT ${conversations.id} FROM ${conversations} WHERE ${isPair(a, b)})`;
  const member = (profileId: number) =>
    db.insert(conversationMembers).values({ conversationId: id, profileId }).onConflictDoNothing();
  const [, , , found] = await db.batch([
    db
      .insert(conversations)
      .values({ profileA: a, profileB: b, startedBy: sender })
      .onConflictDoNothing({ target: [conversations.profileA, conversations.profileB] }),
    member(a),
    member(b),
    db.select({ id: conversations.id }).from(conversations).where(isPair(a, b)),
  ]);
  return found[0]!.id;
}

/** The other member of a conversation, seen from `profileId` (a CASE over the pair's two columns). */
const otherOf = (profileId: number) =>
  sql<number>`CASE WHEN ${conversations.profileA} = ${profileId} THEN ${conversations.profileB} ELSE ${conversations.profileA} END`;

/** The other member as the chat shows them (with their main photo and whether they are premium). */
const profileColumns = {
  id: profiles.id,
  name: profiles.name,
  birthDate: profiles.birthDate,
  city: profiles.city,
  fictional: profiles.fictional,
  lastActiveAt: profiles.lastActiveAt,
  photoKey: photos.key,
  photoThumbKey: photos.thumbKey,
  photoStatus: photos.status,
  paid: users.paidUser,
  verified: badgeShows(),
};

export type ChatProfileRow = NonNullable<Awaited<ReturnType<typeof chatProfileRow>>>;

/** What of the last message a member sees: nothing of one they removed (hidden up to its id). */
const unlessHidden = <T>(column: SQLWrapper) =>
  sql<T | null>`CASE WHEN ${conversations.lastMessageId} > ${conversationMembers.hiddenBeforeId} THEN ${column} END`;

/**
 * The joins and the filter of the conversations a member's chat list shows, from their
 * `conversation_members` row: the conversation, the other member's profile and their live account.
 */
const listed = {
  conversation: eq(conversations.id, conversationMembers.conversationId),
  other: (profileId: number) => eq(profiles.id, otherOf(profileId)),
  account: and(eq(users.id, profiles.userId), accountIsLive(users.status)),
  where: (profileId: number, ...more: SQL[]) =>
    and(
      eq(conversationMembers.profileId, profileId),
      isNull(conversationMembers.removedAt),
      isNotNull(conversationMembers.lastMessageAt),
      notBlockedWith(profileId, profiles.id),
      ...more,
    ),
};

/**
 * A member's conversations with a message, newest first, with the other member and the last message
 * (unless the member removed it). Removed conversations, those with an account that is gone and those
 * with a block either way are left out.
 */
export async function chatListRows(db: Database, profileId: number) {
  return db
    .select({
      conversationId: conversationMembers.conversationId,
      unreadCount: conversationMembers.unreadCount,
      // Never null here: the list holds conversations with a message only.
      lastMessageAt: sql<number>`${conversationMembers.lastMessageAt}`,
      lastKind: unlessHidden<MessageKind>(conversations.lastMessageKind),
      lastPreview: unlessHidden<string>(conversations.lastMessagePreview),
      lastSender: unlessHidden<number>(conversations.lastMessageSenderId),
      ...profileColumns,
    })
    .from(conversationMembers)
    .innerJoin(conversations, listed.conversation)
    .innerJoin(profiles, listed.other(profileId))
    .innerJoin(users, listed.account)
    .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
    .where(listed.where(profileId))
    .orderBy(desc(conversationMembers.lastMessageAt), desc(conversationMembers.conversationId))
    .limit(500);
}

/** The member's unread messages over the conversations of their chat list: the Messages badge's count. */
export async function unreadTotalOf(db: Database, profileId: number): Promise<number> {
  const row = await db
    // drizzle's sum() answers text; the badge wants a number.
    .select({ n: sql<number | null>`sum(${conversationMembers.unreadCount})` })
    .from(conversationMembers)
    .innerJoin(conversations, listed.conversation)
    .innerJoin(profiles, listed.other(profileId))
    .innerJoin(users, listed.account)
    .where(listed.where(profileId, gt(conversationMembers.unreadCount, 0)))
    .get();
  return row?.n ?? 0;
}

/** The other member of a conversation the member is in, or null when they are not in it. */
export async function peerIn(db: Database, conversationId: number, profileId: number): Promise<number | null> {
  const row = await db
    .select({ peer: otherOf(profileId) })
    .from(conversations)
    .innerJoin(
      conversationMembers,
      and(eq(conversationMembers.conversationId, conversations.id), eq(conversationMembers.profileId, profileId)),
    )
    .where(eq(conversations.id, conversationId))
    .get();
  return row?.peer ?? null;
}

/** A profile one may chat with: active, with a live account. */
export async function chatProfileRow(db: Database, profileId: number) {
  return db
    .select(profileColumns)
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
    .where(and(eq(profiles.id, profileId), eq(profiles.status, "active"), accountIsLive(users.status)))
    .get();
}

/** Messages up to this id were removed for the member (0 when none). */
export async function hiddenBeforeOf(db: Database, conversationId: number, profileId: number): Promise<number> {
  const row = await db
    .select({ hidden: conversationMembers.hiddenBeforeId })
    .from(conversationMembers)
    .where(and(eq(conversationMembers.conversationId, conversationId), eq(conversationMembers.profileId, profileId)))
    .get();
  return row?.hidden ?? 0;
}

/** Who a socket is opened to: their name, whether they blocked the member; the member's own name and whether they are premium. */
export async function socketPeerRow(db: Database, peer: number, profileId: number, userId: number) {
  // The member's own row beside the peer's: sub-selects (the inner `profiles` and `users` are their own tables, not the outer ones).
  return db
    .select({
      name: profiles.name,
      ownName: sql<string>`(SELECT ${profiles.name} FROM ${profiles} WHERE ${profiles.id} = ${profileId})`,
      paid: sql<boolean>`(SELECT ${users.paidUser} FROM ${users} WHERE ${users.id} = ${userId})`.mapWith(Boolean),
      blockedMe:
        sql<boolean>`EXISTS (SELECT 1 FROM ${blocks} WHERE ${blocks.blockerId} = ${profiles.id} AND ${blocks.blockedId} = ${profileId})`.mapWith(
          Boolean,
        ),
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(profiles.id, peer), eq(profiles.status, "active"), accountIsLive(users.status)))
    .get();
}

type RemovedConversation = { id: number; profileA: number; profileB: number };

/**
 * Remove conversations for the member (the other member keeps theirs): by conversation, or every
 * conversation with a profile. Their messages so far are hidden for them and count as read.
 */
export async function removeConversations(
  db: Database,
  profileId: number,
  target: { conversationId: number } | { profileId: number },
  now: number,
): Promise<RemovedConversation[]> {
  const pair = { id: conversations.id, profileA: conversations.profileA, profileB: conversations.profileB };
  const rows =
    "conversationId" in target
      ? await db
          .select(pair)
          .from(conversations)
          .innerJoin(
            conversationMembers,
            and(eq(conversationMembers.conversationId, conversations.id), eq(conversationMembers.profileId, profileId)),
          )
          .where(eq(conversations.id, target.conversationId))
      : await db
          .select(pair)
          .from(conversations)
          .where(isPair(...pairOf(profileId, target.profileId)));
  const [first, ...rest] = rows.map((r) =>
    db
      .update(conversationMembers)
      .set({
        removedAt: now,
        unreadCount: 0,
        hiddenBeforeId: sql`COALESCE((SELECT ${conversations.lastMessageId} FROM ${conversations} WHERE ${conversations.id} = ${r.id}), 0)`,
      })
      .where(and(eq(conversationMembers.conversationId, r.id), eq(conversationMembers.profileId, profileId))),
  );
  if (!first) return [];
  await db.batch([first, ...rest]);
  return rows.map((r) => ({ id: r.id, profileA: r.profileA!, profileB: r.profileB! }));
}

/** The conversations (with their pairs) the given profiles are in. */
export async function conversationsOfProfiles(
  db: Database,
  profileIds: readonly number[],
): Promise<{ id: number; profileId: number; profileA: number; profileB: number }[]> {
  if (profileIds.length === 0) return [];
  const rows = await db
    .select({
      id: conversations.id,
      profileId: conversationMembers.profileId,
      profileA: conversations.profileA,
      profileB: conversations.profileB,
    })
    .from(conversationMembers)
    .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
    .where(inArray(conversationMembers.profileId, [...profileIds]))
    .orderBy(conversations.id);
  return rows.map((r) => ({ ...r, profileA: r.profileA!, profileB: r.profileB! }));
}

/** The profiles of the given accounts. */
export async function profilesOfUsers(
  db: Database,
  userIds: readonly number[],
): Promise<{ id: number; userId: number }[]> {
  if (userIds.length === 0) return [];
  return db
    .select({ id: profiles.id, userId: profiles.userId })
    .from(profiles)
    .where(inArray(profiles.userId, [...userIds]));
}
