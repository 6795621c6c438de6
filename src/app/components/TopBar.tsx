import type { MouseEvent } from "react";
import type { SessionUser } from "../page/page-state";
import { apiFetch } from "../page/api";
import { usePage, useRouter, useT } from "../page/page-context";
import { BackButton } from "./BackButton";
import { LanguageSwitcher } from "./LanguageSwitcher";
import { Avatar } from "./Avatar";
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
                {user.profile.main_image ? (
                  <Avatar image={user.profile.main_image} name={user.profile.name} size={32} />
                ) : (
                  <span className="account-menu__initial" aria-hidden="true">
                    {initialOf(user.profile.name)}
                  </span>
                )}
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
  // Coins, not a currency sign: credits are bought in euros, kroner and złoty alike.
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" fill="currentColor" aria-hidden="true" className="top-bar__coin">
      <path d="M15 4c-4.42 0-8 3.58-8 8s3.58 8 8 8 8-3.58 8-8-3.58-8-8-8zm0 14c-3.31 0-6-2.69-6-6s2.69-6 6-6 6 2.69 6 6-2.69 6-6 6zM3 12c0-2.61 1.67-4.83 4-5.65V4.26C3.55 5.15 1 8.27 1 12s2.55 6.85 6 7.74v-2.09c-2.33-.82-4-3.04-4-5.65z" />
    </svg>
  );
}
