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
const VALUES = [
  undefined,
  { count: 0 },
  { count: 1 },
  { count: 2 },
  { count: 5 },
  { count: 22 },
  { count: 1_000_000 },
  { count: 1.5 },
];
const FILLED = {
  name: "Sanne",
  site: "Flirtwave",
  credits: 3,
  n: 2,
  price: "€ 2,50",
  date: "26-11-2026",
  country: "Nederland",
};

// The server draws pages with i18next and the browser hydrates them with the small translator (decision 0037):
// a text that came out differently would flash and change on hydration, so the two must agree on every text.
describe("the browser's translator and the server's i18next", () => {
  const cases: { tag: string; language: Language; variant: { tag: string; messages: Messages } | null }[] = [
    ...LANGUAGES.map((language) => ({ tag: language, language, variant: null })),
    ...VARIANTS.map((variant) => ({
      tag: variant,
      language: variant.slice(0, 2) as Language,
      variant: { tag: variant, messages: VARIANT_MESSAGES[variant] },
    })),
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

// The server's translator keeps each text it resolved (a page asks for the same few hundred on every render):
// what it keeps must never stand in for a different call.
describe("the server's translator, keeping its texts", () => {
  const t = serverI18n("en", MESSAGES.en).t;

  it("gives each call's own text when the same key comes with other values", () => {
    expect(t("errors.chat_unavailable", { name: "Sanne" })).toBe("Sanne is no longer available.");
    expect(t("errors.chat_unavailable", { name: "Jeroen" })).toBe("Jeroen is no longer available.");
    expect(t("errors.chat_unavailable", { name: "Sanne" })).toBe("Sanne is no longer available.");
    expect(t("errors.account_blocked", { count: 1 })).toBe("Too many incorrect attempts, account blocked for 1 min.");
    expect(t("errors.account_blocked", { count: 5 })).not.toBe(t("errors.account_blocked", { count: 1 }));
    expect(t("errors.account_blocked", { count: 5 })).toContain("5");
    expect(t("errors.chat_unavailable", { name: 7 })).toBe("7 is no longer available.");
  });

  it("gives an object value's text as it is at the call, not as it was at an earlier one", () => {
    let name = "Sanne";
    const person = { toString: () => name };
    expect(t("errors.chat_unavailable", { name: person })).toBe("Sanne is no longer available.");
    name = "Jeroen";
    expect(t("errors.chat_unavailable", { name: person })).toBe("Jeroen is no longer available.");
  });

  it("still answers rightly once it keeps no more (keys a request makes up cannot fill the isolate)", () => {
    const fresh = serverI18n("nl", MESSAGES.nl).t;
    for (let i = 0; i < 10_050; i++) expect(fresh(`search.gender_made_up_${i}`)).toBe(`search.gender_made_up_${i}`);
    expect(fresh("errors.chat_unavailable", { name: "Sanne" })).toBe(
      serverI18n("nl", MESSAGES.nl).t("errors.chat_unavailable", { name: "Sanne" }),
    );
    expect(fresh("errors.chat_unavailable", { name: "Sanne" })).toContain("Sanne");
  });
});
