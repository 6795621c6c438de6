/**
 * The content languages, each with its name in itself (the language switcher). Adding a language
 * is one entry here plus its file in locales/ (src/server/translations.ts finds it by its code);
 * which countries offer it is COUNTRY_LANGUAGES below.
 */
export const LANGUAGE_NAMES = {
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
} as const satisfies Record<string, string>;
export type Language = keyof typeof LANGUAGE_NAMES;
export const LANGUAGES = Object.keys(LANGUAGE_NAMES) as readonly Language[];

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

/**
 * Regional variants: a country's own words where they differ from its language's file, in
 * locales/<tag>.json with only those keys (decision 0039). A site uses the variant of its own
 * country (its first) for each language it has one of; everything else falls back to the language.
 */
export const VARIANTS = ["de-AT", "de-CH", "fr-BE", "fr-CH", "nl-BE"] as const;
export type Variant = (typeof VARIANTS)[number];

export function variantFor(language: Language, country: string): Variant | null {
  const tag = `${language}-${country}`;
  return (VARIANTS as readonly string[]).includes(tag) ? (tag as Variant) : null;
}

/** The locale a site of `country` writes `language` in (its variant's tag, else the language): its dates and numbers. */
export function textsLocale(language: Language, country: string): string {
  return variantFor(language, country) ?? language;
}
