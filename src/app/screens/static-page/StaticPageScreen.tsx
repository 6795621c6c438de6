import useSWR from "swr";
import type { LegalPage, LegalSection } from "../../../shared/legal";
import type { ApiRequestError } from "../../page/api";
import { ErrorPage } from "../../components/ErrorPage";
import { Link } from "../../components/Link";
import { Pending } from "../../components/Pending";
import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import { legalKey } from "../../page/page-data";
import type { ScreenProps } from "../../page/page-state";
import { PhoneCheck } from "./PhoneCheck";

/**
 * The static pages (SPEC §2: terms, privacy, cookies, access ban, FAQ, return policy, customer
 * service), also at /{token}: headings and paragraphs filled in on the server from the site's
 * settings and company, the cookie table, the US privacy text for English, and the contact block.
 */
export default function StaticPageScreen({ params, routeName }: ScreenProps) {
  const page = params.token ?? routeName.replace(/^pages-/, "");
  const { data, error, mutate } = useSWR<LegalPage, ApiRequestError>(legalKey(page));
  if (error && error.status < 500) return <ErrorPage error={{ status: error.status, message: null }} />;
  if (!data) return <Pending failed={error !== undefined} retry={() => void mutate()} />;
  return <LegalDocument page={data} />;
}

function Sections({ sections }: { sections: LegalSection[] }) {
  return sections.map((section) => (
    <section key={section.id} id={section.id}>
      <h2>{section.heading}</h2>
      {section.paragraphs.map((text, i) => (
        <p key={i}>{text}</p>
      ))}
    </section>
  ));
}

function LegalDocument({ page }: { page: LegalPage }) {
  const t = useT();
  return (
    <article className="static-page">
      <Title text={page.title} />
      <h1>{page.title}</h1>
      {page.version && <p className="static-page__version">{page.version}</p>}
      <p className="static-page__intro">{page.intro}</p>
      <Sections sections={page.sections} />
      {page.storage && (
        <section id="storage">
          <h2>{t("legal.storage_heading")}</h2>
          <div className="static-page__table">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("legal.storage_name")}</th>
                  <th scope="col">{t("legal.storage_kind")}</th>
                  <th scope="col">{t("legal.storage_purpose")}</th>
                  <th scope="col">{t("legal.storage_lifetime")}</th>
                </tr>
              </thead>
              <tbody>
                {page.storage.map((item) => (
                  <tr key={item.name}>
                    <th scope="row" className="storage__name">
                      <code>{item.name}</code>
                    </th>
                    <td className="storage__kind">{t(`legal.storage_kinds.${item.kind}`)}</td>
                    <td className="storage__purpose">{item.purpose}</td>
                    <td className="storage__lifetime">{item.lifetime}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      {page.us && (
        <div className="static-page__us" lang="en-US">
          <Sections sections={page.us} />
        </div>
      )}
      {page.page === "service" && <PhoneCheck phone={page.contact.phone} />}
      <section className="static-page__company" id="company">
        <h2>{t("legal.contact_heading")}</h2>
        <address>
          <strong>{page.company.name}</strong>
          {page.company.lines.map((line) => (
            <span key={line}>
              <br />
              {line}
            </span>
          ))}
          <br />
          {t("legal.contact_email")}: <a href={`mailto:${page.contact.email}`}>{page.contact.email}</a>
          <br />
          {t("legal.contact_phone")}:{" "}
          <a href={`tel:${page.contact.phone.replace(/[^+0-9]/g, "")}`}>{page.contact.phone}</a>
        </address>
        <p>
          <Link href="/complaints">{t("legal.contact_complaints")}</Link>
        </p>
      </section>
    </article>
  );
}
