import useSWRInfinite from "swr/infinite";
import { LIKE_TYPES, type LikeCard, type LikesResponse, type LikeType } from "../../../shared/likes";
import type { ApiRequestError } from "../../page/api";
import { LikeButton } from "../../components/LikeButton";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { ProfileCard } from "../../components/ProfileCard";
import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import { ListPending } from "./ListPending";
import { useUser } from "../../hooks/useUser";
import { likesPageKey } from "../../page/page-data";
import { useNewLikes } from "../../hooks/useLikes";
import { badgeText } from "../../components/TabBar";
import type { ScreenProps } from "../../page/page-state";

/** One profile of a likes tab: photo, name, age, city, and like back, unlike or message. */
function LikeItem({ card, type, reload }: { card: LikeCard; type: LikeType; reload: () => void }) {
  const t = useT();
  const match = card.liked && card.liked_me;
  return (
    <ProfileCard
      profile={card}
      className="profile-card like-card"
      href={type === "received" ? `/likes/m/${card.id}` : `/members/${card.id}`}
      mark={card.like_new && card.liked_me ? <span className="like-card__new">{t("likes.new")}</span> : null}
    >
      {match ? (
        <Link href={`/members/${card.id}/chat`} className="button button--primary">
          {t("likes.message")}
        </Link>
      ) : (
        <LikeButton
          key={String(card.liked)}
          profile={card}
          liked={card.liked}
          likedMe={card.liked_me}
          className={card.liked ? "button button--ghost" : "button button--primary"}
          onDone={reload}
        />
      )}
    </ProfileCard>
  );
}

/** Likes (SPEC §2): tabs received, sent and matches with their counts (new likes on Received), newest first, a page at a time. */
export default function LikesScreen({ params }: ScreenProps) {
  const t = useT();
  const { user } = useUser();
  const type = (LIKE_TYPES as readonly string[]).includes(params.type ?? "") ? (params.type as LikeType) : "received";
  const list = useSWRInfinite<LikesResponse, ApiRequestError>(
    (index, previous: LikesResponse | null) =>
      !user || (previous && !previous.has_more) ? null : likesPageKey(type, index + 1),
    { revalidateFirstPage: false },
  );
  const newLikes = useNewLikes();
  if (!user) return <LoginPrompt title={t("likes.title")} text={t("login_needed.like")} />;
  const pages = list.data ?? [];
  const profiles = pages.flatMap((page) => page.profiles);
  const hasMore = pages.length > 0 && pages[pages.length - 1]!.has_more;
  // The Sent and Matches counts come with every page of every tab; the first page is the newest word.
  const tabCounts = pages[0]?.counts;
  return (
    <section className="likes">
      <Title text={t("likes.title")} />
      <h1>{t("likes.title")}</h1>
      <nav className="tabs tabs--likes" aria-label={t("likes.title")}>
        {LIKE_TYPES.map((tab) => (
          <Link
            key={tab}
            href={`/likes/${tab}`}
            className={tab === type ? "tabs__tab is-active" : "tabs__tab"}
            aria-current={tab === type ? "page" : undefined}
          >
            {t(`likes.tabs.${tab}`)}
            {tab === "received"
              ? newLikes > 0 && <span className="badge badge--likes tabs__count">{badgeText(newLikes)}</span>
              : tabCounts &&
                tabCounts[tab] > 0 && (
                  <span className="badge badge--count tabs__count">{badgeText(tabCounts[tab])}</span>
                )}
          </Link>
        ))}
      </nav>
      <nav className="likes__games" aria-label={t("shell.games")}>
        <Link href="/swipe-game" className="likes__game">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path
              fill="currentColor"
              d="M8 3h8a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm0 2v14h8V5H8zM2 7h2v10H2V7zm18 0h2v10h-2V7zm-8 2.5c1-1 3 .1 2 1.9-.5.9-2 2.1-2 2.1s-1.5-1.2-2-2.1c-1-1.8 1-2.9 2-1.9z"
            />
          </svg>
          {t("routes.swipe-game")}
        </Link>
        <Link href="/match-finder" className="likes__game">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path
              fill="currentColor"
              d="M12 2l2.4 5.6 6.1.5-4.6 4 1.4 6-5.3-3.2L6.7 18l1.4-6-4.6-4 6.1-.5L12 2zm0 5.1-1.1 2.6-2.8.2 2.1 1.8-.6 2.8 2.4-1.5 2.4 1.5-.6-2.8 2.1-1.8-2.8-.2L12 7.1z"
            />
          </svg>
          {t("routes.match-finder")}
        </Link>
      </nav>
      {list.error || list.data === undefined ? (
        <ListPending error={list.error} />
      ) : profiles.length === 0 ? (
        <p className="notice">{t(`likes.empty.${type}`)}</p>
      ) : (
        <ul className="profile-grid">
          {profiles.map((card) => (
            <LikeItem key={card.id} card={card} type={type} reload={() => void list.mutate()} />
          ))}
        </ul>
      )}
      {hasMore && (
        <button
          type="button"
          className="button button--ghost"
          disabled={list.isValidating}
          onClick={() => void list.setSize(list.size + 1)}
        >
          {t("likes.more")}
        </button>
      )}
    </section>
  );
}
