import { Title } from "../../components/Title";
import { usePage, useT } from "../../page-context";
import type { ScreenProps } from "../../page-state";

/** The static pages (terms, privacy, cookies, ban, return policy, FAQ, service), also at /{token}. */
export default function StaticPageScreen({ params, routeName }: ScreenProps) {
  const { company, settings } = usePage();
  const t = useT();
  const page = params.token ?? routeName.replace(/^pages-/, "");
  const title = t(`pages.${page}.title`);
  return (
    <article className="static-page">
      <Title text={title} />
      <h1>{title}</h1>
      <p>{t(`pages.${page}.intro`, { site: settings.name, days: settings.refund_days })}</p>
      {company && (
        <address className="static-page__company">
          <strong>{company.name}</strong>
          <br />
          {company.address}, {company.city}
          <br />
          {t("pages.company_number", { number: company.kvk })}
          <br />
          {t("pages.contact", { email: settings.support_email, phone: settings.support_phone })}
        </address>
      )}
    </article>
  );
}
