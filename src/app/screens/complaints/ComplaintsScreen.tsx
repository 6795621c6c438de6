import { Link } from "../../components/Link";
import { ReportForm } from "../../components/ReportForm";
import { Title } from "../../components/Title";
import { useSettings, useT } from "../../context";

/** /complaints (SPEC §2): a complaint about the site, or a report about a member, answered by a confirmation mail. */
export default function ComplaintsScreen() {
  const t = useT();
  const settings = useSettings();
  const title = t("reports.title");
  return (
    <section className="form-page complaints">
      <Title text={title} />
      <h1>{title}</h1>
      <p>{t("reports.intro", { site: settings.name })}</p>
      <ReportForm askReference />
      <p className="form__alternative">
        <Link href="/pages/service">{t("footer.customer_service")}</Link>
      </p>
    </section>
  );
}
