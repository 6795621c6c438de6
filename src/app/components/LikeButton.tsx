import { useState } from "react";
import type { SearchCard } from "../../shared/api";
import type { LikeResult } from "../../shared/likes";
import { ApiRequestError } from "../page/api";
import { useT } from "../page/page-context";
import { useLikeAction } from "../hooks/useLikes";
import { matchPeerOf, showMatchMoment } from "../live/match-moments";
import { useUser } from "../hooks/useUser";
import { useSignupModal } from "./SignupModal";

/**
 * Like or unlike a member (SPEC §2). A visitor gets the signup modal with the login-needed text;
 * a refusal (blocked, too many likes ...) shows the server's text beside the button. A like that makes
 * a match opens the match moment with `profile` from the like's own answer (the channel's frame of the
 * same match shows nothing more), so it opens even before the page's channel is connected.
 */
export function LikeButton({
  profile,
  liked: initial,
  likedMe = false,
  onDone,
  className = "button button--ghost",
}: {
  profile: Parameters<typeof matchPeerOf>[0];
  liked: boolean;
  likedMe?: boolean;
  onDone?: (result: LikeResult) => void;
  className?: string;
}) {
  const t = useT();
  const { user } = useUser();
  const { openSignup } = useSignupModal();
  const likeAction = useLikeAction();
  const [liked, setLiked] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const press = async () => {
    if (!user) return openSignup(t("login_needed.like"));
    setBusy(true);
    setError(null);
    try {
      const result = await likeAction(profile.id, !liked);
      setLiked(result.liked);
      if (result.match && result.liked) showMatchMoment(matchPeerOf(profile));
      onDone?.(result);
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? failure.message : t("errors.try_again_later"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className={className}
        aria-pressed={liked}
        disabled={busy}
        onClick={() => void press()}
        data-like={profile.id}
      >
        {liked ? t("likes.unlike") : likedMe ? t("likes.like_back") : t("likes.like")}
      </button>
      {error && (
        <span className="like-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

/**
 * A card's like action: "Matched" or "Liked" as a plain mark once the member likes the card (no
 * button that would like again and replay the match moment), otherwise the like button.
 */
export function CardLike({ profile }: { profile: SearchCard }) {
  const t = useT();
  const [standing, setStanding] = useState({ liked: profile.liked ?? false, matched: profile.matched ?? false });
  if (standing.liked)
    return (
      <span className={standing.matched ? "like-state like-state--matched" : "like-state"} data-like-state={profile.id}>
        {standing.matched ? t("likes.matched") : t("likes.liked")}
      </span>
    );
  return (
    <LikeButton
      profile={profile}
      liked={false}
      onDone={(result) => setStanding({ liked: result.liked, matched: result.matched })}
    />
  );
}
