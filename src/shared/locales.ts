/** The 11 content languages and which of them each country offers in the language switcher. */
export const LANGUAGES = ["da", "de", "en", "es", "fi", "fr", "it", "nb", "nl", "pl", "sv"] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = "en";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** Language choices offered per country; the first is the country's main language. */
export const COUNTRY_LANGUAGES: Record<string, readonly Language[]> = {
  AT: ["de", "en"],
  BE: ["nl", "fr", "de"],
  CH: ["de", "it", "fr", "en"],
  DE: ["de", "en"],
  DK: ["da", "en"],
  ES: ["es", "en"],
  FI: ["fi", "sv", "en"],
  FR: ["fr", "en"],
  GB: ["en"],
  IE: ["en"],
  IT: ["it", "en"],
  LU: ["fr", "de", "en"],
  NL: ["nl", "en"],
  NO: ["nb", "en"],
  PL: ["pl", "en"],
  SE: ["sv", "en"],
  US: ["en", "es"],
};

export function languagesForCountry(country: string): readonly Language[] {
  return COUNTRY_LANGUAGES[country] ?? [DEFAULT_LANGUAGE];
}

/** Name of each language in itself, for the language switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  da: "Dansk",
  de: "Deutsch",
  en: "English",
  es: "Español",
  fi: "Suomi",
  fr: "Français",
  it: "Italiano",
  nb: "Norsk bokmål",
  nl: "Nederlands",
  pl: "Polski",
  sv: "Svenska",
};
