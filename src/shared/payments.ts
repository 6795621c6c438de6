/**
 * Credits, prices and payment methods as both sides need them (SPEC §1, §3): the settings shape of a
 * country's price list, the bundle and VAT arithmetic, and money formatting. Amounts are always whole
 * minor units (cents, rappen, pence, øre, grosze); they are formatted only for display.
 */
import * as v from "valibot";

import { PAYMENT_METHODS, type PaymentMethod } from "./payment-methods";

export { PAYMENT_METHODS, type PaymentMethod };

export const CURRENCIES = ["EUR", "CHF", "GBP", "DKK", "NOK", "SEK", "PLN"] as const;
type Currency = (typeof CURRENCIES)[number];

/**
 * Where each method can pay at Mollie: the currencies and the payers' countries of each method's
 * "Key information" (docs.mollie.com/docs/<method>) and of docs.mollie.com/docs/multicurrency. An
 * order in another currency is refused before the provider is asked, a country's list never shows a
 * method that cannot pay, and `npm run site -- validate` refuses a price list that names one
 * (src/shared/site-rules.ts). docs/operations.md has the same table for operators.
 *
 * | method       | currencies                   | payers' countries                          | page                       |
 * | ------------ | ---------------------------- | ------------------------------------------ | -------------------------- |
 * | creditcard   | all of ours                  | any                                        | docs/multicurrency         |
 * | paypal       | all of ours                  | any                                        | docs/multicurrency         |
 * | ideal        | EUR                          | NL                                         | docs/ideal                 |
 * | bancontact   | EUR                          | BE                                         | docs/bancontact            |
 * | kbc          | EUR                          | BE                                         | docs/kbc                   |
 * | belfius      | EUR                          | BE                                         | docs/belfius               |
 * | eps          | EUR                          | AT                                         | docs/eps                   |
 * | banktransfer | EUR                          | SEPA: EU, IS, LI, NO, AD, SM, MC, VA        | docs/bank-transfer         |
 * | directdebit  | EUR                          | SEPA: EU, IS, LI, NO, AD, SM, MC, VA        | docs/sepa-direct-debit     |
 * | klarna       | the payer's country's own    | AT BE CH CZ DE DK ES FI FR GB GR HU IE IT  | docs/klarna                |
 * |              | (EUR, CHF, DKK, GBP, NOK,    | NL NO PL PT RO SE SK                       |                            |
 * |              | PLN, SEK)                    |                                            |                            |
 * | trustly      | DKK, EUR, GBP, NOK, SEK      | AT DE DK EE FI GB LT LV NL NO SE           | docs/trustly               |
 * | twint        | CHF                          | CH                                         | docs/multicurrency         |
 * | blik         | PLN                          | PL                                         | docs/blik                  |
 * | przelewy24   | PLN, EUR                     | PL                                         | docs/przelewy24            |
 * | mobilepay    | DKK, EUR                     | DK, FI                                     | docs/mobilepay             |
 * | vipps        | NOK                          | NO                                         | Vipps MobilePay's docs     |
 * | swish        | SEK                          | SE                                         | docs/multicurrency         |
 *
 * (Vipps is not on Mollie's pages in our copy: NOK in Norway as Vipps MobilePay documents it,
 * developer.vippsmobilepay.com/docs/knowledge-base/across-borders.)
 */
const METHOD_CURRENCIES: Readonly<Record<PaymentMethod, readonly Currency[]>> = {
  creditcard: CURRENCIES,
  paypal: CURRENCIES,
  ideal: ["EUR"],
  bancontact: ["EUR"],
  banktransfer: ["EUR"],
  directdebit: ["EUR"],
  eps: ["EUR"],
  kbc: ["EUR"],
  belfius: ["EUR"],
  klarna: ["EUR", "CHF", "DKK", "GBP", "NOK", "SEK", "PLN"],
  trustly: ["EUR", "GBP", "DKK", "NOK", "SEK"],
  twint: ["CHF"],
  blik: ["PLN"],
  przelewy24: ["PLN", "EUR"],
  mobilepay: ["DKK", "EUR"],
  vipps: ["NOK"],
  swish: ["SEK"],
};

