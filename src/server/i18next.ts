import { createInstance } from "i18next";
import type { Language } from "../shared/locales";
import type { I18n, Messages, Translate, VariantMessages } from "../shared/translator";

/**
 * The server's texts (pages, mails, pushes, errors) through i18next: one instance per language, or per
 * regional variant with its language as the fallback. The browser reads the same files with the small
 * translator of src/shared/translator.ts (decision 0037), which test/integration/translators.test.ts
 * holds to i18next's output on every key of every language and variant, so pages hydrate as drawn.
 */
export function serverI18n(language: Language, messages: Messages, variant: VariantMessages | null = null): I18n {
  const instance = createInstance();
  void instance.init({
    lng: variant?.tag ?? language,
    fallbackLng: variant ? language : false,
    resources: variant ? { [language]: { translation: messages }, [variant.tag]: { translation: variant.messages } } : { [language]: { translation: messages } },
    interpolation: { prefix: "{", suffix: "}", escapeValue: false },
    initAsync: false,
  });
  const t: Translate = (key, options) => String(instance.t(key, options as Record<string, unknown>));
  return { language, t };
}
