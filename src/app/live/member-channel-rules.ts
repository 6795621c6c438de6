/**
 * What a frame of the member channel does to the page's cached data (the member, their chats, their
 * likes): the badges take the frame's whole counts, the chat list its conversation's unread count and
 * last message. Pure, so it is tested without a page.
 */
import type { User } from "../../shared/api";
import type { ChatsResponse } from "../../shared/chat";
import type { LikesResponse } from "../../shared/likes";
import type { BadgeCounts, MemberFrame } from "../../shared/member-frames";
import type { MatchPeer } from "./match-moments";

/** The member with the frame's balance and premium flag (the same object when nothing changes). */
export function userWithCounts(user: User, counts: BadgeCounts): User {
  if (user.credits === counts.credits && user.paid_user === counts.paid_user) return user;
  return { ...user, credits: counts.credits, paid_user: counts.paid_user };
}

/** The likes' first page with the frame's unseen-likes count. */
export function likesWithCounts(likes: LikesResponse, counts: BadgeCounts): LikesResponse {
  return likes.new_likes === counts.new_likes ? likes : { ...likes, new_likes: counts.new_likes };
}

/**
 * The chat list after a frame: a message moves its conversation first with its last message and
 * unread count, a read sets the unread count, and the total is the frame's. Null when the list must
 * be loaded again (a conversation it does not have yet).
 */
export function chatsAfterFrame(list: ChatsResponse, frame: MemberFrame): ChatsResponse | null {
  if (frame.type === "visibility_check") return list;
  let next = list;
  if (frame.type === "event" && (frame.event.kind === "message" || frame.event.kind === "read")) {
    const event = frame.event;
    const chat = list.chats.find((c) => c.conversation.id === event.conversation_id);
    if (!chat) return event.kind === "message" ? null : withTotal(list, frame.counts.unread_messages);
    let updated = chat.num_unread_messages === event.unread ? chat : { ...chat, num_unread_messages: event.unread };
    if (event.kind === "message" && event.created_at >= chat.last_message_at) {
      const body = event.message_kind === "text" ? (event.preview ?? "") : null;
      updated = {
        ...updated,
        last_message: { kind: event.message_kind, body, sender_id: event.peer_id, created_at: event.created_at },
        last_message_at: event.created_at,
      };
      next = { ...list, chats: [updated, ...list.chats.filter((c) => c !== chat)] };
    } else if (updated !== chat) {
      next = { ...list, chats: list.chats.map((c) => (c === chat ? updated : c)) };
    }
  }
  return withTotal(next, frame.counts.unread_messages);
}

function withTotal(list: ChatsResponse, total: number): ChatsResponse {
  return list.total_unread === total ? list : { ...list, total_unread: total };
}

/** Whether the frame brings someone new to the likes tabs (a like or a match): their lists are loaded again. */
export function reloadsLikes(frame: MemberFrame): boolean {
  return frame.type === "event" && (frame.event.kind === "like" || frame.event.kind === "match");
}

/** Whether the frame says a profile changed by a moderation decision: the page's data is loaded again. */
export function reloadsProfiles(frame: MemberFrame): boolean {
  return frame.type === "event" && frame.event.kind === "profile";
}

/** The member a frame says they just matched with (the match moment shows them), or null. */
export function matchOf(frame: MemberFrame): MatchPeer | null {
  if (frame.type !== "event" || frame.event.kind !== "match") return null;
  return {
    id: frame.event.peer_id,
    name: frame.event.peer_name,
    photo: frame.event.peer_photo,
    verified: frame.event.peer_verified === true,
  };
}