const EU = [
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
];
/** Mollie's SEPA countries for bank transfer and direct debit: the EU, the EEA and four with agreements. */
const SEPA = [...EU, "IS", "LI", "NO", "AD", "SM", "MC", "VA"];

/**
 * Klarna's countries, each paying only in its own currency (docs.mollie.com/docs/klarna, "Supported
 * currencies"; Klarna: "We only support the local currency of each country").
 */
const KLARNA_CURRENCY: Readonly<Record<string, string>> = {
  AT: "EUR",
  BE: "EUR",
  DE: "EUR",
  ES: "EUR",
  FI: "EUR",
  FR: "EUR",
  GR: "EUR",
  IE: "EUR",
  IT: "EUR",
  NL: "EUR",
  PT: "EUR",
  SK: "EUR",
  CH: "CHF",
  CZ: "CZK",
  DK: "DKK",
  GB: "GBP",
  HU: "HUF",
  NO: "NOK",
  PL: "PLN",
  RO: "RON",
  SE: "SEK",
};

/** The countries whose payers each method serves; absent: any country. */
const METHOD_COUNTRIES: Readonly<Partial<Record<PaymentMethod, readonly string[]>>> = {
  ideal: ["NL"],
  bancontact: ["BE"],
  kbc: ["BE"],
  belfius: ["BE"],
  eps: ["AT"],
  banktransfer: SEPA,
  directdebit: SEPA,
  klarna: Object.keys(KLARNA_CURRENCY),
  trustly: ["AT", "DE", "DK", "EE", "FI", "GB", "LT", "LV", "NL", "NO", "SE"],
  twint: ["CH"],
  blik: ["PL"],
  przelewy24: ["PL"],
  mobilepay: ["DK", "FI"],
  vipps: ["NO"],
  swish: ["SE"],
};

/** Whether Mollie lets payers of this country pay with this method (docs.mollie.com/docs/<method>). */
export function methodServesCountry(method: string, country: string): boolean {
  const countries = METHOD_COUNTRIES[method as PaymentMethod];
  return countries === undefined || countries.includes(country);
}

/** The one currency a method pays in for this country when it has one (Klarna), else null. */
export function methodCurrencyIn(method: string, country: string): string | null {
  return method === "klarna" ? (KLARNA_CURRENCY[country] ?? null) : null;
}

/** The currencies a method can pay in at Mollie. */
export const methodCurrencies = (method: string): readonly string[] => METHOD_CURRENCIES[method as PaymentMethod] ?? [];

export const methodPaysIn = (method: string, currency: string): boolean =>
  (METHOD_CURRENCIES[method as PaymentMethod] ?? []).includes(currency as Currency);

/** Whether a method can pay this currency for payers of this country (the table above). */
function methodPaysThere(method: string, currency: string, country: string): boolean {
  return (
    methodPaysIn(method, currency) &&
    methodServesCountry(method, country) &&
    (methodCurrencyIn(method, country) ?? currency) === currency
  );
}

/**
 * The ways to pay /pricing names for a country: the price list's methods that can pay its currency
 * there, direct debit only where the site has its settings, and Klarna apart: its billing address is
 * the one a member gave with their direct-debit account (services/payments.ts billingAddressOf), so
 * only a member who has set up direct debit can use it, and it is named with that condition.
 */
export function listedMethods(
  pricing: CountryPricing,
  country: string,
  directDebitSettings: boolean,
): { methods: PaymentMethod[]; klarnaAfterDirectDebit: boolean } {
  const directDebit =
    directDebitSettings &&
    pricing.methods.includes("directdebit") &&
    methodPaysThere("directdebit", pricing.currency, country);
  return {
    methods: pricing.methods.filter(
      (m) => m !== "klarna" && (m !== "directdebit" || directDebit) && methodPaysThere(m, pricing.currency, country),
    ),
    klarnaAfterDirectDebit:
      directDebit && pricing.methods.includes("klarna") && methodPaysThere("klarna", pricing.currency, country),
  };
}

/**
 * Methods whose first payment leaves a mandate for one-tap repeats, and the kind of mandate: a card
 * or PayPal mandate, or (bank buttons) a SEPA direct-debit mandate, which only charges euros
 * (docs.mollie.com/docs/recurring-payments, docs.mollie.com/docs/sepa-direct-debit).
 */
