/**
 * Conversations (SPEC §3 chat state, §4): the facts the send rules need, a member's chat list, a
 * chat with a history page (read from the conversation's object), and removal.
 */
import type { Translate } from "../../shared/translator";
import type { ChatItem, ChatProfile, ChatResponse, ChatsResponse } from "../../shared/chat";
import type { SiteSettings } from "../../shared/settings";
import { databaseOf, requestBookmark, type Database } from "../db/database";
import { isRemoved, type RemovedContent, type StoredMessage } from "../db/conversation-store";
import {
  chatListRows,
  chatProfileRow,
  conversationOf,
  conversationsOfProfiles,
  hiddenBeforeOf,
  profilesOfUsers,
  removeConversations,
  type ChatProfileRow,
} from "../db/conversations";
import { verificationGate, type VerificationGate } from "../db/verification";
import { holdingConversations, sendFactsRow, type SendFactsRow } from "../db/chat-ledger";
import { AppError } from "../errors";
import { ageOn } from "../../shared/ages";
import { messageView } from "./chat-message-views";
import { roomName } from "../notices/object-names";
import { blockedReason, type SendFacts } from "./chat-rules";
import { chatCosts, creditValueFor } from "./chat-costs";
import { mainImage } from "../../shared/photos";

/** What the send rules need from the conversation's own messages (kept by its object). */
type ConversationFacts = { freeUsedHere: number; recipientHasWritten: boolean };

/** A history page as the conversation's object gives it, with the facts of the conversation for the viewer. */
export type HistoryAnswer = {
  rows: StoredMessage[];
  hasMore: boolean;
  peerReadId: number | null;
  here: ConversationFacts;
};

/** The calls of a conversation's object the Worker's services make (server/chat/conversation-room.ts). */
export interface ConversationRoomCalls {
  history(viewer: number, peer: number, before: number | null, hiddenBeforeId: number): Promise<HistoryAnswer>;
  markAllRead(profileId: number, peer: number): Promise<void>;
  messagesFor(profileId: number, peer: number): Promise<StoredMessage[]>;
  eraseMember(profileId: number, peer: number): Promise<number>;
  hasImage(photoId: number, one: number, other: number): Promise<boolean>;
  memberChanged(profileId: number, bookmark?: string | null): Promise<void>;
  sessionsEnded(profileId: number, peer: number, sessions: string[]): Promise<void>;
  returnHold(profileId: number, userId: number): Promise<void>;
  removeMessage(one: number, other: number, messageId: number, now: number): Promise<RemovedContent | null>;
  restoreMessage(one: number, other: number, kept: RemovedContent): Promise<boolean>;
}

/** The object of the conversation between two profiles. */
export type ConversationRooms = (one: number, other: number) => ConversationRoomCalls;

/** The send facts from D1's row and the conversation's own facts. */
/** The D1 facts of a send: the chat ledger's and the verification gate's (docs/decisions/0040). */
export type MemberFactsRow = SendFactsRow & VerificationGate;

export function sendFacts(row: MemberFactsRow | undefined, here: ConversationFacts): SendFacts {
  if (!row) throw new AppError({ status: 403, code: "authentication_required", key: "errors.authentication_required" });
  return {
    senderStatus: row.senderStatus,
    senderPaid: row.paid,
    credits: row.credits,
    recipient:
      row.recipientName === null
        ? null
        : {
            name: row.recipientName,
            status: row.recipientStatus ?? "gone",
            profileStatus: row.recipientProfileStatus ?? "gone",
            invisible: row.recipientInvisible === true,
            hasWritten: here.recipientHasWritten,
            verifiedOnly: row.recipientVerifiedOnly,
          },
    senderVerified: row.senderVerified,
    conversationStarted: row.conversationStarted || here.recipientHasWritten,
    blockedByMe: row.blockedByMe,
    blockedMe: row.blockedMe,
    freeUsedHere: here.freeUsedHere,
    freeConversationsUsed: row.freeConversationsUsed,
    chatRestrictedUntil: row.chatRestrictedUntil,
    suspendedUntil: row.suspendedUntil,
  };
}

function chatProfile(row: ChatProfileRow): ChatProfile {
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.birthDate),
    city: row.city,
    main_image: mainImage(row.photoKey, row.photoThumbKey, row.photoStatus),
    fictional: row.fictional,
    last_active_at: row.lastActiveAt,
    premium: row.paid,
    verified: row.verified,
  };
}

/**
 * GET /api/chats.php: the member's conversations with a message, newest first, with the other
 * member, the unread count and the last message (what the overview shows), all from D1.
 */
