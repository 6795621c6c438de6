/**
 * The payment methods alone, without the price schemas of payments.ts: the route table needs their
 * names on every page, and the schemas would bring the validator into every page's first download.
 */
/** Payment methods by the names Mollie gives them (the sandbox uses the same names). */
export const PAYMENT_METHODS = [
  "ideal",
  "creditcard",
  "paypal",
  "bancontact",
  "klarna",
  "twint",
  "przelewy24",
  "blik",
  "banktransfer",
  "directdebit",
  "mobilepay",
  "vipps",
  "swish",
  "eps",
  "kbc",
  "belfius",
  "trustly",
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
