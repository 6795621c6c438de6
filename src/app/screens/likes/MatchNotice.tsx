import { Link } from "../../components/Link";
import { useT } from "../../page-context";

/** Two members like each other: say so and offer the start of their chat (SPEC §2). */
export function MatchNotice({ profileId, name }: { profileId: number; name: string }) {
  const t = useT();
  return (
    <div className="notice notice--match" role="status">
      <strong>{t("likes.match")}</strong> {t("likes.match_notice", { name })}{" "}
      <Link href={`/members/${profileId}/chat`} className="button button--primary">
        {t("likes.start_chat")}
      </Link>
    </div>
  );
}
