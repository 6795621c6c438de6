import { createInstance, type i18n } from "i18next";
import type { Language } from "../shared/locales";

export type Messages = Record<string, unknown>;
/** A regional variant (de-CH, nl-BE ...): its tag and the texts that differ from its language's. */
export type VariantMessages = { tag: string; messages: Messages };

/**
 * An i18next instance for one language, or for one regional variant of it with the language as
 * its fallback. Placeholders use single braces, so the texts of SPEC.md ("Enter your date of birth
 * ({min_age}+)") stand in locales/ verbatim. Plural forms are keys with i18next's suffixes (_one,
 * _few, _many, _other), chosen by the browser's own Intl.PluralRules: no plural rules ship.
 */
export function createI18n(language: Language, messages: Messages, variant: VariantMessages | null = null): i18n {
  const instance = createInstance();
  void instance.init({
    lng: variant?.tag ?? language,
    fallbackLng: variant ? language : false,
    resources: variant ? { [language]: { translation: messages }, [variant.tag]: { translation: variant.messages } } : { [language]: { translation: messages } },
    interpolation: { prefix: "{", suffix: "}", escapeValue: false },
    initAsync: false,
  });
  return instance;
}
