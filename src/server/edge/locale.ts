import { DEFAULT_LANGUAGE, isLanguage, type Language } from "../../shared/locales";

export const LOCALE_COOKIE = "locale";
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/**
 * Locale of a request: a language asked for in the URL (`?lang=`, the target of the hreflang
 * alternates search engines follow), else the locale cookie, else the domain language's first two
 * letters, else en.
 */
export function resolveLocale(cookie: string | undefined, domainLanguage: string, requested?: string): Language {
  if (isLanguage(requested)) return requested;
  if (isLanguage(cookie)) return cookie;
  const fromDomain = domainLanguage.slice(0, 2).toLowerCase();
  if (isLanguage(fromDomain)) return fromDomain;
  return DEFAULT_LANGUAGE;
}
