import { reconnectDelay } from "../live/site-socket";
import { describe, expect, it } from "vitest";
import type { ChatItem, ChatMessage, ChatResponse, ChatsResponse } from "../../shared/chat";
import {
  afterOwnMessage,
  freshKeepingSpent,
  dayKey,
  groupByDay,
  mergeMessages,
  messageItems,
  newClientId,
  nextMessageCost,
  withRemoved,
  type PendingMessage,
} from "./chat-view-rules";
import { titlePrefix } from "../components/ActivityCount";
import { withMessage, withoutChats, withUnread } from "../hooks/useChats";
import { REFRESH_START_MS, refreshInterval } from "../hooks/useRefresh";
import { CHATS_KEY, chatKey, olderChatKey, pageDataKeys } from "../page/page-data";
import { matchRoute } from "../../shared/routes";

const ME = 10;
const HER = 20;
const message = (id: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  conversation_id: 1,
  sender_id: HER,
  client_id: `client-${id}`,
  kind: "text",
  body: `message ${id}`,
  image: null,
  gift: null,
  credits: 0,
  created_at: 1_750_000_000 + id,
  removed: false,
  ...extra,
});
const pending = (clientId: string, body = "hi"): PendingMessage => ({
  frame: { type: "send", client_id: clientId, kind: "text", body },
  error: null,
  created_at: 1_750_000_100,
  image: null,
  gift: null,
});

describe("messages on screen", () => {
  it("merges history pages and live messages by id, oldest first, the newer copy winning", () => {
    const page = [message(3), message(4), message(5)];
    const older = [message(1), message(2), message(3)];
    const live = [message(5, { body: "edited" }), message(6)];
    const merged = mergeMessages(mergeMessages(older, page), live);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(merged.find((m) => m.id === 5)?.body).toBe("edited");
    expect(mergeMessages(page, [])).toBe(page);
  });

  it("shows a message a moderator removed as removed, with no text, photo or gift, whichever copy the page holds", () => {
    const gift = { slug: "rose", name: "Rose", image: "/g/rose.svg" };
    const shown = withRemoved([message(1), message(2, { kind: "gift", body: null, gift }), message(3)], [2, 3]);
    expect(shown.map((m) => [m.id, m.removed, m.body, m.gift])).toEqual([
      [1, false, "message 1", null],
      [2, true, null, null],
      [3, true, null, null],
    ]);
    const fromServer = [message(4, { removed: true, body: null })];
    expect(messageItems(fromServer, [], ME, null)[0]).toMatchObject({ removed: true, body: null });
    const page = [message(5)];
    expect(withRemoved(page, [])).toBe(page);
  });

  it("shows an own send as sending until its message arrives, then once, by client_id", () => {
    const stored = [message(1), message(2, { sender_id: ME, client_id: "abcdefgh1" })];
    const items = messageItems(stored, [pending("abcdefgh1"), pending("abcdefgh2", "second")], ME, null);
    expect(items.map((i) => [i.key, i.own, i.status])).toEqual([
      ["m1", false, "sent"],
      ["m2", true, "sent"],
      ["pabcdefgh2", true, "sending"],
    ]);
    expect(items[2]!.body).toBe("second");
  });

  it("marks own messages seen up to the other member's read mark, and failed sends with the server's text", () => {
    const stored = [message(1, { sender_id: ME }), message(2), message(3, { sender_id: ME })];
    const failed = { ...pending("abcdefgh9"), error: { code: "insufficient_credits", message: "Not enough credits" } };
    const items = messageItems(stored, [failed], ME, 2);
    expect(items.map((i) => i.status)).toEqual(["seen", "sent", "sent", "failed"]);
    expect(items[3]!.error).toBe("Not enough credits");
  });

  it("groups consecutive messages by local day", () => {
    // The tests run in UTC.
    const at = (iso: string) => Date.parse(iso) / 1000;
    const items = [
      at("2026-03-01T23:59:00Z"),
      at("2026-03-02T00:00:00Z"),
      at("2026-03-02T12:00:00Z"),
      at("2026-03-04T08:00:00Z"),
    ].map((created_at, i) => ({ id: i, created_at }));
    const groups = groupByDay(items);
    expect(groups.map((g) => [g.day, g.items.map((i) => i.id)])).toEqual([
      ["2026-03-01", [0]],
      ["2026-03-02", [1, 2]],
      ["2026-03-04", [3]],
    ]);
    expect(dayKey(at("2026-12-31T10:00:00Z"))).toBe("2026-12-31");
    expect(groupByDay([])).toEqual([]);
  });
});

