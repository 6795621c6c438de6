/**
 * The settings of one country site (SPEC §3), kept in KV under `site:<domain>` and checked by
 * this schema whenever they are written (scripts/site.ts, the seed) and read.
 */
import * as v from "valibot";
import { GIFT_SLUGS } from "./gifts";
import { LANGUAGES } from "./locales";
import { CURRENCIES, CountryPricing, DirectDebitSettings } from "./payments";
import { isUncompressedP256Point } from "./web-push";

const Language = v.picklist(LANGUAGES);
const Country = v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, "a two-letter ISO country code"));
/** A text per language; the site's language must be present. Missing languages fall back to locales/. */
const LocalisedText = v.record(Language, v.string());

/** all: open to visitors; first_page: visitors see the first page only; none: members only. */
export const LoggedOutSearchMode = v.picklist(["all", "first_page", "none"]);
export type LoggedOutSearchMode = v.InferOutput<typeof LoggedOutSearchMode>;

const SignupsMode = v.picklist(["all", "with_trafficsource", "invite_only"]);

export const SEARCH_FIELDS = ["gender", "country", "country_region", "min_age", "max_age"] as const;

export const PROFILE_FIELDS = [
  "gender",
  "sexuality",
  "date_of_birth",
  "tattoos",
  "hair_color",
  "eye_color",
  "body_type",
  "relationship_status",
  "interests",
  "region",
  "city",
  "about_me",
] as const;

