import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import type { ChatMessage, ChatsResponse } from "../../shared/chat";
import { ApiRequestError, apiSend } from "../page/api";
import { useT } from "../page/page-context";
import { CHATS_KEY } from "../page/page-data";
import { useUser } from "./useUser";

/** The member's conversations (GET /api/chats.php) and their total unread messages; nothing for a visitor. */
export function useChats() {
  const { user } = useUser();
  const { data, error, mutate } = useSWR<ChatsResponse, ApiRequestError>(user ? CHATS_KEY : null);
  return {
    chats: data?.chats,
    totalUnread: user ? (data?.total_unread ?? 0) : 0,
    error: error as ApiRequestError | undefined,
    mutate,
  };
}

/** The list with one conversation's unread count set (the same object when nothing changes). */
export function withUnread(data: ChatsResponse, conversationId: number, count: number): ChatsResponse {
  const chat = data.chats.find((c) => c.conversation.id === conversationId);
  if (!chat || chat.num_unread_messages === count) return data;
  return {
    chats: data.chats.map((c) => (c === chat ? { ...c, num_unread_messages: count } : c)),
    total_unread: Math.max(0, data.total_unread - chat.num_unread_messages + count),
  };
}

/** The list with a new message as its conversation's last one, that conversation first; null when it is not in the list. */
export function withMessage(data: ChatsResponse, message: ChatMessage): ChatsResponse | null {
  const chat = data.chats.find((c) => c.conversation.id === message.conversation_id);
  if (!chat) return null;
  if (chat.last_message_at > message.created_at) return data;
  const last = { kind: message.kind, body: message.body, sender_id: message.sender_id, created_at: message.created_at };
  const updated = { ...chat, last_message: last, last_message_at: message.created_at };
  return { ...data, chats: [updated, ...data.chats.filter((c) => c !== chat)] };
}

/**
 * Change cached data where the hooks read it: the cache, or the page's embedded data until the
 * first fetch (swr keeps that apart from the cache). A change that returns null reloads the key;
 * nothing happens while the key has no data; a load under way is not lost (it is made again).
 */
export function useUpdateCached() {
  const { cache, mutate, fallback } = useSWRConfig();
  return useCallback(
    async <T>(key: string, change: (data: T) => T | null): Promise<void> => {
      const data = (cache.get(key)?.data ?? fallback[key]) as T | undefined;
      if (data === undefined) return;
      const next = change(data);
      if (next === data) return;
      // swr drops a load that started before a change: one under way is started again after it.
      const loading = cache.get(key)?.isValidating === true;
      await (next ? mutate(key, next, { revalidate: loading }) : mutate(key));
    },
    [cache, mutate, fallback],
  );
}

/** Change the chat list where the hooks read it (useUpdateCached); a change that returns null reloads the list. */
export function useUpdateChats() {
  const update = useUpdateCached();
  return useCallback(
    (change: (list: ChatsResponse) => ChatsResponse | null) => update<ChatsResponse>(CHATS_KEY, change),
    [update],
  );
}

type ChatTarget = { conversation: { id: number } } | { profile: { id: number } };

/** The list without the removed conversations: one by its id, or all of them with a profile. */
export function withoutChats(data: ChatsResponse, target: ChatTarget): ChatsResponse {
  const removed = data.chats.filter((c) =>
    "conversation" in target ? c.conversation.id === target.conversation.id : c.profile.id === target.profile.id,
  );
  if (removed.length === 0) return data;
  const unread = removed.reduce((sum, c) => sum + c.num_unread_messages, 0);
  return {
    chats: data.chats.filter((c) => !removed.includes(c)),
    total_unread: Math.max(0, data.total_unread - unread),
  };
}

/**
 * SPEC §4, §8: removing a chat takes it off the list at once, then asks the server; if that fails
 * the member sees the error in an alert and the list reloads.
 */
export function useRemoveChat() {
  const { mutate } = useSWRConfig();
  const updateChats = useUpdateChats();
  const t = useT();
  return useCallback(
    async (target: ChatTarget): Promise<boolean> => {
      await updateChats((list) => withoutChats(list, target));
      try {
        await apiSend("DELETE", "/api/chat.php", target);
        return true;
      } catch (error) {
        window.alert(error instanceof ApiRequestError && error.message ? error.message : t("errors.try_again_later"));
        await mutate(CHATS_KEY);
        return false;
      }
    },
    [mutate, updateChats, t],
  );
}
