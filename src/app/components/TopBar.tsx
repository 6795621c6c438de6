import type { MouseEvent } from "react";
import type { SessionUser } from "../page-state";
import { apiFetch } from "../api";
import { usePage, useRouter, useT } from "../page-context";
import { BackButton } from "./BackButton";
import { LanguageSwitcher } from "./LanguageSwitcher";
import { Link } from "./Link";
import { useUser } from "../hooks/useUser";
import { useSignOut } from "../hooks/useSignOut";
import { leavePush } from "../push-state";

const CREDIT_BADGE_THRESHOLD = 10;

/** SPEC §2: unread badge shows 99+ from 100. */
export function badgeText(count: number): string | null {
  if (count <= 0) return null;
  return count >= 100 ? "99+" : String(count);
}

/** SPEC §2: paid users see a credits badge at 10 or fewer: warning above 0, danger at 0. */
export function creditBadge(user: Pick<SessionUser, "paid_user" | "credits">): { text: string; tone: "warning" | "danger" } | null {
  if (!user.paid_user || user.credits > CREDIT_BADGE_THRESHOLD) return null;
  return { text: String(user.credits), tone: user.credits > 0 ? "warning" : "danger" };
}

function Badge({ count, variant }: { count: number; variant: "unread" | "likes" }) {
  const text = badgeText(count);
  return text ? <span className={`badge badge--${variant}`}>{text}</span> : null;
}

/** Top navigation: search, messages, likes, credits or Get Premium, language, account menu; a Login button for visitors. */
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
    <header className="top-bar">
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
              <li>
                {user.paid_user ? (
                  <Link href="/credits">
                    {t("nav.credits")} {credits && <span className={`badge badge--${credits.tone}`}>{credits.text}</span>}
                  </Link>
                ) : (
                  <Link href="/premium" className="button button--secondary">
                    {t("nav.get_premium")}
                  </Link>
                )}
              </li>
            </>
          )}
        </ul>
        <div className="top-bar__end">
          <LanguageSwitcher />
          {user ? (
            <details className="account-menu">
              <summary>
                {user.profile.name}
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
    </header>
  );
}