describe("sending", () => {
  it("costs nothing while free messages are left, else the message price", () => {
    const costs = {
      message: 5,
      photo: 10,
      free_messages_left: 2,
      minimum_message_costs: null,
      credit_value: null,
      confirm_above: 5,
      paid_here: false,
    };
    expect(nextMessageCost(costs)).toBe(0);
    expect(nextMessageCost({ ...costs, free_messages_left: 0 })).toBe(5);
  });

  it("after an own message: the new balance, one free message fewer when it was free, the new conversation's id", () => {
    const chat = {
      conversation: null,
      costs: { message: 5, photo: 10, free_messages_left: 1, minimum_message_costs: null },
      credits: 20,
    } as unknown as ChatResponse;
    const free = afterOwnMessage(chat, message(7, { sender_id: ME, conversation_id: 3 }), 20);
    expect(free.costs.free_messages_left).toBe(0);
    expect(free.conversation).toEqual({ id: 3 });
    const paid = afterOwnMessage(
      { ...free, costs: { ...free.costs, free_messages_left: 0 } },
      message(8, { sender_id: ME, credits: 5 }),
      15,
    );
    expect(paid.credits).toBe(15);
    expect(paid.costs.free_messages_left).toBe(0);
    expect(free.costs.paid_here).toBeFalsy();
    expect(paid.costs.paid_here).toBe(true);
  });

  it("fresh data read before the last acks brings back no free message and forgets no paid one", () => {
    const shown = { costs: { free_messages_left: 0, paid_here: true, message: 5 } } as unknown as ChatResponse;
    const stale = {
      costs: { free_messages_left: 2, paid_here: false, message: 5 },
      credits: 7,
    } as unknown as ChatResponse;
    const merged = freshKeepingSpent(shown, stale);
    expect(merged.costs).toMatchObject({ free_messages_left: 0, paid_here: true });
    expect(merged.credits).toBe(7);
  });

  it("reconnects after 0.5 s, 1 s, 2 s … at most 10 s", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(reconnectDelay)).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it("makes client ids the server accepts, different each time", () => {
    const ids = new Set(Array.from({ length: 50 }, newClientId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });
});

describe("refresh, title and badge (SPEC §4, §9)", () => {
  it("refreshes every 60 s, or every 300 s with push, starting 5 s after load", () => {
    expect(refreshInterval(false)).toBe(60_000);
    expect(refreshInterval(true)).toBe(300_000);
    expect(REFRESH_START_MS).toBe(5_000);
  });

  it("puts unread messages plus new likes before the title", () => {
    expect(titlePrefix(0, 0)).toBe("");
    expect(titlePrefix(3, 0)).toBe("(3) ");
    expect(titlePrefix(2, 5)).toBe("(7) ");
    expect(titlePrefix(150, 0)).toBe("(150) ");
  });
});

describe("the chat list", () => {
  const chat = (conversation: number, profile: number, unread: number, at: number): ChatItem => ({
    conversation: { id: conversation },
    profile: {
      id: profile,
      name: `P${profile}`,
      age: 30,
      city: null,
      main_image: null,
      fictional: false,
      last_active_at: 0,
      premium: false,
      verified: false,
    },
    num_unread_messages: unread,
    last_message: null,
    last_message_at: at,
  });
  const list: ChatsResponse = {
    chats: [chat(1, 100, 2, 300), chat(2, 200, 3, 200), chat(3, 100, 1, 100)],
    total_unread: 6,
  };

  it("sets one conversation's unread count and the total with it", () => {
    const read = withUnread(list, 2, 0);
    expect(read.total_unread).toBe(3);
    expect(read.chats[1]!.num_unread_messages).toBe(0);
    expect(withUnread(list, 2, 3)).toBe(list);
    expect(withUnread(list, 99, 0)).toBe(list);
  });

  it("moves a conversation with a new message to the top; an unknown one asks for a reload", () => {
    const moved = withMessage(list, message(50, { conversation_id: 3, created_at: 400, kind: "gift", body: null }))!;
    expect(moved.chats.map((c) => c.conversation.id)).toEqual([3, 1, 2]);
    expect(moved.chats[0]!.last_message).toEqual({ kind: "gift", body: null, sender_id: HER, created_at: 400 });
    expect(withMessage(list, message(51, { conversation_id: 9 }))).toBeNull();
  });

  it("removes one conversation, or all with a profile, with their unread counts", () => {
    expect(withoutChats(list, { conversation: { id: 2 } })).toEqual({
      chats: [list.chats[0], list.chats[2]],
      total_unread: 3,
    });
    expect(withoutChats(list, { profile: { id: 100 } })).toEqual({ chats: [list.chats[1]], total_unread: 3 });
    expect(withoutChats(list, { profile: { id: 999 } })).toBe(list);
  });
});

describe("chat page data", () => {
  const keys = (path: string, member = true) =>
    pageDataKeys(matchRoute(path)!, new URLSearchParams(), "none", member).map((k) => k.key);

  it("names the calls client and server agree on", () => {
    expect(chatKey({ profile: 5 })).toBe("/api/chat.php?profile=5");
    expect(chatKey({ conversation: "7" })).toBe("/api/chat.php?conversation=7");
    expect(olderChatKey(chatKey({ profile: 5 }), 120)).toBe("/api/chat.php?profile=5&before=120");
  });

  it("embeds the chats, the open conversation and the conversation with a member; nothing for a visitor", () => {
    expect(keys("/chats")).toEqual([CHATS_KEY]);
    expect(keys("/chats/7")).toEqual([CHATS_KEY, "/api/chat.php?conversation=7"]);
    expect(keys("/members/5/chat")).toEqual(["/api/chat.php?profile=5"]);
    expect(keys("/chats/7", false)).toEqual([]);
    expect(keys("/members/5/chat", false)).toEqual([]);
  });
});
