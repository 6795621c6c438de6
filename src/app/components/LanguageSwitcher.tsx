import { LANGUAGE_NAMES, isLanguage } from "../../shared/locales";
import { usePage, useRouter, useT } from "../page-context";

/** The link that switches the language: /lang-config sets the 365-day locale cookie and comes back here. */
export function languageHref(language: string, returnTo: string): string {
  return `/lang-config?${new URLSearchParams({ locale: language, return: returnTo })}`;
}

/** The site's language choices (SPEC §9: per country, e.g. BE nl, fr, de). */
export function LanguageSwitcher() {
  const { locale, settings } = usePage();
  const { location } = useRouter();
  const t = useT();
  const here = location.pathname + location.search;
  const choices = settings.languages.filter(isLanguage);
  if (!choices.includes(locale)) choices.push(locale);
  return (
    <details className="language-switcher">
      <summary aria-label={t("nav.language")}>{locale.toUpperCase()}</summary>
      <ul>
        {choices.map((language) => (
          <li key={language}>
            <a href={languageHref(language, here)} lang={language} aria-current={language === locale ? "true" : undefined}>
              {LANGUAGE_NAMES[language]}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
