import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import useSWR, { type KeyedMutator } from "swr";
import type { ChatMessage, ChatPhotoResponse, ChatResponse, Gift } from "../../../shared/chat";
import { ApiRequestError, apiFetch, apiSendForm } from "../../api";
import { afterOwnMessage, mergeMessages, messageItems, newClientId, nextMessageCost, rememberLastChat } from "../../chat-messages";
import { Link } from "../../components/Link";
import { Pending } from "../../components/Pending";
import { ReportButton } from "../../components/ReportButton";
import { FictionalMark } from "../../components/ProfileCard";
import { Title } from "../../components/Title";
import { usePage, useRouter, useT } from "../../context";
import { useChatSocket } from "../../hooks/useChatSocket";
import { useRemoveChat, useUpdateChats, withMessage, withUnread } from "../../hooks/useChats";
import { useHydrated } from "../../hooks/useHydrated";
import { useUser } from "../../hooks/useUser";
import { chatKey, olderChatKey, type ChatRef } from "../../page-data";
import { Avatar } from "./Avatar";
import { GiftPicker } from "./GiftPicker";
import { IceBreaker } from "./IceBreaker";
import { MessageList } from "./MessageList";
import { SendFooter } from "./SendFooter";

const MIN_PANE_HEIGHT_PX = 352;
/** After a reconnect, at most this many pages are loaded to close the gap to what was on screen. */
const CATCH_UP_PAGES = 10;
const PANE_MARGIN_PX = 16;

type Props = {
  source: ChatRef;
  backHref: string;
  /** Beside the chat list (/chats/{id}): the way back shows on phones only, removing is done from the list. */
  pane?: boolean;
};

/** One conversation, shared by /members/{id}/chat and /chats/{id}: header, messages, alerts and the send footer. */
export function Conversation({ source, backHref, pane = false }: Props) {
  const t = useT();
  const key = chatKey(source);
  const { data, error, mutate } = useSWR<ChatResponse, ApiRequestError>(key);
  const box = useFitToViewport(pane);

  return (
    <div className={pane ? "conversation conversation--pane" : "conversation"} ref={box}>
      {data ? (
        <ConversationView data={data} dataKey={key} mutate={mutate} backHref={backHref} pane={pane} />
      ) : (
        <>
          <Title text={t("chat.title")} />
          <header className="conversation__header">
            <BackLink href={backHref} />
          </header>
          <div className="conversation__status">
            {error && error.status < 500 ? (
              <p className="notice notice--error" role="alert">
                {error.message || t("chat.not_found")}
              </p>
            ) : (
              <Pending failed={error !== undefined} retry={() => void mutate()} />
            )}
          </div>
        </>
      )}
    </div>
  );
}

/**
 * Beside the chat list the conversation ends at the bottom of the window, whatever the top bar and
 * alerts above it take (the stylesheet's estimate holds until this runs).
 */
function useFitToViewport(enabled: boolean) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!enabled || !element) return;
    const fit = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      element.style.height = `${Math.max(MIN_PANE_HEIGHT_PX, window.innerHeight - top - PANE_MARGIN_PX)}px`;
    };
    fit();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, [enabled]);
  return box;
}

function BackLink({ href }: { href: string }) {
  const t = useT();
  return (
    <Link href={href} className="conversation__back" aria-label={t("chat.back")} title={t("chat.back")}>
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path fill="currentColor" d="M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z" />
      </svg>
    </Link>
  );
}

type ViewProps = {
  data: ChatResponse;
  dataKey: string;
  mutate: KeyedMutator<ChatResponse>;
  backHref: string;
  pane: boolean;
};

