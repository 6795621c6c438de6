import { createInstance, type i18n } from "i18next";
import type { Language } from "../shared/locales";

export type Messages = Record<string, unknown>;

/**
 * An i18next instance for one language. Placeholders use single braces, so the texts of SPEC.md
 * ("Enter your date of birth ({min_age}+)") stand in locales/ verbatim.
 */
export function createI18n(language: Language, messages: Messages): i18n {
  const instance = createInstance();
  void instance.init({
    lng: language,
    fallbackLng: false,
    resources: { [language]: { translation: messages } },
    interpolation: { prefix: "{", suffix: "}", escapeValue: false },
    initAsync: false,
  });
  return instance;
}
