import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SITES } from "../../scripts/demo/sites";
import { codeOffences, localeOffences, type Tree } from "../../scripts/plural-rules";
import { clearSiteCache } from "../../src/server/edge/site";
import { composeMail } from "../../src/server/mail/templates";
import { legalPage } from "../../src/server/services/legal-pages";
import { i18nFor, MESSAGES } from "../../src/server/translations";
import { LANGUAGES, VARIANTS, type Language } from "../../src/shared/locales";
import { companyKey, siteKey } from "../../src/shared/settings";
import { COMPANY } from "../fixtures";
import { fetchWorker } from "../http";

const COUNTS = [1, 2, 5, 22] as const;
const nb = "\u00a0";

/**
 * What a native speaker expects for 1, 2, 5 and 22: the credits, and the unread messages as the
 * reminder mail's text says them. Polish has three forms among these counts, French writes a
 * no-break space between number and noun.
 */
const EXPECTED: Record<Language, { credits: (n: number) => string; unread: (n: number) => string }> = {
  da: {
    credits: (n) => `${n} ${n === 1 ? "kredit" : "kreditter"}`,
    unread: (n) => `${n} ${n === 1 ? "ulæst besked" : "ulæste beskeder"}`,
  },
  de: {
    credits: (n) => `${n} ${n === 1 ? "Credit" : "Credits"}`,
    unread: (n) => `${n} ${n === 1 ? "ungelesene Nachricht" : "ungelesene Nachrichten"}`,
  },
  en: {
    credits: (n) => `${n} ${n === 1 ? "credit" : "credits"}`,
    unread: (n) => `${n} ${n === 1 ? "unread message" : "unread messages"}`,
  },
  es: {
    credits: (n) => `${n} ${n === 1 ? "crédito" : "créditos"}`,
    unread: (n) => `${n} ${n === 1 ? "mensaje sin leer" : "mensajes sin leer"}`,
  },
  fi: {
    credits: (n) => `${n} ${n === 1 ? "krediitti" : "krediittiä"}`,
    unread: (n) => `${n} ${n === 1 ? "lukematon viesti" : "lukematonta viestiä"}`,
  },
  fr: {
    credits: (n) => `${n}${nb}${n === 1 ? "crédit" : "crédits"}`,
    unread: (n) => `${n}${nb}${n === 1 ? "message non lu" : "messages non lus"}`,
  },
  it: {
    credits: (n) => `${n} ${n === 1 ? "credito" : "crediti"}`,
    unread: (n) => `${n} ${n === 1 ? "messaggio non letto" : "messaggi non letti"}`,
  },
  nb: {
    credits: (n) => `${n} ${n === 1 ? "kreditt" : "kreditter"}`,
    unread: (n) => `${n} ${n === 1 ? "ulest melding" : "uleste meldinger"}`,
  },
  nl: {
    credits: (n) => `${n} ${n === 1 ? "credit" : "credits"}`,
    unread: (n) => `${n} ${n === 1 ? "ongelezen bericht" : "ongelezen berichten"}`,
  },
  pl: {
    credits: (n) => `${n} ${{ 1: "kredyt", 2: "kredyty", 5: "kredytów", 22: "kredyty" }[n]}`,
    // "Masz ...": the accusative.
    unread: (n) =>
      `${n} ${{ 1: "nieprzeczytaną wiadomość", 2: "nieprzeczytane wiadomości", 5: "nieprzeczytanych wiadomości", 22: "nieprzeczytane wiadomości" }[n]}`,
  },
  sv: {
    credits: (n) => `${n} ${n === 1 ? "kredit" : "krediter"}`,
    unread: (n) => `${n} ${n === 1 ? "oläst meddelande" : "olästa meddelanden"}`,
  },
};

/** The subject says the same; in Polish the messages are the subject of the sentence there (nominative). */
const POLISH_SUBJECT: Record<number, string> = {
  1: "1 nieprzeczytana wiadomość",
  2: "2 nieprzeczytane wiadomości",
  5: "5 nieprzeczytanych wiadomości",
  22: "22 nieprzeczytane wiadomości",
};

