/**
 * Payment calls:
 * - POST /api/order.php `{ bundle_id, method, discount_code?, save_method? }`: a new order and where
 *   to pay it. GET /api/order.php?id= and GET /api/payment-methods.php?bundle_id= (what can pay a
 *   bundle here, from the provider's Methods API) are read sources (api/sources.ts).
 * - POST /api/repeat-order.php: the last order again (a recurring charge on the member's valid mandate when there is one).
 * - POST /api/refund.php `{ order_id }`: return the unused credits of the latest purchase.
 * - POST /api/directdebit.php (the account, `authorise: true`): texts a 6-digit code;
 *   POST /api/directdebit-confirm.php `{ bundle_id, code }`: the order, credited at once.
 * - POST /api/payment-webhook.php (form field `id`): the provider says a payment changed; the payment
 *   is read back from the provider. Called by the provider, so it is outside the same-origin check.
 * - POST /api/mollie-events.php: Mollie's signed next-gen webhook events (refunds and chargebacks,
 *   a chargeback's reversal and a refund's cancellation among them), outside that check too.
 * - /sandbox/checkout/<payment>: the offline provider's checkout page (development only).
 */
import { vValidator } from "@hono/valibot-validator";
import { type Context, Hono } from "hono";
import { blockedFor, recordFailure } from "../auth/throttle";
import {
  OrderRequest,
  RefundRequest,
  RepeatOrderRequest,
  type OrderCreated,
  type RepeatOrderResponse,
} from "../../shared/payments-api";
import type { AppEnv } from "../request-context";
import { findSandboxPayment, setSandboxStatus } from "../db/payments";
import { requireMember } from "../edge/signed-in-member";
import type { Session } from "../request-context";
import { AppError } from "../errors";
import { paymentProviderFor } from "../payments";
import { formatMoney, PAYMENT_STATUSES } from "../../shared/payments";
import { tellBalance } from "../notices/tell";
import {
  createOrder,
  repeatOrder,
  repeatPlan,
  settlePayment,
  type Buyer,
  type PaymentContext,
} from "../services/payments";
import { getUserView } from "../services/users";
import type { OrderRow } from "../db/orders";
import { DirectDebitConfirm, DirectDebitRequest } from "../../shared/direct-debit";
import { confirmDirectDebit, requestDirectDebit } from "../services/direct-debit";
import { smsSenderFor } from "../sms/sms";
import { invalidBody } from "./body";
import { selectedCountry } from "./settings";
import { refundOrder } from "../services/refunds";
import { handleMollieEvent } from "../services/payment-events";
import { MOLLIE_SIGNATURE_HEADER, MollieEvent, verifyMollieSignature } from "../payments/mollie-events";
import * as v from "valibot";

/** Orders a member may start per 15 minutes, and an address (several members behind one address). */
export const ORDERS_PER_MEMBER = 10;
const ORDERS_PER_ADDRESS = 30;
/** SMS codes an address may ask for per 15 minutes (a member has their own hourly limit). */
const SMS_CODES_PER_ADDRESS = 20;

const clientAddress = (c: Context<AppEnv>) => c.req.header("cf-connecting-ip") ?? "local";

/**
 * The site's public address: its `public_url` setting, else https://{domain}. Only the local stack
 * without the setting falls back to the address the request came in on (its sandbox checkout).
 */
function publicOrigin(c: Context<AppEnv>): string {
  const site = c.get("site");
  if (site.public_url) return site.public_url;
  return c.env.ENVIRONMENT === "development" ? new URL(c.req.url).origin : `https://${site.domain}`;
}

export function paymentContext(c: Context<AppEnv>, now = Math.floor(Date.now() / 1000)): PaymentContext & { env: Env } {
  const origin = publicOrigin(c);
  const balanceChanged = (userId: number) => c.executionCtx.waitUntil(tellBalance(c.env, userId, now));
  return {
    db: c.get("db"),
    env: c.env,
    provider: paymentProviderFor(c.env, c.get("db"), origin),
    site: c.get("site"),
    origin,
    now,
    balanceChanged,
  };
}

export async function buyerOf(c: Context<AppEnv>, session: Session): Promise<Buyer> {
  const user = await getUserView(c.get("db"), session.userId);
  if (!user)
    throw new AppError({ status: 403, code: "authentication_required", key: "errors.authentication_required" });
  return {
    userId: session.userId,
    language: c.get("locale"),
    country: selectedCountry(c),
    email: user.email,
    name: user.profile.name,
    paid: user.paid_user,
    signupDate: user.signup_date,
  };
}