const MANDATE_OF_FIRST_PAYMENT: Readonly<Partial<Record<PaymentMethod, "creditcard" | "paypal" | "directdebit">>> = {
  creditcard: "creditcard",
  paypal: "paypal",
  ideal: "directdebit",
  bancontact: "directdebit",
  belfius: "directdebit",
  kbc: "directdebit",
  eps: "directdebit",
  trustly: "directdebit",
};

/** Whether paying with this method in this currency can save it for one-tap repeat orders. */
export function canSaveMethod(method: string, currency: string): boolean {
  const mandate = MANDATE_OF_FIRST_PAYMENT[method as PaymentMethod];
  return mandate !== undefined && methodPaysIn(method, currency) && methodPaysIn(mandate, currency);
}

/**
 * A payment's status as the provider reports it. It only moves forward: open, pending, authorized,
 * then one final status. Paid outranks the other final ones: money the provider says it received is
 * never ignored because a failure was reported first.
 */
export const PAYMENT_STATUSES = ["open", "pending", "authorized", "failed", "canceled", "expired", "paid"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** An order's status: its latest payment's, or refunded / reversed once credits were taken back. */
export type OrderStatus = PaymentStatus | "refunded" | "reversed";

export function statusRank(status: string): number {
  if (status === "paid") return 4;
  if (status === "failed" || status === "canceled" || status === "expired") return 3;
  return Math.max(0, (PAYMENT_STATUSES as readonly string[]).indexOf(status));
}

const MinorUnits = v.pipe(v.number(), v.integer(), v.minValue(1));

export const Bundle = v.strictObject({
  /** Stable within the site: /credits/{id} and orders name it. */
  id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  credits: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** Price including VAT, in minor units of the country's currency. */
  amount: MinorUnits,
  popular: v.optional(v.boolean()),
});
export type Bundle = v.InferOutput<typeof Bundle>;

/** What a site sells in one country: currency, VAT, methods and bundles. */
export const CountryPricing = v.pipe(
  v.strictObject({
    currency: v.picklist(CURRENCIES),
    /** VAT in percent; prices include it. */
    vat_rate: v.pipe(v.number(), v.minValue(0), v.maxValue(50)),
    methods: v.pipe(v.array(v.picklist(PAYMENT_METHODS)), v.minLength(1)),
    bundles: v.pipe(v.array(Bundle), v.minLength(1)),
    /** The smallest order (minor units, VAT included) the site's own offers, the time bonus and the welcome discount, apply to; 0 when absent. */
    offer_minimum_order: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  }),
  v.check((p) => new Set(p.bundles.map((b) => b.id)).size === p.bundles.length, "bundle ids must be unique"),
  v.check((p) => p.bundles.filter((b) => b.popular).length <= 1, "at most one bundle is the most popular"),
);
export type CountryPricing = v.InferOutput<typeof CountryPricing>;

/** Direct debit (SPEC §3, §5): credits are granted before the money arrives, up to this many unpaid. */
export const DirectDebitSettings = v.strictObject({
  outstanding_limit_credits: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** The price list that applies to a visitor: their own country's when the site sells there, else the site's own. */
export function pricingFor(
  pricing: Record<string, CountryPricing>,
  siteCountries: readonly string[],
  country: string | null,
): { country: string; pricing: CountryPricing } {
  if (country && pricing[country]) return { country, pricing: pricing[country] };
  const own = siteCountries[0]!;
  return { country: own, pricing: pricing[own]! };
}

/** The VAT part of a price that includes VAT, in minor units. */
export function vatPart(amount: number, vatRate: number): number {
  return amount - Math.round((amount * 100) / (100 + vatRate));
}

/** Minor units per major unit of a currency (100 for all the site currencies). */
export function minorPerMajor(currency: string): number {
  const digits =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return 10 ** digits;
}

/** A money amount for display in the member's locale, e.g. "€ 19,95" in nl. */
export function formatMoney(amount: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount / minorPerMajor(currency));
}

/** What one credit is worth to a member, in minor units of `currency` (fractions kept, for display only; src/shared/send-costs.ts). */
export type CreditValue = { per_credit: number; currency: string };

/** The price of one credit of a bundle, in minor units with fractions (for display only). */
export const pricePerCredit = (bundle: Bundle) => bundle.amount / bundle.credits;
