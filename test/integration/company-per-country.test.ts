/**
 * A site of any country names its company as that country's law and register do (issue 40,
 * decision 0057): the legal pages, the receipts and the mails draw the same lines; times are in the
 * site's own zone and numbers in the locale's Intl format; an Austrian site reads de-AT.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { i18nFor } from "../../src/server/translations";
import { companyLines, companyValues } from "../../src/shared/company";
import { memberDate } from "../../src/shared/dates";
import type { LegalPage } from "../../src/shared/legal";
import { languagesForCountry, type Language } from "../../src/shared/locales";
import { formatMoney } from "../../src/shared/payments";
import type { OrderCreated } from "../../src/shared/payments-api";
import { CompanyInfo, SiteSettings, companyKey } from "../../src/shared/settings";
import type { PublicSettings } from "../../src/shared/settings";
import * as v from "valibot";
import { COMPANY, birthDateForAge, putSites, site } from "../fixtures";
import { Browser, json } from "../http";

const FRENCH: CompanyInfo = v.parse(CompanyInfo, {
  name: "Onde Rencontres SAS",
  address: "12 rue du Sentier",
  postal_code: "75002",
  city: "Paris",
  country: "FR",
  registration_number: "912 345 678 R.C.S. Paris",
  tradenames: ["Onde"],
  vat_numbers: ["FR12912345678"],
  support_phone: "+33 1 84 88 00 00",
  share_capital: { amount: 1_000_000, currency: "EUR" },
  publication_director: "Camille Martin",
  host: {
    name: "Cloudflare, Inc.",
    address: "101 Townsend St, San Francisco, CA 94107, USA",
    phone: "+1 650 319 8930",
  },
  delete_discount: 30,
  added: "2025-06-01T12:00:00.000Z",
});

const FINNISH: CompanyInfo = v.parse(CompanyInfo, {
  name: "Aalto Treffit Oy",
  address: "Mannerheimintie 12",
  postal_code: "00100",
  city: "Helsinki",
  country: "FI",
  registration_number: "3123456-7",
  tradenames: ["Aalto"],
  vat_numbers: ["FI31234567"],
  support_phone: "+358 9 4242 0000",
  delete_discount: 30,
  added: "2025-06-01T12:00:00.000Z",
});

const AUSTRIAN: CompanyInfo = v.parse(CompanyInfo, {
  name: "Welle Partnersuche GmbH",
  address: "Mariahilfer Straße 77",
  postal_code: "1060",
  city: "Wien",
  country: "AT",
  registration_number: "FN 512345 x",
  tradenames: ["Welle"],
  vat_numbers: ["ATU76543210"],
  support_phone: "+43 1 234 5678",
  managing_directors: ["Lena Huber"],
  delete_discount: 30,
  added: "2025-06-01T12:00:00.000Z",
});

const bundles = [
  { id: 1, credits: 50, amount: 995 },
  { id: 2, credits: 125, amount: 1995, popular: true },
];
const pricing = (country: string, vat_rate: number) => ({
  [country]: { currency: "EUR" as const, vat_rate, methods: ["creditcard" as const], bundles },
});
/** A site of one country, its time zone left to the country's, its texts in the site's language. */
const countrySite = (domain: string, country: string, language: Language, companyId: string, vat: number) =>
  site(domain, {
    domain_language: language,
    countries: [country],
    company_id: companyId,
    time_zone: undefined,
    minimum_message_costs: { [country]: { costs: 1.5, currency: "EUR" } },
    pricing: pricing(country, vat),
  });

type Case = { origin: string; language: Language; country: string; company: CompanyInfo; vat: number };
const CASES: Case[] = [
  { origin: "http://co-nl.test", language: "nl", country: "NL", company: COMPANY, vat: 21 },
  { origin: "http://co-fr.test", language: "fr", country: "FR", company: FRENCH, vat: 20 },
  { origin: "http://co-fi.test", language: "fi", country: "FI", company: FINNISH, vat: 25.5 },
  { origin: "http://co-at.test", language: "de", country: "AT", company: AUSTRIAN, vat: 20 },
];

