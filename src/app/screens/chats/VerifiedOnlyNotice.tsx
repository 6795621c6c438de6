import { Link } from "../../components/Link";
import { useT } from "../../page/page-context";

/**
 * In place of the send footer when the other member takes first messages from verified members only
 * (docs/decisions/0040): why the member cannot start this conversation, that nothing was charged, and
 * the way to verify.
 */
export function VerifiedOnlyNotice({ name }: { name: string }) {
  const t = useT();
  return (
    <div className="chat-blocked chat-blocked--verify" role="status">
      <p>
        <strong>{t("verification.chat_refused", { name })}</strong>
      </p>
      <p>{t("verification.chat_refused_how")}</p>
      <Link href="/profile#verification" className="button button--primary button--small">
        {t("verification.verify_now")}
      </Link>
    </div>
  );
}
