import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type PointerEvent,
} from "react";
import useSWR from "swr";
import type { SwipeResponse } from "../../../shared/likes";
import { ApiRequestError, apiSend } from "../../page/api";
import { InitialsPortrait } from "../../components/InitialsPortrait";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { FictionalMark } from "../../components/ProfileCard";
import { PremiumBadge } from "../../components/PremiumBadge";
import { Title } from "../../components/Title";
import { matchPeerOf, showMatchMoment } from "../../live/match-moments";
import { useSettings, useT } from "../../page/page-context";
import { ListPending } from "./ListPending";
import { useLikeAction } from "../../hooks/useLikes";
import { useUser } from "../../hooks/useUser";
import { SWIPE_KEY } from "../../page/page-data";
import "./swipe.css";

/** A horizontal swipe at least this long (px) likes (right) or passes (left). */
const SWIPE_DISTANCE = 60;
/** A move shorter than this (px) is a tap: it opens the profile; a longer one is a drag and does not. */
const TAP_SLOP = 8;

type Drag = { pointer: number; x: number; y: number; dx: number; moved: boolean };

/**
 * How much of the bottom of the screen a fixed or sticky bar (a tab bar) covers, in px. Something
 * fixed that starts in the upper half is a modal over the page (the entry warning, the match
 * moment), not a bar: it counts for nothing.
 */
function coveredAtBottom(): number {
  for (
    let element = document.elementFromPoint(window.innerWidth / 2, window.innerHeight - 2);
    element && element !== document.body;
    element = element.parentElement
  ) {
    const { position } = getComputedStyle(element);
    if (position !== "fixed" && position !== "sticky") continue;
    const top = element.getBoundingClientRect().top;
    return top > window.innerHeight / 2 ? window.innerHeight - top : 0;
  }
  return 0;
}

/**
 * Keeps the card and its buttons inside the screen whatever stands above them (top bar, notices)
 * and below (a bar fixed to the bottom): the card's distance from the top of the page goes in
 * --swipe-above, the covered bottom in --swipe-covered, and they size the photo (swipe.css).
 */
function useFitToScreen() {
  const card = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const measure = () => {
      const element = card.current;
      if (!element) return;
      element.style.setProperty(
        "--swipe-above",
        `${Math.round(element.getBoundingClientRect().top + window.scrollY)}px`,
      );
      element.style.setProperty("--swipe-covered", `${Math.round(coveredAtBottom())}px`);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  });
  return card;
}

/**
 * The swipe game (SPEC §2, §6): one card at a time from the member's search, photo first; like or
 * pass by button, arrow keys or by dragging the card (touch, mouse or pen), which follows the finger.
 * The server counts the day's 4 likes; the count left is shown. A match opens the match moment.
 */
