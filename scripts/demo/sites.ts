/** Demo country sites and the companies behind them, as stored in the SETTINGS KV namespace. */
import type { Language } from "../../src/shared/locales";
import * as v from "valibot";
import {
  PROFILE_FIELDS,
  SEARCH_FIELDS,
  SiteSettings,
  type CompanyInfo,
  type LoggedOutSearchMode,
} from "../../src/shared/settings";
import type { CountryPricing, PaymentMethod } from "../../src/shared/payments";
import type { DemoCountry } from "./regions";
import { DEVELOPMENT_VAPID } from "./vapid-keys";
import esFile from "../sites/es.localhost.json";
import fiFile from "../sites/fi.localhost.json";
import frFile from "../sites/fr.localhost.json";
import itFile from "../sites/it.localhost.json";

export const BRAND = "Flirtwave";

type Localised = Record<Language, string>;

const FICTIONAL_SINGULAR: Localised = {
  da: "Fiktiv profil",
  de: "Fiktives Profil",
  en: "Fictional profile",
  es: "Perfil ficticio",
  fi: "Fiktiivinen profiili",
  fr: "Profil fictif",
  it: "Profilo fittizio",
  nb: "Fiktiv profil",
  nl: "Fictief profiel",
  pl: "Profil fikcyjny",
  sv: "Fiktiv profil",
};

const FICTIONAL_PLURAL: Localised = {
  da: "Fiktive profiler",
  de: "Fiktive Profile",
  en: "Fictional profiles",
  es: "Perfiles ficticios",
  fi: "Fiktiiviset profiilit",
  fr: "Profils fictifs",
  it: "Profili fittizi",
  nb: "Fiktive profiler",
  nl: "Fictieve profielen",
  pl: "Profile fikcyjne",
  sv: "Fiktiva profiler",
};

const FICTIONAL_WARNING: Localised = {
  da: "Profiler markeret med dette ikon er fiktive. De drives af vores team til underholdning, og det er ikke muligt at mødes med dem i virkeligheden.",
  de: "Mit diesem Symbol gekennzeichnete Profile sind fiktiv. Sie werden von unserem Team zur Unterhaltung betrieben; ein persönliches Treffen ist nicht möglich.",
  en: "Profiles marked with this icon are fictional. They are run by our team for entertainment, and meeting them in person is not possible.",
  es: "Los perfiles marcados con este icono son ficticios. Nuestro equipo los gestiona con fines de entretenimiento y no es posible quedar con ellos en persona.",
  fi: "Tällä kuvakkeella merkityt profiilit ovat fiktiivisiä. Tiimimme ylläpitää niitä viihdetarkoituksessa, eikä niiden tapaaminen henkilökohtaisesti ole mahdollista.",
  fr: "Les profils marqués de cette icône sont fictifs. Ils sont gérés par notre équipe à des fins de divertissement et il n'est pas possible de les rencontrer en personne.",
  it: "I profili contrassegnati da questa icona sono fittizi. Sono gestiti dal nostro team a scopo di intrattenimento e non è possibile incontrarli di persona.",
  nb: "Profiler merket med dette ikonet er fiktive. De drives av teamet vårt for underholdning, og det er ikke mulig å møte dem i virkeligheten.",
  nl: "Profielen met dit icoon zijn fictief. Ze worden door ons team beheerd voor entertainment; een ontmoeting in het echt is niet mogelijk.",
  pl: "Profile oznaczone tą ikoną są fikcyjne. Prowadzi je nasz zespół w celach rozrywkowych i nie można spotkać się z nimi osobiście.",
  sv: "Profiler märkta med den här ikonen är fiktiva. De drivs av vårt team i underhållningssyfte och det går inte att träffa dem på riktigt.",
};

const DESCRIPTION: Localised = {
  da: "{name}: mød nye mennesker i nærheden, chat og flirt. Tilmeld dig gratis på et minut.",
  de: "{name}: Lerne neue Leute in deiner Nähe kennen, chatte und flirte. Kostenlos in einer Minute anmelden.",
  en: "{name}: meet new people near you, chat and flirt. Sign up for free in a minute.",
  es: "{name}: conoce gente nueva cerca de ti, chatea y liga. Regístrate gratis en un minuto.",
  fi: "{name}: tutustu uusiin ihmisiin lähelläsi, chattaile ja flirttaile. Rekisteröidy ilmaiseksi minuutissa.",
  fr: "{name} : rencontrez de nouvelles personnes près de chez vous, discutez et flirtez. Inscription gratuite en une minute.",
  it: "{name}: conosci nuove persone vicino a te, chatta e flirta. Iscriviti gratis in un minuto.",
  nb: "{name}: møt nye mennesker i nærheten, chat og flørt. Registrer deg gratis på et minutt.",
  nl: "{name}: ontmoet nieuwe mensen bij jou in de buurt, chat en flirt. Meld je in een minuut gratis aan.",
  pl: "{name}: poznawaj nowych ludzi w okolicy, czatuj i flirtuj. Zarejestruj się za darmo w minutę.",
  sv: "{name}: träffa nya människor nära dig, chatta och flörta. Registrera dig gratis på en minut.",
};

