import { Link } from "../../components/Link";
import { VerifiedBadge } from "../../components/VerifiedBadge";
import { useT } from "../../page-context";

/** Two members like each other: say so and offer the start of their chat (SPEC §2). */
export function MatchNotice({ profileId, name, verified = false }: { profileId: number; name: string; verified?: boolean }) {
  const t = useT();
  return (
    <div className="notice notice--match" role="status">
      <strong>{t("likes.match")}</strong> {t("likes.match_notice", { name })} {verified && <VerifiedBadge compact />}{" "}
      <Link href={`/members/${profileId}/chat`} className="button button--primary">
        {t("likes.message")}
      </Link>
    </div>
  );
}
