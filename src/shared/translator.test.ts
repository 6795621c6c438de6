import { describe, expect, it } from "vitest";
import en from "../../locales/en.json" with { type: "json" };
import { createI18n } from "./translator";

describe("the translator of pages, mails and pushes", () => {
  it("fills single-brace placeholders and leaves those it has no value for", () => {
    const { t } = createI18n("en", en);
    expect(t("chat.typing", { name: "Sanne" })).toBe("Sanne is typing…");
    expect(t("chat.typing")).toBe("{name} is typing…");
    expect(t("app_install.offline.text", { site: "Flirtwave" })).toBe(
      en.app_install.offline.text.replace("{site}", "Flirtwave"),
    );
    expect(t("app_install.offline.text", { site: "Flirtwave" })).not.toContain("{");
  });

  it("takes the plural form of the language's rules, the plain key without plural forms, and the key or defaultValue when missing", () => {
    const messages = {
      cards: {
        left_one: "{count} card",
        left_few: "{count} karty",
        left_many: "{count} kart",
        left_other: "{count} kart.",
      },
      plain: "{count} credits",
    };
    // Keys made up for this test: the locales test reads every t("...") of the code against locales/.
    const inPolish = createI18n("pl", messages).t;
    const inEnglish = createI18n("en", messages).t;
    expect([1, 3, 5, 22, 1.5].map((count) => inPolish("cards.left", { count }))).toEqual([
      "1 card",
      "3 karty",
      "5 kart",
      "22 karty",
      "1,5 kart.",
    ]);
    expect(inEnglish("cards.left", { count: 1 })).toBe("1 card");
    expect(inPolish("plain", { count: 2 })).toBe("2 credits");
    expect(inPolish("no.such.key")).toBe("no.such.key");
    expect(inPolish("countries.XX", { defaultValue: "XX" })).toBe("XX");
  });
});