export async function listChats(db: Database, profileId: number): Promise<ChatsResponse> {
  const rows = await chatListRows(db, profileId);
  const chats: ChatItem[] = rows.map((row) => ({
    conversation: { id: row.conversationId },
    profile: chatProfile(row),
    num_unread_messages: row.unreadCount,
    last_message:
      row.lastSender === null || row.lastKind === null
        ? null
        : {
            kind: row.lastKind,
            body: row.lastKind === "text" ? (row.lastPreview ?? "") : null,
            sender_id: row.lastSender,
            created_at: row.lastMessageAt,
          },
    last_message_at: row.lastMessageAt,
  }));
  return { chats, total_unread: chats.reduce((sum, chat) => sum + chat.num_unread_messages, 0) };
}

/**
 * Whether an invisible member has written to the viewer in their conversation: the one case in which
 * the viewer may still write to them (docs/decisions/0051). Asks the conversation's object, which keeps
 * the messages; without a conversation the answer is no at once.
 */
export async function invisibleWroteTo(
  db: Database,
  rooms: ConversationRooms,
  viewerId: number,
  invisibleId: number,
): Promise<boolean> {
  const conversation = await conversationOf(db, viewerId, invisibleId);
  if (!conversation) return false;
  const hidden = await hiddenBeforeOf(db, conversation.id, viewerId);
  return (await rooms(viewerId, invisibleId).history(viewerId, invisibleId, null, hidden)).here.recipientHasWritten;
}

type ChatViewer = { userId: number; profileId: number; country: string | null };

/**
 * GET /api/chat.php: the conversation with one member as the viewer sees it: that member, a page of
 * history from the conversation's object (the newest, or the one before `before`), their read
 * mark, whether and at what cost the viewer may write. A profile that does not exist (or is gone) is a 404.
 */
export async function loadChat(
  db: Database,
  rooms: ConversationRooms,
  site: SiteSettings,
  t: Translate,
  viewer: ChatViewer,
  peerId: number,
  before: number | null,
): Promise<ChatResponse> {
  if (peerId === viewer.profileId)
    throw new AppError({ status: 404, code: "not_found", key: "errors.profile_not_found", field: "profile" });
  const [profile, conversation] = await Promise.all([
    chatProfileRow(db, peerId),
    conversationOf(db, viewer.profileId, peerId),
  ]);
  if (!profile)
    throw new AppError({ status: 404, code: "not_found", key: "errors.profile_not_found", field: "profile" });
  const history = async (): Promise<HistoryAnswer> => {
    if (!conversation)
      return { rows: [], hasMore: false, peerReadId: null, here: { freeUsedHere: 0, recipientHasWritten: false } };
    const hidden = await hiddenBeforeOf(db, conversation.id, viewer.profileId);
    return rooms(viewer.profileId, peerId).history(viewer.profileId, peerId, before, hidden);
  };
  const [ledger, gate, page, value] = await Promise.all([
    sendFactsRow(db, viewer.userId, viewer.profileId, peerId, conversation?.id ?? null),
    verificationGate(db, viewer.profileId, peerId),
    history(),
    creditValueFor(db, site, viewer.userId, viewer.country),
  ]);
  const facts = sendFacts(ledger && { ...ledger, ...gate }, page.here);
  if (facts.blockedMe)
    throw new AppError({ status: 403, code: "blocked_by", key: "errors.blocked_by", values: { name: profile.name } });
  const viewerSide = { profileId: viewer.profileId, premium: facts.senderPaid };
  const country = viewer.country ?? site.countries[0]!;
  return {
    conversation: conversation === null ? null : { id: conversation.id },
    profile: chatProfile(profile),
    messages: page.rows.map((m) => messageView(m, conversation!.id, viewerSide, site.cdn_prefix, t)),
    has_more: page.hasMore,
    peer_read_id: page.peerReadId,
    blocked_reason: blockedReason(facts),
    costs: chatCosts(
      site,
      facts,
      country,
      value,
      page.rows.some((m) => m.sender_id === viewer.profileId && m.kind === "text" && m.credits_charged > 0),
    ),
    credits: facts.credits,
    paid_user: facts.senderPaid,
    message_length: site.message_length,
  };
}

/**
 * DELETE /api/chat.php: remove conversations for the member (the other member keeps theirs): by
 * conversation, or every conversation with a profile. Their messages so far are hidden for the
 * member and count as read; a new message brings the conversation back. Returns the removed
 * conversations with the other member of each; 404 when the member is in none of them.
 */
export async function removeChats(
  db: Database,
  rooms: ConversationRooms,
  profileId: number,
  target: { conversationId: number } | { profileId: number },
  now = Math.floor(Date.now() / 1000),
): Promise<{ id: number; peer: number }[]> {
  const removed = await removeConversations(db, profileId, target, now);
  if (removed.length === 0) throw new AppError({ status: 404, code: "not_found", key: "errors.chat_not_found" });
  const chats = removed.map(({ id, profileA, profileB }) => ({
    id,
    peer: profileA === profileId ? profileB : profileA,
  }));
  await Promise.all(chats.map(({ peer }) => rooms(profileId, peer).markAllRead(profileId, peer)));
  return chats;
}

