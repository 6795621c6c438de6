import { describe, expect, it } from "vitest";
import { LIKE_TABS, ROUTES, STATIC_PAGES } from "../../src/app/routes";
import { BODY_TYPES, EYE_COLORS, GENDERS, HAIR_COLORS, RELATIONSHIP_STATUSES, SEXUALITIES, TATTOOS } from "../../src/shared/api";
import { COUNTRY_LANGUAGES, LANGUAGES } from "../../src/shared/locales";
import { MESSAGES } from "../../src/server/translations";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).toSorted();
const english = flatten(MESSAGES.en as Tree);

/** Words that stay as they are in several languages; anything longer that equals the English is untranslated. */
const SAME_IN_MANY_LANGUAGES = /^(FAQ|Premium|Get Premium|Chat|Match finder|Swipe game|Hetero|Gay|Bi|Bisexual|Login|Tattoos|Normal|Service|Cookies|Credits|Profile|Region|Regional|Privacy|Information|Kanton|Design)$/i;

describe("locales", () => {
  it("has one file for each of the 11 languages", () => {
    expect(Object.keys(MESSAGES).toSorted()).toEqual([...LANGUAGES].toSorted());
  });

  for (const language of LANGUAGES) {
    it(`${language}: same keys and placeholders as English, nothing left in English`, () => {
      const messages = flatten(MESSAGES[language] as Tree);
      expect([...messages.keys()].toSorted()).toEqual([...english.keys()].toSorted());
      for (const [key, text] of english) {
        const translated = messages.get(key) ?? "";
        expect(translated.trim(), key).not.toBe("");
        expect(placeholders(translated), key).toEqual(placeholders(text));
        if (language !== "en" && translated === text && text.length > 12) {
          expect.fail(`${language} ${key} is still English: "${text}"`);
        }
        if (language !== "en" && translated === text) expect(SAME_IN_MANY_LANGUAGES.test(text) || text.length <= 12, key).toBe(true);
      }
    });
  }

  it("has the texts SPEC.md gives, verbatim in English", () => {
    const texts = [...english.values()];
    for (const spec of [
      "This page could not be found",
      "Back to the home page",
      "An error occurred while showing the error page",
      "Go back to home",
      "Login failed, please try again",
      "Too many incorrect attempts, account blocked for {minutes} min.",
      "Too many password reset emails sent, please try again tomorrow",
      "E-mail address not found",
      "Link expired or invalid, request a new email",
      "Activation failed",
      "You do not have enough credits to send this message to {name}",
      "An error occured, please try again later",
      "An error has occurred",
      "Please check your old password",
      "The entered passwords are not the same",
      "Username may not be the same as your e-mail address",
      "Enter your date of birth ({min_age}+)",
      "Invalid date of birth",
      "Invalid email",
      "An account with this e-mail address already exists",
      "You need to be logged in to chat",
      "You're blocked by {name}. You do not have access to this page.",
    ]) {
      expect(texts, spec).toContain(spec);
    }
  });

  it("has a title for every route and a text for every value the screens translate", () => {
    const keys = new Set(english.keys());
    const needed = [
      ...ROUTES.map((r) => `routes.${r.name}`),
      ...STATIC_PAGES.flatMap((p) => [`pages.${p}.title`, `pages.${p}.intro`]),
      ...Object.keys(COUNTRY_LANGUAGES).map((c) => `countries.${c}`),
      ...["province", "state", "canton", "county", "region"].map((k) => `regions.${k}`),
      ...GENDERS.map((v) => `profile.genders.${v}`),
      ...GENDERS.map((v) => `search.gender_${v}`),
      ...SEXUALITIES.map((v) => `profile.sexualities.${v}`),
      ...RELATIONSHIP_STATUSES.map((v) => `profile.relationship_statuses.${v}`),
      ...BODY_TYPES.map((v) => `profile.body_types.${v}`),
      ...HAIR_COLORS.map((v) => `profile.hair_colors.${v}`),
      ...EYE_COLORS.map((v) => `profile.eye_colors.${v}`),
      ...TATTOOS.map((v) => `profile.tattoo_levels.${v}`),
      ...LIKE_TABS.map(() => "routes.likes-type"),
    ];
    for (const key of needed) expect(keys.has(key), key).toBe(true);
  });

  it("has every key the code asks for by name", () => {
    const sources = import.meta.glob("../../src/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
    const keys = new Set(english.keys());
    let count = 0;
    for (const [file, text] of Object.entries(sources)) {
      for (const m of text.matchAll(/\bt\(\s*"([a-z_]+(?:\.[a-z0-9_-]+)+)"/g)) {
        count++;
        expect(keys.has(m[1]!), `${file}: ${m[1]}`).toBe(true);
      }
      for (const m of text.matchAll(/messageKey[^"]*"([a-z_]+\.[a-z_]+)"|"(errors\.[a-z_]+)"/g)) {
        const key = m[1] ?? m[2]!;
        expect(keys.has(key), `${file}: ${key}`).toBe(true);
      }
    }
    expect(count).toBeGreaterThan(40);
  });
});
