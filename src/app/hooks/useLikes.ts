import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import type { LikeResult, LikesResponse } from "../../shared/likes";
import { ApiRequestError, apiSend } from "../page/api";
import { LIKES_KEY, profileKey } from "../page/page-data";
import { useUser } from "./useUser";

/** The member's unseen likes (GET /api/likes.php, first page of the received tab); 0 for a visitor. */
export function useNewLikes(): number {
  const { user } = useUser();
  const { data } = useSWR<LikesResponse, ApiRequestError>(user ? LIKES_KEY : null);
  return user ? (data?.new_likes ?? 0) : 0;
}

/** Reload the badge's count and every plain likes key (a tab's pages reload through their own list's mutate). */
export function useReloadLikes() {
  const { mutate } = useSWRConfig();
  return useCallback(() => mutate((key) => typeof key === "string" && key.includes("/api/likes.php")), [mutate]);
}

/**
 * Like or unlike a member (POST / DELETE /api/like.php); afterwards the likes lists and the
 * member's profile are reloaded. Throws ApiRequestError with the server's text when refused.
 */
export function useLikeAction() {
  const { mutate } = useSWRConfig();
  const reloadLikes = useReloadLikes();
  return useCallback(
    async (profileId: number, liked: boolean, source: "profile" | "swipe" = "profile"): Promise<LikeResult> => {
      const result = liked
        ? await apiSend<LikeResult>("POST", "/api/like.php", {
            profile: { id: profileId },
            ...(source === "swipe" ? { source } : {}),
          })
        : await apiSend<LikeResult>("DELETE", "/api/like.php", { profile: { id: profileId } });
      void reloadLikes();
      void mutate(profileKey(profileId));
      return result;
    },
    [mutate, reloadLikes],
  );
}
