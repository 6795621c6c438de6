import { useState } from "react";
import type { ChatItem } from "../../../shared/chat";
import { Link } from "../../components/Link";
import { NextStepNotice } from "../../components/NextStepNotice";
import { LoginPrompt } from "../../components/LoginPrompt";
import { Pending } from "../../components/Pending";
import { Title } from "../../components/Title";
import { badgeText } from "../../components/TopBar";
import { usePage, useRouter, useT } from "../../page/page-context";
import { useChats, useRemoveChat } from "../../hooks/useChats";
import { useMinute } from "../../hooks/useMinute";
import { useUser } from "../../hooks/useUser";
import type { ScreenProps } from "../../page/page-state";
import { Avatar } from "../../components/Avatar";
import { listTime } from "./chat-time";
import { Conversation } from "./Conversation";

/**
 * The chats overview (/chats) and one conversation beside it (/chats/{id}): beside the list from
 * 768 px, alone with a way back on phones (SPEC §2).
 */
export default function ChatsScreen({ params }: ScreenProps) {
  const t = useT();
  const { user } = useUser();
  if (!user) return <LoginPrompt title={t("chat.title")} text={t("login_needed.chat")} />;
  const openId = params.id ? Number(params.id) : null;
  return (
    <section className={openId ? "chats chats--open" : "chats"}>
      {openId === null && <Title text={t("chat.title")} />}
      <ChatList openId={openId} />
      {openId !== null && (
        <div className="chats__pane">
          <Conversation key={openId} source={{ conversation: openId }} backHref="/chats" pane />
        </div>
      )}
    </section>
  );
}

function ChatList({ openId }: { openId: number | null }) {
  const t = useT();
  const { chats, error, mutate } = useChats();
  return (
    <div className="chats__list">
      <h1 className="chats__title">{t("chat.title")}</h1>
      {chats === undefined ? (
        <Pending failed={error !== undefined} retry={() => void mutate()} />
      ) : chats.length === 0 ? (
        <NextStepNotice
          text={t("chat.empty")}
          href="/members"
          action={t("chat.empty_search")}
          className="chats__empty"
        />
      ) : (
        <ul className="chat-list">
          {chats.map((chat) => (
            <ChatRow key={chat.conversation.id} chat={chat} open={chat.conversation.id === openId} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ChatRow({ chat, open }: { chat: ChatItem; open: boolean }) {
  const t = useT();
  const { locale } = usePage();
  const { user } = useUser();
  const { navigate } = useRouter();
  const now = useMinute();
  const removeChat = useRemoveChat();
  const { profile, last_message: last } = chat;
  const unread = chat.num_unread_messages;

  const snippet = !last
    ? t("chat.no_messages")
    : last.kind === "image"
      ? t("chat.photo")
      : last.kind === "gift"
        ? t("chat.gift")
        : (last.body ?? "");
  const text = last && user && last.sender_id === user.profile.id ? t("chat.you", { text: snippet }) : snippet;

  // Removing takes the chat's messages from the member's list for good: the × asks first.
  const [confirming, setConfirming] = useState(false);
  const remove = () => {
    setConfirming(false);
    if (open) navigate("/chats", { replace: true });
    void removeChat({ conversation: { id: chat.conversation.id } });
  };

  return (
    <li className={["chat-item", unread > 0 && "is-unread", open && "is-open"].filter(Boolean).join(" ")}>
      <Link
        href={`/chats/${chat.conversation.id}`}
        className="chat-item__link"
        aria-current={open ? "page" : undefined}
      >
        <Avatar image={profile.main_image} name={profile.name} premium={profile.premium} />
        <span className="chat-item__text">
          <span className="chat-item__name">{profile.name}</span>
          <span className="chat-item__time">{now && last ? listTime(chat.last_message_at, now, locale) : ""}</span>
          <span className="chat-item__snippet">{text}</span>
          {unread > 0 && (
            <span className="badge badge--unread chat-item__unread" aria-label={t("chat.unread", { count: unread })}>
              {badgeText(unread)}
            </span>
          )}
        </span>
      </Link>
      <button
        type="button"
        className="chat-item__remove"
        onClick={() => setConfirming(true)}
        aria-label={t("chat.remove_with", { name: profile.name })}
        aria-expanded={confirming}
        title={t("chat.remove")}
      >
        ×
      </button>
      {confirming && (
        <div
          className="confirm-inline chat-item__confirm"
          role="group"
          aria-label={t("chat.remove_with", { name: profile.name })}
        >
          <p>{t("chat.remove_confirm", { name: profile.name })}</p>
          <div className="confirm-inline__actions">
            <button type="button" className="button button--danger" onClick={remove}>
              {t("chat.remove")}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setConfirming(false)}>
              {t("chat.remove_cancel")}
            </button>
          </div>
        </div>
      )}
    </li>
  );
}