const PartnerName = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "a lower-case partner name"));
const Partner = v.strictObject({
  /** Shown to the visitor: "You are going to {name}". */
  name: v.pipe(v.string(), v.minLength(1)),
  url: v.pipe(
    v.string(),
    v.url(),
    v.check((url) => url.startsWith("https://"), "an https address"),
  ),
});
export type Partner = v.InferOutput<typeof Partner>;
/** Whether the runtime knows this IANA time zone name. */
function isTimeZone(name: string): boolean {
  try {
    return name.length > 0 && new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone.length > 0;
  } catch {
    return false;
  }
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function dayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** Each country's time zone (IANA), a site's `time_zone` when its settings leave it out. */
export const COUNTRY_TIME_ZONES: Readonly<Record<string, string>> = {
  AT: "Europe/Vienna",
  BE: "Europe/Brussels",
  CH: "Europe/Zurich",
  DE: "Europe/Berlin",
  DK: "Europe/Copenhagen",
  ES: "Europe/Madrid",
  FI: "Europe/Helsinki",
  FR: "Europe/Paris",
  GB: "Europe/London",
  IE: "Europe/Dublin",
  IT: "Europe/Rome",
  LU: "Europe/Luxembourg",
  NL: "Europe/Amsterdam",
  NO: "Europe/Oslo",
  PL: "Europe/Warsaw",
  PT: "Europe/Lisbon",
  SE: "Europe/Stockholm",
};

export const SiteSettings = v.pipe(
  v.strictObject({
    name: v.pipe(v.string(), v.minLength(1)),
    domain: v.pipe(v.string(), v.regex(/^[a-z0-9.-]+$/, "a lower-case host name")),
    /**
     * The site's public address (scheme, host and port, no path), e.g. https://flirtwave.nl: what the
     * payment provider sends members back to and calls webhooks on. Without it, https://{domain}.
     */
    public_url: v.optional(
      v.pipe(v.string(), v.regex(/^https?:\/\/[a-z0-9.-]+(:[0-9]{1,5})?$/, "an address such as https://flirtwave.nl")),
    ),
    /** e.g. "nl" or "nl-BE"; its first two letters pick the default locale when supported. */
    domain_language: v.pipe(v.string(), v.regex(/^[a-z]{2}([-_][A-Za-z]{2})?$/, "a language code")),
    /**
     * IANA time zone the site writes its times in (receipts, orders, decisions, mails) and whose days
     * are the swipe game's days (e.g. "Europe/Helsinki"). Left out: its country's (COUNTRY_TIME_ZONES).
     */
    time_zone: v.optional(v.pipe(v.string(), v.check(isTimeZone, "an IANA time zone such as Europe/Amsterdam"))),
    /** Prefix of media URLs; a photo's match path is appended to it. */
    cdn_prefix: v.string(),
    niche: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7)),
    signups: SignupsMode,
    logged_out_search: LoggedOutSearchMode,
    /** Used instead of logged_out_search for a visitor who came with a traffic source. */
    logged_out_search_trafficsource: LoggedOutSearchMode,
    minimum_message_costs: v.record(Country, v.strictObject({ costs: v.number(), currency: v.string() })),
    support_phone: v.string(),
    support_email: v.pipe(v.string(), v.email()),
    /** The VAPID public key of the deployment (npm run vapid), or "" for a site without web push. */
    push_public_key: v.union([
      v.literal(""),
      v.pipe(
        v.string(),
        v.check(isUncompressedP256Point, "push_public_key must be the base64url of an uncompressed P-256 point"),
      ),
    ]),
    enable_site_entry_popup: v.boolean(),
    fictional_icon: v.string(),
    fictional_warning: LocalisedText,
    fictional_singular: LocalisedText,
    fictional_plural: LocalisedText,
    /** Countries whose members this site shows; the first is the site's own. */
    countries: v.pipe(v.array(Country), v.minLength(1)),
    description: LocalisedText,
    index_title: LocalisedText,
    visible_profile_fields: v.array(v.picklist(PROFILE_FIELDS)),
    visible_profile_notes: v.boolean(),
    message_credits: v.pipe(v.number(), v.integer(), v.minValue(0)),
    photo_credits: v.pipe(v.number(), v.integer(), v.minValue(0)),
    gift_credits: v.pipe(v.number(), v.integer(), v.minValue(0)),
    /** Prices of single gifts in credits where they differ from gift_credits; 0 takes a gift off the site. */
    gifts: v.optional(v.record(v.picklist(GIFT_SLUGS), v.pipe(v.number(), v.integer(), v.minValue(0)))),
    signup_credits: v.pipe(v.number(), v.integer(), v.minValue(0)),
    /** A chat photo or gift above this many credits asks the member before it is sent (DEFAULT_CONFIRM_CREDITS_ABOVE when absent). */
    confirm_credits_above: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    /** Conversations a free member may start, and free messages in each. */
    free_conversations: v.pipe(v.number(), v.integer(), v.minValue(0)),
    free_messages: v.pipe(v.number(), v.integer(), v.minValue(0)),
    message_length: v.pipe(v.number(), v.integer(), v.minValue(1)),
    search_fields: v.array(v.picklist(SEARCH_FIELDS)),
    refund_days: v.pipe(v.number(), v.integer(), v.minValue(0)),
    /**
     * Per currency, the refund (in minor units) above which a second operator must confirm it
     * (docs/decisions/0060); left out, or a currency it does not name: DEFAULT_SECOND_OPERATOR_REFUND_ABOVE.
     */
    second_operator_refund_above: v.optional(
      v.record(v.picklist(CURRENCIES), v.pipe(v.number(), v.integer(), v.minValue(0))),
    ),
    /** Which partner the cam-profile promotion block shows (SPEC §2): false `cam`, true `resell`. */
    member_resell: v.boolean(),
    /**
     * The partners this site may send visitors to, by name (`cam` and `resell` feed the promotion
     * block). The redirect (/out/{partner}) goes only to one of these: never to an address from a request.
     */
    partners: v.optional(v.record(PartnerName, Partner)),
    company_id: v.pipe(v.string(), v.minLength(1)),
    mail_name: v.string(),
    /** What the site sells per country (bundles, currency, VAT, methods); the site's own country must be present. */
    pricing: v.record(Country, CountryPricing),
    /** Direct debit, where the site offers it (the method "directdebit" in a country's methods). */
    direct_debit: v.optional(DirectDebitSettings),
    /**
     * Who the site's SMS come from: an alphanumeric sender name (up to 11 letters, digits and spaces,
     * at least one letter) or a number in E.164. Without it, the site's name shortened to 11 characters.
     */
    sms_sender: v.optional(
      v.pipe(
        v.string(),
        v.regex(
          /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$|^\+[1-9][0-9]{6,14}$/,
          "sms_sender must be up to 11 letters, digits and spaces, or a number in E.164",
        ),
      ),
    ),
  }),
  v.check(
    (s) => s.pricing[s.countries[0]!] !== undefined,
    "pricing must include the site's own country (the first of countries)",
  ),
  v.check(
    (s) => s.time_zone !== undefined || COUNTRY_TIME_ZONES[s.countries[0]!] !== undefined,
    "time_zone is needed: the site's country has no default time zone (give an IANA name such as America/New_York)",
  ),
  v.transform((s) => ({ ...s, time_zone: s.time_zone ?? COUNTRY_TIME_ZONES[s.countries[0]!]! })),
);
export type SiteSettings = v.InferOutput<typeof SiteSettings>;

type LocalisedSetting = {
  [K in keyof SiteSettings]-?: SiteSettings[K] extends v.InferOutput<typeof LocalisedText> ? K : never;
}[keyof SiteSettings];

/** The settings that are a text per language: every field of the schema that is a LocalisedText. */
export const LOCALISED_SETTINGS = Object.entries(SiteSettings.pipe[0].entries)
  .filter(([, schema]) => schema === LocalisedText)
  .map(([key]) => key as LocalisedSetting);

/** What GET /api/settings.php answers: the stored settings plus what the edge resolved. */
export type PublicSettings = Omit<SiteSettings, never> & {
  geoip_country: string | null;
  geoip_selected_country: string;
  locale: string;
  languages: readonly string[];
  /** The logged_out_search mode that applies to this visitor (with or without a traffic source). */
  logged_out_search_mode: LoggedOutSearchMode;
};

