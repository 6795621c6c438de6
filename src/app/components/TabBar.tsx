import type { ReactNode } from "react";
import { useRouter, useT } from "../page/page-context";
import { Link } from "./Link";

/** SPEC §2: unread badge shows 99+ from 100. */
export function badgeText(count: number): string | null {
  if (count <= 0) return null;
  return count >= 100 ? "99+" : String(count);
}

/** The routes each tab stands for, so the tab of the screen a member is on is marked as the current one. */
const TAB_ROUTES: Record<string, readonly string[]> = {
  "/members": ["members", "members-id"],
  "/likes": ["likes", "likes-type", "likes-m-id", "swipe-game", "match-finder"],
  "/chats": ["chats", "chats-id"],
  "/profile": ["profile", "notifications"],
};

/** 24 px line icons drawn inline: no icon font to download, and they take the tab's colour. */
const ICONS: Record<string, ReactNode> = {
  "/members": (
    <path d="M10.5 3a7.5 7.5 0 0 1 5.9 12.1l4.8 4.8-1.4 1.4-4.8-4.8A7.5 7.5 0 1 1 10.5 3zm0 2a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11z" />
  ),
  "/likes": (
    <path d="M12 21s-7.5-4.6-9.5-9.2C1.1 8.6 3 5 6.6 5c2.1 0 3.5 1.1 5.4 3 1.9-1.9 3.3-3 5.4-3C21 5 22.9 8.6 21.5 11.8 19.5 16.4 12 21 12 21zm0-2.4c2.4-1.6 6.2-4.5 7.6-7.6.9-2-.2-4-2.2-4-1.4 0-2.4.8-4.4 2.9L12 11l-1-1.1C9 7.8 8 7 6.6 7c-2 0-3.1 2-2.2 4 1.4 3.1 5.2 6 7.6 7.6z" />
  ),
  "/chats": (
    <path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-5 4V6a2 2 0 0 1 1-2zm0 2v11.8L7.3 16H20V6H4zm3 3h10v2H7V9zm0 3h7v2H7v-2z" />
  ),
  "/profile": (
    <path d="M12 3a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9zm0 2a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zm0 8.5c4.4 0 8 2.3 8 5.5v2H4v-2c0-3.2 3.6-5.5 8-5.5zm0 2c-3.3 0-5.7 1.6-6 3.5h12c-.3-1.9-2.7-3.5-6-3.5z" />
  ),
};

/**
 * The phone's navigation for the thumb (below 768 px, hidden by the stylesheet from there): search,
 * likes with the new-likes count, messages with the unread badge, and the member's own profile.
 */
export function TabBar({ unreadMessages, newLikes }: { unreadMessages: number; newLikes: number }) {
  const t = useT();
  const { match } = useRouter();
  const route = match?.route.name ?? "";
  const tabs: { href: string; label: string; count: number; variant?: "unread" | "likes" }[] = [
    { href: "/members", label: t("shell.tab_search"), count: 0 },
    { href: "/likes", label: t("nav.likes"), count: newLikes, variant: "likes" },
    { href: "/chats", label: t("nav.messages"), count: unreadMessages, variant: "unread" },
    { href: "/profile", label: t("shell.tab_profile"), count: 0 },
  ];
  return (
    <nav className="tab-bar" aria-label={t("shell.tab_bar")}>
      <ul className="tab-bar__list">
        {tabs.map(({ href, label, count, variant }) => {
          const current = TAB_ROUTES[href]!.includes(route);
          const badge = badgeText(count);
          return (
            <li key={href}>
              <Link href={href} className="tab-bar__tab" aria-current={current ? "page" : undefined}>
                <span className="tab-bar__icon">
                  <svg viewBox="0 0 24 24" width="24" height="24" fill="currentColor" aria-hidden="true">
                    {ICONS[href]}
                  </svg>
                  {badge && <span className={`badge badge--${variant} tab-bar__badge`}>{badge}</span>}
                </span>
                <span className="tab-bar__label">{label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
