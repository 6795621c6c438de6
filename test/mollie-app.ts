/**
 * The app configured with the Mollie provider against the Mollie stand-in (test/mollie-stand-in.ts),
 * as the Mollie tests drive it: the member's browser, the stand-in's control routes (the test plays
 * the customer, the dashboard and the bank) and the deliveries of Mollie's webhooks.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { expect, inject } from "vitest";
import { app } from "../src/server/app";
import * as schema from "../src/server/db/schema";
import { ledgerSum } from "../src/server/db/ledger";
import type { OrderCreated, OrderResponse } from "../src/shared/payments-api";
import type { SiteSettings } from "../src/shared/settings";
import { chatMember, creditsOf, type Member } from "./chat";
import { site } from "./fixtures";
import { STAND_IN_KEY, STAND_IN_LIVE_KEY, type NextGenEvent, type WebhookCall } from "./mollie-stand-in";

export const ORIGIN = "http://mollie.test";
export const PUBLIC_URL = "https://pay.flirtwave.example";
export const mollieUrl = inject("mollieUrl");
export const standIn = mollieUrl.replace(/\/v2$/, "");
export const mollieEnv = {
  ...env,
  PAYMENT_PROVIDER: "mollie",
  MOLLIE_API_URL: mollieUrl,
  MOLLIE_API_KEY: STAND_IN_KEY,
};
export const liveEnv = { ...mollieEnv, MOLLIE_API_KEY: STAND_IN_LIVE_KEY };
export const db = drizzle(env.DB, { schema });

export const SITES: SiteSettings[] = [
  site("mollie.test", { public_url: PUBLIC_URL }),
  site("dk.mollie.test", {
    countries: ["DK"],
    domain_language: "da",
    minimum_message_costs: { DK: { costs: 4, currency: "DKK" } },
    pricing: {
      DK: {
        currency: "DKK",
        vat_rate: 25,
        methods: ["ideal", "mobilepay", "creditcard", "paypal", "klarna", "trustly"],
        bundles: [{ id: 1, credits: 50, amount: 7500 }],
      },
    },
  }),
  site("pl.mollie.test", {
    countries: ["PL"],
    domain_language: "pl",
    minimum_message_costs: { PL: { costs: 2, currency: "PLN" } },
    pricing: {
      PL: {
        currency: "PLN",
        vat_rate: 23,
        methods: ["blik", "przelewy24", "bancontact", "creditcard"],
        bundles: [{ id: 1, credits: 50, amount: 4500 }],
      },
    },
  }),
  site("ch.mollie.test", {
    countries: ["CH"],
    domain_language: "de",
    minimum_message_costs: { CH: { costs: 0.5, currency: "CHF" } },
    pricing: {
      CH: {
        currency: "CHF",
        vat_rate: 8.1,
        methods: ["twint", "ideal", "creditcard", "paypal"],
        bundles: [{ id: 1, credits: 50, amount: 1095 }],
      },
    },
  }),
  site("de.mollie.test", {
    countries: ["DE"],
    domain_language: "de",
    minimum_message_costs: { DE: { costs: 0.5, currency: "EUR" } },
    pricing: {
      DE: {
        currency: "EUR",
        vat_rate: 19,
        methods: ["klarna", "creditcard", "directdebit"],
        bundles: [{ id: 1, credits: 50, amount: 995 }],
      },
    },
  }),
];

export type Init = {
  method?: string;
  json?: unknown;
  form?: Record<string, string>;
  raw?: { contentType: string; body: string };
  headers?: Record<string, string>;
};

/** A request from the member's browser to the app configured with the Mollie provider. */
export async function call(
  caller: Member | null,
  path: string,
  init: Init = {},
  configured: Env = mollieEnv,
  origin = ORIGIN,
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (caller) headers.set("cookie", [...caller.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  if (init.method && init.method !== "GET" && caller) {
    headers.set("origin", origin);
    headers.set("x-request-type", "client");
    headers.set("cf-connecting-ip", `10.1.${caller.userId >> 8}.${caller.userId & 255}`);
  }
  let body: BodyInit | null = null;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  } else if (init.form) body = new URLSearchParams(init.form);
  else if (init.raw) {
    headers.set("content-type", init.raw.contentType);
    body = init.raw.body;
  }
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(origin + path, { method: init.method ?? "GET", headers, body }),
    configured,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/** The stand-in's control routes: the test plays the customer, the dashboard and the bank. */
export const control = async <T = unknown>(path: string, body?: unknown): Promise<T> => {
  const res = await fetch(
    `${standIn}/_stand-in${path}`,
    body === undefined ? {} : { method: "POST", body: JSON.stringify(body) },
  );
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.json<T>();
};
export const setStatus = (id: string, status: string, extra: Record<string, unknown> = {}) =>
  control(`/payments/${id}/status`, { status, ...extra });
export const requests = async () =>
  control<{ method: string; path: string; idempotencyKey: string | null; body: Record<string, unknown> }[]>(
    "/requests",
  );
/** The last payment create of this test file's orders (other files' tests use the same stand-in at the same time). */
export async function lastCreate() {
  const own = new Set(
    (await env.DB.prepare("SELECT idempotency_key AS k FROM orders").all<{ k: string | null }>()).results.map(
      (r) => r.k,
    ),
  );
  return (await requests())
    .filter((r) => r.path === "/v2/payments" && r.method === "POST" && own.has(r.idempotencyKey))
    .at(-1)!;
}

/** Mollie's calls of the payment's webhook (form-encoded `id=tr_…`) not yet delivered, delivered to the app as Mollie makes them. */
const delivered = new Map<string, number>();
export async function deliverWebhooks(paymentId: string, configured: Env = mollieEnv): Promise<number> {
  const calls = await control<WebhookCall[]>(`/payments/${paymentId}/webhooks`);
  const fresh = calls.slice(delivered.get(paymentId) ?? 0);
  delivered.set(paymentId, calls.length);
  for (const hook of fresh) {
    const url = new URL(hook.url);
    expect(hook.contentType).toBe("application/x-www-form-urlencoded");
    expect(hook.body).toBe(`id=${paymentId}`);
    const res = await call(
      null,
      url.pathname,
      { method: "POST", raw: { contentType: hook.contentType, body: hook.body } },
      configured,
    );
    expect(res.status).toBe(200);
  }
  return fresh.length;
}
/** Mollie's next-gen webhook events about a payment not yet delivered, delivered as Mollie makes them (signed JSON). */
const deliveredEvents = new Map<string, number>();
export async function deliverEvents(paymentId: string, configured: Env = mollieEnv): Promise<NextGenEvent[]> {
  const all = await control<NextGenEvent[]>(`/payments/${paymentId}/events`);
  const fresh = all.slice(deliveredEvents.get(paymentId) ?? 0);
  deliveredEvents.set(paymentId, all.length);
  for (const event of fresh) expect((await sendEvent(event, configured)).status).toBe(200);
  return fresh;
}

/** One delivery of a next-gen event to the app, its signature as given unless the test forges it. */
export const sendEvent = (
  event: Pick<NextGenEvent, "contentType" | "signature" | "body">,
  configured: Env = mollieEnv,
  signature: string | null = event.signature,
) =>
  call(
    null,
    "/api/mollie-events.php",
    {
      method: "POST",
      raw: { contentType: event.contentType, body: event.body },
      headers: signature === null ? {} : { "x-mollie-signature": signature },
    },
    configured,
  );

export const webhook = (id: string, configured: Env = mollieEnv) =>
  call(null, "/api/payment-webhook.php", { method: "POST", form: { id } }, configured);

/** A member whose books start balanced: the fixture sets the balance, a ledger row records it. */
export async function member(origin = ORIGIN): Promise<Member> {
  const m = await chatMember(origin);
  await env.DB.prepare(
    "INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?1, (SELECT credits FROM users WHERE id = ?1) - (SELECT SUM(delta) FROM credit_ledger WHERE user_id = ?1), 'bonus')",
  )
    .bind(m.userId)
    .run();
  return m;
}

export async function expectBooksBalanced(m: Member) {
  expect(await ledgerSum(db, m.userId)).toBe(await creditsOf(m));
}

export async function order(
  m: Member,
  body: Record<string, unknown> = { bundle_id: 1, method: "ideal" },
  configured: Env = mollieEnv,
  origin = ORIGIN,
) {
  const res = await call(m, "/api/order.php", { method: "POST", json: body }, configured, origin);
  expect(res.status, await res.clone().text()).toBe(201);
  const created = (await res.json<OrderCreated>()).order;
  return { created, view: await orderView(m, created.id, configured, origin) };
}

export async function orderView(m: Member, id: number, configured: Env = mollieEnv, origin = ORIGIN) {
  return (await (await call(m, `/api/order.php?id=${id}`, {}, configured, origin)).json<OrderResponse>()).order;
}

/** An order paid by the member at the provider and the webhook delivered. */
export async function paidOrder(m: Member, body: Record<string, unknown> = { bundle_id: 1, method: "ideal" }) {
  const { created, view } = await order(m, body);
  await setStatus(view.payment_id!, "paid");
  await deliverWebhooks(view.payment_id!);
  return { id: created.id, paymentId: view.payment_id! };
}

export const directDebitForm = (m: Member) => ({
  bundle_id: 1,
  account_holder: "Jan de Vries",
  iban: "NL91 ABNA 0417 1643 00",
  street: "Damrak",
  house_number: "1",
  postal_code: "1012 LG",
  city: "Amsterdam",
  mobile: `+3161${String(m.userId).padStart(7, "0")}`,
  authorise: true,
});

/** Direct debit confirmed with the texted code: credited at once; answers the order and its debit's payment id. */
export async function directDebitOrder(m: Member, origin = ORIGIN) {
  const form = directDebitForm(m);
  expect((await call(m, "/api/directdebit.php", { method: "POST", json: form }, mollieEnv, origin)).status).toBe(200);
  const sms = await env.DB.prepare("SELECT text FROM outgoing_sms WHERE to_number = ? ORDER BY id DESC")
    .bind(form.mobile)
    .first<{ text: string }>();
  const code = /\b(\d{6})\b/.exec(sms!.text)![1]!;
  const res = await call(
    m,
    "/api/directdebit-confirm.php",
    { method: "POST", json: { bundle_id: 1, code } },
    mollieEnv,
    origin,
  );
  expect(res.status, await res.clone().text()).toBe(201);
  const { order: created } = await res.json<OrderCreated>();
  return { id: created.id, paymentId: (await orderView(m, created.id, mollieEnv, origin)).payment_id! };
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
