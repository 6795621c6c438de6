import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { groupByDay, type MessageItem } from "../../chat/chat-view-rules";
import { Link } from "../../components/Link";
import { LockIcon } from "../../components/LockIcon";
import { ReportButton } from "../../components/ReportButton";
import { usePage, useT } from "../../page/page-context";
import { useMinute } from "../../hooks/useMinute";
import { dayLabel, messageTime } from "./chat-time";

/** Closer than this to the end, the list counts as scrolled to the newest message and follows new ones. */
const BOTTOM_SLACK_PX = 64;
/** Closer than this to the top, the next older page loads. */
const TOP_SLACK_PX = 200;

type Props = {
  items: MessageItem[];
  hasMore: boolean;
  olderState: "idle" | "loading" | "failed";
  onLoadOlder: () => void;
  /** The newest stored message is on screen (`again`: the page became visible again). */
  onSeen: (messageId: number, again: boolean) => void;
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
  /** The other member: each of their messages can be reported on its own. */
  peer: { id: number; name: string };
};

/**
 * The messages, oldest at the top, with day separators. It opens at the newest message, follows new
 * ones while scrolled to the end, loads older pages near the top and keeps what was on screen in
 * place when they arrive. Memoised: typing in the text area does not render it again.
 */
export const MessageList = memo(function MessageList({
  items,
  hasMore,
  olderState,
  onLoadOlder,
  onSeen,
  onRetry,
  onDiscard,
  peer,
}: Props) {
  const t = useT();
  const { locale } = usePage();
  /** 0 until hydrated: days and times are the browser's, so they show only then. */
  const now = useMinute();
  const listRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  /** scrollHeight - scrollTop as last seen: what stays in place when older messages come in above. */
  const fromBottom = useRef(0);
  const edges = useRef<{ first: string | undefined; last: string | undefined }>({ first: undefined, last: undefined });
  // Grouping by day needs the browser's time zone: one group without a label until hydrated.
  const groups = useMemo(() => (now ? groupByDay(items) : [{ day: "", items }]), [items, now]);

  const first = items[0]?.key;
  const lastItem = items.at(-1);
  const newestId = items.findLast((item) => item.id !== null)?.id ?? null;
  const seen = useRef(onSeen);
  useEffect(() => {
    seen.current = onSeen;
  });
  const markSeen = useCallback(
    (again: boolean) => {
      if (newestId !== null) seen.current(newestId, again);
    },
    [newestId],
  );
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const before = edges.current;
    const prepended = before.first !== undefined && first !== before.first && lastItem?.key === before.last;
    const ownNew = lastItem?.own === true && lastItem.key !== before.last && before.last !== undefined;
    if (prepended) list.scrollTop = list.scrollHeight - fromBottom.current;
    else if (atBottom.current || ownNew) list.scrollTop = list.scrollHeight;
    edges.current = { first, last: lastItem?.key };
    fromBottom.current = list.scrollHeight - list.scrollTop;
    atBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < BOTTOM_SLACK_PX;
    if (atBottom.current) markSeen(false);
  }, [first, lastItem, markSeen]);

  // Whatever changes size (labels after hydration, the keyboard opening): stay at the newest message if there.
  useEffect(() => {
    const list = listRef.current;
    const content = contentRef.current;
    if (!list || !content || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) list.scrollTop = list.scrollHeight;
      fromBottom.current = list.scrollHeight - list.scrollTop;
    });
    observer.observe(content);
    observer.observe(list);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === "visible" && atBottom.current) markSeen(true);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [markSeen]);

  const onScroll = () => {
    const list = listRef.current;
    if (!list) return;
    fromBottom.current = list.scrollHeight - list.scrollTop;
    const wasAtBottom = atBottom.current;
    atBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < BOTTOM_SLACK_PX;
    if (atBottom.current && !wasAtBottom) markSeen(false);
    if (list.scrollTop < TOP_SLACK_PX && hasMore && olderState === "idle") onLoadOlder();
  };

  return (
    <div className="messages" ref={listRef} onScroll={onScroll}>
      <div className="messages__content" ref={contentRef}>
        {hasMore && (
          <button type="button" className="messages__older" disabled={olderState === "loading"} onClick={onLoadOlder}>
            {olderState === "loading"
              ? t("chat.loading_older")
              : olderState === "failed"
                ? t("chat.older_failed")
                : t("chat.older")}
          </button>
        )}
        {groups.map((group) => (
          <section key={group.day + (group.items[0]?.key ?? "")} className="messages__day">
            {now > 0 && (
              <h3 className="messages__day-label">
                <span>{dayLabel(group.day, now, locale, t)}</span>
              </h3>
            )}
            <ol className="messages__items">
              {group.items.map((item) => (
                <Message
                  key={item.key}
                  item={item}
                  time={now ? messageTime(item.created_at, locale) : ""}
                  onRetry={onRetry}
                  onDiscard={onDiscard}
                  peer={peer}
                />
              ))}
            </ol>
          </section>
        ))}
      </div>
    </div>
  );
});

