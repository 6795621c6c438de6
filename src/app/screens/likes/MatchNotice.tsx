import { VerifiedBadge } from "../../components/VerifiedBadge";
import { useT } from "../../page/page-context";

/**
 * Two members like each other: say so (SPEC §2). It stands on the profile right above the profile's own
 * message button, which starts their chat, so it carries no second button for the same action.
 */
export function MatchNotice({ name, verified = false }: { name: string; verified?: boolean }) {
  const t = useT();
  return (
    <div className="notice notice--match" role="status">
      <strong>{t("likes.match")}</strong> {t("likes.match_notice", { name })} {verified && <VerifiedBadge compact />}
    </div>
  );
}
