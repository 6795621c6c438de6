import { Link } from "../../components/Link";
import { ResendActivation } from "../../components/ResendActivation";
import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import type { ScreenProps } from "../../page/page-state";

/**
 * Where the mailed activation link ends (/api/activate.php redirects here): /activate/done, or
 * /activate/error with "Link expired or invalid" and, for a logged-in member, a new e-mail.
 */
export default function ActivateScreen({ routeName, query }: ScreenProps) {
  const t = useT();
  const { user } = useUser();

  if (routeName === "activate-done") {
    // The link clicked again after it did its work (?already=1): done before, nothing failed.
    const already = query.get("already") === "1";
    const title = t(already ? "activate.already_title" : "activate.done_title");
    return (
      <section className="form-page result-page">
        <Title text={title} />
        <h1>{title}</h1>
        <p>{t(already ? "activate.already_text" : "activate.done_text")}</p>
        <Link href="/members" className="button button--primary">
          {t("nav.search_members")}
        </Link>
      </section>
    );
  }

  const title = t("errors.activation_failed");
  return (
    <section className="form-page result-page">
      <Title text={title} />
      <h1>{title}</h1>
      <p className="form-message form-message--error" role="alert">
        {t("errors.link_expired")}
      </p>
      {user ? (
        user.status === "not_confirmed" ? (
          <ResendActivation className="button button--primary" />
        ) : (
          <Link href="/members" className="button button--primary">
            {t("nav.search_members")}
          </Link>
        )
      ) : (
        <>
          <p>{t("activate.login_to_resend")}</p>
          <Link href="/login" className="button button--primary">
            {t("login.submit")}
          </Link>
        </>
      )}
    </section>
  );
}
