import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../shared/chat";
import {
  chatSocketReducer,
  INITIAL_CHAT_SOCKET,
  type ChatSocketEvent,
  type ChatSocketState,
} from "./chat-socket-state";
import { type SendFrame } from "../../shared/chat-frames";

const message = (id: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  conversation_id: 7,
  sender_id: 20,
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
const frame = (clientId: string): SendFrame => ({ type: "send", client_id: clientId, kind: "text", body: "hi" });
const run = (...events: ChatSocketEvent[]) => events.reduce(chatSocketReducer, INITIAL_CHAT_SOCKET);

describe("the chat socket's state", () => {
  it("is dropped only after having been open, until it opens again", () => {
    expect(run({ type: "closed" })).toMatchObject({ connected: false, dropped: false });
    expect(run({ type: "opened" }, { type: "closed" })).toMatchObject({ connected: false, dropped: true });
    expect(run({ type: "opened" }, { type: "closed" }, { type: "closed" })).toMatchObject({ dropped: true });
    expect(run({ type: "opened" }, { type: "closed" }, { type: "opened" })).toMatchObject({
      connected: true,
      dropped: false,
    });
  });

  it("keeps the conversation id and the highest read mark the ready frames told", () => {
    const state = run(
      { type: "ready", conversationId: 7, peerReadId: 5 },
      { type: "ready", conversationId: null, peerReadId: 3 },
    );
    expect(state).toMatchObject({ conversationId: 7, peerReadId: 5 });
    expect(run({ type: "ready", conversationId: null, peerReadId: null }).peerReadId).toBeNull();
  });

  it("shows an own send as pending until its ack, then once as a stored message", () => {
    const queued = run(
      { type: "queued", frame: frame("a"), createdAt: 100 },
      { type: "queued", frame: frame("b"), createdAt: 101 },
    );
    expect(queued.pending.map((p) => [p.frame.client_id, p.error, p.image, p.gift])).toEqual([
      ["a", null, null, null],
      ["b", null, null, null],
    ]);
    const stored = message(3, { client_id: "a", sender_id: 10 });
    const acked = [
      { type: "acked", clientId: "a", message: stored },
      { type: "message", message: stored, fromPeer: false },
    ] as const;
    const state = acked.reduce(chatSocketReducer, queued);
    expect(state.pending.map((p) => p.frame.client_id)).toEqual(["b"]);
    expect(state.live).toEqual([stored]);
    expect(state.conversationId).toBe(7);
  });

  it("marks a refused send with the server's reason; a retry clears it and a discard removes it", () => {
    const refused = run(
      { type: "queued", frame: frame("a"), createdAt: 100 },
      { type: "refused", clientId: "a", error: { code: "no_credits", message: "Not enough credits" } },
    );
    expect(refused.pending[0]!.error).toEqual({ code: "no_credits", message: "Not enough credits" });
    expect(chatSocketReducer(refused, { type: "retried", clientId: "a" }).pending[0]!.error).toBeNull();
    expect(chatSocketReducer(refused, { type: "discarded", clientId: "a" }).pending).toEqual([]);
  });

  it("keeps live messages oldest first, each once", () => {
    const state = run(
      { type: "message", message: message(2), fromPeer: true },
      { type: "message", message: message(1), fromPeer: true },
      { type: "message", message: message(2), fromPeer: true },
    );
    expect(state.live.map((m) => m.id)).toEqual([1, 2]);
  });

  it("ends the other member's typing when their message arrives, not when an own one does", () => {
    const typing = run({ type: "peer_typing" });
    expect(typing.peerTyping).toBe(true);
    expect(
      chatSocketReducer(typing, { type: "message", message: message(1, { sender_id: 10 }), fromPeer: false })
        .peerTyping,
    ).toBe(true);
    expect(chatSocketReducer(typing, { type: "message", message: message(1), fromPeer: true }).peerTyping).toBe(false);
    expect(chatSocketReducer(typing, { type: "peer_typing_ended" }).peerTyping).toBe(false);
  });

  it("keeps each message a moderator removed once", () => {
    const removed = run({ type: "removed", messageId: 7 }, { type: "removed", messageId: 9 });
    expect(removed.removed).toEqual([7, 9]);
    expect(chatSocketReducer(removed, { type: "removed", messageId: 7 })).toBe(removed);
  });

  it("moves the read mark only forward, and leaves the state as it was when nothing changes", () => {
    const read = run({ type: "peer_read", messageId: 5 });
    expect(read.peerReadId).toBe(5);
    const same: ChatSocketState = chatSocketReducer(read, { type: "peer_read", messageId: 4 });
    expect(same).toBe(read);
    const typing = run({ type: "peer_typing" });
    expect(chatSocketReducer(typing, { type: "peer_typing" })).toBe(typing);
  });
});