const STATUS_MARK: Record<MessageItem["status"], string> = { sending: "…", failed: "!", sent: "✓", seen: "✓✓" };

type MessageProps = {
  item: MessageItem;
  time: string;
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
  peer: { id: number; name: string };
};

/** Rows are made anew on every change; one whose fields are all the same is not drawn again. */
function sameMessage(a: MessageProps, b: MessageProps): boolean {
  if (a.time !== b.time || a.onRetry !== b.onRetry || a.onDiscard !== b.onDiscard || a.peer !== b.peer) return false;
  return (Object.keys(a.item) as (keyof MessageItem)[]).every((key) => a.item[key] === b.item[key]);
}

const Message = memo(function Message({ item, time, onRetry, onDiscard, peer }: MessageProps) {
  const t = useT();
  const classes = [
    "message",
    item.own ? "message--own" : "message--theirs",
    `message--${item.kind}`,
    `is-${item.status}`,
  ];
  const status = t(`chat.status.${item.status}`);
  return (
    <li className={classes.join(" ")}>
      <MessageBody item={item} />
      <p className="message__meta">
        {time && <time>{time}</time>}
        {item.own && (
          <span className="message__status" title={status}>
            <span aria-hidden="true">{STATUS_MARK[item.status]}</span>
            <span className="visually-hidden">{status}</span>
          </span>
        )}
      </p>
      {!item.own && !item.removed && item.id !== null && item.kind !== "gift" && (
        <ReportButton profile={peer} messageId={item.id} photo={item.kind === "image"} className="message__report" />
      )}
      {item.status === "failed" && (
        <div className="message__error" role="alert">
          <p>{item.error}</p>
          <button type="button" className="link-button" onClick={() => onRetry(item.clientId)}>
            {t("chat.retry")}
          </button>
          <button type="button" className="link-button" onClick={() => onDiscard(item.clientId)}>
            {t("chat.discard")}
          </button>
        </div>
      )}
    </li>
  );
}, sameMessage);

function MessageBody({ item }: { item: MessageItem }) {
  const t = useT();
  if (item.removed) return <div className="message__bubble message__removed">{t("moderation.message_removed")}</div>;
  if (item.kind === "gift" && item.gift) {
    return (
      <div className="message__bubble message__gift">
        <img src={item.gift.image} alt="" width={64} height={64} />
        <span>{item.gift.name}</span>
      </div>
    );
  }
  if (item.kind === "image" && item.image) {
    const { image } = item;
    const picture = (
      <img
        src={image.thumb}
        alt={t("chat.photo")}
        width={image.width || 220}
        height={image.height || 220}
        loading="lazy"
        decoding="async"
      />
    );
    if (image.locked) {
      return (
        <Link href="/premium" className="message__image is-locked" title={t("chat.locked_photo")}>
          {picture}
          <span className="message__lock">
            <LockIcon size={24} />
            <span>{t("chat.locked_photo")}</span>
          </span>
        </Link>
      );
    }
    return (
      <a href={image.image} target="_blank" rel="noopener" className="message__image" title={t("chat.open_photo")}>
        {picture}
      </a>
    );
  }
  return <div className="message__bubble">{item.body}</div>;
}