function ConversationView({ data, dataKey, mutate, backHref, pane }: ViewProps) {
  const t = useT();
  const { locale } = usePage();
  const { navigate } = useRouter();
  const { user, setUser } = useUser();
  const removeChat = useRemoveChat();
  const { profile } = data;
  const ownId = user?.profile.id ?? 0;

  const [older, setOlder] = useState<{ messages: ChatMessage[]; hasMore: boolean } | null>(null);
  const [olderState, setOlderState] = useState<"idle" | "loading" | "failed">("idle");
  const [draft, setDraft] = useState("");
  const [uploading, setUploading] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  /** The server refused a send for want of credits: the credit and premium alerts show whatever the numbers say. */
  const [refusedForCredits, setRefusedForCredits] = useState(false);
  const [giftsOpen, setGiftsOpen] = useState(false);
  const [iceBreakerClosed, setIceBreakerClosed] = useState(false);
  // A popup drawn on the server could be tapped before it works.
  const hydrated = useHydrated();

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
      void mutate((chat) => afterOwnMessage(chat ?? latest.current.data, frame.message, frame.credits), { revalidate: false });
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

  const messages = useMemo(() => mergeMessages(mergeMessages(older?.messages ?? [], data.messages), socket.live), [older, data.messages, socket.live]);
  const peerReadId = Math.max(data.peer_read_id ?? 0, socket.peerReadId ?? 0) || null;
  const items = useMemo(() => messageItems(messages, socket.pending, ownId, peerReadId), [messages, socket.pending, ownId, peerReadId]);
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
      setOlder((current) => ({ messages: mergeMessages(mergeMessages(current?.messages ?? [], before), caught), hasMore: current ? current.hasMore : latest.current.data.has_more }));
      await mutate(fresh, { revalidate: false });
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
      setOlder((current) => ({ messages: mergeMessages(page.messages, current?.messages ?? []), hasMore: page.has_more }));
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
    setUploading(true);
    setNotice(null);
    const form = new FormData();
    form.append("photo", file);
    try {
      const { photo } = await apiSendForm<ChatPhotoResponse>("/api/chat-photo.php", form);
      send({ type: "send", client_id: newClientId(), kind: "image", photo_id: photo.id }, { image: { ...photo, locked: false } });
    } catch (error) {
      setNotice(error instanceof ApiRequestError && error.message ? error.message : t("errors.try_again_later"));
    } finally {
      setUploading(false);
    }
  };

  const sendGift = (gift: Gift) => {
    setGiftsOpen(false);
    send({ type: "send", client_id: newClientId(), kind: "gift", gift: gift.slug }, { gift: { slug: gift.slug, name: gift.name, image: gift.image } });
  };

  const removeAll = () => {
    navigate(backHref);
    void removeChat({ profile: { id: profile.id } });
  };

  const credits = user?.credits ?? data.credits;
  const paid = user?.paid_user ?? data.paid_user;
  const costs = data.costs;
  const costText =
    costs.free_messages_left > 0
      ? t("chat.free_left", { n: costs.free_messages_left })
      : costs.message > 0
        ? t("chat.message_cost", { credits: costs.message })
        : "";
  const showIceBreaker = hydrated && canWrite && !iceBreakerClosed && items.length === 0 && !hasMore && draft === "";
  const status = socket.dropped && !socket.connected ? t("chat.reconnecting") : socket.peerTyping ? t("chat.typing", { name: profile.name }) : "";

  return (
    <>
      <Title text={t("chat.with", { name: profile.name })} />
      <header className="conversation__header">
        <BackLink href={backHref} />
        <Link href={`/members/${profile.id}`} className="conversation__profile">
          <Avatar image={profile.main_image} name={profile.name} size={40} />
          <span className="conversation__who">
            <span className="conversation__name">
              {profile.name}
              {profile.age ? `, ${profile.age}` : ""} {profile.fictional && <FictionalMark />}
            </span>
            <span className={status ? "conversation__status-line is-live" : "conversation__status-line"} aria-live="polite">
              {status || profile.city}
            </span>
          </span>
        </Link>
        {!pane && (
          <button type="button" className="icon-button conversation__remove" onClick={removeAll} aria-label={t("chat.remove_with", { name: profile.name })} title={t("chat.remove")}>
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <path fill="currentColor" d="M9 3h6l1 2h4v2H4V5h4l1-2zM6 9h12l-1 12H7L6 9zm4 2v8h1.5v-8H10zm2.5 0v8H14v-8h-1.5z" />
            </svg>
          </button>
        )}
        <ReportButton profile={profile} className="button button--ghost button--small conversation__report" />
      </header>
      <MessageList
        items={items}
        hasMore={hasMore}
        olderState={olderState}
        onLoadOlder={onLoadOlder}
        onSeen={onSeen}
        onRetry={retry}
        onDiscard={discard}
      />
      {data.blocked_reason ? (
        <p className="chat-blocked" role="status">
          {data.blocked_reason === "blocked_by" ? t("errors.blocked_by", { name: profile.name }) : t(`chat.blocked_reasons.${data.blocked_reason}`, { name: profile.name })}
        </p>
      ) : (
        <>
          <ChatAlerts name={profile.name} cost={nextMessageCost(costs)} credits={credits} paid={paid} refused={refusedForCredits} minimum={costs.minimum_message_costs} locale={locale} />
          <SendFooter
            name={profile.name}
            draft={draft}
            onDraft={onDraft}
            onSend={sendText}
            onPhoto={(file) => void sendPhoto(file)}
            onGifts={() => setGiftsOpen(true)}
            maxLength={data.message_length}
            uploading={uploading}
            costText={costText}
            notice={notice}
          />
        </>
      )}
      {giftsOpen && <GiftPicker name={profile.name} onPick={sendGift} onClose={() => setGiftsOpen(false)} />}
      {showIceBreaker && (
        <IceBreaker
          name={profile.name}
          onPick={(line) => {
            setDraft(line);
            setIceBreakerClosed(true);
          }}
          onClose={() => setIceBreakerClosed(true)}
        />
      )}
    </>
  );
}

type AlertProps = {
  name: string;
  cost: number;
  credits: number;
  paid: boolean;
  refused: boolean;
  minimum: ChatResponse["costs"]["minimum_message_costs"];
  locale: string;
};

/** The credit alert when the next message costs more than the member has, and the premium alert for free members. */
function ChatAlerts({ name, cost, credits, paid, refused, minimum, locale }: AlertProps) {
  const t = useT();
  const low = refused || credits < cost;
  if (!low && paid) return null;
  const price = minimum ? formatPrice(minimum.costs, minimum.currency, locale) : null;
  return (
    <div className="chat-alerts">
      {low && (
        <div className="alert alert--warning" role="status">
          <p>{t("errors.not_enough_credits", { name })}</p>
          <Link href="/credits" className="button button--primary button--small">
            {t("chat.buy_credits")}
          </Link>
        </div>
      )}
      {!paid && (
        <div className="alert alert--info" role="status">
          <p>
            {t("chat.premium_alert")}
            {price && ` ${t("chat.premium_price", { price })}`}
          </p>
          <Link href="/premium" className="button button--secondary button--small">
            {t("nav.get_premium")}
          </Link>
        </div>
      )}
    </div>
  );
}

function formatPrice(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}
