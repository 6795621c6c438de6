import { Link } from "../../components/Link";
import { Title } from "../../components/Title";
import { usePage, useT } from "../../page-context";

/** The visitor's landing: what the site is, and the way in. */
export default function HomeScreen() {
  const { settings, locale } = usePage();
  const t = useT();
  const pick = (texts: Partial<Record<string, string>>) => texts[locale] ?? null;
  const title = pick(settings.index_title) ?? t("home.title", { site: settings.name });
  return (
    <section className="home">
      {/* The site's own index title, or the default that already names the site. */}
      <Title text={title} whole />
      <div className="home__hero">
        <h1>{title}</h1>
        <p>{pick(settings.description) ?? t("home.description")}</p>
        <div className="home__actions">
          <Link href="/members" className="button button--primary">
            {t("home.search")}
          </Link>
          <Link href="/login" className="button button--ghost">
            {t("nav.login")}
          </Link>
        </div>
      </div>
    </section>
  );
}
