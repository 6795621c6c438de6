import { useCallback, useEffect, useRef, useState } from "react";
import useSWR from "swr";
import type { SwipeResponse } from "../../../shared/likes";
import { ApiRequestError, apiSend } from "../../api";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { FictionalMark } from "../../components/ProfileCard";
import { Title } from "../../components/Title";
import { useSettings, useT } from "../../page-context";
import { ListPending } from "./ListPending";
import { useLikeAction } from "../../hooks/useLikes";
import { useUser } from "../../hooks/useUser";
import { SWIPE_KEY } from "../../page-data";
import { MatchNotice } from "./MatchNotice";

/** A horizontal swipe at least this long (px) likes (right) or passes (left). */
const SWIPE_DISTANCE = 60;

/**
 * The swipe game (SPEC §2, §6): one card at a time from the member's search; like or pass by button,
 * arrow keys or a swipe. The server counts the day's 4 likes; the count left is shown.
 */
export default function SwipeScreen() {
  const t = useT();
  const settings = useSettings();
  const { user } = useUser();
  const { data, error, mutate } = useSWR<SwipeResponse, ApiRequestError>(user ? SWIPE_KEY : null);
  const likeAction = useLikeAction();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [match, setMatch] = useState<{ id: number; name: string; verified: boolean } | null>(null);
  const touchStart = useRef<number | null>(null);
  const profile = data?.profile ?? null;
  const canLike = (data?.likes_left ?? 0) > 0;

  const decide = useCallback(
    async (liked: boolean) => {
      if (!profile || busy || (liked && !canLike)) return;
      setBusy(true);
      setMessage(null);
      try {
        if (liked) {
          const result = await likeAction(profile.id, true, "swipe");
          setMatch(result.match ? { id: profile.id, name: profile.name, verified: profile.verified } : null);
        } else {
          await apiSend("POST", "/api/swipe-pass.php", { profile: { id: profile.id } });
          setMatch(null);
        }
      } catch (failure) {
        setMessage(failure instanceof ApiRequestError ? failure.message : t("errors.try_again_later"));
      } finally {
        await mutate();
        setBusy(false);
      }
    },
    [profile, busy, canLike, likeAction, mutate, t],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLElement && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
      if (event.key === "ArrowRight") void decide(true);
      if (event.key === "ArrowLeft") void decide(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [decide]);

  if (!user) return <LoginPrompt title={t("routes.swipe-game")} text={t("login_needed.like")} />;
  return (
    <section className="swipe">
      <Title text={t("routes.swipe-game")} />
      <h1>{t("routes.swipe-game")}</h1>
      <p>{t("swipe.intro")}</p>
      {data && (
        <p className="swipe__left" aria-live="polite">
          {canLike ? t("swipe.left", { count: data.likes_left }) : t("swipe.none_left")}
        </p>
      )}
      {match && <MatchNotice profileId={match.id} name={match.name} verified={match.verified} />}
      {message && (
        <p className="notice notice--error" role="alert">
          {message}
        </p>
      )}
      {error || !data ? (
        <ListPending error={error} />
      ) : !profile ? (
        <p className="notice">
          {t("swipe.empty")} <Link href="/members">{t("nav.search_members")}</Link>
        </p>
      ) : (
        <article
          className="swipe__card"
          data-profile={profile.id}
          onTouchStart={(event) => (touchStart.current = event.touches[0]?.clientX ?? null)}
          onTouchEnd={(event) => {
            const start = touchStart.current;
            const end = event.changedTouches[0]?.clientX;
            touchStart.current = null;
            if (start === null || end === undefined || Math.abs(end - start) < SWIPE_DISTANCE) return;
            void decide(end > start);
          }}
        >
          <Link href={`/members/${profile.id}`} className="swipe__photo">
            {profile.main_image ? (
              <img src={settings.cdn_prefix + profile.main_image.match} alt={profile.name} width={480} height={600} draggable={false} />
            ) : (
              <span className="profile-card__no-photo">{t("profile.no_photo")}</span>
            )}
          </Link>
          <h2>
            {profile.name}, {profile.age} {profile.fictional && <FictionalMark />}
          </h2>
          <p className="profile-card__place">{[profile.city, profile.region].filter(Boolean).join(", ")}</p>
          <div className="swipe__actions">
            <button type="button" className="button button--ghost" disabled={busy} onClick={() => void decide(false)}>
              {t("swipe.pass")}
            </button>
            <button type="button" className="button button--primary" disabled={busy || !canLike} onClick={() => void decide(true)}>
              {t("swipe.like")}
            </button>
          </div>
        </article>
      )}
    </section>
  );
}
