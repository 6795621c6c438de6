/**
 * Mollie's v2 API over fetch (https://docs.mollie.com/reference): payments (created with an
 * Idempotency-Key), customers, first payments that leave a mandate, recurring charges on it, and
 * refunds. Amounts go over the wire as decimal strings ("19.95") with their currency. The base URL
 * is configuration, so the tests point it at a stand-in of the API on loopback.
 */
import { minorPerMajor, PAYMENT_STATUSES, type PaymentStatus } from "../../shared/payments";
import { PaymentProviderError, type NewPayment, type PaymentProvider, type ProviderPayment, type Refund, type SequenceType } from "./provider";

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
  amountChargedBack?: MollieAmount;
  _links?: { checkout?: { href: string } };
};

function toMollieAmount(amount: number, currency: string): MollieAmount {
  const per = minorPerMajor(currency);
  const digits = Math.round(Math.log10(per));
  return { currency, value: (amount / per).toFixed(digits) };
}

function fromMollieAmount(amount: MollieAmount): number {
  return Math.round(Number(amount.value) * minorPerMajor(amount.currency));
}

function toPayment(p: MolliePayment): ProviderPayment {
  if (!(PAYMENT_STATUSES as readonly string[]).includes(p.status)) throw new PaymentProviderError(`unknown status ${p.status}`);
  return {
    id: p.id,
    status: p.status as PaymentStatus,
    amount: fromMollieAmount(p.amount),
    currency: p.amount.currency,
    method: p.method ?? null,
    checkoutUrl: p._links?.checkout?.href ?? null,
    customerId: p.customerId ?? null,
    mandateId: p.mandateId ?? null,
    sequenceType: (p.sequenceType ?? "oneoff") as SequenceType,
    metadata: p.metadata ?? null,
    chargedBack: p.amountChargedBack !== undefined && Number(p.amountChargedBack.value) > 0,
  };
}

export class MollieProvider implements PaymentProvider {
  readonly name = "mollie";

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl: string,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  private async call<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<T | null> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}`, Accept: "application/hal+json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    let response: Response;
    try {
      response = await this.fetcher(this.baseUrl.replace(/\/$/, "") + path, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
    } catch (error) {
      throw new PaymentProviderError(`mollie unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.status === 404 && method === "GET") return null;
    if (!response.ok) {
      const problem = (await response.json().catch(() => ({}))) as { title?: string; detail?: string };
      throw new PaymentProviderError(`mollie ${response.status}: ${problem.detail ?? problem.title ?? "error"}`, response.status);
    }
    return (await response.json()) as T;
  }

  async createPayment(payment: NewPayment): Promise<ProviderPayment> {
    const body = {
      amount: toMollieAmount(payment.amount, payment.currency),
      description: payment.description,
      redirectUrl: payment.redirectUrl,
      webhookUrl: payment.webhookUrl,
      locale: payment.locale,
      metadata: payment.metadata,
      ...(payment.method ? { method: payment.method } : {}),
      ...(payment.customerId ? { customerId: payment.customerId } : {}),
      ...(payment.sequenceType && payment.sequenceType !== "oneoff" ? { sequenceType: payment.sequenceType } : {}),
      ...(payment.mandateId ? { mandateId: payment.mandateId } : {}),
    };
    return toPayment((await this.call<MolliePayment>("POST", "/payments", body, payment.idempotencyKey))!);
  }

  async getPayment(id: string): Promise<ProviderPayment | null> {
    // Only ids of the documented shape reach the API: nothing of the webhook's body is passed on.
    if (!/^tr_[A-Za-z0-9]{1,64}$/.test(id)) return null;
    const payment = await this.call<MolliePayment>("GET", `/payments/${id}`);
    return payment ? toPayment(payment) : null;
  }

  async createCustomer(customer: { name: string; email: string; locale: string }): Promise<string> {
    return (await this.call<{ id: string }>("POST", "/customers", customer))!.id;
  }

  async validMandate(customerId: string): Promise<{ id: string; method: string } | null> {
    const list = await this.call<{ _embedded?: { mandates?: { id: string; status: string; method: string }[] } }>("GET", `/customers/${customerId}/mandates`);
    const mandate = list?._embedded?.mandates?.find((m) => m.status === "valid");
    return mandate ? { id: mandate.id, method: mandate.method } : null;
  }

  async createDirectDebitMandate(customerId: string, account: { consumerName: string; iban: string }): Promise<string> {
    return (await this.call<{ id: string }>("POST", `/customers/${customerId}/mandates`, { method: "directdebit", consumerName: account.consumerName, consumerAccount: account.iban }))!.id;
  }

  async refund(paymentId: string, refund: { amount: number; currency: string; description: string; idempotencyKey: string }): Promise<Refund> {
    const answer = await this.call<{ id: string; status: string }>(
      "POST",
      `/payments/${paymentId}/refunds`,
      { amount: toMollieAmount(refund.amount, refund.currency), description: refund.description },
      refund.idempotencyKey,
    );
    return { id: answer!.id, status: answer!.status };
  }
}
