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
 * How long one attempt of a call may take before it counts as unanswered. An unanswered create may
 * still have been made: "your request may still arrive at the API eventually and get executed,
 * despite your server considering it a timeout" (https://docs.mollie.com/reference/api-idempotency).
 */
const CALL_TIMEOUT_MS = 10_000;
/** Attempts of a call that is safe to repeat (a GET, or a POST with its Idempotency-Key), as Mollie's own client makes them. */
const ATTEMPTS = 3;
/** The wait before a repeat, doubled each time, when Mollie names none (Retry-After). */
const BACKOFF_MS = 250;
/** The longest wait the request is held for; Mollie asking for more leaves the call unanswered (the clock settles it). */
const MAX_WAIT_MS = 2_000;

/** Ids of the documented shape only: nothing of a webhook's body is passed on to the API. */
const PAYMENT_ID = /^tr_[A-Za-z0-9]{1,64}$/;

/**
 * Whether an answer may be tried again: a 5xx (Mollie had a problem, and may or may not have done the
 * work: the Idempotency-Key makes a repeat safe), or 429 Too Many Requests (not done; Mollie documents
 * rate limits per second, https://docs.mollie.com/reference/rate-limiting, and its own client repeats
 * 5xx and 429 answers honouring Retry-After: mollie-api-node src/communication/makeRetrying.ts,
 * https://docs.mollie.com/changelog/document-429-too-many-requests-on-all-endpoints).
 */
const repeatable = (status: number) => status >= 500 || status === 429;

/** Retry-After in seconds (RFC 9110 also allows a date, which Mollie's client ignores, and so do we). */
function retryAfterMs(response: Response): number | null {
  const seconds = Number.parseInt(response.headers.get("retry-after") ?? "", 10);
  return Number.isNaN(seconds) || seconds < 0 ? null : seconds * 1000;
}

export type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class MollieProvider implements PaymentProvider {
  readonly name = "mollie";
  readonly customerScope: string;

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl: string,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
    private readonly timeoutMs = CALL_TIMEOUT_MS,
    /** How the adapter waits between attempts: the tests pass one that records the wait instead. */
    private readonly sleep: Sleep = realSleep,
  ) {
    // Mollie keeps test and live customers apart; so do we (a test_ key's customer id means nothing to a live_ key).
    this.customerScope = `mollie:${apiKey.startsWith("live_") ? "live" : "test"}`;
  }

  /**
   * One call of the API, repeated while that is safe and useful: a GET, or a POST with an
   * Idempotency-Key (Mollie answers a repeat with the first answer, so a lost answer is found again,
   * and a recurring charge is never made twice), after no answer, a 5xx or a 429. Otherwise, and
   * after the last attempt, the error says what came back: `status` null when no answer came, and
   * `unanswered` when whether Mollie acted cannot be told (no answer, a 5xx, a 409 for a key still
   * being worked on, or a 429 after an attempt that went unanswered).
   */
  private async call<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<T | null> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}`, Accept: "application/hal+json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    const safe = method === "GET" || idempotencyKey !== undefined;
    let lost = false;
    for (let attempt = 1; ; attempt++) {
      const last = !safe || attempt >= ATTEMPTS;
      let response: Response;
      try {
        response = await this.fetcher(this.baseUrl.replace(/\/$/, "") + path, {
          method,
          headers,
          body: body === undefined ? null : JSON.stringify(body),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        lost = true;
        if (last)
          throw new PaymentProviderError(
            `mollie unreachable: ${error instanceof Error ? error.message : String(error)}`,
            null,
            true,
          );
        await this.sleep(BACKOFF_MS * 2 ** (attempt - 1));
        continue;
      }
      if (response.status === 404 && method === "GET") return null;
      if (response.ok) return (await response.json()) as T;
      const problem = (await response.json().catch(() => ({}))) as { title?: string; detail?: string };
      const wait = retryAfterMs(response) ?? BACKOFF_MS * 2 ** (attempt - 1);
      // A 409 after an attempt that went unanswered is that attempt still being worked on: asked again, it replays.
      if (!last && (repeatable(response.status) || (response.status === 409 && lost)) && wait <= MAX_WAIT_MS) {
        if (response.status !== 429) lost = true;
        await this.sleep(wait);
        continue;
      }
      const unanswered =
        response.status >= 500 || response.status === 409 || (response.status === 429 && lost && method !== "GET");
      throw new PaymentProviderError(
        `mollie ${response.status}: ${problem.detail ?? problem.title ?? "error"}`,
        response.status,
        unanswered,
      );
    }
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

  /** With a key of its own, so a repeat after a lost answer makes no second customer. */
  async createCustomer(customer: { name: string; email: string; locale: string }): Promise<string> {
    return (await this.call<{ id: string }>("POST", "/customers", customer, crypto.randomUUID()))!.id;
  }

  async validMandate(customerId: string): Promise<{ id: string; method: string } | null> {
    const list = await this.call<MollieList<"mandates", { id: string; status: string; method: string }>>(
      "GET",
      `/customers/${customerId}/mandates`,
    );
    const mandate = list?._embedded?.mandates?.find((m) => m.status === "valid");
    return mandate ? { id: mandate.id, method: mandate.method } : null;
  }

  /**
   * A SEPA direct-debit mandate with the app's unique `mandateReference` ("some banks decline a Direct
   * Debit payment if the mandateReference is not unique": https://docs.mollie.com/reference/create-mandate).
   */
  async createDirectDebitMandate(
    customerId: string,
    account: { consumerName: string; iban: string; mandateReference: string },
  ): Promise<string> {
    return (await this.call<{ id: string }>(
      "POST",
      `/customers/${customerId}/mandates`,
      {
        method: "directdebit",
        consumerName: account.consumerName,
        consumerAccount: account.iban,
        mandateReference: account.mandateReference,
      },
      crypto.randomUUID(),
    ))!.id;
  }

  /**
   * Collect an authorised payment (Klarna is always authorised first and captured by the merchant:
   * https://docs.mollie.com/docs/place-a-hold-for-a-payment, https://docs.mollie.com/reference/create-capture).
   */
  async capturePayment(paymentId: string, capture: { idempotencyKey: string; description: string }): Promise<void> {
    if (!PAYMENT_ID.test(paymentId)) return;
    await this.call(
      "POST",
      `/payments/${paymentId}/captures`,
      { description: capture.description },
      capture.idempotencyKey,
    );
  }

  /**
   * The latest payments, newest first (https://docs.mollie.com/reference/list-payments): how to learn
   * whether a create whose answer was lost was made ("you can actively inspect the API (using its
   * 'list' endpoints) to see if the request got executed": https://docs.mollie.com/reference/api-idempotency).
   */
  async listPayments(pages: number): Promise<ProviderPayment[]> {
    const found: ProviderPayment[] = [];
    let path: string | null = "/payments?limit=250";
    for (let page = 0; path && page < pages; page++) {
      const list: (MollieList<"payments", MolliePayment> & { _links?: { next?: { href: string } | null } }) | null =
        await this.call("GET", path);
      found.push(...(list?._embedded?.payments ?? []).map(toPayment));
      const next: string | undefined = list?._links?.next?.href;
      path = next ? next.slice(next.indexOf("/payments")) : null;
    }
    return found;
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
