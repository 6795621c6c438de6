/**
 * What the chat socket knows, as a pure reducer: whether it is open, the messages that arrived over it,
 * own sends not stored yet, the other member's typing and read mark, and the conversation's id.
 * useChatSocket dispatches one event per socket happening; the timers and the socket itself stay there.
 */
import type { ChatGift, ChatImage, ChatMessage } from "../../shared/chat";
import { mergeMessages, type PendingMessage } from "./chat-view-rules";
import { type SendFrame } from "../../shared/chat-frames";

export type ChatSocketState = {
  /** Whether the socket is open now; `dropped` once it was open and closed (until it is back). */
  connected: boolean;
  dropped: boolean;
  /** Messages that arrived over the socket, oldest first. */
  live: ChatMessage[];
  /** Own sends not stored yet, in the order they were made. */
  pending: PendingMessage[];
  peerTyping: boolean;
  peerReadId: number | null;
  conversationId: number | null;
  /** Messages a moderator removed while the page was open: shown as removed whichever copy the page has. */
  removed: number[];
};

export const INITIAL_CHAT_SOCKET: ChatSocketState = {
  connected: false,
  dropped: false,
  live: [],
  pending: [],
  peerTyping: false,
  peerReadId: null,
  conversationId: null,
  removed: [],
};

export type ChatSocketEvent =
  | { type: "opened" }
  | { type: "closed" }
  | { type: "ready"; conversationId: number | null; peerReadId: number | null }
  /** An own send was stored. */
  | { type: "acked"; clientId: string; message: ChatMessage }
  | { type: "message"; message: ChatMessage; fromPeer: boolean }
  /** The server refused an own send. */
  | { type: "refused"; clientId: string; error: { code: string; message: string } }
  | { type: "peer_typing" }
  | { type: "peer_typing_ended" }
  | { type: "peer_read"; messageId: number }
  | { type: "queued"; frame: SendFrame; createdAt: number; image?: ChatImage | undefined; gift?: ChatGift | undefined }
  | { type: "retried"; clientId: string }
  | { type: "discarded"; clientId: string }
  | { type: "removed"; messageId: number };

const withoutSend = (pending: PendingMessage[], clientId: string) =>
  pending.filter((p) => p.frame.client_id !== clientId);

export function chatSocketReducer(s: ChatSocketState, event: ChatSocketEvent): ChatSocketState {
  switch (event.type) {
    case "opened":
      return { ...s, connected: true, dropped: false };
    case "closed":
      return { ...s, connected: false, dropped: s.dropped || s.connected };
    case "ready":
      return {
        ...s,
        conversationId: event.conversationId ?? s.conversationId,
        peerReadId: Math.max(s.peerReadId ?? 0, event.peerReadId ?? 0) || null,
      };
    case "acked":
      return {
        ...s,
        conversationId: event.message.conversation_id,
        live: mergeMessages(s.live, [event.message]),
        pending: withoutSend(s.pending, event.clientId),
      };
    case "message":
      return {
        ...s,
        conversationId: event.message.conversation_id,
        live: mergeMessages(s.live, [event.message]),
        peerTyping: event.fromPeer ? false : s.peerTyping,
      };
    case "refused":
      return {
        ...s,
        pending: s.pending.map((p) => (p.frame.client_id === event.clientId ? { ...p, error: event.error } : p)),
      };
    case "peer_typing":
      return s.peerTyping ? s : { ...s, peerTyping: true };
    case "peer_typing_ended":
      return s.peerTyping ? { ...s, peerTyping: false } : s;
    case "peer_read":
      return (s.peerReadId ?? 0) >= event.messageId ? s : { ...s, peerReadId: event.messageId };
    case "queued":
      return {
        ...s,
        pending: [
          ...s.pending,
          {
            frame: event.frame,
            error: null,
            created_at: event.createdAt,
            image: event.image ?? null,
            gift: event.gift ?? null,
          },
        ],
      };
    case "retried":
      return {
        ...s,
        pending: s.pending.map((p) => (p.frame.client_id === event.clientId ? { ...p, error: null } : p)),
      };
    case "discarded":
      return { ...s, pending: withoutSend(s.pending, event.clientId) };
    case "removed":
      return s.removed.includes(event.messageId) ? s : { ...s, removed: [...s.removed, event.messageId] };
  }
}