describe("plural forms", () => {
  for (const language of LANGUAGES) {
    it(`${language}: 1, 2, 5 and 22 credits and unread messages in the right form`, () => {
      const { t } = i18nFor(language);
      for (const n of COUNTS) {
        expect(t("payments.credits_count", { count: n }), `${language} ${n}`).toBe(EXPECTED[language].credits(n));
        const mail = composeMail(
          t,
          "unread_reminder",
          { address: "anna@example.com", name: "Anna" },
          { name: "Flirtwave", company: COMPANY },
          "https://example.com/chats",
          { count: n },
          { unsubscribe: "https://example.com/u", settings: "https://example.com/s" },
        );
        expect(mail.text, `${language} ${n}`).toContain(EXPECTED[language].unread(n));
        expect(mail.html, `${language} ${n}`).toContain(EXPECTED[language].unread(n));
        expect(mail.subject, `${language} ${n}`).toContain(
          language === "pl" ? POLISH_SUBJECT[n] : EXPECTED[language].unread(n),
        );
      }
    });
  }

  it("tell each number of a legal text with its own noun (several numbers in one sentence)", () => {
    const site = SITES.find((s) => s.domain === "pl.localhost")!;
    const page = (language: Language, credits: number, days: number) =>
      JSON.stringify(
        legalPage(
          "terms",
          i18nFor(language).t,
          language,
          { ...site, message_credits: credits, photo_credits: credits, gift_credits: credits, refund_days: days },
          COMPANY,
          30,
        ),
      );
    expect(page("pl", 1, 1)).toContain("Wiadomość kosztuje 1 kredyt, zdjęcie 1 kredyt, a prezent co najmniej 1 kredyt");
    expect(page("pl", 2, 2)).toContain(
      "Wiadomość kosztuje 2 kredyty, zdjęcie 2 kredyty, a prezent co najmniej 2 kredyty",
    );
    expect(page("pl", 5, 5)).toContain("Wiadomość kosztuje 5 kredytów");
    expect(page("pl", 22, 22)).toContain("Wiadomość kosztuje 22 kredyty");
    expect(page("pl", 5, 1)).toContain("masz 1 dzień od zakupu");
    expect(page("pl", 5, 14)).toContain("masz 14 dni od zakupu");
    expect(page("en", 1, 1)).toContain("A message costs 1 credit, a photo 1 credit and a gift from 1 credit");
    expect(page("en", 5, 14)).toContain("returned within 14 days of the purchase");
    expect(page("de", 1, 1)).toContain("hast du ab dem Kauf 1 Tag Zeit");
    // No placeholder is left unfilled in any language.
    for (const language of LANGUAGES) expect(page(language, 5, 14), language).not.toMatch(/\{\w+\}/);
  });
});

