import { ContestForm } from "../../components/ContestForm";
import { Link } from "../../components/Link";
import { FormPage } from "../../components/Form";
import { ReportForm } from "../../components/ReportForm";
import { useSettings, useT } from "../../page/page-context";
import type { ScreenProps } from "../../page/page-state";

const ID = /^[1-9][0-9]{0,9}$/;

/**
 * /complaints (SPEC §2): a report about a member, a photo or a message, or a question for customer
 * service, answered by a confirmation mail. `?profile=ID` fills in the member, `?message=ID` names a
 * message; `?contest=REPORT&key=KEY` (the link of a dismissal's mail) contests the dismissal.
 */
export default function ComplaintsScreen({ query }: ScreenProps) {
  const t = useT();
  const settings = useSettings();
  const title = t("reports.title");
  const contest = query.get("contest") ?? "";
  if (ID.test(contest))
    return (
      <FormPage title={t("reports.contest.title")} className="complaints">
        <ContestForm reportId={Number(contest)} contestKey={query.get("key")} />
      </FormPage>
    );
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
