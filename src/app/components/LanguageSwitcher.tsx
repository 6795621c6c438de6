import type { MouseEvent } from "react";
import { LANGUAGE_NAMES, isLanguage } from "../../shared/locales";
import { apiSend } from "../page/api";
import { usePage, useRouter, useT } from "../page/page-context";
import { useUser } from "../hooks/useUser";

/** The link that switches the language: /lang-config sets the 365-day locale cookie and comes back here. */
export function languageHref(language: string, returnTo: string): string {
  return `/lang-config?${new URLSearchParams({ locale: language, return: returnTo })}`;
}

/**
 * The click on a language link. A member's choice is also saved to the account (PUT /api/user.php,
 * SPEC §7) before the page reloads in the new language, so mails follow it; if saving fails the
 * language still switches for this browser.
 */
export function useLanguageChoice(): (
  language: string,
) => ((event: MouseEvent<HTMLAnchorElement>) => void) | undefined {
  const { user } = useUser();
  if (!user) return () => undefined;
  return (language) => (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const href = event.currentTarget.href;
    void apiSend("PUT", "/api/user.php", { language })
      .catch(() => undefined)
      .finally(() => window.location.assign(href));
  };
}

/** The site's language choices (SPEC §9: per country, e.g. BE nl, fr, de). */
export function LanguageSwitcher() {
  const { locale, settings } = usePage();
  const { location } = useRouter();
  const t = useT();
  const choose = useLanguageChoice();
  const here = location.pathname + location.search;
  const choices = settings.languages.filter(isLanguage);
  if (!choices.includes(locale)) choices.push(locale);
  return (
    <details className="language-switcher">
      <summary>
        <span className="visually-hidden">{t("nav.language")}: </span>
        {locale.toUpperCase()}
      </summary>
      <ul>
        {choices.map((language) => (
          <li key={language}>
            <a
              href={languageHref(language, here)}
              lang={language}
              aria-current={language === locale ? "true" : undefined}
              onClick={choose(language)}
            >
              {LANGUAGE_NAMES[language]}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
