/**
 * What the console's tests share: requests to the console host as Access would pass them (a token of
 * the Access stand-in in Cf-Access-Jwt-Assertion), the env that points the Worker at the stand-in,
 * and operators made straight in D1.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { databaseOf } from "../src/server/db/database";
import { putOperatorQueries, type OperatorRole } from "../src/server/db/operators";
import { app } from "../src/server/app";
import { ACCESS_AUD, type TokenRequest } from "./access-stand-in";
import { STAND_IN_KEY } from "./mollie-stand-in";

export const CONSOLE_ORIGIN = `https://${env.OPERATOR_HOST}`;
const accessUrl = inject("accessUrl");
const mollieUrl = inject("mollieUrl");

/** The Worker's env in production behind Access, whose team domain is the stand-in. */
export const productionEnv = { ...env, ENVIRONMENT: "production", ACCESS_TEAM_DOMAIN: accessUrl, ACCESS_AUD };

/** A token of the Access stand-in (valid for the console unless the request says otherwise). */
export async function accessToken(request: TokenRequest = {}): Promise<string> {
  const response = await fetch(`${accessUrl}/_stand-in/token`, { method: "POST", body: JSON.stringify(request) });
  return ((await response.json()) as { token: string }).token;
}

let made = 0;
/** An active operator with these roles, made straight in D1; answers their address. */
export async function operator(...roles: OperatorRole[]): Promise<string> {
  const email = `op${++made}-${Math.random().toString(36).slice(2, 8)}@flirtwave.test`;
  const db = databaseOf(env.DB);
  await db.batch(putOperatorQueries(db, email, roles, Math.floor(Date.now() / 1000)));
  return email;
}

type ConsoleInit = {
  method?: string;
  token?: string | null;
  form?: Record<string, string | string[]>;
  /** A raw body, sent as it is (with the content type given in `headers`). */
  body?: string;
  headers?: Record<string, string>;
  workerEnv?: Env;
};

/**
 * A request to the console as a browser behind Access sends it: the token, and on writes the form
 * script's X-Request-Type and the console's own Origin (each can be left out or changed).
 */
export async function consoleFetch(path: string, init: ConsoleInit = {}): Promise<Response> {
  const method = init.method ?? (init.form ? "POST" : "GET");
  const headers = new Headers(init.headers);
  if (init.token) headers.set("cf-access-jwt-assertion", init.token);
  if (method !== "GET") {
    if (!headers.has("x-request-type")) headers.set("x-request-type", "console");
    if (!headers.has("origin")) headers.set("origin", CONSOLE_ORIGIN);
    if (!headers.has("accept")) headers.set("accept", "application/json");
  }
  let body: string | null = init.body ?? null;
  if (init.form) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(init.form)) for (const one of [value].flat()) params.append(key, one);
    body = params.toString();
    headers.set("content-type", "application/x-www-form-urlencoded");
  }
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(CONSOLE_ORIGIN + path, { method, headers, body, redirect: "manual" }),
    init.workerEnv ?? productionEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/** The same request with a valid Access token for this operator. */
export async function asOperator(
  email: string,
  path: string,
  init: Omit<ConsoleInit, "token"> = {},
): Promise<Response> {
  return consoleFetch(path, { ...init, token: await accessToken({ email }) });
}

/** The console in production with Mollie's stand-in as the payment provider (refunds reach it). */
export const mollieConsole = {
  ...productionEnv,
  PAYMENT_PROVIDER: "mollie",
  MOLLIE_API_URL: mollieUrl,
  MOLLIE_API_KEY: STAND_IN_KEY,
};

/** The refunds of one payment the Mollie stand-in was asked for. */
export async function refundsAtStandIn(paymentId: string): Promise<number> {
  const requests = await (
    await fetch(`${mollieUrl.replace(/\/v2$/, "")}/_stand-in/requests`)
  ).json<{ method: string; path: string }[]>();
  return requests.filter((r) => r.method === "POST" && r.path === `/v2/payments/${paymentId}/refunds`).length;
}

/**
 * An order of the member paid at the Mollie stand-in and credited with 50 credits, as the webhook
 * would leave it (the balance the sum of the ledger).
 */
export async function paidOrder(
  member: { userId: number },
  site: string,
  cents: number,
): Promise<{ orderId: number; paymentId: string }> {
  const payment = await (
    await fetch(`${mollieUrl}/payments`, {
      method: "POST",
      headers: { authorization: `Bearer ${STAND_IN_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({
        amount: { currency: "EUR", value: (cents / 100).toFixed(2) },
        description: "test",
        redirectUrl: `http://${site}/credits`,
        method: "ideal",
      }),
    })
  ).json<{ id: string }>();
  await fetch(`${mollieUrl.replace(/\/v2$/, "")}/_stand-in/payments/${payment.id}/status`, {
    method: "POST",
    body: JSON.stringify({ status: "paid" }),
  });
  const order = await env.DB.prepare(
    "INSERT INTO orders (user_id, site_domain, bundle_id, credits, amount_cents, currency, payment_method, country, status, credited_at) VALUES (?, ?, 1, 50, ?, 'EUR', 'ideal', 'NL', 'paid', ?) RETURNING id",
  )
    .bind(member.userId, site, cents, Math.floor(Date.now() / 1000))
    .first<{ id: number }>();
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO payments (order_id, provider, provider_payment_id, status, amount_cents, currency) VALUES (?, 'mollie:test', ?, 'paid', ?, 'EUR')",
    ).bind(order!.id, payment.id, cents),
    env.DB.prepare("UPDATE users SET credits = 50 WHERE id = ?").bind(member.userId),
    env.DB.prepare(
      "INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?1, 50 - (SELECT COALESCE(SUM(delta), 0) FROM credit_ledger WHERE user_id = ?1), 'bonus')",
    ).bind(member.userId),
  ]);
  return { orderId: order!.id, paymentId: payment.id };
}
