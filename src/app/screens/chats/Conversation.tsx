import { VerifiedOnlyNotice } from "./VerifiedOnlyNotice";
import { lazy, Suspense, useLayoutEffect, useRef, useState } from "react";
import useSWR, { type KeyedMutator } from "swr";
import type { ChatResponse } from "../../../shared/chat";
import type { ApiRequestError } from "../../page/api";
import { nextMessageCost } from "../../chat/chat-view-rules";
import { Pending } from "../../components/Pending";
import { Title } from "../../components/Title";
import { useRouter, useT, useWritingLocale } from "../../page/page-context";
import { useConversation } from "../../hooks/useConversation";
import { useRemoveChat } from "../../hooks/useChats";
import { useHydrated } from "../../hooks/useHydrated";
import { chatKey, type ChatRef } from "../../page/page-data";
import { ChatAlerts } from "./ChatAlerts";
import { BackLink, ConversationHeader } from "./ConversationHeader";
import { IceBreaker } from "./IceBreaker";
import { MessageList } from "./MessageList";
import { SendFooter } from "./SendFooter";
import { usePaidSends, type SendAsk } from "../../hooks/usePaidSends";
import { nextMessageLine, quotePrice } from "../../../shared/send-costs";

/** The gift picker arrives when a member opens it, not with every conversation. */
const GiftPicker = lazy(() => import("./GiftPicker").then((module) => ({ default: module.GiftPicker })));
/** So does the price's confirmation and the photo's preview, when a paid send asks. */
const SendConfirm = lazy(() => import("./SendConfirm").then((module) => ({ default: module.SendConfirm })));

const MIN_PANE_HEIGHT_PX = 352;
const PANE_MARGIN_PX = 16;
/** Where the conversation sits beside the chat list (the stylesheet's breakpoint). */
const BESIDE_THE_LIST = "(min-width: 768px)";

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
      // Below 768 px the stylesheet gives the conversation the whole screen.
      if (!window.matchMedia(BESIDE_THE_LIST).matches) {
        element.style.removeProperty("height");
        return;
      }
      const top = element.getBoundingClientRect().top + window.scrollY;
      element.style.height = `${Math.max(MIN_PANE_HEIGHT_PX, window.innerHeight - top - PANE_MARGIN_PX)}px`;
    };
    fit();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, [enabled]);
  return box;
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
  const locale = useWritingLocale();
  const { navigate } = useRouter();
  const removeChat = useRemoveChat();
  const { profile, costs } = data;
  const chat = useConversation(data, dataKey, mutate);
  const { items, hasMore, draft, connection } = chat;
  const [giftsOpen, setGiftsOpen] = useState(false);
  const [iceBreakerClosed, setIceBreakerClosed] = useState(false);
  // A popup drawn on the server could be tapped before it works.
  const hydrated = useHydrated();

  const removeAll = () => {
    navigate(backHref);
    void removeChat({ profile: { id: profile.id } });
  };

  const paid = usePaidSends(costs, chat.credits, {
    sendText: chat.sendText,
    sendGift: chat.sendGift,
    sendPhoto: (file) => void chat.sendPhoto(file),
  });
  const costText = nextMessageLine(t, paid.nextText, costs.free_messages_left, locale);
  const showIceBreaker =
    hydrated && chat.canWrite && !iceBreakerClosed && items.length === 0 && !hasMore && draft === "";
  const status =
    connection.dropped && !connection.connected
      ? t("chat.reconnecting")
      : connection.peerTyping
        ? t("chat.typing", { name: profile.name })
        : "";

  return (
    <>
      <Title text={t("chat.with", { name: profile.name })} />
      <ConversationHeader profile={profile} backHref={backHref} status={status} onRemove={pane ? null : removeAll} />
      <MessageList
        items={items}
        hasMore={hasMore}
        olderState={chat.olderState}
        onLoadOlder={chat.onLoadOlder}
        onSeen={chat.onSeen}
        onRetry={chat.retry}
        onDiscard={chat.discard}
        peer={profile}
      />
      {data.blocked_reason === "verified_only" ? (
        <VerifiedOnlyNotice name={profile.name} />
      ) : data.blocked_reason ? (
        <p className="chat-blocked" role="status">
          {data.blocked_reason === "blocked_by"
            ? t("errors.blocked_by", { name: profile.name })
            : t(`chat.blocked_reasons.${data.blocked_reason}`, { name: profile.name })}
        </p>
      ) : (
        <>
          <ChatAlerts
            name={profile.name}
            cost={nextMessageCost(costs)}
            credits={chat.credits}
            paid={chat.paid}
            refused={chat.refusedForCredits}
            minimum={costs.minimum_message_costs}
            messageCredits={costs.message}
            value={costs.credit_value}
            locale={locale}
          />
          <SendFooter
            name={profile.name}
            draft={draft}
            onDraft={chat.onDraft}
            onSend={paid.requestText}
            onPhoto={paid.requestPhoto}
            onGifts={() => setGiftsOpen(true)}
            maxLength={data.message_length}
            uploading={chat.uploading}
            costText={costText}
            notice={chat.notice}
          />
        </>
      )}
      {giftsOpen && (
        <Suspense fallback={null}>
          <GiftPicker
            name={profile.name}
            onPick={(gift) => {
              setGiftsOpen(false);
              paid.requestGift(gift);
            }}
            onClose={() => setGiftsOpen(false)}
          />
        </Suspense>
      )}
      {paid.ask && (
        <Suspense fallback={null}>
          <SendConfirm
            title={askTitle(t, paid.ask, profile.name, locale)}
            text={askText(t, paid.ask, profile.name, locale)}
            balanceAfter={paid.ask.quote.balance_after}
            shortOf={paid.ask.quote.affordable ? null : t("errors.not_enough_credits", { name: profile.name })}
            photoUrl={paid.ask.kind === "image" ? paid.ask.url : undefined}
            canStopAsking={paid.ask.kind !== "image" && paid.ask.quote.credits > 0}
            onSend={paid.confirm}
            onCancel={paid.cancel}
          />
        </Suspense>
      )}
      {showIceBreaker && (
        <IceBreaker
          name={profile.name}
          onPick={(line) => {
            chat.setDraft(line);
            setIceBreakerClosed(true);
          }}
          onClose={() => setIceBreakerClosed(true)}
        />
      )}
    </>
  );
}

type T = ReturnType<typeof useT>;

function askTitle(t: T, ask: SendAsk, name: string, locale: string): string {
  return ask.kind === "image"
    ? t("spend.preview_title", { name })
    : t("spend.confirm_title", { price: quotePrice(t, ask.quote, locale) });
}

function askText(t: T, ask: SendAsk, name: string, locale: string): string {
  const price = quotePrice(t, ask.quote, locale);
  if (ask.kind === "image") return t("spend.preview_price", { price });
  if (ask.kind === "gift") return t("spend.confirm_gift", { gift: ask.gift.name, name, price });
  return t("spend.confirm_message", { name, price });
}