export default function SwipeScreen() {
  const t = useT();
  const settings = useSettings();
  const { user } = useUser();
  const { data, error, mutate } = useSWR<SwipeResponse, ApiRequestError>(user ? SWIPE_KEY : null);
  const likeAction = useLikeAction();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [leaving, setLeaving] = useState<"like" | "pass" | null>(null);
  const dragged = useRef(false);
  const card = useFitToScreen();
  const profile = data?.profile ?? null;
  const canLike = (data?.likes_left ?? 0) > 0;

  const decide = useCallback(
    async (liked: boolean) => {
      if (!profile || busy || (liked && !canLike)) return;
      setBusy(true);
      setMessage(null);
      setLeaving(liked ? "like" : "pass");
      try {
        if (liked) {
          const result = await likeAction(profile.id, true, "swipe");
          if (result.match) showMatchMoment(matchPeerOf(profile));
        } else {
          await apiSend("POST", "/api/swipe-pass.php", { profile: { id: profile.id } });
        }
      } catch (failure) {
        setMessage(failure instanceof ApiRequestError ? failure.message : t("errors.try_again_later"));
      } finally {
        await mutate();
        setLeaving(null);
        setBusy(false);
      }
    },
    [profile, busy, canLike, likeAction, mutate, t],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLElement && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
      if (event.target instanceof HTMLElement && event.target.closest("dialog[open]")) return;
      if (event.key === "ArrowRight") void decide(true);
      if (event.key === "ArrowLeft") void decide(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [decide]);

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (busy || !event.isPrimary || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    dragged.current = false;
    setDrag({ pointer: event.pointerId, x: event.clientX, y: event.clientY, dx: 0, moved: false });
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    if (!drag || drag.pointer !== event.pointerId) return;
    const dx = event.clientX - drag.x;
    const moved = drag.moved || Math.abs(dx) > TAP_SLOP || Math.abs(event.clientY - drag.y) > TAP_SLOP;
    if (moved) dragged.current = true;
    setDrag({ ...drag, dx, moved });
  };
  const onPointerUp = (event: PointerEvent<HTMLElement>) => {
    if (!drag || drag.pointer !== event.pointerId) return;
    const dx = event.clientX - drag.x;
    setDrag(null);
    if (Math.abs(dx) >= SWIPE_DISTANCE && (dx < 0 || canLike)) void decide(dx > 0);
  };

  if (!user) return <LoginPrompt title={t("routes.swipe-game")} text={t("login_needed.like")} />;
  const dx = drag?.dx ?? (leaving === "like" ? 480 : leaving === "pass" ? -480 : 0);
  const cardStyle: CSSProperties | undefined =
    dx !== 0
      ? { transform: `translateX(${dx}px) rotate(${dx / 24}deg)`, transition: drag ? "none" : undefined }
      : undefined;
  const lean = Math.min(1, Math.abs(dx) / SWIPE_DISTANCE);
  return (
    <section className="swipe">
      <Title text={t("routes.swipe-game")} />
      <header className="swipe__head">
        <h1>{t("routes.swipe-game")}</h1>
        {data && (
          <p className="swipe__left" aria-live="polite">
            {canLike ? t("swipe.left", { count: data.likes_left }) : t("swipe.none_left")}
          </p>
        )}
      </header>
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
        <div className="swipe__card" data-profile={profile.id} aria-describedby="swipe-intro" ref={card}>
          <div
            className={drag ? "swipe__deck is-dragging" : "swipe__deck"}
            style={cardStyle}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={() => setDrag(null)}
            onClickCapture={(event) => {
              // The end of a drag is no tap on the photo: it must not open the profile.
              if (dragged.current) {
                event.preventDefault();
                event.stopPropagation();
                dragged.current = false;
              }
            }}
          >
            <Link href={`/members/${profile.id}`} className="swipe__photo" draggable={false}>
              {profile.main_image ? (
                <img
                  src={settings.cdn_prefix + profile.main_image.match}
                  alt={profile.name}
                  width={480}
                  height={600}
                  draggable={false}
                  className={profile.premium ? "is-premium" : undefined}
                />
              ) : (
                <InitialsPortrait name={profile.name} className="initials-portrait--large" />
              )}
              <span
                className="swipe__stamp swipe__stamp--like"
                style={{ opacity: dx > 0 ? lean : 0 }}
                aria-hidden="true"
              >
                {t("swipe.like")}
              </span>
              <span
                className="swipe__stamp swipe__stamp--pass"
                style={{ opacity: dx < 0 ? lean : 0 }}
                aria-hidden="true"
              >
                {t("swipe.pass")}
              </span>
              <span className="swipe__text">
                <strong className="swipe__name">
                  {profile.name}, {profile.age}
                </strong>
                {profile.fictional && <FictionalMark />}
                {profile.premium && <PremiumBadge />}
                <span className="swipe__place">{[profile.city, profile.region].filter(Boolean).join(", ")}</span>
              </span>
            </Link>
          </div>
          <div className="swipe__actions">
            <button
              type="button"
              className="swipe__button swipe__button--pass"
              disabled={busy}
              onClick={() => void decide(false)}
            >
              <span aria-hidden="true">✕</span> {t("swipe.pass")}
            </button>
            <button
              type="button"
              className="swipe__button swipe__button--like"
              disabled={busy || !canLike}
              onClick={() => void decide(true)}
            >
              <span aria-hidden="true">♥</span> {t("swipe.like")}
            </button>
          </div>
        </div>
      )}
      <p className="swipe__intro" id="swipe-intro">
        {t("swipe.intro")}
      </p>
    </section>
  );
}
