/**
 * The payment provider as the app sees it: create a payment, read one back (the only source of truth
 * about its status), customers and mandates for repeat orders, and refunds. Two implementations,
 * chosen by PAYMENT_PROVIDER: the offline sandbox (development, tests) and Mollie's v2 API.
 */
import type { PaymentStatus } from "../../shared/payments";

export type SequenceType = "oneoff" | "first" | "recurring";

export type ProviderPayment = {
  id: string;
  /** One of PAYMENT_STATUSES, or a word the app does not know (recorded, never acted on). */
  status: PaymentStatus | (string & {});
  /** Minor units. */
  amount: number;
  currency: string;
  method: string | null;
  /** Where the member pays; null once paid or for a recurring charge. */
  checkoutUrl: string | null;
  customerId: string | null;
  mandateId: string | null;
  sequenceType: SequenceType;
  metadata: Record<string, unknown> | null;
  /** The payment has refunds (made through the app or in the provider's dashboard): its `refunds` link. */
  hasRefunds: boolean;
  /** The bank took money back at some point: its `chargebacks` link (reversed ones included). */
  hasChargebacks: boolean;
};

/** A line of what is bought, as methods such as Klarna require it (minor units, VAT included). */
export type PaymentLine = {
  description: string;
  quantity: number;
  unitPrice: number;
  totalAmount: number;
  vatRate: string;
  vatAmount: number;
};

/** The payer's billing address, required by Klarna. */
export type BillingAddress = {
  givenName: string;
  familyName: string;
  email: string;
  streetAndNumber: string;
  postalCode: string;
  city: string;
  country: string;
};

export type NewPayment = {
  amount: number;
  currency: string;
  description: string;
  redirectUrl: string;
  webhookUrl: string;
  /** Null lets the member choose at the provider, and is what a recurring charge sends (the mandate decides). */
  method: string | null;
  /** The provider's locale, e.g. nl_NL. */
  locale: string;
  /**
   * The order and its attempt's key, so a payment whose answer was lost is found for its order, and
   * only for it (another deployment with the same ids never has the same key).
   */
  metadata: { order_id: number; order_key: string };
  /** A UUID v4 per attempt, stored with it: the provider makes the payment once however often it is sent. */
  idempotencyKey: string;
  customerId?: string;
  sequenceType?: SequenceType;
  mandateId?: string;
  lines?: PaymentLine[];
  billingAddress?: BillingAddress;
};

/** A refund's status at the provider: queued, pending, processing, refunded, failed or canceled. */
export type Refund = { id: string; status: string; amount: number; refundKey: string | null };

export type Chargeback = { id: string; amount: number; reversed: boolean };

export type MethodQuery = {
  amount: number;
  currency: string;
  locale: string;
  sequenceType: SequenceType;
  billingCountry: string;
};

export interface PaymentProvider {
  readonly name: string;
  /** Where the member's customer is kept: a test key's customers are not a live key's. */
  readonly customerScope: string;
  createPayment(payment: NewPayment): Promise<ProviderPayment>;
  /** The payment as the provider knows it now, or null when it does not know the id. */
  getPayment(id: string): Promise<ProviderPayment | null>;
  createCustomer(customer: { name: string; email: string; locale: string }): Promise<string>;
  /** A valid mandate of the customer (left by a paid first payment), or null. */
  validMandate(customerId: string): Promise<{ id: string; method: string } | null>;
  /** A direct-debit mandate for the customer's bank account, authorised by the member on our site, with our unique reference. */
  createDirectDebitMandate(
    customerId: string,
    account: { consumerName: string; iban: string; mandateReference: string },
  ): Promise<string>;
  /** Collect an authorised payment (Klarna); the key makes a repeat safe. */
  capturePayment(paymentId: string, capture: { idempotencyKey: string; description: string }): Promise<void>;
  /** The latest payments, newest first, up to `pages` pages: where a payment whose create went unanswered is looked for. */
  listPayments(pages: number): Promise<ProviderPayment[]>;
  /** `refundKey` is stored with the refund (its metadata), so a request whose answer was lost can be found again. */
  refund(
    paymentId: string,
    refund: { amount: number; currency: string; description: string; idempotencyKey: string; refundKey: string },
  ): Promise<Refund>;
  /** The payment's refunds, whoever made them (the app or the provider's dashboard). */
  listRefunds(paymentId: string): Promise<Refund[]>;
  listChargebacks(paymentId: string): Promise<Chargeback[]>;
  /** The methods that can pay this amount in this currency and country, for this kind of payment. */
  listMethods(query: MethodQuery): Promise<string[]>;
}

/**
 * The provider could not be reached or refused a call. `status` is the provider's answer; null means
 * no answer came (unreachable, timed out). `unanswered`: whether it acted cannot be told from what
 * came back (no answer, a 5xx, a 409 for a request still being worked on, a 429 after an attempt
 * that got no answer), so it is asked again later, never assumed.
 */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly unanswered: boolean = status === null || status >= 500 || status === 409,
  ) {
    super(message);
  }

  /** The provider answered that it will not do this (a 4xx that means "not done"): nothing happened there. */
  get refused(): boolean {
    return this.status !== null && this.status >= 400 && this.status < 500 && !this.unanswered;
  }
}

const PROVIDER_LOCALES = new Set([
  "en_US",
  "en_GB",
  "nl_NL",
  "nl_BE",
  "fr_FR",
  "fr_BE",
  "de_DE",
  "de_AT",
  "de_CH",
  "es_ES",
  "it_IT",
  "nb_NO",
  "sv_SE",
  "fi_FI",
  "da_DK",
  "pl_PL",
]);

/** The checkout's language: the member's language in their country where the provider has it. */
export function providerLocale(language: string, country: string): string {
  const exact = `${language}_${country}`;
  if (PROVIDER_LOCALES.has(exact)) return exact;
  return [...PROVIDER_LOCALES].find((l) => l.startsWith(`${language}_`)) ?? "en_US";
}