beforeAll(async () => {
  await putSites(
    site("co-nl.test", { pricing: { ...pricing("NL", 21), ...pricing("BE", 21) } }),
    countrySite("co-fr.test", "FR", "fr", "co-fr", 20),
    countrySite("co-fi.test", "FI", "fi", "co-fi", 25.5),
    countrySite("co-at.test", "AT", "de", "co-at", 20),
    countrySite("co-de.test", "DE", "de", "testco", 19),
  );
  await env.SETTINGS.put(companyKey("co-fr"), JSON.stringify(FRENCH));
  await env.SETTINGS.put(companyKey("co-fi"), JSON.stringify(FINNISH));
  await env.SETTINGS.put(companyKey("co-at"), JSON.stringify(AUSTRIAN));
});

const visitor = (origin: string, language: Language) => {
  const browser = new Browser(origin);
  browser.cookies.set("locale", language);
  return browser;
};
const unescape = (html: string) =>
  html.replaceAll("&#x27;", "'").replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'");
const textOf = async (res: Response) => unescape(await res.text());

/** The lines the site's company is written with, in the site's language. */
const linesOf = (c: Case) => {
  const t = i18nFor(c.language, c.country).t;
  return { t, lines: companyLines(c.company, t, c.country === "AT" ? "de-AT" : c.language) };
};

