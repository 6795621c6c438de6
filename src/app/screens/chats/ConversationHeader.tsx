import { VerifiedBadge } from "../../components/VerifiedBadge";
import { Link } from "../../components/Link";
import { FictionalMark } from "../../components/ProfileCard";
import { ReportButton } from "../../components/ReportButton";
import { useT } from "../../page/page-context";
import type { ChatResponse } from "../../../shared/chat";
import { Avatar } from "../../components/Avatar";

export function BackLink({ href }: { href: string }) {
  const t = useT();
  return (
    <Link href={href} className="conversation__back" aria-label={t("chat.back")} title={t("chat.back")}>
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path fill="currentColor" d="M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z" />
      </svg>
    </Link>
  );
}

type HeaderProps = {
  profile: ChatResponse["profile"];
  backHref: string;
  /** "Reconnecting" or "typing", in place of the city while it lasts. */
  status: string;
  /** Leave out the remove button (beside the chat list, removing is done from the list). */
  onRemove: (() => void) | null;
};

/**
 * The conversation's header: the way back, who the other member is, the connection or typing line,
 * removing the chat, and reporting the other member.
 */
export function ConversationHeader({ profile, backHref, status, onRemove }: HeaderProps) {
  const t = useT();
  return (
    <header className="conversation__header">
      <BackLink href={backHref} />
      <Link href={`/members/${profile.id}`} className="conversation__profile">
        <Avatar image={profile.main_image} name={profile.name} premium={profile.premium} size={40} />
        <span className="conversation__who">
          <span className="conversation__name">
            <span className="conversation__name-text">
              {profile.name}
              {profile.age ? `, ${profile.age}` : ""} {profile.fictional && <FictionalMark />}
            </span>
            {/* Outside the text that is cut short, so a long name never hides it. */}
            {profile.verified && <VerifiedBadge compact />}
          </span>
          <span
            className={status ? "conversation__status-line is-live" : "conversation__status-line"}
            aria-live="polite"
          >
            {status || profile.city}
          </span>
        </span>
      </Link>
      {onRemove && (
        <button
          type="button"
          className="icon-button conversation__remove"
          onClick={onRemove}
          aria-label={t("chat.remove_with", { name: profile.name })}
          title={t("chat.remove")}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path
              fill="currentColor"
              d="M9 3h6l1 2h4v2H4V5h4l1-2zM6 9h12l-1 12H7L6 9zm4 2v8h1.5v-8H10zm2.5 0v8H14v-8h-1.5z"
            />
          </svg>
        </button>
      )}
      <ReportButton profile={profile} className="icon-button conversation__report" icon />
    </header>
  );
}
