import { describe, expect, it } from "vitest";
import type { ChatItem, ChatsResponse } from "../../shared/chat";
import type { BadgeCounts, MemberFrame } from "../../shared/member-frames";
import { chatsAfterFrame, matchOf, reloadsLikes } from "./member-channel-rules";

const chat = (id: number, unread: number, at: number): ChatItem => ({
  conversation: { id },
  profile: {
    id: id + 100,
    name: `p${id}`,
    age: 30,
    city: null,
    main_image: null,
    fictional: false,
    premium: false,
    verified: false,
    last_active_at: 0,
  },
  num_unread_messages: unread,
  last_message: null,
  last_message_at: at,
});
const list: ChatsResponse = { chats: [chat(1, 0, 200), chat(2, 1, 100)], total_unread: 1 };
const counts = (unread: number): BadgeCounts => ({
  unread_messages: unread,
  new_likes: 0,
  credits: 10,
  paid_user: true,
});
const message = (conversation: number, unread: number, total: number): MemberFrame => ({
  type: "event",
  event: {
    kind: "message",
    conversation_id: conversation,
    peer_id: conversation + 100,
    peer_name: "x",
    message_kind: "text",
    preview: "hi",
    first: false,
    unread,
    created_at: 300,
  },
  counts: counts(total),
});

describe("a member channel frame on the chat list", () => {
  it("moves the conversation of a new message first, with its text and unread count, and takes the frame's total", () => {
    const next = chatsAfterFrame(list, message(2, 2, 2))!;
    expect(next.chats.map((c) => [c.conversation.id, c.num_unread_messages])).toEqual([
      [2, 2],
      [1, 0],
    ]);
    expect(next.chats[0]!.last_message).toEqual({ kind: "text", body: "hi", sender_id: 102, created_at: 300 });
    expect(next.total_unread).toBe(2);
  });

  it("reloads the list for a conversation it does not have", () => {
    expect(chatsAfterFrame(list, message(3, 1, 2))).toBeNull();
  });

  it("sets a read conversation's count, and keeps the same list when nothing changes", () => {
    const read: MemberFrame = {
      type: "event",
      event: { kind: "read", conversation_id: 2, peer_id: 102, unread: 0 },
      counts: counts(0),
    };
    expect(chatsAfterFrame(list, read)!.chats.map((c) => c.num_unread_messages)).toEqual([0, 0]);
    expect(chatsAfterFrame(list, { type: "counts", counts: counts(1) })).toBe(list);
  });

  it("heals the total from the counts of any frame, and reloads the likes only for a like or a match", () => {
    expect(chatsAfterFrame(list, { type: "counts", counts: counts(5) })!.total_unread).toBe(5);
    expect(
      reloadsLikes({
        type: "event",
        event: { kind: "like", liker_id: 1, liker_name: "a", created_at: 1 },
        counts: counts(0),
      }),
    ).toBe(true);
    expect(reloadsLikes({ type: "counts", counts: counts(0) })).toBe(false);
  });
});

describe("a match frame", () => {
  it("names the member matched with, and their photo, for the match moment; other frames name nobody", () => {
    const match: MemberFrame = {
      type: "event",
      event: { kind: "match", peer_id: 7, peer_name: "Sanne", peer_photo: "p/abc.jpg", created_at: 1 },
      counts: counts(0),
    };
    expect(matchOf(match)).toEqual({ id: 7, name: "Sanne", photo: "p/abc.jpg", verified: false });
    // A verified member's badge shows in the moment too (issue 28).
    expect(
      matchOf({
        ...match,
        event: { kind: "match", peer_id: 7, peer_name: "Sanne", peer_photo: null, peer_verified: true, created_at: 1 },
      }),
    ).toEqual({ id: 7, name: "Sanne", photo: null, verified: true });
    expect(matchOf(message(1, 1, 1))).toBeNull();
    expect(
      matchOf({
        type: "event",
        event: { kind: "like", liker_id: 7, liker_name: "Sanne", created_at: 1 },
        counts: counts(0),
      }),
    ).toBeNull();
  });
});
