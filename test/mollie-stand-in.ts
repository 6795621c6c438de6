/**
 * A stand-in of Mollie's v2 API (https://docs.mollie.com/reference) on loopback, for the adapter's
 * tests, as strict as Mollie where the app could go wrong:
 * - payments with an Idempotency-Key kept for an hour per API key: the same key and body replays the
 *   first answer, the same key with another body is refused (400), a key still being worked on is a
 *   conflict (409) (docs.mollie.com/reference/api-idempotency);
 * - methods only in their currencies and countries (iDEAL and Bancontact in euros, TWINT in francs,
 *   BLIK in zloty, Vipps in NOK, Swish in SEK, MobilePay in DKK ...), the Methods API filtered by
 *   amount, currency, billing country and sequenceType (docs.mollie.com/reference/list-methods);
 * - Klarna only with order lines adding up to the amount and a billing address;
 * - sequenceType first needs a customer of the key's mode; a paid first payment leaves a mandate
 *   (bank buttons a directdebit one); recurring needs a valid mandate and refuses a method other than
 *   the mandate's (docs.mollie.com/docs/recurring-payments);
 * - customers, payments and mandates of test_ and live_ keys kept apart;
 * - refunds with their statuses, refunds made in the dashboard, chargebacks, told to the app through
 *   the payment's webhook: a form-encoded POST of `id=tr_…` (recorded here for the test to deliver,
 *   since the app under test is not on the network) for a refund that reaches processing, refunded or
 *   failed and a chargeback received, never for a refund canceled or a chargeback reversed
 *   (https://docs.mollie.com/overview/webhooks);
 * - next-gen webhook events (nextGenEvents below) for every refund and chargeback change, the
 *   reversal and the cancellation included, signed with the subscription's secret;
 * - refund requests whose answer is lost while they are still made, whose repeat with the same key
 *   meanwhile is a 409, and outages that answer 503 without doing anything;
 * - answers that go wrong the way the documents say they can: a create that is executed although its
 *   answer never arrives ("your request may still arrive at the API eventually and get executed,
 *   despite your server considering it a timeout", docs.mollie.com/reference/api-idempotency), 5xx
 *   answers, and 429 Too Many Requests for a request that was not executed, with a Retry-After in
 *   seconds (docs.mollie.com/reference/rate-limiting; Mollie's own client waits for it:
 *   mollie-api-node src/communication/makeRetrying.ts), each injected by a test through
 *   /_stand-in/faults;
 * - Klarna's billing names: a given or family name of fewer than two characters, or of digits only,
 *   is refused (422) as Klarna refuses it (docs.klarna.com/klarna-payments/in-depth-knowledge/customer-data-requirements,
 *   the billingAddress of docs.mollie.com/reference/create-payment);
 * - Klarna is authorised, not paid, when the customer completes it: "placing a hold and collecting
 *   the funds manually is the only available flow" (docs.mollie.com/docs/place-a-hold-for-a-payment),
 *   so the payment stays `authorized` until the app creates a capture
 *   (docs.mollie.com/reference/create-capture), which makes it paid and calls the webhook;
 * - mandates keep their `mandateReference` ("use an unique mandateReference as some banks decline a
 *   Direct Debit payment if the mandateReference is not unique", docs.mollie.com/reference/create-mandate),
 *   refused (422) when it is not a SEPA mandate reference (at most 35 characters of the SEPA set);
 * - the payments list, newest first, which Mollie's idempotency page names as the way to learn
 *   whether a request whose answer was lost was executed (docs.mollie.com/reference/list-payments).
 * Routes under /_stand-in let a test play the customer, the dashboard and the bank.
 */
import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { bodyText, onLoopback } from "./stand-in-server";

export const STAND_IN_KEY = "test_standinkey0000000000000000000";
export const STAND_IN_LIVE_KEY = "live_standinkey0000000000000000000";

type Mode = "test" | "live";
type Amount = { currency: string; value: string };
type Payment = {
  resource: "payment";
  id: string;
  mode: Mode;
  status: string;
  amount: Amount;
  description: string;
  method: string | null;
  metadata: unknown;
  locale: string | null;
  sequenceType: string;
  customerId: string | null;
  mandateId: string | null;
  redirectUrl: string | null;
  webhookUrl: string | null;
  createdAt: string;
  amountRefunded: Amount;
  amountChargedBack?: Amount;
  _links: Record<string, { href: string; type: string }>;
};
type Refund = {
  resource: "refund";
  id: string;
  amount: Amount;
  status: string;
  paymentId: string;
  description: string;
  metadata: unknown;
  createdAt: string;
};
type Chargeback = {
  resource: "chargeback";
  id: string;
  amount: Amount;
  paymentId: string;
  createdAt: string;
  reversedAt: string | null;
};
type Mandate = {
  resource: "mandate";
  id: string;
  mode: Mode;
  status: string;
  method: string;
  customerId: string;
  mandateReference?: string | null;
};
type Capture = {
  resource: "capture";
  id: string;
  amount: Amount;
  paymentId: string;
  status: string;
  createdAt: string;
};
/**
 * A fault the next matching API calls meet (`match` is a regular expression on "METHOD /v2/path {json body}"):
 * `lose` executes the call and drops its answer (the caller sees the connection end); `status`
 * answers that status instead, after executing the call when `execute` is set (a 500 whose work was
 * done), never for 429 (a rate-limited request is not processed).
 */