/** Order creation is limited per member and per address; every attempt counts. */
async function throttleOrders(c: Context<AppEnv>, session: Session): Promise<void> {
  const keys = [`order:user:${session.userId}`, `order:ip:${clientAddress(c)}`];
  const waits = await Promise.all(keys.map((key) => blockedFor(c.get("db"), key)));
  if (waits.some((wait) => wait > 0))
    throw new AppError({ status: 429, code: "too_many_orders", key: "payments.errors.too_many_orders" });
  await Promise.all([
    recordFailure(c.get("db"), keys[0]!, ORDERS_PER_MEMBER),
    recordFailure(c.get("db"), keys[1]!, ORDERS_PER_ADDRESS),
  ]);
}

/** GET /api/repeat-order.php: what the repeat order screen states and POST charges. */
export async function loadRepeatOrder(c: Context<AppEnv>): Promise<RepeatOrderResponse> {
  const session = requireMember(c);
  const plan = await repeatPlan(
    { db: c.get("db"), site: c.get("site") },
    { userId: session.userId, country: selectedCountry(c) },
  );
  return { repeat: plan ? { bundle_id: plan.chosen.bundle.id, method: plan.chosen.method, price: plan.price } : null };
}

const created = (order: OrderRow, checkoutUrl: string | null): OrderCreated => ({
  order: { id: order.id, status: order.status as OrderCreated["order"]["status"], checkout_url: checkoutUrl },
});

/** The webhook: registered before the same-origin check (the provider is not a page of the site). */
export async function paymentWebhook(c: Context<AppEnv>): Promise<Response> {
  const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const id = Object.hasOwn(form, "id") ? form["id"] : undefined;
  if (typeof id !== "string" || !/^[A-Za-z0-9_]{1,64}$/.test(id))
    throw new AppError({
      status: 400,
      code: "invalid_parameter",
      key: "errors.invalid_parameter",
      values: { field: "id" },
      field: "id",
    });
  const result = await settlePayment(paymentContext(c), id);
  console.info(JSON.stringify({ event: "payment_webhook", requestId: c.get("requestId"), payment: id, result }));
  // Answered alike for ids the app does not know: the answer tells a caller nothing.
  return c.json({ ok: true });
}

/** The address of Mollie's next-gen webhook, subscribed to in Mollie's dashboard (docs/configuration.md). */
export const MOLLIE_EVENTS_PATH = "/api/mollie-events.php";

/** An event is a few kilobytes (an event object with its entity); anything far larger is not one. */
const MAX_EVENT_BYTES = 100_000;

/**
 * Mollie's next-gen webhook (payments/mollie-events.ts): believed only with a valid signature, then
 * acted on once per event id. Registered before the same-origin check, like the payment's webhook.
 */
export async function mollieEventsWebhook(c: Context<AppEnv>): Promise<Response> {
  const raw = new Uint8Array(await c.req.arrayBuffer());
  const invalid = () => new AppError({ status: 400, code: "invalid_body", key: "errors.invalid_body" });
  if (raw.length > MAX_EVENT_BYTES) throw invalid();
  if (!(await verifyMollieSignature(c.env.MOLLIE_WEBHOOK_SECRET, c.req.header(MOLLIE_SIGNATURE_HEADER) ?? null, raw))) {
    console.warn(JSON.stringify({ event: "mollie_event_refused", requestId: c.get("requestId") }));
    throw new AppError({ status: 401, code: "invalid_signature", key: "errors.invalid_body" });
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
  } catch {
    throw invalid();
  }
  const event = v.safeParse(MollieEvent, json);
  if (!event.success) throw invalid();
  const result = await handleMollieEvent(paymentContext(c), event.output);
  console.info(
    JSON.stringify({
      event: "mollie_event",
      requestId: c.get("requestId"),
      id: event.output.id,
      type: event.output.type,
      entity: event.output.entityId,
      result,
    }),
  );
  return c.json({ ok: true });
}

