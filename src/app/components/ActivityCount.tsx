import { createContext, useContext, useEffect, useRef, type ReactNode } from "react";
import { useChats } from "../hooks/useChats";
import { usePushForMember } from "../hooks/usePush";
import { useRefresh } from "../hooks/useRefresh";
import { useUser } from "../hooks/useUser";

const TitlePrefix = createContext("");

/** What goes before every page title now ("(3) " or nothing). */
export const useTitlePrefix = () => useContext(TitlePrefix);

/** SPEC §4: the page title starts with the count of unread messages plus new likes, "(N) ". */
export function titlePrefix(unreadMessages: number, newLikes: number): string {
  const count = unreadMessages + newLikes;
  return count > 0 ? `(${count}) ` : "";
}

type BadgingNavigator = { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

/** SPEC §4: the app icon badge equals the count; a browser that cannot, or refuses, is ignored. */
function showAppBadge(count: number) {
  const badging = navigator as BadgingNavigator;
  try {
    const done = count > 0 ? badging.setAppBadge?.(count) : badging.clearAppBadge?.();
    done?.catch(() => undefined);
  } catch {
    // No badge then.
  }
}

/**
 * For a logged-in member: keeps the member and their chats fresh (SPEC §9), puts unread messages plus
 * new likes before the page title and on the app icon (SPEC §4). Mounted by the Default and Chat
 * layouts; for a visitor it does nothing.
 */
export function ActivityCount({ newLikes = 0, children }: { newLikes?: number; children: ReactNode }) {
  const { user } = useUser();
  const { totalUnread } = useChats();
  useRefresh(user !== null);
  usePushForMember(user ? user.profile.id : null);
  const count = user ? totalUnread + newLikes : 0;
  const shown = useRef(0);
  useEffect(() => {
    // A visitor's badge is never touched; a member who logs out has theirs cleared.
    if (count === shown.current) return;
    shown.current = count;
    showAppBadge(count);
  }, [count]);
  return <TitlePrefix.Provider value={user ? titlePrefix(totalUnread, newLikes) : ""}>{children}</TitlePrefix.Provider>;
}
