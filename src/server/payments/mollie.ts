/**
 * Mollie's v2 API over fetch (https://docs.mollie.com/reference): payments (created with an
 * Idempotency-Key), customers, first payments that leave a mandate, recurring charges on it, and
 * refunds. Amounts go over the wire as decimal strings ("19.95") with their currency. The base URL
 * is configuration, so the tests point it at a stand-in of the API on loopback.
 */
import { minorPerMajor } from "../../shared/payments";
import {
  PaymentProviderError,
  type Chargeback,
  type MethodQuery,
  type NewPayment,
  type PaymentProvider,
  type ProviderPayment,
  type Refund,
  type SequenceType,
} from "./provider";

type MollieAmount = { currency: string; value: string };
type MolliePayment = {
  id: string;
  status: string;
  amount: MollieAmount;
  method: string | null;
  customerId?: string | null;
  mandateId?: string | null;
  sequenceType?: string;
  metadata?: Record<string, unknown> | null;
  _links?: { checkout?: { href: string }; refunds?: { href: string }; chargebacks?: { href: string } };
};
type MollieRefund = { id: string; status: string; amount: MollieAmount; metadata?: { refund_key?: unknown } | null };
type MollieChargeback = { id: string; amount: MollieAmount; reversedAt?: string | null };
type MollieList<K extends string, T> = { _embedded?: Partial<Record<K, T[]>> };

function toMollieAmount(amount: number, currency: string): MollieAmount {
  const per = minorPerMajor(currency);
  const digits = Math.round(Math.log10(per));
  return { currency, value: (amount / per).toFixed(digits) };
}

function fromMollieAmount(amount: MollieAmount): number {
  return Math.round(Number(amount.value) * minorPerMajor(amount.currency));
}

function toPayment(p: MolliePayment): ProviderPayment {
  return {
    id: p.id,
    // Kept as Mollie says it: a status the app does not know is recorded, not refused (settlePayment).
    status: p.status,
    amount: fromMollieAmount(p.amount),
    currency: p.amount.currency,
    method: p.method ?? null,
    checkoutUrl: p._links?.checkout?.href ?? null,
    customerId: p.customerId ?? null,
    mandateId: p.mandateId ?? null,
    sequenceType: (p.sequenceType ?? "oneoff") as SequenceType,
    metadata: p.metadata ?? null,
    // Mollie links a payment's refunds and chargebacks once it has any (docs.mollie.com/reference/get-payment).
    hasRefunds: p._links?.refunds !== undefined,
    hasChargebacks: p._links?.chargebacks !== undefined,
  };
}

const toRefund = (r: MollieRefund): Refund => ({
  id: r.id,
  status: r.status,
  amount: fromMollieAmount(r.amount),
  refundKey: typeof r.metadata?.refund_key === "string" ? r.metadata.refund_key : null,
});

/**
 * How long a call may take before it counts as unanswered. An unanswered create or refund may still
 * have been made: callers look it up (or repeat it with the same Idempotency-Key), never assume.
 */
const CALL_TIMEOUT_MS = 15_000;

/** Ids of the documented shape only: nothing of a webhook's body is passed on to the API. */
const PAYMENT_ID = /^tr_[A-Za-z0-9]{1,64}$/;

