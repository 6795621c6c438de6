import { createInstance } from "i18next";
import type { Language } from "../shared/locales";
import {
  placeholderValue,
  type I18n,
  type Messages,
  type Translate,
  type TranslateOptions,
  type VariantMessages,
} from "../shared/translator";

/** Texts kept per instance at most: keys can come from a request (a filter's value), so the memo stays bounded. */
const MEMO_LIMIT = 10_000;

/** What a call is remembered under: its key, and its options when all are plain values; null when not remembered. */
function memoKey(key: string, options: TranslateOptions | undefined): string | null {
  if (options === undefined) return key;
  let memo = key;
  for (const name in options) {
    const value = options[name];
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return null;
    memo += `\u0000${name}\u0001${typeof value}\u0001${value}`;
  }
  return memo;
}

/**
 * The options with every number as the locale writes it, as `replace`, the values i18next fills the
 * placeholders from when given (`count` stays a number and still picks the plural form), so the
 * server writes "25,5" and "1 000" as the browser's translator does.
 */
function withNumbersWritten(options: TranslateOptions, locale: string): Record<string, unknown> {
  const replace: Record<string, unknown> = {};
  for (const name in options) {
    const value = options[name];
    replace[name] = typeof value === "number" ? placeholderValue(name, value, locale) : value;
  }
  return { ...options, replace };
}

/**
 * The server's texts (pages, mails, pushes, errors) through i18next: one instance per language, or per
 * regional variant with its language as the fallback. The browser reads the same files with the small
 * translator of src/shared/translator.ts (decision 0037), which test/integration/translators.test.ts
 * holds to i18next's output on every key of every language and variant, so pages hydrate as drawn.
 */
export function serverI18n(language: Language, messages: Messages, variant: VariantMessages | null = null): I18n {
  const locale = variant?.tag ?? language;
  const instance = createInstance();
  void instance.init({
    lng: variant?.tag ?? language,
    fallbackLng: variant ? language : false,
    resources: variant
      ? { [language]: { translation: messages }, [variant.tag]: { translation: variant.messages } }
      : { [language]: { translation: messages } },
    interpolation: { prefix: "{", suffix: "}", escapeValue: false },
    initAsync: false,
  });
  // i18next resolves a key anew on every call (its nesting, plurals and interpolation), a good part
  // of a page's render; the instance never changes once made, so each text is resolved once.
  const resolved = new Map<string, string>();
  const t: Translate = (key, options) => {
    const memo = memoKey(key, options);
    let text = memo === null ? undefined : resolved.get(memo);
    if (text === undefined) {
      text = String(instance.t(key, options && withNumbersWritten(options, locale)));
      if (memo !== null && resolved.size < MEMO_LIMIT) resolved.set(memo, text);
    }
    return text;
  };
  return { language, t };
}
