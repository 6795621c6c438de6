/**
 * The payment provider as the app sees it: create a payment, read one back (the only source of truth
 * about its status), customers and mandates for repeat orders, and refunds. Two implementations,
 * chosen by PAYMENT_PROVIDER: the offline sandbox (development, tests) and Mollie's v2 API.
 */
import type { PaymentStatus } from "../../shared/payments";

export type SequenceType = "oneoff" | "first" | "recurring";

export type ProviderPayment = {
  id: string;
  status: PaymentStatus;
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
  /** The bank took (part of) the money back after it was paid: a chargeback or a reversed debit. */
  chargedBack: boolean;
};

export type NewPayment = {
  amount: number;
  currency: string;
  description: string;
  redirectUrl: string;
  webhookUrl: string;
  method: string | null;
  /** The provider's locale, e.g. nl_NL. */
  locale: string;
  metadata: { order_id: number };
  /** The same key for a retried create: the provider makes the payment once. */
  idempotencyKey: string;
  customerId?: string;
  sequenceType?: SequenceType;
  mandateId?: string;
};

export type Refund = { id: string; status: string };

export interface PaymentProvider {
  readonly name: string;
  createPayment(payment: NewPayment): Promise<ProviderPayment>;
  /** The payment as the provider knows it now, or null when it does not know the id. */
  getPayment(id: string): Promise<ProviderPayment | null>;
  createCustomer(customer: { name: string; email: string; locale: string }): Promise<string>;
  /** A valid mandate of the customer (left by a paid first payment), or null. */
  validMandate(customerId: string): Promise<{ id: string; method: string } | null>;
  /** A direct-debit mandate for the customer's bank account, authorised by the member on our site. */
  createDirectDebitMandate(customerId: string, account: { consumerName: string; iban: string }): Promise<string>;
  refund(paymentId: string, refund: { amount: number; currency: string; description: string; idempotencyKey: string }): Promise<Refund>;
}

/** The provider could not be reached or refused a call: nothing was decided, the member may try again. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

const PROVIDER_LOCALES = new Set(["en_US", "en_GB", "nl_NL", "nl_BE", "fr_FR", "fr_BE", "de_DE", "de_AT", "de_CH", "es_ES", "it_IT", "nb_NO", "sv_SE", "fi_FI", "da_DK", "pl_PL"]);

/** The checkout's language: the member's language in their country where the provider has it. */
export function providerLocale(language: string, country: string): string {
  const exact = `${language}_${country}`;
  if (PROVIDER_LOCALES.has(exact)) return exact;
  return [...PROVIDER_LOCALES].find((l) => l.startsWith(`${language}_`)) ?? "en_US";
}