export class MollieProvider implements PaymentProvider {
  readonly name = "mollie";
  readonly customerScope: string;

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl: string,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
    private readonly timeoutMs = CALL_TIMEOUT_MS,
  ) {
    // Mollie keeps test and live customers apart; so do we (a test_ key's customer id means nothing to a live_ key).
    this.customerScope = `mollie:${apiKey.startsWith("live_") ? "live" : "test"}`;
  }

  private async call<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<T | null> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}`, Accept: "application/hal+json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    let response: Response;
    try {
      response = await this.fetcher(this.baseUrl.replace(/\/$/, "") + path, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new PaymentProviderError(`mollie unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.status === 404 && method === "GET") return null;
    if (!response.ok) {
      const problem = (await response.json().catch(() => ({}))) as { title?: string; detail?: string };
      throw new PaymentProviderError(
        `mollie ${response.status}: ${problem.detail ?? problem.title ?? "error"}`,
        response.status,
      );
    }
    return (await response.json()) as T;
  }

  async createPayment(payment: NewPayment): Promise<ProviderPayment> {
    const money = (amount: number) => toMollieAmount(amount, payment.currency);
    const body = {
      amount: money(payment.amount),
      description: payment.description,
      redirectUrl: payment.redirectUrl,
      webhookUrl: payment.webhookUrl,
      locale: payment.locale,
      metadata: payment.metadata,
      ...(payment.method ? { method: payment.method } : {}),
      ...(payment.customerId ? { customerId: payment.customerId } : {}),
      ...(payment.sequenceType && payment.sequenceType !== "oneoff" ? { sequenceType: payment.sequenceType } : {}),
      ...(payment.mandateId ? { mandateId: payment.mandateId } : {}),
      ...(payment.lines
        ? {
            lines: payment.lines.map((l) => ({
              type: "digital",
              description: l.description,
              quantity: l.quantity,
              unitPrice: money(l.unitPrice),
              totalAmount: money(l.totalAmount),
              vatRate: l.vatRate,
              vatAmount: money(l.vatAmount),
            })),
          }
        : {}),
      ...(payment.billingAddress ? { billingAddress: payment.billingAddress } : {}),
    };
    return toPayment((await this.call<MolliePayment>("POST", "/payments", body, payment.idempotencyKey))!);
  }

  async getPayment(id: string): Promise<ProviderPayment | null> {
    if (!PAYMENT_ID.test(id)) return null;
    const payment = await this.call<MolliePayment>("GET", `/payments/${id}`);
    return payment ? toPayment(payment) : null;
  }

  async createCustomer(customer: { name: string; email: string; locale: string }): Promise<string> {
    return (await this.call<{ id: string }>("POST", "/customers", customer))!.id;
  }

  async validMandate(customerId: string): Promise<{ id: string; method: string } | null> {
    const list = await this.call<MollieList<"mandates", { id: string; status: string; method: string }>>(
      "GET",
      `/customers/${customerId}/mandates`,
    );
    const mandate = list?._embedded?.mandates?.find((m) => m.status === "valid");
    return mandate ? { id: mandate.id, method: mandate.method } : null;
  }

  async createDirectDebitMandate(customerId: string, account: { consumerName: string; iban: string }): Promise<string> {
    return (await this.call<{ id: string }>("POST", `/customers/${customerId}/mandates`, {
      method: "directdebit",
      consumerName: account.consumerName,
      consumerAccount: account.iban,
    }))!.id;
  }

  async refund(
    paymentId: string,
    refund: { amount: number; currency: string; description: string; idempotencyKey: string; refundKey: string },
  ): Promise<Refund> {
    const answer = await this.call<MollieRefund>(
      "POST",
      `/payments/${paymentId}/refunds`,
      {
        amount: toMollieAmount(refund.amount, refund.currency),
        description: refund.description,
        metadata: { refund_key: refund.refundKey },
      },
      refund.idempotencyKey,
    );
    return toRefund(answer!);
  }

  async listRefunds(paymentId: string): Promise<Refund[]> {
    if (!PAYMENT_ID.test(paymentId)) return [];
    const list = await this.call<MollieList<"refunds", MollieRefund>>(
      "GET",
      `/payments/${paymentId}/refunds?limit=250`,
    );
    return (list?._embedded?.refunds ?? []).map(toRefund);
  }

  async listChargebacks(paymentId: string): Promise<Chargeback[]> {
    if (!PAYMENT_ID.test(paymentId)) return [];
    const list = await this.call<MollieList<"chargebacks", MollieChargeback>>(
      "GET",
      `/payments/${paymentId}/chargebacks?limit=250`,
    );
    return (list?._embedded?.chargebacks ?? []).map((c) => ({
      id: c.id,
      amount: fromMollieAmount(c.amount),
      reversed: Boolean(c.reversedAt),
    }));
  }

  async listMethods(query: MethodQuery): Promise<string[]> {
    const params = new URLSearchParams({
      sequenceType: query.sequenceType,
      locale: query.locale,
      "amount[value]": toMollieAmount(query.amount, query.currency).value,
      "amount[currency]": query.currency,
      billingCountry: query.billingCountry,
    });
    const list = await this.call<MollieList<"methods", { id: string }>>("GET", `/methods?${params}`);
    return (list?._embedded?.methods ?? []).map((m) => m.id);
  }
}
