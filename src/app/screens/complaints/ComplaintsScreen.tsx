import { Link } from "../../components/Link";
import { FormPage } from "../../components/Form";
import { ReportForm } from "../../components/ReportForm";
import { useSettings, useT } from "../../page/page-context";
import type { ScreenProps } from "../../page/page-state";

const ID = /^[1-9][0-9]{0,9}$/;

/**
 * /complaints (SPEC §2): a complaint about the site, or a report about a member or a message,
 * answered by a confirmation mail. `?profile=ID` fills in the member, `?message=ID` names a message.
 */
export default function ComplaintsScreen({ query }: ScreenProps) {
  const t = useT();
  const settings = useSettings();
  const title = t("reports.title");
  return (
    <FormPage title={title} className="complaints">
      <p>{t("reports.intro", { site: settings.name })}</p>
      <ReportForm
        askReference
        initialReference={ID.test(query.get("profile") ?? "") ? query.get("profile")! : ""}
        messageId={ID.test(query.get("message") ?? "") ? Number(query.get("message")) : undefined}
      />
      <p className="form__alternative">
        <Link href="/pages/service">{t("footer.customer_service")}</Link>
      </p>
    </FormPage>
  );
}