export type Fault = {
  match: string;
  kind: "lose" | "status";
  status?: number;
  execute?: boolean;
  retryAfter?: number;
  times?: number;
};
type Logged = { method: string; path: string; idempotencyKey: string | null; body: unknown };
/** A call of a payment's webhook as Mollie makes it. */
export type WebhookCall = { paymentId: string; url: string; contentType: string; body: string };

const IDEMPOTENCY_WINDOW_MS = 3_600_000;
/** A SEPA mandate reference: at most 35 characters of the SEPA Latin set (the EPC's rulebook; Mollie passes it to the bank). */
const MANDATE_REFERENCE = /^[A-Za-z0-9/?:().,'+ -]{1,35}$/;
/** Klarna's names: more than one character, not only digits (docs.klarna.com customer-data-requirements). */
const klarnaName = (name: unknown) => typeof name === "string" && name.trim().length >= 2 && !/^\d+$/.test(name.trim());

/**
 * Mollie's rules per method: currencies, billing countries (null: any), and whether a first payment
 * may use it; each method's "Key information" at docs.mollie.com/docs/<method> (trustly: AT, DE, DK,
 * EE, FI, LT, LV, NL, NO, SE, UK; klarna: the countries listed there, each in its own currency) and
 * docs.mollie.com/docs/multicurrency.
 */
const METHODS: Record<string, { currencies: string[]; countries: string[] | null; first: boolean; mandate?: string }> =
  {
    creditcard: {
      currencies: ["EUR", "CHF", "GBP", "DKK", "NOK", "SEK", "PLN"],
      countries: null,
      first: true,
      mandate: "creditcard",
    },
    paypal: {
      currencies: ["EUR", "CHF", "GBP", "DKK", "NOK", "SEK", "PLN"],
      countries: null,
      first: true,
      mandate: "paypal",
    },
    ideal: { currencies: ["EUR"], countries: ["NL"], first: true, mandate: "directdebit" },
    bancontact: { currencies: ["EUR"], countries: ["BE"], first: true, mandate: "directdebit" },
    kbc: { currencies: ["EUR"], countries: ["BE"], first: true, mandate: "directdebit" },
    belfius: { currencies: ["EUR"], countries: ["BE"], first: true, mandate: "directdebit" },
    eps: { currencies: ["EUR"], countries: ["AT"], first: true, mandate: "directdebit" },
    trustly: {
      currencies: ["EUR", "GBP", "DKK", "NOK", "SEK"],
      countries: ["AT", "DE", "DK", "EE", "FI", "GB", "LT", "LV", "NL", "NO", "SE"],
      first: true,
      mandate: "directdebit",
    },
    banktransfer: { currencies: ["EUR"], countries: null, first: false },
    directdebit: { currencies: ["EUR"], countries: null, first: false },
    klarna: {
      currencies: ["EUR", "CHF", "DKK", "GBP", "NOK", "SEK", "PLN"],
      countries: [
        "AT",
        "BE",
        "CH",
        "CZ",
        "DE",
        "DK",
        "ES",
        "FI",
        "FR",
        "GB",
        "GR",
        "HU",
        "IE",
        "IT",
        "NL",
        "NO",
        "PL",
        "PT",
        "RO",
        "SE",
        "SK",
      ],
      first: false,
    },
    twint: { currencies: ["CHF"], countries: ["CH"], first: false },
    blik: { currencies: ["PLN"], countries: ["PL"], first: false },
    przelewy24: { currencies: ["PLN", "EUR"], countries: ["PL"], first: false },
    mobilepay: { currencies: ["DKK", "EUR"], countries: ["DK", "FI"], first: false },
    vipps: { currencies: ["NOK"], countries: ["NO"], first: false },
    swish: { currencies: ["SEK"], countries: ["SE"], first: false },
  };

const ids = { n: 0 };
const newId = (prefix: string) =>
  `${prefix}_${(++ids.n).toString(36).padStart(4, "0")}${Math.random().toString(36).slice(2, 8)}`;
const AMOUNT = /^\d+\.\d{2}$/;
const cents = (a: Amount) => Math.round(Number(a.value) * 100);
const money = (currency: string, minor: number): Amount => ({ currency, value: (minor / 100).toFixed(2) });

type Answer = { status: number; body: unknown };

function problem(status: number, title: string, detail: string, field?: string): Answer {
  return {
    status,
    body: {
      status,
      title,
      detail,
      ...(field ? { field } : {}),
      _links: { documentation: { href: "https://docs.mollie.com/overview/handling-errors", type: "text/html" } },
    },
  };
}

function writeAnswer(res: ServerResponse, answer: Answer, headers: Record<string, string> = {}) {
  res.writeHead(answer.status, { "content-type": "application/hal+json", ...headers });
  res.end(JSON.stringify(answer.body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await bodyText(req);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

/** The next-gen webhooks' shared secret of the stand-in's subscription: the tests' MOLLIE_WEBHOOK_SECRET (vitest.config.ts). */
export const STAND_IN_WEBHOOK_SECRET = "mollie-stand-in-next-gen-webhook-secret";

/** A next-gen webhook delivery as Mollie makes it: a JSON event object, signed in X-Mollie-Signature. */
export type NextGenEvent = { type: string; paymentId: string; contentType: string; signature: string; body: string };

/**
 * Mollie's next-gen webhooks (https://docs.mollie.com/reference/webhooks-new) for a subscription to
 * the refund and chargeback events with full payloads: each change is an event object
 * `{ resource: "event", id, type, entityId, createdAt, _embedded: { entity }, _links }`, the entity a
 * snapshot as its GET endpoint returns it (https://docs.mollie.com/reference/refunds-api-webhooks,
 * https://docs.mollie.com/reference/chargebacks-api-webhooks), POSTed as JSON with
 * `X-Mollie-Signature`: the hex HMAC-SHA256 of the raw body with the subscription's secret
 * (https://docs.mollie.com/reference/webhooks-best-practices). Recorded for the test to deliver.
 */
function nextGenEvents(origin: () => string) {
  const list: NextGenEvent[] = [];
  return {
    emit(type: string, entity: { id: string; paymentId: string }) {
      const id = newId("event");
      const body = JSON.stringify({
        resource: "event",
        id,
        type,
        entityId: entity.id,
        createdAt: new Date().toISOString(),
        _embedded: { entity: structuredClone(entity) },
        _links: {
          self: { href: `${origin()}/v2/events/${id}`, type: "application/hal+json" },
          documentation: { href: "https://docs.mollie.com/reference/webhooks-new", type: "text/html" },
        },
      });
      const signature = createHmac("sha256", STAND_IN_WEBHOOK_SECRET).update(body).digest("hex");
      list.push({ type, paymentId: entity.paymentId, contentType: "application/json", signature, body });
    },
    of: (paymentId: string) => list.filter((e) => e.paymentId === paymentId),
  };
}

/**
 * Faults of the Refunds API a test turns on for one payment (so that tests running at the same time
 * do not meet them): an outage (503 to the next refund calls, nothing done:
 * https://docs.mollie.com/overview/handling-errors), and a refund request cut off in flight: its
 * connection closes while Mollie is still making it, so a repeat with the same key meanwhile is
 * answered 409 (https://docs.mollie.com/reference/api-idempotency) until the test releases it.
 */
function refundFaults() {
  type Hold = { held: Promise<void>; markHeld: () => void; release: () => void; released: Promise<void> };
  const outages = new Map<string, number>();
  const cutNext = new Set<string>();
  const cut = new Map<string, { key: string; holds: Map<string, Hold> }>();
  return {
    outage(paymentId: string): Answer | null {
      const calls = outages.get(paymentId) ?? 0;
      if (calls === 0) return null;
      outages.set(paymentId, calls - 1);
      return problem(503, "Service Unavailable", "The service is temporarily unavailable");
    },
    /** Whether this refund request is the one to cut off: held in flight under its key. */
    cutAndHold(paymentId: string, key: string, holds: Map<string, Hold>): boolean {
      if (!cutNext.delete(paymentId)) return false;
      let markHeld = () => {};
      let release = () => {};
      const held = new Promise<void>((resolve) => (markHeld = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.set(key, { held, markHeld, release, released });
      cut.set(paymentId, { key, holds });
      return true;
    },
    /** The control routes under /_stand-in/payments/<id>: refund-outage, cut-next-refund, cut-refund/release. */
    control(paymentId: string, rest: string, body: Record<string, unknown>): Answer | null {
      if (rest === "/refund-outage") {
        outages.set(paymentId, Number(body["calls"] ?? 1));
        return { status: 200, body: {} };
      }
      if (rest === "/cut-next-refund") {
        cutNext.add(paymentId);
        return { status: 200, body: {} };
      }
      if (rest === "/cut-refund/release") {
        const held = cut.get(paymentId);
        if (!held?.holds.has(held.key)) return problem(404, "Not Found", "no refund cut off");
        held.holds.get(held.key)!.release();
        held.holds.delete(held.key);
        cut.delete(paymentId);
        return { status: 200, body: {} };
      }
      return null;
    },
  };
}

export function createMollieStandIn() {
  const payments = new Map<string, Payment>();
  const refunds = new Map<string, Refund[]>();
  const chargebacks = new Map<string, Chargeback[]>();
  const customers = new Map<string, { id: string; mode: Mode; name: string; email: string }>();
  const mandates = new Map<string, Mandate[]>();
  const captures = new Map<string, Capture[]>();
  const faults: (Fault & { left: number })[] = [];
  const idempotency = new Map<string, { hash: string; at: number; answer: Answer | null }>();
  const webhooks: WebhookCall[] = [];
  const log: Logged[] = [];
  /** Held creates: a test releases them, to have a request in flight on purpose. */
  const holds = new Map<
    string,
    { held: Promise<void>; markHeld: () => void; release: () => void; released: Promise<void> }
  >();
  const events = nextGenEvents(() => origin);
  const refundFaultsOf = refundFaults();
  let loseNextRefundAnswer = false;
  let origin = "";
  const now = () => Date.now();

  const notify = (payment: Payment) => {
    if (payment.webhookUrl)
      webhooks.push({
        paymentId: payment.id,
        url: payment.webhookUrl,
        contentType: "application/x-www-form-urlencoded",
        body: new URLSearchParams({ id: payment.id }).toString(),
      });
  };
  const leftToRefund = (p: Payment) => cents(p.amount) - cents(p.amountRefunded);
  const recount = (p: Payment) => {
    p.amountRefunded = money(
      p.amount.currency,
      (refunds.get(p.id) ?? [])
        .filter((r) => r.status !== "failed" && r.status !== "canceled")
        .reduce((s, r) => s + cents(r.amount), 0),
    );
    const charged = (chargebacks.get(p.id) ?? []).filter((c) => !c.reversedAt).reduce((s, c) => s + cents(c.amount), 0);
    if (charged > 0) p.amountChargedBack = money(p.amount.currency, charged);
    else delete p.amountChargedBack;
    // Mollie links a payment's refunds and chargebacks once it has any.
    if (refunds.has(p.id))
      p._links["refunds"] = { href: `${origin}/v2/payments/${p.id}/refunds`, type: "application/hal+json" };
    if (chargebacks.has(p.id))
      p._links["chargebacks"] = { href: `${origin}/v2/payments/${p.id}/chargebacks`, type: "application/hal+json" };
  };
  const addRefund = (p: Payment, amount: Amount, description: string, metadata: unknown): Refund => {
    const refund: Refund = {
      resource: "refund",
      id: newId("re"),
      amount,
      status: "pending",
      paymentId: p.id,
      description,
      metadata,
      createdAt: new Date().toISOString(),
    };
    refunds.set(p.id, [...(refunds.get(p.id) ?? []), refund]);
    recount(p);
    events.emit("refund.pending", refund);
    return refund;
  };

  function createPayment(mode: Mode, body: Record<string, unknown>): Answer {
    const amount = body["amount"] as Amount | undefined;
    if (
      !amount ||
      typeof amount.currency !== "string" ||
      typeof amount.value !== "string" ||
      !AMOUNT.test(amount.value)
    )
      return problem(422, "Unprocessable Entity", "The amount is invalid", "amount");
    if (typeof body["description"] !== "string")
      return problem(422, "Unprocessable Entity", "The description is invalid", "description");
    const sequenceType = (body["sequenceType"] as string | undefined) ?? "oneoff";
    if (!["oneoff", "first", "recurring"].includes(sequenceType))
      return problem(422, "Unprocessable Entity", "The sequence type is invalid", "sequenceType");
    if (sequenceType !== "recurring" && typeof body["redirectUrl"] !== "string")
      return problem(422, "Unprocessable Entity", "The redirect URL is invalid", "redirectUrl");
    let method = (body["method"] as string | undefined) ?? null;
    if (method !== null) {
      const rules = METHODS[method];
      if (!rules) return problem(422, "Unprocessable Entity", "The payment method is invalid", "method");
      if (!rules.currencies.includes(amount.currency))
        return problem(
          422,
          "Unprocessable Entity",
          `The payment method is not available for the currency ${amount.currency}`,
          "method",
        );
    }
    const customerId = (body["customerId"] as string | undefined) ?? null;
    const customer = customerId ? customers.get(customerId) : undefined;
    if (customerId && (!customer || customer.mode !== mode))
      return problem(422, "Unprocessable Entity", "The customer id is invalid", "customerId");
    if (sequenceType !== "oneoff" && !customer)
      return problem(422, "Unprocessable Entity", "A customer is required for this sequence type", "customerId");
    if (sequenceType === "first" && method !== null && !METHODS[method]!.first)
      return problem(422, "Unprocessable Entity", "The payment method does not support first payments", "method");
    let mandateId = (body["mandateId"] as string | undefined) ?? null;
    if (sequenceType === "recurring") {
      const valid = (mandates.get(customerId!) ?? []).filter(
        (m) => m.status === "valid" && (mandateId === null || m.id === mandateId),
      );
      const mandate = valid[0];
      if (!mandate) return problem(422, "Unprocessable Entity", "The customer has no valid mandate", "mandateId");
      if (method !== null && method !== mandate.method)
        return problem(
          422,
          "Unprocessable Entity",
          `The payment method does not match the mandate (${mandate.method})`,
          "method",
        );
      method = mandate.method;
      mandateId = mandate.id;
    }
    if (method === "klarna") {
      const lines = body["lines"] as
        | {
            totalAmount?: Amount;
            quantity?: number;
            unitPrice?: Amount;
            vatRate?: string;
            vatAmount?: Amount;
            description?: string;
          }[]
        | undefined;
      const address = body["billingAddress"] as Record<string, unknown> | undefined;
      if (
        !Array.isArray(lines) ||
        lines.length === 0 ||
        lines.some((l) => !l.description || !l.quantity || !l.unitPrice || !l.totalAmount || !l.vatRate || !l.vatAmount)
      )
        return problem(422, "Unprocessable Entity", "Klarna requires order lines", "lines");
      if (lines.reduce((s, l) => s + cents(l.totalAmount!), 0) !== cents(amount))
        return problem(422, "Unprocessable Entity", "The lines do not add up to the amount", "lines");
      if (
        !address ||
        ["givenName", "familyName", "email", "streetAndNumber", "postalCode", "city", "country"].some(
          (f) => typeof address[f] !== "string" || !address[f],
        )
      ) {
        return problem(422, "Unprocessable Entity", "Klarna requires a billing address", "billingAddress");
      }
      for (const field of ["givenName", "familyName"])
        if (!klarnaName(address[field]))
          return problem(
            422,
            "Unprocessable Entity",
            `The billing address ${field === "givenName" ? "given" : "family"} name must be at least 2 characters and not only digits`,
            `billingAddress.${field}`,
          );
    }
    const id = newId("tr");
    const payment: Payment = {
      resource: "payment",
      id,
      mode,
      status: sequenceType === "recurring" ? "pending" : "open",
      amount,
      description: body["description"] as string,
      method,
      metadata: body["metadata"] ?? null,
      locale: (body["locale"] as string | undefined) ?? null,
      sequenceType,
      customerId,
      mandateId,
      redirectUrl: (body["redirectUrl"] as string | undefined) ?? null,
      webhookUrl: (body["webhookUrl"] as string | undefined) ?? null,
      createdAt: new Date().toISOString(),
      amountRefunded: money(amount.currency, 0),
      _links: {
        self: { href: `${origin}/v2/payments/${id}`, type: "application/hal+json" },
        ...(sequenceType === "recurring"
          ? {}
          : { checkout: { href: `https://www.mollie.com/checkout/select-method/${id.slice(3)}`, type: "text/html" } }),
      },
    };
    payments.set(id, payment);
    return { status: 201, body: payment };
  }

  /** The Idempotency-Key rules around a create (payments, refunds). */
  async function idempotent(
    scope: string,
    key: string | undefined,
    body: unknown,
    create: () => Answer,
  ): Promise<Answer> {
    if (!key) return create();
    const hash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
    const id = `${scope}:${key}`;
    const known = idempotency.get(id);
    if (known && now() - known.at < IDEMPOTENCY_WINDOW_MS) {
      if (known.hash !== hash)
        return problem(
          400,
          "Bad Request",
          "The Idempotency-Key was already used for a request with other parameters",
          "Idempotency-Key",
        );
      // "the API will respond to the second request with a 409 Conflict" (https://docs.mollie.com/reference/api-idempotency),
      // in Mollie's error format (https://docs.mollie.com/overview/handling-errors).
      if (!known.answer)
        return problem(409, "Conflict", "A request with this Idempotency-Key is still being processed");
      return known.answer;
    }
    const entry = { hash, at: now(), answer: null as Answer | null };
    idempotency.set(id, entry);
    const hold = holds.get(key);
    if (hold) {
      hold.markHeld();
      await hold.released;
    }
    const answer = create();
    // Like Mollie, refusals are not kept: the same request may be sent again once it can succeed.
    if (answer.status >= 400) idempotency.delete(id);
    else entry.answer = answer;
    return answer;
  }

  function methodsFor(query: URLSearchParams): Answer {
    const currency = query.get("amount[currency]");
    const value = query.get("amount[value]");
    if ((currency === null) !== (value === null) || (value !== null && !AMOUNT.test(value)))
      return problem(400, "Bad Request", "The amount is invalid", "amount");
    const sequenceType = query.get("sequenceType") ?? "oneoff";
    const country = query.get("billingCountry");
    const list = Object.entries(METHODS)
      .filter(([id, rules]) => {
        if (id === "directdebit" && sequenceType !== "recurring") return false;
        if (currency && !rules.currencies.includes(currency)) return false;
        if (country && rules.countries && !rules.countries.includes(country)) return false;
        if (sequenceType === "first") return rules.first;
        if (sequenceType === "recurring") return ["creditcard", "paypal", "directdebit"].includes(id);
        return true;
      })
      .map(([id]) => ({ resource: "method", id, description: id, status: "activated" }));
    return { status: 200, body: { count: list.length, _embedded: { methods: list }, _links: {} } };
  }

  const control = async (req: IncomingMessage, path: string, body: Record<string, unknown>): Promise<Answer> => {
    const paymentRoute = /^\/_stand-in\/payments\/([^/]+)(\/.*)?$/.exec(path);
    if (paymentRoute) {
      const payment = payments.get(paymentRoute[1]!);
      if (!payment) return problem(404, "Not Found", "no such payment");
      const rest = paymentRoute[2] ?? "";
      if (rest === "/status") {
        payment.status = String(body["status"]);
        // The customer completing Klarna authorises it; only the merchant's capture collects (see the header).
        if (payment.status === "paid" && payment.method === "klarna" && !captures.has(payment.id))
          payment.status = "authorized";
        if (payment.status !== "open") delete payment._links["checkout"];
        if (typeof body["method"] === "string") payment.method = body["method"];
        const rules = payment.method ? METHODS[payment.method] : undefined;
        if (payment.status === "paid" && payment.sequenceType === "first" && payment.customerId && rules?.mandate) {
          const mandate: Mandate = {
            resource: "mandate",
            id: newId("mdt"),
            mode: payment.mode,
            status: "valid",
            method: rules.mandate,
            customerId: payment.customerId,
          };
          mandates.set(payment.customerId, [...(mandates.get(payment.customerId) ?? []), mandate]);
          payment.mandateId = mandate.id;
        }
        notify(payment);
        return { status: 200, body: payment };
      }
      if (rest === "/dashboard-refund") {
        const amount = money(payment.amount.currency, Number(body["amount"]));
        if (payment.status !== "paid" || cents(amount) > leftToRefund(payment))
          return problem(422, "Unprocessable Entity", "The payment cannot be refunded");
        const refund = addRefund(payment, amount, "Refund from the Mollie Web app", null);
        notify(payment);
        return { status: 201, body: refund };
      }
      const refundStatus = /^\/refunds\/([^/]+)\/status$/.exec(rest);
      if (refundStatus) {
        const refund = (refunds.get(payment.id) ?? []).find((r) => r.id === refundStatus[1]);
        if (!refund) return problem(404, "Not Found", "no such refund");
        const next = String(body["status"]);
        // A refund can be canceled only while queued or pending (https://docs.mollie.com/reference/cancel-refund).
        if (next === "canceled" && !["queued", "pending"].includes(refund.status))
          return problem(422, "Unprocessable Entity", "The refund cannot be canceled");
        refund.status = next;
        recount(payment);
        // Mollie calls the payment's webhook for a refund that is processing, refunded or failed.
        if (["processing", "refunded", "failed"].includes(refund.status)) notify(payment);
        events.emit(`refund.${refund.status}`, refund);
        return { status: 200, body: refund };
      }
      if (rest === "/chargebacks") {
        const chargeback: Chargeback = {
          resource: "chargeback",
          id: newId("chb"),
          amount: money(payment.amount.currency, Number(body["amount"] ?? cents(payment.amount))),
          paymentId: payment.id,
          createdAt: new Date().toISOString(),
          reversedAt: null,
        };
        chargebacks.set(payment.id, [...(chargebacks.get(payment.id) ?? []), chargeback]);
        recount(payment);
        notify(payment);
        events.emit("chargeback.received", chargeback);
        return { status: 201, body: chargeback };
      }
      const reverse = /^\/chargebacks\/([^/]+)\/reverse$/.exec(rest);
      if (reverse) {
        const chargeback = (chargebacks.get(payment.id) ?? []).find((c) => c.id === reverse[1]);
        if (!chargeback) return problem(404, "Not Found", "no such chargeback");
        chargeback.reversedAt = new Date().toISOString();
        recount(payment);
        // Mollie does not call the payment's webhook for a reversal; only a next-gen event tells it.
        events.emit("chargeback.reversed", chargeback);
        return { status: 200, body: chargeback };
      }
      if (rest === "/events" && req.method === "GET") return { status: 200, body: events.of(payment.id) };
      const fault = refundFaultsOf.control(payment.id, rest, body);
      if (fault) return fault;
      if (rest === "/webhooks" && req.method === "GET")
        return { status: 200, body: webhooks.filter((w) => w.paymentId === payment.id) };
      if (rest === "/refunds" && req.method === "GET") return { status: 200, body: refunds.get(payment.id) ?? [] };
    }
    if (path === "/_stand-in/requests") return { status: 200, body: log };
    if (path === "/_stand-in/faults") {
      if (req.method === "POST") {
        const list = (Array.isArray(body["faults"]) ? body["faults"] : [body]) as Fault[];
        for (const fault of list) faults.push({ ...fault, left: fault.times ?? 1 });
      }
      return { status: 200, body: faults.filter((f) => f.left > 0) };
    }
    if (path === "/_stand-in/faults/clear") {
      faults.length = 0;
      return { status: 200, body: {} };
    }
    // A test ages one key to see its hour run out; the stand-in's other keys (other files' tests) keep theirs.
    if (path === "/_stand-in/idempotency/age") {
      for (const [id, entry] of idempotency)
        if (id.endsWith(`:${String(body["key"])}`)) entry.at -= Number(body["advance_ms"] ?? 0);
      return { status: 200, body: {} };
    }
    if (path === "/_stand-in/lose-next-refund-answer") {
      loseNextRefundAnswer = true;
      return { status: 200, body: {} };
    }
    const hold = /^\/_stand-in\/holds\/([^/]+)(\/held|\/release)?$/.exec(path);
    if (hold) {
      const key = decodeURIComponent(hold[1]!);
      if (!hold[2]) {
        let markHeld = () => {};
        let release = () => {};
        const held = new Promise<void>((resolve) => (markHeld = resolve));
        const released = new Promise<void>((resolve) => (release = resolve));
        holds.set(key, { held, markHeld, release, released });
        return { status: 200, body: {} };
      }
      const entry = holds.get(key);
      if (!entry) return problem(404, "Not Found", "no such hold");
      if (hold[2] === "/held") await entry.held;
      else {
        entry.release();
        holds.delete(key);
      }
      return { status: 200, body: {} };
    }
    return problem(404, "Not Found", "unknown control route");
  };

  const server = createServer(async (req, res) => {
    let executedFault: Fault | undefined;
    const send = (out: ServerResponse, answer: Answer, headers: Record<string, string> = {}) => {
      if (!executedFault) return writeAnswer(out, answer, headers);
      if (executedFault.kind === "lose") return void req.socket.destroy();
      const status = executedFault.status ?? 500;
      return writeAnswer(out, problem(status, "Internal Server Error", "Something went wrong on our side"));
    };
    const url = new URL(req.url ?? "/", "http://stand-in");
    const path = url.pathname;
    const body = req.method === "POST" ? await readJson(req).catch(() => null) : null;
    if (body === null && req.method === "POST")
      return send(res, problem(400, "Bad Request", "The request body is not valid JSON"));
    if (path.startsWith("/_stand-in/")) return send(res, await control(req, path, body ?? {}));

    const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? undefined;
    log.push({ method: req.method ?? "GET", path: path + url.search, idempotencyKey: idempotencyKey ?? null, body });
    const mode: Mode | null =
      req.headers.authorization === `Bearer ${STAND_IN_KEY}`
        ? "test"
        : req.headers.authorization === `Bearer ${STAND_IN_LIVE_KEY}`
          ? "live"
          : null;
    if (!mode)
      return send(res, problem(401, "Unauthorized Request", "Missing authentication, or failed to authenticate"));
    const apiKey = req.headers.authorization!;
    const own = (id: string) => {
      const payment = payments.get(id);
      return payment && payment.mode === mode ? payment : undefined;
    };
    // Matched on the method, the path and the body, so a test's fault meets only its own calls.
    const seen = `${req.method} ${path} ${body ? JSON.stringify(body) : ""}`;
    const fault = faults.find((f) => f.left > 0 && new RegExp(f.match).test(seen));
    if (fault) {
      fault.left--;
      if (fault.kind === "status" && (fault.status === 429 || !fault.execute)) {
        const status = fault.status ?? 500;
        return send(
          res,
          status === 429
            ? problem(429, "Too Many Requests", "You have exceeded the rate limit, please try again later")
            : status === 422
              ? problem(
                  422,
                  "Unprocessable Entity",
                  "The payment method is not enabled in your website profile",
                  "method",
                )
              : status === 409
                ? problem(409, "Conflict", "A request with this Idempotency-Key is still being processed")
                : problem(status, "Internal Server Error", "Something went wrong on our side"),
          fault.retryAfter === undefined ? {} : { "retry-after": String(fault.retryAfter) },
        );
      }
      // Executed below; `send` then drops the answer or replaces it.
      executedFault = fault;
    }

    if (path === "/v2/payments" && req.method === "POST")
      return send(res, await idempotent(apiKey, idempotencyKey, body, () => createPayment(mode, body!)));
    if (path === "/v2/methods" && req.method === "GET") return send(res, methodsFor(url.searchParams));
    const one = /^\/v2\/payments\/([^/]+)$/.exec(path);
    if (one && req.method === "GET") {
      const payment = own(one[1]!);
      return send(
        res,
        payment ? { status: 200, body: payment } : problem(404, "Not Found", `No payment exists with token ${one[1]}.`),
      );
    }
    if (path === "/v2/payments" && req.method === "GET") {
      // Newest first, `limit` at most 250, `from` the id to start at (docs.mollie.com/reference/list-payments).
      const limit = Math.min(250, Math.max(1, Number(url.searchParams.get("limit") ?? 50) || 50));
      const mine = [...payments.values()].filter((p) => p.mode === mode).toReversed();
      const from = url.searchParams.get("from");
      const start = from
        ? Math.max(
            0,
            mine.findIndex((p) => p.id === from),
          )
        : 0;
      const page = mine.slice(start, start + limit);
      const next = mine[start + limit];
      return send(res, {
        status: 200,
        body: {
          count: page.length,
          _embedded: { payments: page },
          _links: {
            next: next
              ? { href: `${origin}/v2/payments?from=${next.id}&limit=${limit}`, type: "application/hal+json" }
              : null,
          },
        },
      });
    }
    const paymentCaptures = /^\/v2\/payments\/([^/]+)\/captures$/.exec(path);
    if (paymentCaptures && req.method === "POST") {
      const payment = own(paymentCaptures[1]!);
      if (!payment) return send(res, problem(404, "Not Found", `No payment exists with token ${paymentCaptures[1]}.`));
      const answer = await idempotent(apiKey, idempotencyKey, { capture: payment.id, ...body }, () => {
        if (payment.status !== "authorized")
          return problem(422, "Unprocessable Entity", "The payment cannot be captured", "paymentId");
        const capture: Capture = {
          resource: "capture",
          id: newId("cpt"),
          amount: (body!["amount"] as Amount | undefined) ?? payment.amount,
          paymentId: payment.id,
          status: "succeeded",
          createdAt: new Date().toISOString(),
        };
        captures.set(payment.id, [...(captures.get(payment.id) ?? []), capture]);
        payment.status = "paid";
        notify(payment);
        return { status: 201, body: capture };
      });
      return send(res, answer);
    }
    const paymentRefunds = /^\/v2\/payments\/([^/]+)\/refunds$/.exec(path);
    if (paymentRefunds) {
      const payment = own(paymentRefunds[1]!);
      if (!payment) return send(res, problem(404, "Not Found", `No payment exists with token ${paymentRefunds[1]}.`));
      const outage = refundFaultsOf.outage(payment.id);
      if (outage) return send(res, outage);
      if (req.method === "GET") {
        const list = refunds.get(payment.id) ?? [];
        return send(res, { status: 200, body: { count: list.length, _embedded: { refunds: list }, _links: {} } });
      }
      if (req.method === "POST" && idempotencyKey && refundFaultsOf.cutAndHold(payment.id, idempotencyKey, holds)) {
        // In flight at Mollie, its answer lost: the caller sees no answer while the refund is still being made.
        void holds.get(idempotencyKey)!.held.then(() => req.socket.destroy());
      }
      const answer = await idempotent(apiKey, idempotencyKey, body, () => {
        const amount = body!["amount"] as Amount | undefined;
        if (!amount || !AMOUNT.test(amount.value) || amount.currency !== payment.amount.currency)
          return problem(422, "Unprocessable Entity", "The amount is invalid", "amount");
        if (payment.status !== "paid" || cents(amount) > leftToRefund(payment))
          return problem(422, "Unprocessable Entity", "The payment cannot be refunded", "amount");
        return {
          status: 201,
          body: addRefund(payment, amount, String(body!["description"] ?? ""), body!["metadata"] ?? null),
        };
      });
      if (req.socket.destroyed) return;
      if (loseNextRefundAnswer && answer.status === 201) {
        // The refund is made, but its answer never arrives (a timeout on the caller's side).
        loseNextRefundAnswer = false;
        req.socket.destroy();
        return;
      }
      return send(res, answer);
    }
    const paymentChargebacks = /^\/v2\/payments\/([^/]+)\/chargebacks$/.exec(path);
    if (paymentChargebacks && req.method === "GET") {
      const payment = own(paymentChargebacks[1]!);
      if (!payment)
        return send(res, problem(404, "Not Found", `No payment exists with token ${paymentChargebacks[1]}.`));
      const list = chargebacks.get(payment.id) ?? [];
      return send(res, { status: 200, body: { count: list.length, _embedded: { chargebacks: list }, _links: {} } });
    }
    if (path === "/v2/customers" && req.method === "POST") {
      const answer = await idempotent(apiKey, idempotencyKey, { customers: true, ...body }, () => {
        const customer = {
          resource: "customer",
          id: newId("cst"),
          mode,
          name: String(body!["name"] ?? ""),
          email: String(body!["email"] ?? ""),
          locale: body!["locale"] ?? null,
        };
        customers.set(customer.id, customer);
        return { status: 201, body: customer };
      });
      return send(res, answer);
    }
    const customerMandates = /^\/v2\/customers\/([^/]+)\/mandates$/.exec(path);
    if (customerMandates) {
      const customerId = customerMandates[1]!;
      if (customers.get(customerId)?.mode !== mode)
        return send(res, problem(404, "Not Found", "No customer exists with token"));
      if (req.method === "GET") {
        const list = mandates.get(customerId) ?? [];
        return send(res, { status: 200, body: { count: list.length, _embedded: { mandates: list }, _links: {} } });
      }
      if (
        body!["method"] !== "directdebit" ||
        typeof body!["consumerName"] !== "string" ||
        !/^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/.test(String(body!["consumerAccount"]))
      ) {
        return send(res, problem(422, "Unprocessable Entity", "The mandate details are invalid", "consumerAccount"));
      }
      const reference = body!["mandateReference"];
      if (reference !== undefined && (typeof reference !== "string" || !MANDATE_REFERENCE.test(reference)))
        return send(res, problem(422, "Unprocessable Entity", "The mandate reference is invalid", "mandateReference"));
      const answer = await idempotent(apiKey, idempotencyKey, { customerId, ...body }, () => {
        const mandate: Mandate = {
          resource: "mandate",
          id: newId("mdt"),
          mode,
          status: "valid",
          method: "directdebit",
          customerId,
          mandateReference: (reference as string | undefined) ?? null,
        };
        mandates.set(customerId, [...(mandates.get(customerId) ?? []), mandate]);
        return { status: 201, body: mandate };
      });
      return send(res, answer);
    }
    return send(res, problem(404, "Not Found", "unknown route"));
  });

  return onLoopback(server, (at) => (origin = at));
}
