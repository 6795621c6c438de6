import { LANGUAGE_NAMES, LANGUAGES } from "../../../shared/locales";
import { languageHref, useLanguageChoice } from "../../components/LanguageSwitcher";
import { Title } from "../../components/Title";
import { usePage, useT } from "../../page/page-context";

/** Choose the language: the site's country's choices first, then every other language. */
export default function LangConfigScreen() {
  const { locale, settings } = usePage();
  const t = useT();
  const choose = useLanguageChoice();
  const first = settings.languages;
  const rest = LANGUAGES.filter((l) => !first.includes(l));
  return (
    <section className="lang-config">
      <Title text={t("routes.lang-config")} />
      <h1>{t("routes.lang-config")}</h1>
      <ul className="lang-config__list">
        {[...first, ...rest].map((language) => (
          <li key={language}>
            <a
              href={languageHref(language, "/")}
              lang={language}
              aria-current={language === locale ? "true" : undefined}
              onClick={choose(language)}
            >
              {LANGUAGE_NAMES[language as keyof typeof LANGUAGE_NAMES]}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
