import { describe, expect, it } from "vitest";
import { serverI18n } from "../../src/server/i18next";
import { MESSAGES, VARIANT_MESSAGES } from "../../src/server/translations";
import { LANGUAGES, VARIANTS, type Language } from "../../src/shared/locales";
import { createI18n, type Messages } from "../../src/shared/translator";

/** Every text's key, plural forms folded into their family's key. */
function keysOf(tree: Messages, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") return [path.replace(/_(zero|one|two|few|many|other)$/, "")];
    if (Array.isArray(value)) return [];
    return keysOf(value as Messages, path);
  });
}

/** Values for every placeholder a text may have, and counts that pick every plural form of the languages served. */
const VALUES = [undefined, { count: 0 }, { count: 1 }, { count: 2 }, { count: 5 }, { count: 22 }, { count: 1_000_000 }, { count: 1.5 }];
const FILLED = { name: "Sanne", site: "Flirtwave", credits: 3, n: 2, price: "€ 2,50", date: "26-11-2026", country: "Nederland" };

// The server draws pages with i18next and the browser hydrates them with the small translator (decision 0037):
// a text that came out differently would flash and change on hydration, so the two must agree on every text.
describe("the browser's translator and the server's i18next", () => {
  const cases: { tag: string; language: Language; variant: { tag: string; messages: Messages } | null }[] = [
    ...LANGUAGES.map((language) => ({ tag: language, language, variant: null })),
    ...VARIANTS.map((variant) => ({ tag: variant, language: variant.slice(0, 2) as Language, variant: { tag: variant, messages: VARIANT_MESSAGES[variant] } })),
  ];
  for (const { tag, language, variant } of cases) {
    it(`${tag}: give the same text for every key, count and value`, () => {
      const server = serverI18n(language, MESSAGES[language], variant).t;
      const browser = createI18n(language, MESSAGES[language], variant).t;
      const keys = [...new Set([...keysOf(MESSAGES[language]), ...(variant ? keysOf(variant.messages) : [])])];
      expect(keys.length).toBeGreaterThan(500);
      for (const key of keys) {
        for (const values of VALUES) {
          const options = values ? { ...FILLED, ...values } : undefined;
          expect(browser(key, options), `${key} ${JSON.stringify(values)}`).toBe(server(key, options));
        }
      }
    });
  }
});