const INDEX_TITLE: Localised = {
  da: "{name} – flirt, chat og date",
  de: "{name} – flirten, chatten, daten",
  en: "{name} – flirt, chat and date",
  es: "{name} – liga, chatea y queda",
  fi: "{name} – flirttaile, chattaile ja deittaile",
  fr: "{name} – flirtez, discutez, rencontrez",
  it: "{name} – flirta, chatta e incontra",
  nb: "{name} – flørt, chat og date",
  nl: "{name} – flirten, chatten en daten",
  pl: "{name} – flirtuj, czatuj i umawiaj się",
  sv: "{name} – flörta, chatta och dejta",
};

function withName(texts: Localised, name: string): Localised {
  return Object.fromEntries(
    Object.entries(texts).map(([lang, t]) => [lang, t.replaceAll("{name}", name)]),
  ) as Localised;
}

const MESSAGE_COSTS: Readonly<Record<DemoCountry, { costs: number; currency: string }>> = {
  NL: { costs: 0.49, currency: "EUR" },
  BE: { costs: 0.49, currency: "EUR" },
  DE: { costs: 0.49, currency: "EUR" },
  AT: { costs: 0.49, currency: "EUR" },
  IE: { costs: 0.49, currency: "EUR" },
  CH: { costs: 0.55, currency: "CHF" },
  GB: { costs: 0.45, currency: "GBP" },
  DK: { costs: 3.75, currency: "DKK" },
  NO: { costs: 5.5, currency: "NOK" },
  SE: { costs: 5.5, currency: "SEK" },
  PL: { costs: 2.2, currency: "PLN" },
  FI: { costs: 0.49, currency: "EUR" },
  FR: { costs: 0.49, currency: "EUR" },
  ES: { costs: 0.49, currency: "EUR" },
  IT: { costs: 0.49, currency: "EUR" },
};

type DemoCurrency = "EUR" | "CHF" | "GBP" | "DKK" | "NOK" | "SEK" | "PLN";

/**
 * Bundle prices (including VAT, minor units) per currency: 50, 125 (most popular), 300 and 750
 * credits; the kroner and zloty prices are rounded local price points, not conversions.
 */
const BUNDLE_PRICES: Readonly<Record<DemoCurrency, readonly [number, number, number, number]>> = {
  EUR: [995, 1995, 3995, 7995],
  CHF: [1095, 2195, 4395, 8795],
  GBP: [895, 1795, 3495, 6995],
  DKK: [7500, 14900, 29900, 59900],
  NOK: [11900, 22900, 45900, 89900],
  SEK: [11900, 22900, 45900, 89900],
  PLN: [4500, 8900, 17900, 34900],
};

/** Each country's currency, VAT and its own ways to pay next to cards and PayPal (SPEC §1). */
const COUNTRY_PAYMENTS: Readonly<
  Record<DemoCountry, { currency: DemoCurrency; vat: number; methods: PaymentMethod[] }>
> = {
  NL: { currency: "EUR", vat: 21, methods: ["ideal", "creditcard", "paypal", "banktransfer"] },
  BE: { currency: "EUR", vat: 21, methods: ["bancontact", "kbc", "belfius", "creditcard", "paypal"] },
  DE: { currency: "EUR", vat: 19, methods: ["klarna", "creditcard", "paypal", "banktransfer", "trustly"] },
  AT: { currency: "EUR", vat: 20, methods: ["eps", "klarna", "creditcard", "paypal"] },
  IE: { currency: "EUR", vat: 23, methods: ["creditcard", "paypal"] },
  CH: { currency: "CHF", vat: 8.1, methods: ["twint", "creditcard", "paypal"] },
  GB: { currency: "GBP", vat: 20, methods: ["creditcard", "paypal"] },
  DK: { currency: "DKK", vat: 25, methods: ["mobilepay", "creditcard", "paypal", "trustly", "klarna"] },
  NO: { currency: "NOK", vat: 25, methods: ["vipps", "creditcard", "paypal", "trustly", "klarna"] },
  SE: { currency: "SEK", vat: 25, methods: ["swish", "creditcard", "paypal", "trustly", "klarna"] },
  PL: { currency: "PLN", vat: 23, methods: ["blik", "przelewy24", "creditcard", "paypal"] },
  // Trustly pays in Finland, not in France, Spain or Italy (docs.mollie.com/docs/trustly).
  FI: { currency: "EUR", vat: 25.5, methods: ["creditcard", "paypal", "trustly", "banktransfer"] },
  FR: { currency: "EUR", vat: 20, methods: ["creditcard", "paypal", "banktransfer"] },
  ES: { currency: "EUR", vat: 21, methods: ["creditcard", "paypal", "banktransfer"] },
  IT: { currency: "EUR", vat: 22, methods: ["creditcard", "paypal", "banktransfer"] },
};

