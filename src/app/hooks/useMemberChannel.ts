import { useEffect, useRef, useSyncExternalStore } from "react";
import { useSWRConfig } from "swr";
import * as v from "valibot";
import type { ChatsResponse } from "../../shared/chat";
import { memberSocketPath, MemberFrame, type PageFrame } from "../../shared/member-frames";
import type { LikesResponse } from "../../shared/likes";
import { openSiteSocket } from "../live/site-socket";
import {
  chatsAfterFrame,
  likesWithCounts,
  matchOf,
  reloadsLikes,
  reloadsProfiles,
  userWithCounts,
} from "../live/member-channel-rules";
import { showMatchMoment } from "../live/match-moments";
import { CHATS_KEY, LIKES_KEY } from "../page/page-data";
import { useReloadLikes } from "./useLikes";
import { useUpdateCached } from "./useChats";
import { USER_KEY, type UserResponse } from "./useUser";

const PAGE_HIDDEN_PATH = "/api/page-hidden.php";

const inView = () => document.visibilityState === "visible";

/** SPEC §7: the beacon of a page going hidden; a keepalive fetch, which outlives the page and carries the headers the API asks of a page. */
function sendPageHidden() {
  fetch(PAGE_HIDDEN_PATH, {
    method: "POST",
    keepalive: true,
    credentials: "same-origin",
    headers: { "X-Request-Type": "client", "Content-Type": "application/json" },
    body: "{}",
  }).catch(() => undefined);
}

/** Whether the channel is held closed (holdMemberChannel), as a store the hook subscribes to. */
let held = false;
const heldListeners = new Set<() => void>();
const setHeld = (value: boolean) => {
  if (held === value) return;
  held = value;
  for (const listener of heldListeners) listener();
};
const subscribeHeld = (listener: () => void) => {
  heldListeners.add(listener);
  return () => void heldListeners.delete(listener);
};

/**
 * Close the channel and open none while the page is about to end its own session (deleting the
 * account): the server closes the socket of an ended session and refuses a new one, and the page
 * still shows the member for a moment after (the next screen loads before the visitor state). The
 * hold ends when the page becomes a visitor's, or by the function returned (the deletion failed).
 */
export function holdMemberChannel(): () => void {
  setHeld(true);
  return () => setHeld(false);
}

/**
 * The page's one socket to the member's channel (issue 13): while `enabled` (a logged-in member),
 * every frame puts the badges, the balance, the chat list and the likes count in the caches the top
 * bar, the title and the app badge read, with no reload; a match opens the match moment. It reconnects and pings as every site
 * socket does (openSiteSocket), and tells the channel whether the page is in view. (A push the service worker
 * passes on reloads chats and likes through usePushForMember.) The 60 s refresh (useRefresh) stays the fallback.
 */
export function useMemberChannel(enabled: boolean) {
  const update = useUpdateCached();
  const reloadLikes = useReloadLikes();
  const { mutate } = useSWRConfig();
  const isHeld = useSyncExternalStore(
    subscribeHeld,
    () => held,
    () => false,
  );
  const actions = useRef({ update, reloadLikes, mutate });
  useEffect(() => {
    actions.current = { update, reloadLikes, mutate };
  });

  useEffect(() => {
    if (!enabled) setHeld(false);
    if (!enabled || isHeld) return;
    const say = (frame: PageFrame) => socket.send(JSON.stringify(frame));

    const apply = (frame: MemberFrame) => {
      const cached = actions.current;
      if (frame.type === "visibility_check") {
        say({ type: "visibility", visible: inView() });
        return;
      }
      const { counts } = frame;
      void cached.update<UserResponse>(USER_KEY, (data) =>
        data.user ? { user: userWithCounts(data.user, counts) } : data,
      );
      void cached.update<LikesResponse>(LIKES_KEY, (likes) => likesWithCounts(likes, counts));
      void cached.update<ChatsResponse>(CHATS_KEY, (list) => chatsAfterFrame(list, frame));
      if (reloadsLikes(frame)) void cached.reloadLikes();
      // A moderation decision changed a profile (a photo approved, content removed): whatever the page
      // shows is loaded again, as it is rare and may be on any screen (profile, chat, lists).
      if (reloadsProfiles(frame)) void cached.mutate((key) => typeof key === "string" && key.startsWith("/api/"));
      const match = matchOf(frame);
      if (match) showMatchMoment(match);
    };

    // The pings (every 30 s) also tell the channel the page is alive.
    const socket = openSiteSocket(() => memberSocketPath(inView()), {
      opened: () => socket.working(),
      frame: (data) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(data);
        } catch {
          return;
        }
        const frame = v.safeParse(MemberFrame, parsed);
        if (frame.success) apply(frame.output);
      },
    });

    const onVisibility = () => {
      const visible = inView();
      say({ type: "visibility", visible });
      if (!visible) sendPageHidden();
    };

    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      socket.stop();
    };
  }, [enabled, isHeld]);
}
