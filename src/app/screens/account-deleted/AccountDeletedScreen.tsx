import { REACTIVATION_DAYS } from "../../../shared/account";
import { Link } from "../../components/Link";
import { FormPage } from "../../components/Form";
import { useT } from "../../page/page-context";

/** After deleting: the account goes in 14 days, and the mailed link keeps it. */
export default function AccountDeletedScreen() {
  const t = useT();
  const title = t("account_deleted.title");
  return (
    <FormPage title={title} className="result-page">
      <p>{t("account_deleted.text", { count: REACTIVATION_DAYS })}</p>
      <p>{t("account_deleted.keep", { count: REACTIVATION_DAYS })}</p>
      <Link href="/" className="button button--primary">
        {t("errors.back_home")}
      </Link>
    </FormPage>
  );
}
