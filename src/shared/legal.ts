/**
 * Rules of the fine print that the server (signup, the legal pages) and the browser (the customer
 * service page) both apply.
 */

/** The first version of the terms: every site's terms date from then or from when its company was added. */
export const FIRST_TERMS_VERSION = "2023-12-01T12:00:00.000Z";

/**
 * SPEC §9: the terms version is 2023-12-01 12:00 UTC, or the company's `added` date when that is
 * later. Signup records it with the member's acceptance and the terms page shows it.
 */
export function termsVersion(companyAdded: string | undefined): string {
  const base = Date.parse(FIRST_TERMS_VERSION);
  const added = companyAdded ? Date.parse(companyAdded) : NaN;
  return new Date(Number.isNaN(added) || added < base ? base : added).toISOString();
}

/** A phone number as SPEC §9 compares it: without dashes and spaces (of any kind). */
export function comparablePhoneNumber(number: string): string {
  return number.replace(/[\s\u2010-\u2015-]/g, "");
}

/**
 * Whether a number someone typed is the support number (SPEC §9): "020-000 0000" matches
 * "020 000 0000"; anything else, including an empty entry, does not.
 */
export function isSupportPhone(typed: string, supportPhone: string): boolean {
  const number = comparablePhoneNumber(typed);
  return number !== "" && number === comparablePhoneNumber(supportPhone);
}

/** The static pages with a legal text (SPEC §2), by their short name as /pages/{name} and /{token} use it. */
export const LEGAL_PAGES = [
  "ban",
  "cookies",
  "faq",
  "imprint",
  "privacy",
  "return-policy",
  "service",
  "terms",
] as const;
export type LegalPageName = (typeof LEGAL_PAGES)[number];

/**
 * The numbers the legal texts mention, each told with its own plural family (legal_text.amounts.*
 * in locales/), so "{message_credits}" reads "1 credit" or "5 credits" in every language and a
 * sentence with several numbers needs no plural form of its own.
 */
export const LEGAL_AMOUNTS = {
  message_credits: "credits",
  photo_credits: "credits",
  gift_credits: "credits",
  premium_photos: "photos",
  free_photos: "photos",
  free_conversations: "conversations",
  free_messages: "free_messages",
  days: "days",
  reactivation_days: "days",
  session_days: "days",
  outbox_days: "days",
  min_age: "years",
} as const satisfies Record<string, string>;

export type LegalSection = { id: string; heading: string; paragraphs: string[] };

/** Something the site keeps in the browser, as the cookies page lists it. */
export type StoredItem = { name: string; kind: "cookie" | "local" | "session"; purpose: string; lifetime: string };

type CompanyLines = { name: string; lines: string[] };

/**
 * GET /api/legal.php?page=NAME: a static page in the visitor's language, filled in from the site's
 * settings and its company (name, address, registration, VAT, contact, prices, periods).
 */
export type LegalPage = {
  page: LegalPageName;
  title: string;
  intro: string;
  /** The terms version (SPEC §9) as a date in the visitor's language; only on the terms. */
  version: string | null;
  sections: LegalSection[];
  /** The cookies page's table of what is stored. */
  storage: StoredItem[] | null;
  /** Extra sections for visitors reading in English: the US privacy text (SPEC §1). */
  us: LegalSection[] | null;
  company: CompanyLines;
  contact: { email: string; phone: string };
};
