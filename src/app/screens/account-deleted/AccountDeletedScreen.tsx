import { useSyncExternalStore } from "react";
import { ACCOUNT_DELETED_COOKIE, REACTIVATION_DAYS } from "../../../shared/account";
import { Link } from "../../components/Link";
import { FormPage } from "../../components/Form";
import { useT } from "../../page/page-context";

const noChanges = () => () => {};
/** Whether this browser just deleted its account: the deletion's short-lived cookie (shared/account.ts). */
const justDeleted = () => document.cookie.split("; ").includes(`${ACCOUNT_DELETED_COOKIE}=1`);

/**
 * After deleting: the account goes in 14 days, and the mailed link keeps it. Only the browser that just
 * deleted its account reads "you have been logged out"; any other visitor gets a neutral page (the
 * server's page is the neutral one, the browser's cookie decides once it runs).
 */
export default function AccountDeletedScreen() {
  const t = useT();
  const deleted = useSyncExternalStore(noChanges, justDeleted, () => false);
  if (!deleted)
    return (
      <FormPage title={t("account_deleted.neutral_title")} className="result-page">
        <p>{t("account_deleted.neutral_text")}</p>
        <Link href="/" className="button button--primary">
          {t("errors.back_home")}
        </Link>
      </FormPage>
    );
  return (
    <FormPage title={t("account_deleted.title")} className="result-page">
      <p>{t("account_deleted.text", { count: REACTIVATION_DAYS })}</p>
      <p>{t("account_deleted.keep", { count: REACTIVATION_DAYS })}</p>
      <Link href="/" className="button button--primary">
        {t("errors.back_home")}
      </Link>
    </FormPage>
  );
}
