import { useState } from "react";
import type { LikeResult } from "../../shared/likes";
import { ApiRequestError } from "../api";
import { useT } from "../page-context";
import { useLikeAction } from "../hooks/useLikes";
import { useUser } from "../hooks/useUser";
import { useSignupModal } from "./SignupModal";

/**
 * Like or unlike a member (SPEC §2). A visitor gets the signup modal with the login-needed text;
 * a refusal (blocked, too many likes ...) shows the server's text beside the button.
 */
export function LikeButton({
  profileId,
  liked: initial,
  likedMe = false,
  onDone,
  className = "button button--ghost",
}: {
  profileId: number;
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
      const result = await likeAction(profileId, !liked);
      setLiked(result.liked);
      onDone?.(result);
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? failure.message : t("errors.try_again_later"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className={className} aria-pressed={liked} disabled={busy} onClick={() => void press()} data-like={profileId}>
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