/** The object of a pair in the Worker: named after the pair (never after a D1 row), so nobody reaches another pair's. */
export function conversationRooms(namespace: { getByName(name: string): unknown }): ConversationRooms {
  return (one, other) => namespace.getByName(roomName(one, other)) as unknown as ConversationRoomCalls;
}

/** A member's messages from every conversation they are in, for their data export (GET /api/my-data.php). */
export async function exportChatMessages(db: Database, rooms: ConversationRooms, profileId: number) {
  const conversations = await conversationsOfProfiles(db, [profileId]);
  const pages = await Promise.all(
    conversations.map(async ({ id, profileA, profileB }) => {
      const peer = profileA === profileId ? profileB : profileA;
      const rows = await rooms(profileId, peer).messagesFor(profileId, peer);
      return rows.map((m) => ({
        conversation_id: id,
        message_id: m.id,
        sender_id: m.sender_id,
        kind: m.kind,
        body: isRemoved(m) ? null : m.body,
        removed: isRemoved(m),
        credits_charged: m.credits_charged,
        created_at: m.created_at,
      }));
    }),
  );
  return pages.flat();
}

/**
 * Account erasure (the daily clock work): the erased members' messages leave every conversation
 * object they were in. Returns the accounts whose every conversation was reached; an account with
 * an object that could not be reached is left for the next run, so no message outlives its account.
 */
export async function eraseChatMessages(
  db: Database,
  rooms: ConversationRooms,
  userIds: readonly number[],
): Promise<number[]> {
  const profiles = await profilesOfUsers(db, userIds);
  const conversations = await conversationsOfProfiles(
    db,
    profiles.map((p) => p.id),
  );
  const failed = new Set<number>();
  await Promise.all(
    conversations.map(async ({ profileId, profileA, profileB }) => {
      const peer = profileA === profileId ? profileB : profileA;
      try {
        await rooms(profileId, peer).eraseMember(profileId, peer);
      } catch (error) {
        failed.add(profileId);
        console.error(
          JSON.stringify({
            event: "chat_erasure_failed",
            profile_id: profileId,
            message: error instanceof Error ? error.message : String(error),
          }),
        );
      }
    }),
  );
  return userIds.filter((userId) => !profiles.some((p) => p.userId === userId && failed.has(p.id)));
}

/**
 * Something about a member changed in D1 that their open chats must see now (a purchase made them
 * premium: photo originals on sockets opened before it; they went invisible or asked to be deleted:
 * sends to or from them are decided on fresh facts): every conversation object they are in forgets
 * what it read about them. A socket opened before a conversation's first message is not
 * reached; it sees the change once it is opened again.
 */
export async function memberChangedInChats(db: Database, rooms: ConversationRooms, profileId: number): Promise<void> {
  const conversations = await conversationsOfProfiles(db, [profileId]);
  const bookmark = requestBookmark();
  await Promise.all(
    conversations.map(({ profileA, profileB }) => rooms(profileA, profileB).memberChanged(profileId, bookmark)),
  );
}

/**
 * One member blocked the other: their conversation's object reads both members' standing again
 * before the next send (it may otherwise acknowledge a send from a credit hold on what it read
 * before, docs/decisions/0021).
 */
export async function blockedInChat(
  db: Database,
  rooms: ConversationRooms,
  blockerId: number,
  blockedId: number,
): Promise<void> {
  if (await conversationOf(db, blockerId, blockedId))
    await rooms(blockerId, blockedId).memberChanged(blockerId, requestBookmark());
}

/**
 * Ask the member's conversations that hold their credits (all but `except`) to give them back
 * (docs/decisions/0021): before a refund or a reversal takes the balance, or when a send elsewhere
 * needs what they hold.
 */
export async function recallHeldCredits(
  db: Database,
  rooms: ConversationRooms,
  member: { profileId: number; userId: number },
  except: number | null,
): Promise<void> {
  const holding = await holdingConversations(db, member.userId, except);
  await Promise.all(
    holding.map(({ profileA, profileB }) => rooms(profileA, profileB).returnHold(member.profileId, member.userId)),
  );
}

/** Account erasure's chat part, over the Worker's bindings (the cron, the tests). */
export function chatErasureIn(env: Pick<Env, "DB" | "CONVERSATIONS">): (userIds: number[]) => Promise<number[]> {
  const db = databaseOf(env.DB);
  return (userIds) => eraseChatMessages(db, conversationRooms(env.CONVERSATIONS), userIds);
}
