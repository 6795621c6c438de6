import type { Translate } from "../../shared/translator";
import usPrivacy from "../../../locales/en-US/privacy.json";
import { REACTIVATION_DAYS } from "../../shared/account";
import { FREE_PHOTO_LIMIT, PREMIUM_PHOTO_LIMIT } from "../../shared/photos";
import {
  CHUNK_RELOAD_KEY,
  DISABLED_NOTIFICATIONS_ALERT_KEY,
  ENTRY_SKIP_KEY,
  GEOCODE_STORAGE_KEY,
  LAST_CHAT_KEY,
  SEND_CONFIRM_OFF_KEY,
  CHAT_PREMIUM_ALERT_KEY,
  PUSH_MEMBER_KEY,
  PHOTO_ALERT_KEY,
  PUSH_ALERT_KEY,
} from "../../shared/browser-storage";
import { BOOKMARK_COOKIE, BOOKMARK_MAX_AGE } from "../../shared/d1-bookmark";
import { HIDE_TIME_BONUS_MODAL } from "../../shared/discounts";
import {
  LEGAL_AMOUNTS,
  termsVersion,
  type LegalPage,
  type LegalPageName,
  type LegalSection,
  type StoredItem,
} from "../../shared/legal";
import { companyLines, companyValues } from "../../shared/company";
import { textsLocale, type Language } from "../../shared/locales";
import type { CompanyInfo, SiteSettings } from "../../shared/settings";
import { SESSION_COOKIE, SESSION_DAYS } from "../auth/session-cookie";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE } from "../edge/locale";
import { TRACKING_COOKIE, TRACKING_DAYS } from "../edge/tracking";
import { textsFor } from "../translations";

const DAY = 24 * 60 * 60;
const MIN_AGE = 18;

type SectionTexts = Record<string, { heading: string; p: string[] }>;

/**
 * What the site keeps in the browser, with the names and lifetimes the code uses (SPEC §3: the
 * session, locale and tracking cookies, the dismissal timestamps and the site-entry skip).
 */
const STORED: { name: string; kind: StoredItem["kind"]; days?: number; purpose: string }[] = [
  { name: SESSION_COOKIE, kind: "cookie", days: SESSION_DAYS, purpose: "session" },
  { name: LOCALE_COOKIE, kind: "cookie", days: LOCALE_COOKIE_MAX_AGE / DAY, purpose: "locale" },
  { name: TRACKING_COOKIE, kind: "cookie", days: TRACKING_DAYS, purpose: "tracking" },
  { name: BOOKMARK_COOKIE, kind: "cookie", days: BOOKMARK_MAX_AGE / DAY, purpose: "data_freshness" },
  { name: ENTRY_SKIP_KEY, kind: "local", purpose: "entry_skip" },
  { name: PHOTO_ALERT_KEY, kind: "local", purpose: "dismissal" },
  { name: PUSH_ALERT_KEY, kind: "local", purpose: "dismissal" },
  { name: DISABLED_NOTIFICATIONS_ALERT_KEY, kind: "local", purpose: "dismissal" },
  { name: HIDE_TIME_BONUS_MODAL, kind: "local", purpose: "dismissal" },
  { name: LAST_CHAT_KEY, kind: "local", purpose: "last_chat" },
  { name: PUSH_MEMBER_KEY, kind: "local", purpose: "push_member" },
  { name: SEND_CONFIRM_OFF_KEY, kind: "local", purpose: "send_confirm" },
  { name: CHAT_PREMIUM_ALERT_KEY, kind: "local", purpose: "dismissal" },
  { name: GEOCODE_STORAGE_KEY, kind: "session", purpose: "geocode" },
  { name: CHUNK_RELOAD_KEY, kind: "session", purpose: "chunk_reload" },
];

/** A date and time in the visitor's language, in UTC (the terms version is a UTC moment). */
function utcDateTime(iso: string, locale: string): string {
  return `${new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`;
}

function sections(texts: SectionTexts, translate: (text: string) => string): LegalSection[] {
  return Object.entries(texts).map(([id, { heading, p }]) => ({
    id,
    heading: translate(heading),
    paragraphs: p.map(translate),
  }));
}

/**
 * A static page (SPEC §2: terms, privacy, cookies, access ban, FAQ, return policy, customer
 * service) in the visitor's language, filled in from the site's settings and its company, so no
 * site has a text of its own to keep up to date. English readers also get the US privacy text.
 */
export function legalPage(
  page: LegalPageName,
  t: Translate,
  language: Language,
  site: SiteSettings,
  company: CompanyInfo | null,
  outboxDays: number,
): LegalPage {
  // Dates and money as the site's country writes the language (de-AT: "1. Jänner").
  const locale = textsLocale(language, site.countries[0]!);
  const values: Record<string, string | number> = {
    company: site.mail_name,
    address: "",
    city: "",
    full_address: "",
    registration: "",
    vat: "",
    country: t(`countries.${site.countries[0]}`),
    ...(company ? companyValues(company, t) : {}),
    site: site.name,
    domain: site.domain,
    tradenames: company && company.tradenames.length > 0 ? company.tradenames.join(", ") : site.name,
    email: site.support_email,
    phone: site.support_phone,
    days: site.refund_days,
    message_credits: site.message_credits,
    photo_credits: site.photo_credits,
    gift_credits: site.gift_credits,
    free_conversations: site.free_conversations,
    free_messages: site.free_messages,
    free_photos: FREE_PHOTO_LIMIT,
    premium_photos: PREMIUM_PHOTO_LIMIT,
    reactivation_days: REACTIVATION_DAYS,
    session_days: SESSION_DAYS,
    outbox_days: outboxDays,
    min_age: MIN_AGE,
  };
  // The texts are read from the locale as a tree (headings and paragraphs), so each is filled in here; a
  // number comes with its noun in the plural form its count needs.
  const fill = (text: string) =>
    text.replace(/\{(\w+)\}/g, (whole, name: string) => {
      if (!Object.hasOwn(values, name)) return whole;
      const unit = (LEGAL_AMOUNTS as Record<string, string>)[name];
      return unit ? t(`legal_text.amounts.${unit}`, { count: Number(values[name]) }) : String(values[name]);
    });
  const texts = (textsFor(language, site.countries[0]) as { legal_text: Record<LegalPageName, SectionTexts> })
    .legal_text[page];
  const lines = company ? [...companyLines(company, t, locale), t("legal.company_tradenames", values)] : [];
  return {
    page,
    title: t(`pages.${page}.title`),
    intro: t(`pages.${page}.intro`, page === "return-policy" ? { ...values, count: site.refund_days } : values),
    version: page === "terms" ? t("legal.version", { date: utcDateTime(termsVersion(company?.added), locale) }) : null,
    sections: sections(texts, fill),
    storage:
      page === "cookies"
        ? STORED.map((item) => ({
            name: item.name,
            kind: item.kind,
            purpose: t(`legal.storage_purposes.${item.purpose}`, values),
            lifetime:
              item.days !== undefined
                ? t("legal.storage_days", { count: item.days })
                : t(item.kind === "local" ? "legal.storage_until_cleared" : "legal.storage_until_closed"),
          }))
        : null,
    us: page === "privacy" && language === "en" ? sections(usPrivacy as SectionTexts, fill) : null,
    company: { name: t("legal.company_name", values), lines },
    contact: { email: site.support_email, phone: site.support_phone },
  };
}