let counter = 0;
/** A member who signed up on the site in its language (their mails come in it), with the page in it. */
async function signup(c: Case) {
  counter++;
  const browser = visitor(c.origin, c.language);
  const tag = `co${counter}${Math.random().toString(36).slice(2, 7)}`;
  const res = await browser.post("/api/signup.php", {
    email: `${tag}@example.com`,
    username: tag,
    password: "a good password",
    date_of_birth: birthDateForAge(30),
    gender: "male",
    terms: true,
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  const user = (await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(`${tag}@example.com`).first<{
    id: number;
  }>())!;
  return { browser, email: `${tag}@example.com`, userId: user.id };
}

async function paidOrder(c: Case, browser: Browser, userId: number): Promise<number> {
  const res = await browser.fetch("/api/order.php", {
    method: "POST",
    headers: { "cf-connecting-ip": `10.40.${userId >> 8}.${userId & 255}` },
    json: { bundle_id: 1, method: "creditcard" },
  });
  expect(res.status, `${c.origin} ${await res.clone().text()}`).toBe(201);
  const { order } = await json<OrderCreated>(res);
  const paid = await browser.fetch(new URL(order.checkout_url!).pathname, {
    method: "POST",
    body: new URLSearchParams({ status: "paid" }),
  });
  expect(paid.status).toBeLessThan(400);
  return order.id;
}

describe("the company on each site's legal pages", () => {
  for (const c of CASES) {
    it(`${c.country} (${c.language}): the terms, privacy and every page's company block use its register, postal code and notice`, async () => {
      const { t, lines } = linesOf(c);
      const values = companyValues(c.company, t);
      const browser = visitor(c.origin, c.language);
      const terms = await json<LegalPage>(await browser.fetch("/api/legal.php?page=terms"));
      const privacy = await json<LegalPage>(await browser.fetch("/api/legal.php?page=privacy"));
      expect(terms.company.lines.slice(0, -1)).toEqual(lines);
      expect(terms.sections[0]!.paragraphs[0]).toContain(values.registration);
      expect(terms.sections[0]!.paragraphs[0]).toContain(values.full_address);
      expect(JSON.stringify(privacy.sections)).toContain(`(${values.registration})`);
      const html = await textOf(await browser.fetch("/pages/terms"));
      for (const line of [c.company.name, ...lines]) expect(html, line).toContain(line);
      expect(html).toContain(c.company.postal_code);
      if (c.country !== "NL") expect(html).not.toContain("KvK");
      expect(html).not.toMatch(/Chamber of Commerce|Chambre de commerce|kaupparekisteri|Handelskammer/);
    });
  }

  it("names each register as its country does, whatever the reader's language", () => {
    const registration = (c: Case, language: Language) =>
      i18nFor(language).t("company.registration", companyValues(c.company, i18nFor(language).t));
    expect(registration(CASES[0]!, "nl")).toBe("Inschrijving (KvK): 12345678");
    expect(registration(CASES[1]!, "fr")).toBe("Immatriculation (SIREN/RCS)\u00a0: 912 345 678 R.C.S. Paris");
    expect(registration(CASES[2]!, "fi")).toBe("Rekisteröinti (Y-tunnus): 3123456-7");
    expect(registration(CASES[2]!, "en")).toBe("Registration (Y-tunnus): 3123456-7");
    expect(registration(CASES[3]!, "de")).toBe("Registernummer (Firmenbuch): FN 512345 x");
  });

  it("each site has its legal notice page, linked from every page's footer, in its language's name", async () => {
    for (const [c, title] of [
      [CASES[0]!, "Colofon"],
      [CASES[1]!, "Mentions légales"],
      [CASES[2]!, "Palveluntarjoaja"],
      [CASES[3]!, "Impressum"],
    ] as const) {
      const browser = visitor(c.origin, c.language);
      const notice = await json<LegalPage>(await browser.fetch("/api/legal.php?page=imprint"));
      expect(notice.title).toBe(title);
      expect(notice.sections[0]!.paragraphs[0]).toContain(companyValues(c.company, i18nFor(c.language).t).registration);
      expect(notice.company.lines.slice(0, -1)).toEqual(linesOf(c).lines);
      const home = await textOf(await browser.fetch("/"));
      expect(home).toContain(`<a href="/pages/imprint">${title}</a>`);
    }
  });

  it("a French legal notice names the share capital, the publication director and the host", async () => {
    const html = await textOf(await visitor("http://co-fr.test", "fr").fetch("/pages/imprint"));
    expect(html).toContain("Capital social\u00a0: 10\u202f000,00\u00a0€");
    expect(html).toContain("Directeur de la publication\u00a0: Camille Martin");
    expect(html).toContain(
      "Hébergeur\u00a0: Cloudflare, Inc., 101 Townsend St, San Francisco, CA 94107, USA, +1 650 319 8930",
    );
  });

  it("a company stored before the number had its name (as kvk) still reads, as its registration number", () => {
    const { registration_number: number, ...rest } = COMPANY;
    expect(v.parse(CompanyInfo, { ...rest, kvk: number }).registration_number).toBe(number);
  });
});

describe("the company on each site's receipts and mails", () => {
  for (const c of CASES) {
    it(`${c.country} (${c.language}): the receipt and the activation mail carry the same company lines`, async () => {
      const { lines } = linesOf(c);
      const member = await signup(c);
      const id = await paidOrder(c, member.browser, member.userId);
      const receipt = await textOf(await member.browser.fetch(`/transactions/${id}`));
      for (const line of [c.company.name, ...lines]) expect(receipt, line).toContain(line);
      if (c.country !== "NL") expect(receipt).not.toContain("KvK");
      const mail = (await env.DB.prepare(
        "SELECT text, html FROM outgoing_mail WHERE to_address = ? AND kind = 'activation'",
      )
        .bind(member.email)
        .first<{ text: string; html: string }>())!;
      for (const line of [c.company.name, lines[0]!, lines[1]!]) {
        expect(mail.text, line).toContain(line);
        expect(unescape(mail.html.replaceAll("&#44;", ","))).toContain(line);
      }
    });
  }
});

describe("times in the site's own zone", () => {
  it("a site without a time_zone gets its country's; one with keeps its own", async () => {
    const zone = async (origin: string) =>
      (await json<PublicSettings>(await new Browser(origin).fetch("/api/settings.php"))).time_zone;
    expect(await zone("http://co-fi.test")).toBe("Europe/Helsinki");
    expect(await zone("http://co-fr.test")).toBe("Europe/Paris");
    expect(await zone("http://co-nl.test")).toBe("Europe/Amsterdam");
    const american = { ...site("x.test"), countries: ["US"], pricing: pricing("US", 0), time_zone: undefined };
    expect(() => v.parse(SiteSettings, american)).toThrow(/time_zone is needed/);
    expect(v.parse(SiteSettings, { ...american, time_zone: "America/Chicago" }).time_zone).toBe("America/Chicago");
  });

  for (const c of CASES.filter((one) => one.country !== "NL")) {
    it(`${c.country}: a receipt shows its order's time in ${c.country}'s zone`, async () => {
      const member = await signup(c);
      const id = await paidOrder(c, member.browser, member.userId);
      // 23:30 UTC on 31 December: 1 January in Helsinki (01:30), 00:30 in Paris and Vienna, still 31 December in London.
      const at = Date.UTC(2026, 11, 31, 23, 30) / 1000;
      await env.DB.prepare("UPDATE orders SET created_at = ? WHERE id = ?").bind(at, id).run();
      const locale = c.country === "AT" ? "de-AT" : c.language;
      const zone = { FR: "Europe/Paris", FI: "Europe/Helsinki", AT: "Europe/Vienna" }[c.country]!;
      const receipt = await textOf(await member.browser.fetch(`/transactions/${id}`));
      expect(receipt).toContain(memberDate(at, locale, zone, "dateTime"));
      expect(receipt).not.toContain(memberDate(at, locale, "UTC", "dateTime"));
      if (c.country === "FI") expect(receipt).not.toContain(memberDate(at, locale, "Europe/Amsterdam", "dateTime"));
    });
  }
});

describe("numbers in the locale's Intl format on every site", () => {
  for (const c of CASES) {
    it(`${c.country}: the VAT rate on /pricing in each of its languages`, async () => {
      for (const language of languagesForCountry(c.country)) {
        const html = await textOf(await visitor(c.origin, language).fetch("/pricing"));
        const t = i18nFor(language, c.country).t;
        const rate = new Intl.NumberFormat(c.country === "AT" && language === "de" ? "de-AT" : language).format(c.vat);
        expect(html, `${c.country} ${language}`).toContain(t("payments.prices_include_vat", { rate: c.vat }));
        expect(t("payments.prices_include_vat", { rate: c.vat }), language).toContain(rate);
      }
    });
  }

  it("Finnish writes 25,5 %, English 25.5%, and a count of a thousand is grouped as the language groups it", () => {
    expect(i18nFor("fi").t("payments.vat", { rate: 25.5 })).toBe("Josta arvonlisävero (25,5 %)");
    expect(i18nFor("en").t("payments.vat", { rate: 25.5 })).toBe("Of which VAT (25.5%)");
    const thousand = (language: Language) => new Intl.NumberFormat(language).format(1000);
    expect(thousand("fr")).not.toBe("1000");
    for (const language of ["fr", "de", "en"] as const)
      expect(i18nFor(language).t("payments.credits_count", { count: 1000 })).toMatch(
        new RegExp(`^${thousand(language)}\\s`),
      );
    // A number that names a thing is written as it is.
    expect(i18nFor("de").t("payments.receipt_title", { id: 12345 })).toContain("12345");
  });
});

describe("Austria's German (de-AT)", () => {
  it("an Austrian site reads de-AT: Jänner, the UID number, Austrian dates; a German site reads German German", async () => {
    const austrian = await textOf(await visitor("http://co-at.test", "de").fetch("/signup"));
    expect(austrian).toContain('<html lang="de-AT"');
    expect(austrian).toContain("Jänner");
    const german = await textOf(await visitor("http://co-de.test", "de").fetch("/signup"));
    expect(german).toContain('<html lang="de"');
    expect(german).not.toContain("Jänner");
    expect(german).toContain("Januar");
    const terms = await json<LegalPage>(await visitor("http://co-at.test", "de").fetch("/api/legal.php?page=terms"));
    expect(terms.company.lines).toContain("UID-Nummer: ATU76543210");
    expect(terms.company.lines).toContain("Geschäftsführung: Lena Huber");
    expect(terms.sections[0]!.paragraphs[0]).toContain("(UID-Nr. ATU76543210)");
    expect(memberDate(Date.UTC(2027, 0, 15) / 1000, "de-AT", "Europe/Vienna")).toBe("15. Jänner 2027");
    // Prices as Austria writes them ("€ 9,95"), where Germany writes "9,95 €".
    const prices = await textOf(await visitor("http://co-at.test", "de").fetch("/pricing"));
    expect(formatMoney(995, "EUR", "de-AT")).not.toBe(formatMoney(995, "EUR", "de"));
    expect(prices).toContain(formatMoney(995, "EUR", "de-AT"));
  });
});