export const paymentRoutes = new Hono<AppEnv>()
  .post("/api/order.php", vValidator("json", OrderRequest, invalidBody), async (c) => {
    const session = requireMember(c);
    const body = c.req.valid("json");
    const [, buyer] = await Promise.all([throttleOrders(c, session), buyerOf(c, session)]);
    const { order, checkoutUrl } = await createOrder(paymentContext(c), buyer, {
      bundleId: body.bundle_id,
      method: body.method,
      discountCode: body.discount_code,
      expectedAmount: body.expected_amount,
      saveMethod: body.save_method,
    });
    return c.json(created(order, checkoutUrl), 201);
  })
  .post("/api/repeat-order.php", vValidator("json", RepeatOrderRequest, invalidBody), async (c) => {
    const session = requireMember(c);
    await throttleOrders(c, session);
    const { order, checkoutUrl } = await repeatOrder(
      paymentContext(c),
      await buyerOf(c, session),
      c.req.valid("json").expected_amount,
    );
    return c.json(created(order, checkoutUrl), 201);
  })
  .post("/api/directdebit.php", vValidator("json", DirectDebitRequest, invalidBody), async (c) => {
    const session = requireMember(c);
    const body = c.req.valid("json");
    const key = `sms:ip:${clientAddress(c)}`;
    if ((await blockedFor(c.get("db"), key)) > 0)
      throw new AppError({ status: 429, code: "too_many_codes", key: "payments.dd.too_many_codes" });
    await recordFailure(c.get("db"), key, SMS_CODES_PER_ADDRESS);
    const ctx = paymentContext(c);
    const sent = await requestDirectDebit(
      ctx,
      smsSenderFor(c.env, ctx.db, ctx.origin),
      c.get("t"),
      await buyerOf(c, session),
      {
        bundleId: body.bundle_id,
        accountHolder: body.account_holder,
        iban: body.iban,
        street: body.street,
        houseNumber: body.house_number,
        postalCode: body.postal_code,
        city: body.city,
        mobile: body.mobile,
      },
    );
    return c.json({ sent: true, ...sent });
  })
  .post("/api/directdebit-confirm.php", vValidator("json", DirectDebitConfirm, invalidBody), async (c) => {
    const session = requireMember(c);
    const body = c.req.valid("json");
    const order = await confirmDirectDebit(paymentContext(c), await buyerOf(c, session), {
      bundleId: body.bundle_id,
      code: body.code,
    });
    return c.json(created(order, null), 201);
  })
  .post("/api/refund.php", vValidator("json", RefundRequest, invalidBody), async (c) => {
    const session = requireMember(c);
    const order = await refundOrder(paymentContext(c), session.userId, c.req.valid("json").order_id);
    return c.json({
      order: {
        id: order.id,
        status: order.status,
        refunded_credits: order.refundedCredits,
        refunded_amount: order.refundedCents,
      },
    });
  });

/**
 * The sandbox's checkout page and its buttons; both answer 404 unless ENVIRONMENT is development.
 * `deliver` hands a request to the app itself: that is how the sandbox calls the webhook.
 */
export const sandboxRoutes = (deliver: (request: Request, c: Context<AppEnv>) => Promise<Response>) =>
  new Hono<AppEnv>()
    .get("/sandbox/checkout/:id", async (c, next) => {
      if (c.env.ENVIRONMENT !== "development") return next();
      const payment = await findSandboxPayment(c.get("db"), c.req.param("id"));
      if (!payment) return next();
      const t = c.get("t");
      const amount = formatMoney(payment.amountCents, payment.currency, c.get("locale"));
      const buttons = PAYMENT_STATUSES.filter((s) => s !== "pending" && s !== "authorized")
        .map((s) => `<button name="status" value="${s}">${s}</button>`)
        .join(" ");
      const escape = (text: string) => text.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
      return c.html(
        `<!doctype html><html lang="${c.get("locale")}"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escape(t("payments.sandbox.title"))}</title>
<body style="font-family:sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem"><h1>${escape(t("payments.sandbox.title"))}</h1>
<p>${escape(payment.description)}</p><p><strong>${escape(amount)}</strong> · ${escape(payment.method ?? "")} · ${escape(payment.status)}</p>
<p>${escape(t("payments.sandbox.choose"))}</p><form method="post">${buttons}</form></body></html>`,
      );
    })
    .post("/sandbox/checkout/:id", async (c, next) => {
      if (c.env.ENVIRONMENT !== "development") return next();
      const db = c.get("db");
      const payment = await findSandboxPayment(db, c.req.param("id"));
      if (!payment) return next();
      const form = await c.req.parseBody();
      const status = Object.hasOwn(form, "status") ? form["status"] : undefined;
      if (typeof status !== "string" || !["open", "paid", "failed", "canceled", "expired"].includes(status))
        throw new AppError({
          status: 400,
          code: "invalid_parameter",
          key: "errors.invalid_parameter",
          values: { field: "status" },
          field: "status",
        });
      if (status !== "open" && (await setSandboxStatus(db, payment.id, status))) {
        // Like the provider: the webhook gets the payment's id only, and the app reads the rest back.
        await deliver(
          new Request(payment.webhookUrl, { method: "POST", body: new URLSearchParams({ id: payment.id }) }),
          c,
        );
      }
      return c.redirect(payment.redirectUrl, 303);
    });