function countryPricing(country: DemoCountry, directDebit: boolean): CountryPricing {
  const { currency, vat, methods } = COUNTRY_PAYMENTS[country];
  const prices = BUNDLE_PRICES[currency];
  return {
    currency,
    vat_rate: vat,
    // Klarna's billing address comes from the member's direct-debit account, so Klarna only with it.
    methods: directDebit ? [...methods, "directdebit"] : methods.filter((method) => method !== "klarna"),
    bundles: [50, 125, 300, 750].map((credits, i) => ({
      id: i + 1,
      credits,
      amount: prices[i]!,
      ...(i === 1 ? { popular: true } : {}),
    })),
  };
}

export const COMPANIES: Readonly<Record<string, CompanyInfo>> = {
  "wavelength-nl": {
    name: "Wavelength Media B.V.",
    address: "Herengracht 420",
    registration_number: "87654321",
    postal_code: "1016 BR",
    city: "Amsterdam",
    country: "NL",
    tradenames: [
      BRAND,
      `${BRAND} Nederland`,
      `${BRAND} België`,
      `${BRAND} UK`,
      `${BRAND} Danmark`,
      `${BRAND} Norge`,
      `${BRAND} Sverige`,
      `${BRAND} Polska`,
      `${BRAND} Suomi`,
      `${BRAND} France`,
      `${BRAND} España`,
      `${BRAND} Italia`,
    ],
    vat_numbers: ["NL864213579B01"],
    support_phone: "+31 20 808 4210",
    delete_discount: 50,
    added: "2024-03-01T12:00:00.000Z",
  },
  "wavelength-de": {
    name: "Wavelength Media GmbH",
    address: "Torstraße 140",
    registration_number: "HRB 245871 B, Amtsgericht Charlottenburg",
    postal_code: "10119",
    managing_directors: ["Jana Weber"],
    city: "Berlin",
    country: "DE",
    tradenames: [`${BRAND} Deutschland`, `${BRAND} Schweiz`],
    vat_numbers: ["DE318642975"],
    support_phone: "+49 30 2096 5500",
    delete_discount: 40,
    added: "2025-01-15T09:00:00.000Z",
  },
};

interface SiteSpec {
  domain: string;
  name: string;
  language: Language;
  countries: readonly DemoCountry[];
  loggedOutSearch: LoggedOutSearchMode;
  companyId: keyof typeof COMPANIES & string;
  supportPhone: string;
  timeZone: string;
  /** Direct debit offered in the site's own country. */
  directDebit?: boolean;
}

const SITE_SPECS: readonly SiteSpec[] = [
  {
    domain: "localhost",
    name: `${BRAND} UK`,
    language: "en",
    countries: ["GB", "IE"],
    loggedOutSearch: "all",
    companyId: "wavelength-nl",
    supportPhone: "+44 20 3808 4210",
    timeZone: "Europe/London",
  },
  {
    domain: "nl.localhost",
    name: `${BRAND} Nederland`,
    language: "nl",
    countries: ["NL", "BE"],
    loggedOutSearch: "all",
    companyId: "wavelength-nl",
    supportPhone: "+31 20 808 4210",
    directDebit: true,
    timeZone: "Europe/Amsterdam",
  },
  {
    domain: "be.localhost",
    name: `${BRAND} België`,
    language: "nl",
    countries: ["BE", "NL"],
    loggedOutSearch: "first_page",
    companyId: "wavelength-nl",
    supportPhone: "+32 2 808 42 10",
    timeZone: "Europe/Brussels",
  },
  {
    domain: "de.localhost",
    name: `${BRAND} Deutschland`,
    language: "de",
    countries: ["DE", "AT", "CH"],
    loggedOutSearch: "all",
    companyId: "wavelength-de",
    supportPhone: "+49 30 2096 5500",
    timeZone: "Europe/Berlin",
  },
  {
    domain: "ch.localhost",
    name: `${BRAND} Schweiz`,
    language: "de",
    countries: ["CH", "DE", "AT"],
    loggedOutSearch: "all",
    companyId: "wavelength-de",
    supportPhone: "+41 44 508 42 10",
    timeZone: "Europe/Zurich",
  },
  {
    domain: "dk.localhost",
    name: `${BRAND} Danmark`,
    language: "da",
    countries: ["DK"],
    loggedOutSearch: "all",
    companyId: "wavelength-nl",
    supportPhone: "+45 32 71 42 10",
    timeZone: "Europe/Copenhagen",
  },
  {
    domain: "no.localhost",
    name: `${BRAND} Norge`,
    language: "nb",
    countries: ["NO"],
    loggedOutSearch: "all",
    companyId: "wavelength-nl",
    supportPhone: "+47 21 93 42 10",
    timeZone: "Europe/Oslo",
  },
  {
    domain: "se.localhost",
    name: `${BRAND} Sverige`,
    language: "sv",
    countries: ["SE"],
    loggedOutSearch: "all",
    companyId: "wavelength-nl",
    supportPhone: "+46 8 505 842 10",
    timeZone: "Europe/Stockholm",
  },
  {
    domain: "pl.localhost",
    name: `${BRAND} Polska`,
    language: "pl",
    countries: ["PL"],
    loggedOutSearch: "all",
    companyId: "wavelength-nl",
    supportPhone: "+48 22 208 42 10",
    timeZone: "Europe/Warsaw",
  },
];

