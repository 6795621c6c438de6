import { usePage, useT } from "../page/page-context";
import { postalTown } from "../../shared/company";
import { Link } from "./Link";

const FOOTER_LINKS = [
  ["/pages/terms", "footer.terms"],
  ["/pages/privacy", "footer.privacy"],
  ["/pages/cookies", "footer.cookies"],
  ["/pages/ban", "footer.access_ban"],
  ["/pricing", "footer.pricing"],
  ["/complaints", "footer.complaints"],
  ["/pages/return-policy", "footer.return_policy"],
  ["/pages/faq", "footer.faq"],
  ["/pages/service", "footer.customer_service"],
  ["/pages/imprint", "footer.imprint"],
] as const;

/** Footer links (SPEC §2), the company line and the per-locale disclaimer; the US statement for English. */
export function Footer({ links = true }: { links?: boolean }) {
  const { company, locale, settings } = usePage();
  const t = useT();
  return (
    <footer className="footer">
      {links && (
        <ul className="footer__links">
          {FOOTER_LINKS.map(([href, key]) => (
            <li key={href}>
              <Link href={href}>{t(key)}</Link>
            </li>
          ))}
        </ul>
      )}
      <p className="footer__disclaimer">{t("footer.disclaimer", { site: settings.name })}</p>
      {locale === "en" && <p className="footer__us">{t("footer.us_statement")}</p>}
      {company && (
        <p className="footer__company">
          © {company.name} · {company.address}, {postalTown(company)}
        </p>
      )}
    </footer>
  );
}
