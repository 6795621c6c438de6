import useSWR from "swr";
import type { SearchResponse } from "../../../shared/api";
import { Link } from "../../components/Link";
import { ProfileGrid } from "../../components/ProfileCard";
import { useSignupModal } from "../../components/SignupModal";
import { Title } from "../../components/Title";
import { usePage, useT } from "../../page/page-context";
import { FIRST_SEARCH_KEY } from "../../page/page-data";
import { visitorSearchAllowed } from "../../../shared/search-visibility";
import { IconSteps } from "../landers/Icons";
import "../landers/landers.css";

/** Members in the home page's row. */
const RECENT = 8;

/**
 * The visitor's landing (SPEC §1, §2): what the site is, how it works, recently active members when
 * logged_out_search lets visitors see them, the premium-match claim, and the way in.
 */
export default function HomeScreen() {
  const { settings, locale } = usePage();
  const t = useT();
  const { openSignup } = useSignupModal();
  const showMembers = visitorSearchAllowed(settings.logged_out_search_mode, 1);
  const { data } = useSWR<SearchResponse>(showMembers ? FIRST_SEARCH_KEY : null);
  const pick = (texts: Partial<Record<string, string>>) => texts[locale] ?? null;
  const title = pick(settings.index_title) ?? t("home.title", { site: settings.name });
  const signup = (
    <a
      href="/signup"
      className="button button--primary"
      onClick={(event) => {
        event.preventDefault();
        openSignup();
      }}
    >
      {t("nav.signup")}
    </a>
  );
  return (
    <section className="home">
      {/* The site's own index title, or the default that already names the site. */}
      <Title text={title} whole />
      <div className="home__hero">
        <h1>{title}</h1>
        <p>{pick(settings.description) ?? t("home.description")}</p>
        <div className="home__actions">
          {signup}
          <Link href="/login" className="button button--ghost">
            {t("nav.login")}
          </Link>
        </div>
      </div>

      <section className="home__section" aria-labelledby="home-what">
        <h2 id="home-what">{t("home.what_title", { site: settings.name })}</h2>
        <p>{t("home.what_text", { site: settings.name })}</p>
      </section>

      <section className="home__section" aria-labelledby="home-how">
        <h2 id="home-how">{t("home.how_title")}</h2>
        <IconSteps />
      </section>

      {showMembers && data && data.profiles.length > 0 && (
        <section className="home__section" aria-labelledby="home-recent">
          <h2 id="home-recent">{t("home.recent_title")}</h2>
          <ProfileGrid profiles={data.profiles.slice(0, RECENT)} />
          <Link href="/members" className="button button--ghost">
            {t("home.search")}
          </Link>
        </section>
      )}

      <section className="home__claim" aria-labelledby="home-claim">
        <p className="home__claim-figure" aria-hidden="true">
          46%
        </p>
        <h2 id="home-claim">{t("home.claim")}</h2>
        <p>{t("home.claim_text")}</p>
      </section>

      <div className="home__end">
        <p>{t("landers.free")}</p>
        {signup}
      </div>
    </section>
  );
}
