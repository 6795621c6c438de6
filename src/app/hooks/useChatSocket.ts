import { useCallback, useEffect, useReducer, useRef } from "react";
import {
  chatSocketPath,
  TYPING_REPEAT_MS,
  TYPING_SHOWN_MS,
  type ChatGift,
  type ChatImage,
  type ChatMessage,
  type ServerFrame,
} from "../../shared/chat";
import { chatSocketReducer, INITIAL_CHAT_SOCKET, type ChatSocketState } from "../chat/chat-socket-state";
import { rememberBookmark } from "../chat/bookmark-cookie";
import { openSiteSocket, type SiteSocket } from "../live/site-socket";
import { type SendFrame } from "../../shared/chat-frames";

/** The server answers this literal with a pong; sent this often it keeps the connection open. */

type Frame<T extends ServerFrame["type"]> = Extract<ServerFrame, { type: T }>;

type ChatSocketEvents = {
  /** Each connection, the first and every one after a drop: the caller fetches the newest history page so nothing is missed. */
  onReady?: (frame: Frame<"ready">) => void;
  /** An own send was stored; `frame.credits` is the balance now. */
  onAck?: (frame: Frame<"ack">) => void;
  /** Any stored message that reached this socket (an ack's or another socket's). */
  onMessage?: (message: ChatMessage) => void;
  onError?: (frame: Frame<"error">) => void;
  /** The member's unread count in this conversation changed. */
  onUnread?: (count: number) => void;
};

export type ChatSocket = ChatSocketState & {
  send: (frame: SendFrame, preview?: { image?: ChatImage; gift?: ChatGift }) => void;
  /** Send a refused message again, with the same client_id. */
  retry: (clientId: string) => void;
  discard: (clientId: string) => void;
  /** The member is typing: tells the other side at most every TYPING_REPEAT_MS. */
  typing: () => void;
  /** The member has seen the conversation up to this message; `again` sends it even if it was sent before. */
  read: (messageId: number, again?: boolean) => void;
};

function parse(data: unknown): ServerFrame | { type: "pong" } | null {
  if (typeof data !== "string") return null;
  try {
    const frame = JSON.parse(data) as { type?: unknown } | null;
    return frame && typeof frame.type === "string" ? (frame as ServerFrame) : null;
  } catch {
    return null;
  }
}

/**
 * The conversation's socket with the member `peerId`. It reconnects and pings as every site socket
 * does (openSiteSocket), and re-sends every send that got no answer
 * with its same client_id (the server stores it once). Nothing connects on the server or while
 * `enabled` is false.
 */
