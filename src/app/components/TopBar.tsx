import type { MouseEvent } from "react";
import type { SessionUser } from "../page/page-state";
import { apiFetch } from "../page/api";
import { usePage, useRouter, useT } from "../page/page-context";
import { BackButton } from "./BackButton";
import { LanguageSwitcher } from "./LanguageSwitcher";
import { Link } from "./Link";
import { badgeText, TabBar } from "./TabBar";
import { useUser } from "../hooks/useUser";
import { useSignOut } from "../hooks/useSignOut";
import { leavePush } from "../service-worker/push-state";

const CREDIT_BADGE_THRESHOLD = 10;

export { badgeText };

/** SPEC §2: paid users see a credits badge at 10 or fewer: warning above 0, danger at 0. */
export function creditBadge(
  user: Pick<SessionUser, "paid_user" | "credits">,
): { text: string; tone: "warning" | "danger" } | null {
  if (!user.paid_user || user.credits > CREDIT_BADGE_THRESHOLD) return null;
  return { text: String(user.credits), tone: user.credits > 0 ? "warning" : "danger" };
}

function Badge({ count, variant }: { count: number; variant: "unread" | "likes" }) {
  const text = badgeText(count);
  return text ? <span className={`badge badge--${variant}`}>{text}</span> : null;
}

/**
 * Top navigation: search, messages, likes, credits or Get Premium, language, account menu; a Login
 * button for visitors. Below 768 px a member's search, likes and messages move to the tab bar at the
 * bottom of the screen (inside this header, so the badges stay one part) and the top bar keeps one row.
 */
export function TopBar({ unreadMessages = 0, newLikes = 0 }: { unreadMessages?: number; newLikes?: number }) {
  const { settings } = usePage();
  const { user } = useUser();
  const t = useT();
  const { navigate } = useRouter();
  const signOut = useSignOut();
  const credits = user ? creditBadge(user) : null;

  const logout = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    event.currentTarget.closest("details")?.removeAttribute("open");
    // Even if the call fails the member asked to leave: forget them here; the cookie ends with the session.
    // The server forgets this browser's push subscription while the session still says whose it is.
    await leavePush();
    await apiFetch("/api/logout.php").catch(() => undefined);
    await signOut();
    navigate("/");
  };

  return (
    <header className={user ? "top-bar top-bar--member" : "top-bar"}>
      <nav className="top-bar__inner" aria-label={t("nav.main")}>
        <BackButton />
        <Link href={user ? "/members" : "/"} className="top-bar__brand">
          <img src="/icons/icon.svg" alt="" width={28} height={28} />
          <span>{settings.name}</span>
        </Link>
        <ul className="top-bar__links">
          <li>
            <Link href="/members">{t("nav.search_members")}</Link>
          </li>
          {user && (
            <>
              <li>
                <Link href="/chats">
                  {t("nav.messages")} <Badge count={unreadMessages} variant="unread" />
                </Link>
              </li>
              <li>
                <Link href="/likes">
                  {t("nav.likes")} <Badge count={newLikes} variant="likes" />
                </Link>
              </li>
            </>
          )}
        </ul>
        <div className="top-bar__end">
          {user &&
            (user.paid_user ? (
              <Link href="/credits" className="top-bar__credits">
                <CoinIcon />
                <span className="top-bar__credits-label">{t("nav.credits")}</span>{" "}
                {credits && <span className={`badge badge--${credits.tone}`}>{credits.text}</span>}
              </Link>
            ) : (
              <Link href="/premium" className="button button--secondary top-bar__premium">
                {t("nav.get_premium")}
              </Link>
            ))}
          <LanguageSwitcher />
          {user ? (
            <details className="account-menu">
              <summary>
                <span className="account-menu__initial" aria-hidden="true">
                  {initialOf(user.profile.name)}
                </span>
                <span className="account-menu__name">{user.profile.name}</span>
                {user.paid_user && <span className="badge badge--premium">{t("payments.premium_badge")}</span>}
              </summary>
              <ul>
                <li>
                  <Link href="/profile">{t("nav.my_profile")}</Link>
                </li>
                <li>
                  <Link href="/notifications">{t("nav.settings")}</Link>
                </li>
                <li>
                  <a href="/api/logout.php" onClick={(event) => void logout(event)}>
                    {t("nav.logout")}
                  </a>
                </li>
              </ul>
            </details>
          ) : (
            <Link href="/login" className="button button--primary">
              {t("nav.login")}
            </Link>
          )}
        </div>
      </nav>
      {user && <TabBar unreadMessages={unreadMessages} newLikes={newLikes} />}
    </header>
  );
}

/** The first letter of a name, for the account button's round mark (a letter, not half of an emoji). */
function initialOf(name: string): string {
  return (Array.from(name.trim())[0] ?? "?").toUpperCase();
}

function CoinIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" fill="currentColor" aria-hidden="true" className="top-bar__coin">
      <path d="M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm0 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16zm1 2v1.1c1.5.3 2.6 1.3 2.8 2.7h-2c-.2-.6-.8-1-1.8-1-1.1 0-1.7.5-1.7 1.1 0 .6.5.9 2 1.2 2.3.5 3.7 1.2 3.7 3.1 0 1.5-1.2 2.6-3 2.9V18h-2v-1c-1.7-.3-2.9-1.4-3-3h2c.1.8.9 1.3 2 1.3 1.2 0 1.9-.5 1.9-1.2s-.6-1-2.2-1.3c-2-.4-3.5-1.1-3.5-3 0-1.4 1.1-2.5 2.8-2.8V6h2z" />
    </svg>
  );
}