describe("the plural check", () => {
  const english: Tree = {
    payments: {
      balance_one: "{count} credit",
      balance_other: "{count} credits",
      per_credit: "{price} per credit",
      days: "{days} days",
    },
  };

  it("finds a family without a form its language's CLDR rules need, and a number without plural forms", () => {
    const polish: Tree = {
      payments: {
        balance_one: "{count} kredyt",
        balance_many: "{count} kredytów",
        balance_other: "{count} kredytu",
        per_credit: "{price} za kredyt",
      },
    };
    const offences = localeOffences({ en: english, pl: polish });
    expect(offences.filter((o) => o.startsWith("pl: payments.balance lacks"))).toEqual([
      expect.stringMatching(/^pl: payments.balance lacks _few \(CLDR pl: /),
    ]);
    expect(offences.some((o) => o.startsWith("en: payments.days has the number {days} without plural forms"))).toBe(
      true,
    );
    expect(offences.filter((o) => o.includes("per_credit"))).toEqual([]);
  });

  it("finds calls that pass a number without count, or leave count out of a plural family", () => {
    const offences = codeOffences(english, {
      "a.tsx": 't("payments.balance", { credits: user.credits })',
      "b.ts":
        'throw new AppError({ status: 400, code: "x", key: "payments.per_credit", values: { price: money(a, b), days: 3 } });',
      "c.tsx": 't("payments.balance", { count: user.credits }); t("payments.per_credit", { price: money(1, "EUR") })',
    });
    expect(offences).toEqual([
      "a.tsx:1: payments.balance has plural forms but is called without count",
      "b.ts:1: payments.per_credit is called with the number days but has no plural forms: pass it as count",
    ]);
  });

  it("finds nothing in the project's own locale files and code", () => {
    const sources = import.meta.glob(["../../src/**/*.{ts,tsx}", "!../../src/**/*.test.{ts,tsx}"], {
      query: "?raw",
      import: "default",
      eager: true,
    }) as Record<string, string>;
    const variants = import.meta.glob("../../locales/*-*.json", { import: "default", eager: true }) as Record<
      string,
      Tree
    >;
    expect(Object.keys(variants)).toHaveLength(VARIANTS.length);
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    expect(
      localeOffences(
        MESSAGES as Record<string, Tree>,
        Object.fromEntries(
          Object.entries(variants).map(([file, tree]) => [/([a-z]{2}-[A-Z]{2})\.json$/.exec(file)![1]!, tree]),
        ),
      ),
    ).toEqual([]);
    expect(codeOffences(MESSAGES.en as Tree, sources)).toEqual([]);
  });
});

const COMPANY_ID = "testco";
const origin = (domain: string) => `http://${domain}`;
/** What a visitor reads: the page without its scripts (the bootstrap data carries the fallback language too). */
const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");

describe("regional variants", () => {
  beforeAll(async () => {
    clearSiteCache();
    await env.SETTINGS.put(companyKey(COMPANY_ID), JSON.stringify(COMPANY));
    for (const s of SITES) await env.SETTINGS.put(siteKey(s.domain), JSON.stringify({ ...s, company_id: COMPANY_ID }));
  });

  it("the Swiss site's German has no ß, where the German site's has", { timeout: 30_000 }, async () => {
    for (const path of [
      "/pages/terms",
      "/pages/ban",
      "/pages/faq",
      "/pages/cookies",
      "/signup",
      "/members",
      "/credits",
    ]) {
      const swiss = await fetchWorker(origin("ch.localhost") + path, { headers: { cookie: "locale=de" } });
      expect(swiss.status, path).toBe(200);
      const html = await swiss.text();
      expect(visible(html), `ch.localhost${path}`).not.toContain("ß");
      expect(html, path).toContain('<html lang="de-CH"');
    }
    const german = await (
      await fetchWorker(`${origin("de.localhost")}/pages/terms`, { headers: { cookie: "locale=de" } })
    ).text();
    expect(visible(german)).toContain("ß");
    // The texts the pages load later: the legal text and the interests' names.
    const legal = await (
      await fetchWorker(`${origin("ch.localhost")}/api/legal.php?page=ban`, { headers: { cookie: "locale=de" } })
    ).text();
    expect(legal).toContain("verstossen");
    expect(legal).not.toContain("ß");
    const interests = await (
      await fetchWorker(`${origin("ch.localhost")}/api/interests.php`, { headers: { cookie: "locale=de" } })
    ).text();
    expect(interests).toContain("Fussball");
    expect(interests).toContain("Velofahren");
    expect(interests).not.toContain("ß");
    expect(
      await (
        await fetchWorker(`${origin("de.localhost")}/api/interests.php`, { headers: { cookie: "locale=de" } })
      ).text(),
    ).toContain("Fußball");
  });

  it("the Belgian Dutch payment screen says domiciliëring, the Dutch one automatische incasso, Belgian French domiciliation", async () => {
    const belgian = visible(
      await (
        await fetchWorker(`${origin("be.localhost")}/directdebit?bundle=1`, { headers: { cookie: "locale=nl" } })
      ).text(),
    );
    expect(belgian).toContain("Domiciliëring");
    expect(belgian).not.toContain("Automatische incasso");
    const dutch = visible(
      await (
        await fetchWorker(`${origin("nl.localhost")}/directdebit?bundle=1`, { headers: { cookie: "locale=nl" } })
      ).text(),
    );
    expect(dutch).toContain("Automatische incasso");
    expect(dutch).not.toContain("Domiciliëring");
    const french = visible(
      await (
        await fetchWorker(`${origin("be.localhost")}/directdebit?bundle=1`, { headers: { cookie: "locale=fr" } })
      ).text(),
    );
    expect(french).toContain("Domiciliation");
    // German on the Belgian site has no variant: the German file as it is.
    const german = visible(
      await (
        await fetchWorker(`${origin("be.localhost")}/directdebit?bundle=1`, { headers: { cookie: "locale=de" } })
      ).text(),
    );
    expect(german).toContain("Lastschrift");
  });

  it("send the browser only the variant's own texts beside its language's", async () => {
    const html = await (
      await fetchWorker(`${origin("be.localhost")}/directdebit?bundle=1`, { headers: { cookie: "locale=nl" } })
    ).text();
    const page = JSON.parse(/window\.__PAGE__=(.*?)<\/script>/s.exec(html)![1]!) as { locale: string; texts: string };
    expect(page.locale).toBe("nl");
    expect(page.texts).toMatch(/^\/texts\/nl-BE\.[0-9a-f]{12}\.json$/);
    const state = (await (await fetchWorker(`${origin("be.localhost")}${page.texts}`)).json()) as {
      variant: { tag: string; messages: Tree } | null;
      messages: Tree;
    };
    expect(state.variant!.tag).toBe("nl-BE");
    expect((state.variant!.messages.routes as Tree).directdebit).toBe("Domiciliëring");
    expect((state.messages.routes as Tree).directdebit).toBe("Automatische incasso");
    expect(JSON.stringify(state.variant!.messages).length).toBeLessThan(2000);
    expect(state.variant!.messages).not.toHaveProperty("legal_text");
  });
});
