import { useEffect, useRef, useSyncExternalStore } from "react";
import type { MainImage } from "../../shared/api";
import { closeMatchMoment, currentMatchMoment, noMatchMoment, subscribeMatchMoment } from "../live/match-moments";
import { useRouter, useSettings, useT } from "../page/page-context";
import { InitialsPortrait } from "./InitialsPortrait";
import { Link } from "./Link";
import { VerifiedBadge } from "./VerifiedBadge";
import "./match-moment.css";

/** One member's face in the moment: their public main photo, or their initials. */
function Face({ name, photo }: { name: string; photo: string | null }) {
  const settings = useSettings();
  return (
    <span className="match-moment__face">
      {photo ? (
        <img src={settings.cdn_prefix + photo} alt={name} width={240} height={300} />
      ) : (
        <InitialsPortrait name={name} />
      )}
    </span>
  );
}

/**
 * The match moment (issue 23): when a like makes a match, on whatever page the member has open, a
 * full-screen modal dialog with both photos, "Send a message" (the pair's chat) and "Keep swiping"
 * (the swipe game). A native modal dialog: focus moves into it and stays there, the page behind is
 * inert, Escape leaves it, and focus goes back where it was.
 */
export function MatchMoment({ own }: { own: { name: string; main_image: MainImage | null } }) {
  const t = useT();
  const { location, navigate } = useRouter();
  const peer = useSyncExternalStore(subscribeMatchMoment, currentMatchMoment, noMatchMoment);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!peer || !element) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    return () => {
      if (element.open) element.close();
      before?.focus();
    };
  }, [peer]);

  if (!peer) return null;
  const keepSwiping = () => {
    closeMatchMoment();
    if (location.pathname !== "/swipe-game") void navigate("/swipe-game");
  };
  return (
    <dialog
      ref={dialog}
      className="match-moment"
      aria-labelledby="match-moment-title"
      aria-describedby="match-moment-text"
      data-match={peer.id}
      onCancel={(event) => {
        event.preventDefault();
        closeMatchMoment();
      }}
    >
      <div className="match-moment__faces">
        <Face name={own.name} photo={own.main_image?.match ?? null} />
        <Face name={peer.name} photo={peer.photo} />
      </div>
      <h2 id="match-moment-title" className="match-moment__title">
        {t("likes.match")}
      </h2>
      <p id="match-moment-text" className="match-moment__text">
        {t("likes.match_notice", { name: peer.name })}
        {peer.verified && <VerifiedBadge compact />}
      </p>
      <div className="match-moment__actions">
        <Link
          href={`/members/${peer.id}/chat`}
          className="button button--primary match-moment__message"
          onClick={() => closeMatchMoment()}
          autoFocus
        >
          {t("likes.message")}
        </Link>
        <button type="button" className="button match-moment__keep" onClick={keepSwiping}>
          {t("phone_app.keep_swiping")}
        </button>
      </div>
      <button
        type="button"
        className="match-moment__close"
        aria-label={t("likes.popup.close")}
        onClick={() => closeMatchMoment()}
      >
        ×
      </button>
    </dialog>
  );
}
