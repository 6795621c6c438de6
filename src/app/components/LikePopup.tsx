import { useEffect, useState } from "react";
import type { AutoLikeResponse } from "../../shared/likes";
import { apiFetch } from "../page/api";
import { useRouter, useSettings, useT } from "../page/page-context";
import { useReloadLikes } from "../hooks/useLikes";
import { InitialsPortrait } from "./InitialsPortrait";
import { useUser } from "../hooks/useUser";
import { AUTO_LIKE_KEY } from "../page/page-data";

/** Likes reload this long after the popup sends the member to the liker (SPEC §4). */
const LIKES_RELOAD_MS = 500;

/** The delay of the popup in seconds when `t` is a number, else null. */
function popupDelay(query: URLSearchParams): number | null {
  const value = query.get("t");
  return value !== null && /^[0-9]{1,5}(\.[0-9]{1,3})?$/.test(value) ? Number(value) : null;
}

/**
 * The new-like popup (SPEC §2, §4): full screen, the liker's main photo and one action button whose
 * label the caller gives. It appears `t` seconds after the page loads when the query has a numeric
 * `t`, which is then taken out of the URL; its photo or button opens /members/{id}, and the likes
 * reload 500 ms later. Without a given profile it shows the newest unseen liker (GET /api/auto-like.php).
 */
export function LikePopup({
  profile: given,
  actionLabel,
}: {
  profile?: NonNullable<AutoLikeResponse>;
  actionLabel?: string;
}) {
  const t = useT();
  const settings = useSettings();
  const { user } = useUser();
  const { location, navigate } = useRouter();
  const reloadLikes = useReloadLikes();
  const [profile, setProfile] = useState<NonNullable<AutoLikeResponse> | null>(null);
  const delay = popupDelay(new URLSearchParams(location.search));

  useEffect(() => {
    if (delay === null || !user) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      void (async () => {
        const shown = given ?? (await apiFetch<AutoLikeResponse>(AUTO_LIKE_KEY).catch(() => null));
        if (cancelled) return;
        const params = new URLSearchParams(window.location.search);
        params.delete("t");
        const qs = params.toString();
        navigate(`${window.location.pathname}${qs ? `?${qs}` : ""}${window.location.hash}`, { replace: true });
        if (shown) setProfile(shown);
      })();
    }, delay * 1000);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // The popup is armed once per `t` in the URL.
  }, [delay, user, given, navigate]);

  if (!profile) return null;
  const open = () => {
    setProfile(null);
    navigate(`/members/${profile.id}`);
    setTimeout(() => void reloadLikes(), LIKES_RELOAD_MS);
  };
  const image = profile.main_image ? settings.cdn_prefix + profile.main_image.match : null;
  return (
    <div
      className="like-popup"
      role="dialog"
      aria-modal="true"
      aria-label={t("likes.popup.title", { name: profile.name })}
    >
      <button
        type="button"
        className="like-popup__close"
        aria-label={t("likes.popup.close")}
        onClick={() => setProfile(null)}
      >
        ×
      </button>
      <button type="button" className="like-popup__photo" onClick={open}>
        {image ? <img src={image} alt={profile.name} /> : <InitialsPortrait name={profile.name} />}
      </button>
      <p className="like-popup__title">{t("likes.popup.title", { name: profile.name })}</p>
      <button type="button" className="button button--primary like-popup__action" onClick={open}>
        {actionLabel ?? t("likes.popup.action")}
      </button>
    </div>
  );
}
