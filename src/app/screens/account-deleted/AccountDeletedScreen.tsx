import { REACTIVATION_DAYS } from "../../../shared/account";
import { Link } from "../../components/Link";
import { Title } from "../../components/Title";
import { useT } from "../../page-context";

/** After deleting: the account goes in 14 days, and the mailed link keeps it. */
export default function AccountDeletedScreen() {
  const t = useT();
  const title = t("account_deleted.title");
  return (
    <section className="form-page result-page">
      <Title text={title} />
      <h1>{title}</h1>
      <p>{t("account_deleted.text", { days: REACTIVATION_DAYS })}</p>
      <p>{t("account_deleted.keep", { days: REACTIVATION_DAYS })}</p>
      <Link href="/" className="button button--primary">
        {t("errors.back_home")}
      </Link>
    </section>
  );
}