export function useChatSocket(peerId: number, enabled: boolean, events: ChatSocketEvents): ChatSocket {
  const [state, dispatch] = useReducer(chatSocketReducer, INITIAL_CHAT_SOCKET);
  const socketRef = useRef<SiteSocket | null>(null);
  /** Sends not answered yet, by client_id, in order: re-sent on every new connection. */
  const outbox = useRef(new Map<string, SendFrame>());
  const readMark = useRef({ wanted: 0, sent: 0 });
  const lastTyping = useRef(0);
  const eventsRef = useRef(events);
  useEffect(() => {
    eventsRef.current = events;
  });

  /** Frames go out only after the server's ready frame: what was queued before is sent then, once. */
  const ready = useRef(false);

  const transmit = useCallback((frame: object | string) => {
    if (!ready.current) return false;
    return socketRef.current?.send(typeof frame === "string" ? frame : JSON.stringify(frame)) ?? false;
  }, []);

  const flushRead = useCallback(
    (again: boolean) => {
      const mark = readMark.current;
      if (mark.wanted === 0 || (!again && mark.wanted <= mark.sent)) return;
      if (transmit({ type: "read", message_id: mark.wanted })) mark.sent = mark.wanted;
    },
    [transmit],
  );

  useEffect(() => {
    if (!enabled) return;
    let typingTimer: ReturnType<typeof setTimeout> | undefined;

    const handle = (frame: ServerFrame) => {
      const on = eventsRef.current;
      switch (frame.type) {
        case "ready":
          socket.working();
          ready.current = true;
          // Sends that got no answer before the drop: the same client_id, so each is stored once.
          for (const send of outbox.current.values()) transmit(send);
          dispatch({
            type: "ready",
            conversationId: frame.conversation_id ?? null,
            peerReadId: frame.peer_read_id ?? null,
          });
          on.onReady?.(frame);
          // With a read mark to send, the count that answers it is the one that counts.
          if (readMark.current.wanted === 0) on.onUnread?.(frame.unread);
          flushRead(true);
          break;
        case "ack":
          outbox.current.delete(frame.client_id);
          rememberBookmark(frame.bookmark);
          dispatch({ type: "acked", clientId: frame.client_id, message: frame.message });
          on.onAck?.(frame);
          on.onMessage?.(frame.message);
          break;
        case "message": {
          const fromPeer = frame.message.sender_id === peerId;
          if (fromPeer) clearTimeout(typingTimer);
          dispatch({ type: "message", message: frame.message, fromPeer });
          on.onMessage?.(frame.message);
          break;
        }
        case "error":
          if (frame.client_id !== null) {
            outbox.current.delete(frame.client_id);
            dispatch({
              type: "refused",
              clientId: frame.client_id,
              error: { code: frame.error, message: frame.message },
            });
          }
          on.onError?.(frame);
          break;
        case "typing":
          if (frame.profile_id !== peerId) break;
          clearTimeout(typingTimer);
          typingTimer = setTimeout(() => dispatch({ type: "peer_typing_ended" }), TYPING_SHOWN_MS);
          dispatch({ type: "peer_typing" });
          break;
        case "read":
          if (frame.profile_id === peerId) dispatch({ type: "peer_read", messageId: frame.message_id });
          break;
        case "unread":
          on.onUnread?.(frame.count);
          break;
        case "removed":
          dispatch({ type: "removed", messageId: frame.message_id });
          break;
      }
    };

    const socket = openSiteSocket(() => chatSocketPath(peerId), {
      opened: () => dispatch({ type: "opened" }),
      frame: (data) => {
        const frame = parse(data);
        if (frame && frame.type !== "pong") handle(frame);
      },
      dropped: () => {
        ready.current = false;
        dispatch({ type: "closed" });
      },
    });
    socketRef.current = socket;
    return () => {
      clearTimeout(typingTimer);
      socket.stop();
      socketRef.current = null;
      ready.current = false;
    };
  }, [enabled, peerId, transmit, flushRead]);

  const send = useCallback<ChatSocket["send"]>(
    (frame, preview) => {
      outbox.current.set(frame.client_id, frame);
      // The message ends the other side's typing indicator: typing after it is announced at once.
      lastTyping.current = 0;
      const created_at = Math.floor(Date.now() / 1000);
      dispatch({ type: "queued", frame, createdAt: created_at, image: preview?.image, gift: preview?.gift });
      transmit(frame);
    },
    [transmit],
  );

  const pendingRef = useRef(state.pending);
  useEffect(() => {
    pendingRef.current = state.pending;
  }, [state.pending]);

  const retry = useCallback(
    (clientId: string) => {
      const entry = pendingRef.current.find((p) => p.frame.client_id === clientId);
      if (!entry) return;
      outbox.current.set(clientId, entry.frame);
      dispatch({ type: "retried", clientId });
      transmit(entry.frame);
    },
    [transmit],
  );

  const discard = useCallback((clientId: string) => {
    outbox.current.delete(clientId);
    dispatch({ type: "discarded", clientId });
  }, []);

  const typing = useCallback(() => {
    const now = Date.now();
    if (now - lastTyping.current < TYPING_REPEAT_MS) return;
    if (transmit({ type: "typing" })) lastTyping.current = now;
  }, [transmit]);

  const read = useCallback(
    (messageId: number, again = false) => {
      const mark = readMark.current;
      mark.wanted = Math.max(mark.wanted, messageId);
      flushRead(again);
    },
    [flushRead],
  );

  return { ...state, send, retry, discard, typing, read };
}
