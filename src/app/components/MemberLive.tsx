import { lazy, Suspense, useSyncExternalStore } from "react";
import { useMemberChannel } from "../hooks/useMemberChannel";
import { useUser } from "../hooks/useUser";
import { currentMatchMoment, noMatchMoment, subscribeMatchMoment } from "../live/match-moments";

/** The moment's own chunk loads when a match comes, not with every page. */
const MatchMoment = lazy(() => import("./MatchMoment").then((module) => ({ default: module.MatchMoment })));

/**
 * The page's one socket to the member's channel (live badges), for a logged-in member only; it lives
 * as long as the page, across navigations. A match, heard from the channel or from the like that made
 * it (LikeButton, the swipe game), shows as the match moment. Its code (the socket, the frames' checks)
 * is a chunk of its own that the page loads once it has hydrated (App.tsx): the first screen draws from
 * the page's own data.
 */
export function MemberLive() {
  const { user } = useUser();
  useMemberChannel(user !== null);
  const match = useSyncExternalStore(subscribeMatchMoment, currentMatchMoment, noMatchMoment);
  return user && match ? (
    <Suspense fallback={null}>
      <MatchMoment own={user.profile} />
    </Suspense>
  ) : null;
}
