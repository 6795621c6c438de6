import type { Language } from "./locales";

export type Messages = Record<string, unknown>;

/** Values of a text's placeholders; `count` also picks the plural form, `defaultValue` stands in for a missing key. */
export type TranslateOptions = { count?: number; defaultValue?: string; [name: string]: unknown };
export type Translate = (key: string, options?: TranslateOptions) => string;
export type I18n = { language: Language; t: Translate };
/** A regional variant (de-CH, nl-BE ...): its tag and the texts that differ from its language's. */
export type VariantMessages = { tag: string; messages: Messages };
/** What a page's translator is made of in the browser: its language's texts and its regional variant's own (GET /texts/…, decision 0042). */
export type PageTexts = { messages: Messages; variant: VariantMessages | null };

/** Placeholders whose number names a thing (report 1234, receipt 5678), written as it is, never grouped. */
const IDENTIFIERS = new Set(["id"]);
const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A placeholder's value as the text shows it: a number in the locale's own Intl format ("25,5" in
 * Finnish, "1 000" in French), so no number is written by hand; an identifier as it is.
 */
export function placeholderValue(name: string, value: unknown, locale: string): string {
  if (typeof value !== "number" || IDENTIFIERS.has(name)) return String(value);
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    numberFormats.set(locale, format);
  }
  return format.format(value);
}

/** A placeholder: single braces, so the texts of SPEC.md ("Enter your date of birth ({min_age}+)") stand in locales/ verbatim. */
const PLACEHOLDER = /\{(.+?)\}/g;

/**
 * The texts of one language. Keys are dotted paths into the messages; with a `count` the plural form
 * of the language's CLDR rules is taken (`key_one`, `key_few`, `key_many`, `key_other`), else the key
 * itself; a missing key answers `defaultValue` or the key; a placeholder without a value stays as it is.
 * It does what the app asked of i18next and nothing more, in a few hundred bytes instead of 15 KB
 * gzip in every page's JavaScript (decision 0037). The server draws with i18next (src/server/i18next.ts);
 * test/integration/translators.test.ts holds the two to the same text, so pages hydrate as drawn.
 */
export function createI18n(language: Language, messages: Messages, variant: VariantMessages | null = null): I18n {
  const locale = variant?.tag ?? language;
  const plurals = new Intl.PluralRules(locale);
  // A regional variant's own texts first, its language's for everything else (i18next's fallbackLng).
  const lookup = (key: string): string | undefined =>
    (variant ? lookupIn(variant.messages, key) : undefined) ?? lookupIn(messages, key);
  const lookupIn = (tree: Messages, key: string): string | undefined => {
    let node: unknown = tree;
    for (const part of key.split(".")) {
      if (node === null || typeof node !== "object") return undefined;
      node = (node as Record<string, unknown>)[part];
    }
    return typeof node === "string" ? node : undefined;
  };
  const t: Translate = (key, options) => {
    const plural = typeof options?.count === "number" ? lookup(`${key}_${plurals.select(options.count)}`) : undefined;
    const text = plural ?? lookup(key) ?? options?.defaultValue ?? key;
    if (!options) return text;
    return text.replace(PLACEHOLDER, (placeholder, name: string) => {
      const value = options[name.trim()];
      return value === undefined || value === null ? placeholder : placeholderValue(name.trim(), value, locale);
    });
  };
  return { language, t };
}