/** Whoever hosts the site, as a French legal notice names it (LCEN art. 6 III: name, address, phone). */
const Host = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1)),
  address: v.pipe(v.string(), v.minLength(1)),
  phone: v.pipe(v.string(), v.minLength(1)),
});

/**
 * Files and stores written before the registration number had its own name held it as `kvk`: such
 * a company reads as if it said `registration_number`, so no stored company stops its site.
 */
function legacyRegistration(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input) || !("kvk" in input)) return input;
  const { kvk, ...rest } = input as Record<string, unknown>;
  return "registration_number" in rest ? input : { ...rest, registration_number: kvk };
}

/** The company's fields one by one (what a site file's `company` holds), for tools that list them. */
export const CompanyInfoFields = v.strictObject({
  name: v.string(),
  /** Street and number. */
  address: v.string(),
  /** The postal code, written as the country writes it ("1016 BR", "00100", "EC1A 1BB"). */
  postal_code: v.optional(v.string(), ""),
  city: v.string(),
  /** The country of registration (ISO 3166-1 alpha-2). */
  country: Country,
  /** The number in its country's register, as the register writes it ("87654321", "HRB 245871 B", "2345678-9", "912 345 678 R.C.S. Paris"). */
  registration_number: v.string(),
  tradenames: v.array(v.string()),
  vat_numbers: v.array(v.string()),
  support_phone: v.string(),
  /** Share capital in minor units of its currency (France's legal notice names it: "capital social"). */
  share_capital: v.optional(
    v.strictObject({
      amount: v.pipe(v.number(), v.integer(), v.minValue(0)),
      currency: v.picklist(CURRENCIES),
    }),
  ),
  /** Who answers for what the site publishes (France: "directeur de la publication"). */
  publication_director: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** Who may represent the company (Germany and Austria: "Geschäftsführer" in the Impressum). */
  managing_directors: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  /** Who hosts the site (France: "hébergeur", with name, address and phone). */
  host: v.optional(Host),
  /** Percentage offered to keep a member who is about to delete the account. */
  delete_discount: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
  /** ISO date the company was added; the terms version is this or 2023-12-01 12:00 UTC, whichever is later. */
  added: v.pipe(v.string(), v.isoTimestamp()),
  /**
   * The out-of-court dispute settlement body (DSA Art. 21) the company names to members after an
   * appeal, on the decision page and in the appeal's outcome mail (docs/configuration.md). Without it
   * members are told of certified bodies in general.
   */
  dispute_body: v.optional(
    v.strictObject({
      name: v.pipe(v.string(), v.trim(), v.minLength(1, "dispute_body.name is the body's name")),
      url: v.pipe(v.string(), v.url("dispute_body.url is the body's web address"), v.startsWith("https://")),
    }),
  ),
  /**
   * Whether the company's statements of reasons go to the Commission's DSA Transparency Database
   * (Art. 24(5); docs/decisions/0063, docs/configuration.md). Off when left out: micro and small
   * enterprises are exempt (Art. 19). The API token is the Worker secret `token_secret` names.
   */
  transparency_database: v.optional(
    v.strictObject({
      submit: v.boolean(),
      token_secret: v.optional(
        v.pipe(v.string(), v.regex(/^[A-Z][A-Z0-9_]*$/, "token_secret is the name of a Worker secret")),
        "DSA_TDB_TOKEN",
      ),
    }),
  ),
});

/**
 * The company behind one or more sites (SPEC §9), named on the legal pages, the receipts and the
 * mails (src/shared/company.ts writes its lines). Its `country` is where it is registered: that
 * country's register names the number (KvK, Handelsregister, Y-tunnus, SIREN/RCS ...).
 */
export const CompanyInfo = v.pipe(v.unknown(), v.transform(legacyRegistration), CompanyInfoFields);
export type CompanyInfo = v.InferOutput<typeof CompanyInfo>;

export const siteKey = (domain: string) => `site:${domain}`;
export const companyKey = (id: string) => `company:${id}`;

/** The refund, per currency in minor units, above which a second operator confirms it, unless a site says otherwise (about 50 EUR). */
export const DEFAULT_SECOND_OPERATOR_REFUND_ABOVE: Readonly<Record<(typeof CURRENCIES)[number], number>> = {
  EUR: 5000,
  CHF: 5000,
  GBP: 4500,
  DKK: 37500,
  NOK: 60000,
  SEK: 57500,
  PLN: 21500,
};

/** Whether refunding `amountCents` in `currency` on a site with these settings needs a second operator. */
export function refundNeedsSecondOperator(
  settings: Pick<SiteSettings, "second_operator_refund_above">,
  amountCents: number,
  currency: string,
): boolean {
  const own = settings.second_operator_refund_above as Record<string, number> | undefined;
  const limit = own?.[currency] ?? (DEFAULT_SECOND_OPERATOR_REFUND_ABOVE as Record<string, number>)[currency] ?? 0;
  return amountCents > limit;
}
