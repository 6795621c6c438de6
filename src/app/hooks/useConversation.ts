import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { KeyedMutator } from "swr";
import type { ChatMessage, ChatPhotoResponse, ChatResponse, Gift } from "../../shared/chat";
import { ApiRequestError, apiFetch, apiSendForm } from "../page/api";
import {
  afterOwnMessage,
  freshKeepingSpent,
  mergeMessages,
  messageItems,
  newClientId,
  rememberLastChat,
  withRemoved,
} from "../chat/chat-view-rules";
import { useT } from "../page/page-context";
import { beforeSendPhoto } from "../chat/before-send-photo";
import { olderChatKey } from "../page/page-data";
import { useChatSocket } from "./useChatSocket";
import { useUpdateChats, withMessage, withUnread } from "./useChats";
import { useUser } from "./useUser";

/** After a reconnect, at most this many pages are loaded to close the gap to what was on screen. */
const CATCH_UP_PAGES = 10;

/**
 * Everything one open conversation does besides drawing it: the messages to show (the page data,
 * older pages, what arrived over the socket and own sends under way), the catch-up after a
 * reconnect, read marks, the draft, and sending text, photos and gifts.
 */
export function useConversation(data: ChatResponse, dataKey: string, mutate: KeyedMutator<ChatResponse>) {
  const t = useT();
  const { user, setUser } = useUser();
  const { profile } = data;
  const ownId = user?.profile.id ?? 0;

  const [older, setOlder] = useState<{ messages: ChatMessage[]; hasMore: boolean } | null>(null);
  const [olderState, setOlderState] = useState<"idle" | "loading" | "failed">("idle");
  const [draft, setDraft] = useState("");
  const [uploading, setUploading] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  /** The server refused a send for want of credits: the credit and premium alerts show whatever the numbers say. */
  const [refusedForCredits, setRefusedForCredits] = useState(false);

  const latest = useRef({ user, data, conversationId: data.conversation?.id ?? null });

  const updateChats = useUpdateChats();

  const canWrite = data.blocked_reason === null;
  const socket = useChatSocket(profile.id, canWrite || data.blocked_reason === "not_confirmed", {
    // Whatever happened while the socket was away: the newest page again, and the pages back to
    // what was on screen (messages merge by id), so a long absence leaves no hole.
    onReady: () => void catchUp(),
    onAck: (frame) => {
      const current = latest.current.user;
      if (current) void setUser({ ...current, credits: frame.credits });
      // Embedded page data is not in swr's cache until the first fetch: then start from what is on screen.
      void mutate((chat) => afterOwnMessage(chat ?? latest.current.data, frame.message, frame.credits), {
        revalidate: false,
      });
      setRefusedForCredits(false);
    },
    onMessage: (message) => void updateChats((list) => withMessage(list, message)),
    onError: (frame) => {
      if (frame.error === "insufficient_credits") setRefusedForCredits(true);
      else void mutate();
      if (frame.client_id === null) setNotice(frame.message);
    },
    onUnread: (count) => {
      const id = latest.current.conversationId;
      if (id !== null) void updateChats((list) => withUnread(list, id, count));
    },
  });
  const { read, send, retry, discard, typing } = socket;

  const messages = useMemo(
    () => withRemoved(mergeMessages(mergeMessages(older?.messages ?? [], data.messages), socket.live), socket.removed),
    [older, data.messages, socket.live, socket.removed],
  );
  const peerReadId = Math.max(data.peer_read_id ?? 0, socket.peerReadId ?? 0) || null;
  const items = useMemo(
    () => messageItems(messages, socket.pending, ownId, peerReadId),
    [messages, socket.pending, ownId, peerReadId],
  );
  const hasMore = older ? older.hasMore : data.has_more;
  const oldestId = messages[0]?.id ?? null;

  useEffect(() => {
    latest.current = { user, data, conversationId: data.conversation?.id ?? socket.conversationId };
  });

  useEffect(() => rememberLastChat(profile.id), [profile.id]);

  const shown = useRef(messages);
  useEffect(() => {
    shown.current = messages;
  });

  const catchUp = async () => {
    const before = shown.current;
    const newestShown = before.at(-1)?.id ?? 0;
    try {
      const fresh = await apiFetch<ChatResponse>(dataKey);
      let caught = fresh.messages;
      let oldest = caught[0]?.id;
      // Nothing on screen yet: the newest page is all there is to show.
      let more = fresh.has_more && newestShown > 0;
      for (let pages = 0; more && oldest !== undefined && oldest > newestShown + 1 && pages < CATCH_UP_PAGES; pages++) {
        const page = await apiFetch<ChatResponse>(olderChatKey(dataKey, oldest));
        caught = mergeMessages(page.messages, caught);
        oldest = page.messages[0]?.id;
        more = page.has_more;
      }
      // What was on screen stays: kept with the older pages, while the page data becomes the fresh one.
      setOlder((current) => ({
        messages: mergeMessages(mergeMessages(current?.messages ?? [], before), caught),
        hasMore: current ? current.hasMore : latest.current.data.has_more,
      }));
      await mutate((onScreen) => freshKeepingSpent(onScreen ?? latest.current.data, fresh), { revalidate: false });
    } catch {
      void mutate();
    }
  };

  const loadingOlder = useRef(false);
  const loadOlder = useCallback(async () => {
    if (loadingOlder.current || oldestId === null) return;
    loadingOlder.current = true;
    setOlderState("loading");
    try {
      const page = await apiFetch<ChatResponse>(olderChatKey(dataKey, oldestId));
      setOlder((current) => ({
        messages: mergeMessages(page.messages, current?.messages ?? []),
        hasMore: page.has_more,
      }));
      setOlderState("idle");
    } catch {
      setOlderState("failed");
    } finally {
      loadingOlder.current = false;
    }
  }, [dataKey, oldestId]);
  const onLoadOlder = useCallback(() => void loadOlder(), [loadOlder]);

  /** The newest message is on screen: tell the server (SPEC §4: opening a chat sets its unread count to 0). */
  const onSeen = useCallback(
    (newest: number, again: boolean) => {
      if (document.visibilityState !== "visible") return;
      const conversationId = latest.current.conversationId ?? data.conversation?.id ?? null;
      read(newest, again);
      if (conversationId !== null) void updateChats((list) => withUnread(list, conversationId, 0));
    },
    [read, updateChats, data.conversation?.id],
  );

  const sendText = () => {
    const body = draft.trim();
    if (!body) return;
    send({ type: "send", client_id: newClientId(), kind: "text", body });
    setDraft("");
    setNotice(null);
  };

  const onDraft = (text: string) => {
    setDraft(text);
    if (text) typing();
  };

  const sendPhoto = async (file: File) => {
    setNotice(null);
    const check = await beforeSendPhoto(file);
    if (!check.send) {
      setNotice(check.notice);
      return;
    }
    setUploading(true);
    const form = new FormData();
    form.append("photo", file);
    try {
      const { photo } = await apiSendForm<ChatPhotoResponse>("/api/chat-photo.php", form);
      send(
        { type: "send", client_id: newClientId(), kind: "image", photo_id: photo.id },
        { image: { ...photo, locked: false } },
      );
    } catch (error) {
      setNotice(error instanceof ApiRequestError && error.message ? error.message : t("errors.try_again_later"));
    } finally {
      setUploading(false);
    }
  };

  const sendGift = (gift: Gift) => {
    send(
      { type: "send", client_id: newClientId(), kind: "gift", gift: gift.slug },
      { gift: { slug: gift.slug, name: gift.name, image: gift.image } },
    );
  };

  const credits = user?.credits ?? data.credits;
  const paid = user?.paid_user ?? data.paid_user;

  return {
    items,
    hasMore,
    olderState,
    onLoadOlder,
    onSeen,
    retry,
    discard,
    draft,
    setDraft,
    onDraft,
    sendText,
    sendPhoto,
    sendGift,
    uploading,
    notice,
    refusedForCredits,
    canWrite,
    credits,
    paid,
    connection: { connected: socket.connected, dropped: socket.dropped, peerTyping: socket.peerTyping },
  };
}
