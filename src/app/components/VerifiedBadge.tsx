import { useT } from "../page/page-context";

/**
 * The verified badge (docs/decisions/0040): a moderator saw the member's main photo beside their
 * pose selfie. One accessible label says what it means; `compact` shows the mark without the word.
 */
export function VerifiedBadge({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const label = t("verification.badge_label");
  return (
    <span
      className={compact ? "badge badge--verified is-compact" : "badge badge--verified"}
      role="img"
      aria-label={label}
      title={label}
    >
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
        <path fill="currentColor" d="M6.4 11.6 2.8 8l1.1-1.1 2.5 2.5 5.7-5.7L13.2 4.8z" />
      </svg>
      {!compact && <span aria-hidden="true">{t("verification.badge")}</span>}
    </span>
  );
}
