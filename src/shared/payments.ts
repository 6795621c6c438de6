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
 * The currencies each method can pay in at Mollie (docs.mollie.com/docs/multicurrency and the
 * methods' own pages): iDEAL, Bancontact and the other bank buttons only in euros, TWINT in francs,
 * BLIK in zloty, Vipps in Norwegian and Swish in Swedish kronor. An order in another currency is
 * refused before the provider is asked, and a country's list never shows a method that cannot pay.
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
  klarna: ["EUR", "CHF", "DKK", "NOK", "SEK", "PLN"],
  trustly: ["EUR", "GBP", "DKK", "NOK", "SEK"],
  twint: ["CHF"],
  blik: ["PLN"],
  przelewy24: ["PLN", "EUR"],
  mobilepay: ["DKK", "EUR"],
  vipps: ["NOK"],
  swish: ["SEK"],
};

export const methodPaysIn = (method: string, currency: string): boolean =>
  (METHOD_CURRENCIES[method as PaymentMethod] ?? []).includes(currency as Currency);

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

/** The price of one credit of a bundle, in minor units with fractions (for display only). */
export const pricePerCredit = (bundle: Bundle) => bundle.amount / bundle.credits;