function site(spec: SiteSpec): SiteSettings {
  return {
    name: spec.name,
    domain: spec.domain,
    domain_language: spec.language,
    time_zone: spec.timeZone,
    cdn_prefix: "/media/",
    niche: 1,
    signups: "all",
    logged_out_search: spec.loggedOutSearch,
    logged_out_search_trafficsource: "all",
    minimum_message_costs: Object.fromEntries(spec.countries.map((c) => [c, MESSAGE_COSTS[c]])),
    support_phone: spec.supportPhone,
    support_email: `support@${spec.domain === "localhost" ? "uk" : spec.domain.split(".")[0]}.flirtwave.example`,
    push_public_key: DEVELOPMENT_VAPID.publicKey,
    enable_site_entry_popup: true,
    fictional_icon: "/icons/fictional.svg",
    fictional_warning: FICTIONAL_WARNING,
    fictional_singular: FICTIONAL_SINGULAR,
    fictional_plural: FICTIONAL_PLURAL,
    countries: [...spec.countries],
    description: withName(DESCRIPTION, spec.name),
    index_title: withName(INDEX_TITLE, spec.name),
    visible_profile_fields: [...PROFILE_FIELDS],
    visible_profile_notes: false,
    message_credits: 5,
    photo_credits: 10,
    gift_credits: 15,
    signup_credits: 10,
    free_conversations: 2,
    free_messages: 3,
    message_length: 2000,
    search_fields: [...SEARCH_FIELDS],
    refund_days: 14,
    member_resell: false,
    // Reserved example hosts: the demo shows the promotion block and the countdown, and goes nowhere real.
    partners: {
      cam: { name: "LiveCams", url: "https://cams.example.com/?ref=flirtwave" },
      resell: { name: "DateWave", url: "https://dates.example.com/?ref=flirtwave" },
    },
    company_id: spec.companyId,
    mail_name: spec.name,
    pricing: Object.fromEntries(
      spec.countries.map((c, i) => [c, countryPricing(c, i === 0 && spec.directDebit === true)]),
    ),
    ...(spec.directDebit ? { direct_debit: { outstanding_limit_credits: 300 } } : {}),
  };
}

/**
 * The sites launched as an operator launches one (docs/operations.md): a file that
 * `npm run site -- validate` accepts and `put` stores. The seed puts them like the others.
 */
const LAUNCHED_FILES = [fiFile, frFile, esFile, itFile];

export const SITES: readonly SiteSettings[] = [
  ...SITE_SPECS.map(site),
  ...LAUNCHED_FILES.map((file) => v.parse(SiteSettings, file.site)),
];

/** Where each launched site's file is, by its domain (the seed names them, the screenshots follow them). */
export const LAUNCHED_SITE_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  LAUNCHED_FILES.map((file) => [file.site.domain, `scripts/sites/${file.site.domain}.json`]),
);

/** The site a demo member of each country signed up on: the one whose own country it is, else the first listing it. */
export const SITE_FOR_COUNTRY: Readonly<Record<DemoCountry, string>> = {
  GB: "localhost",
  IE: "localhost",
  NL: "nl.localhost",
  BE: "be.localhost",
  DE: "de.localhost",
  AT: "de.localhost",
  CH: "ch.localhost",
  DK: "dk.localhost",
  NO: "no.localhost",
  SE: "se.localhost",
  PL: "pl.localhost",
  FI: "fi.localhost",
  FR: "fr.localhost",
  ES: "es.localhost",
  IT: "it.localhost",
};
