/**
 * The rules of a conversation on screen, as plain functions: which messages show (history pages,
 * live ones and own sends still under way, each once), how they group by day, what the next message
 * costs, and how the socket waits before reconnecting.
 */
import { LAST_CHAT_KEY } from "../../shared/browser-storage";
import type { ChatCosts, ChatGift, ChatImage, ChatMessage, ChatResponse, MessageKind } from "../../shared/chat";
import { type SendFrame } from "../../shared/chat-frames";

/** Messages of both lists, each id once (the copy in `added` wins), oldest first. */
export function mergeMessages(base: readonly ChatMessage[], added: readonly ChatMessage[]): ChatMessage[] {
  if (added.length === 0) return base as ChatMessage[];
  if (base.length === 0) return added as ChatMessage[];
  const byId = new Map<number, ChatMessage>();
  for (const message of base) byId.set(message.id, message);
  for (const message of added) byId.set(message.id, message);
  return [...byId.values()].toSorted((a, b) => a.id - b.id);
}

/** The messages with those a moderator removed since they arrived shown as removed: no text, photo or gift. */
export function withRemoved(messages: ChatMessage[], removedIds: readonly number[]): ChatMessage[] {
  if (removedIds.length === 0) return messages;
  return messages.map((m) =>
    removedIds.includes(m.id) && !m.removed ? { ...m, body: null, image: null, gift: null, removed: true } : m,
  );
}

/** An own send the server has not stored yet: shown as "sending", or with the server's reason. */
export type PendingMessage = {
  frame: SendFrame;
  error: { code: string; message: string } | null;
  created_at: number;
  image: ChatImage | null;
  gift: ChatGift | null;
};

/** One row of the message list: a stored message or an own send under way. */
export type MessageItem = {
  key: string;
  id: number | null;
  clientId: string;
  own: boolean;
  kind: MessageKind;
  body: string | null;
  image: ChatImage | null;
  gift: ChatGift | null;
  created_at: number;
  status: "sending" | "failed" | "sent" | "seen";
  error: string | null;
  /** A moderator removed it: the page says so in its place. */
  removed: boolean;
};

/**
 * The rows to show: stored messages oldest first, then own sends still under way. A send whose
 * message has arrived (by history or over the socket, matched on client_id) shows once, as stored.
 * Own messages up to the other member's read mark are "seen".
 */
export function messageItems(
  messages: readonly ChatMessage[],
  pending: readonly PendingMessage[],
  ownProfileId: number,
  peerReadId: number | null,
): MessageItem[] {
  const stored = new Set<string>();
  const items: MessageItem[] = messages.map((m) => {
    const own = m.sender_id === ownProfileId;
    if (own) stored.add(m.client_id);
    return {
      key: `m${m.id}`,
      id: m.id,
      clientId: m.client_id,
      own,
      kind: m.kind,
      body: m.body,
      image: m.image,
      gift: m.gift,
      created_at: m.created_at,
      status: own && peerReadId !== null && m.id <= peerReadId ? "seen" : "sent",
      error: null,
      removed: m.removed,
    };
  });
  for (const p of pending) {
    if (stored.has(p.frame.client_id)) continue;
    items.push({
      key: `p${p.frame.client_id}`,
      id: null,
      clientId: p.frame.client_id,
      own: true,
      kind: p.frame.kind,
      body: p.frame.kind === "text" ? p.frame.body : null,
      image: p.image,
      gift: p.gift,
      created_at: p.created_at,
      status: p.error ? "failed" : "sending",
      error: p.error?.message ?? null,
      removed: false,
    });
  }
  return items;
}

/** The local calendar day of a time in seconds, as YYYY-MM-DD. */
export function dayKey(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Consecutive items of the same local day together, for the day separators. */
export function groupByDay<T extends { created_at: number }>(items: readonly T[]): { day: string; items: T[] }[] {
  const groups: { day: string; items: T[] }[] = [];
  for (const item of items) {
    const day = dayKey(item.created_at);
    const last = groups.at(-1);
    if (last?.day === day) last.items.push(item);
    else groups.push({ day, items: [item] });
  }
  return groups;
}

/** What the next text message costs in credits: nothing while free messages are left. */
export function nextMessageCost(costs: ChatCosts): number {
  return costs.free_messages_left > 0 ? 0 : costs.message;
}

/**
 * The conversation after an own message was stored (its ack over the socket): the new balance, one
 * free message fewer if it was free (the footer's counter turns into the price at the last one),
 * and a paid text marks the conversation as paid in (its first paid message asked already).
 */
export function afterOwnMessage(chat: ChatResponse, message: ChatMessage, credits: number): ChatResponse {
  const free = message.kind === "text" && message.credits === 0 && chat.costs.free_messages_left > 0;
  const paidText = message.kind === "text" && message.credits > 0;
  return {
    ...chat,
    conversation: chat.conversation ?? { id: message.conversation_id },
    credits,
    costs: {
      ...chat.costs,
      free_messages_left: free ? chat.costs.free_messages_left - 1 : chat.costs.free_messages_left,
      paid_here: chat.costs.paid_here || paidText,
    },
  };
}

/**
 * Fresh page data over what is on screen: free messages only ever run out within a page's life, so
 * an answer read before the last acks cannot bring back a free message they used, nor forget a paid one.
 */
export function freshKeepingSpent(shown: ChatResponse, fresh: ChatResponse): ChatResponse {
  return {
    ...fresh,
    costs: {
      ...fresh.costs,
      free_messages_left: Math.min(shown.costs.free_messages_left, fresh.costs.free_messages_left),
      paid_here: shown.costs.paid_here || fresh.costs.paid_here,
    },
  };
}

/** A client's own id for a send: base64url of 16 random bytes, so a retried send is stored once. */
export function newClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

export function rememberLastChat(profileId: number, at = Date.now()): void {
  try {
    localStorage.setItem(LAST_CHAT_KEY, JSON.stringify({ profile_id: profileId, at }));
  } catch {
    // Without storage there is nothing to remember it in.
  }
}
