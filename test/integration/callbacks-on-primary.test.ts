/**
 * Issue 38, point 4: a provider's callback is told about a row the site wrote a moment ago (an
 * order, a member whose first mail bounced, an SMS just sent) and brings no bookmark. On a replica
 * that has not seen that row yet it would answer 200 for an unknown id and the provider would not
 * call again; so every callback reads and writes the primary (PROVIDER_CALLBACKS). Here each one is
 * called while every other session reads a copy of D1 taken before the row was written
 * (test/lagging-replica.ts): it still finds its row; and with its route taken out of the list the
 * same call misses it, which shows the lag is real.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { app } from "../../src/server/app";
import { PROVIDER_CALLBACKS } from "../../src/server/edge/d1-session";
import { smsSenderFor } from "../../src/server/sms/sms";
import type { OrderCreated, OrderResponse } from "../../src/shared/payments-api";
import { chatMember, creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { lagBehind, prepareReplica, snapshot } from "../lagging-replica";
import { STAND_IN_KEY } from "../mollie-stand-in";
import { SNS_TOPIC } from "../ses-stand-in";
import { SINCH_PLAN, SINCH_TOKEN } from "../sinch-stand-in";

const ORIGIN = "http://replicas.test";
const mollieUrl = inject("mollieUrl");
const resendUrl = inject("resendUrl");
const sesUrl = inject("sesUrl");
const smsUrl = inject("smsUrl");
const configured: Env = {
  ...env,
  PAYMENT_PROVIDER: "mollie",
  MOLLIE_API_URL: mollieUrl,
  MOLLIE_API_KEY: STAND_IN_KEY,
  MAIL_SNS_TOPIC_ARNS: SNS_TOPIC,
  MAIL_SNS_CERT_ORIGIN: sesUrl,
  SMS_PROVIDER: "sinch",
  SMS_API_URL: smsUrl,
  SMS_SERVICE_PLAN_ID: SINCH_PLAN,
  SMS_API_KEY: SINCH_TOKEN,
};

beforeAll(async () => {
  await putSites(site("replicas.test", { public_url: "https://pay.flirtwave.example" }));
  await prepareReplica();
});
afterEach(() => vi.restoreAllMocks());

/** A request to the app, as the member's page makes it (with `caller`) or as a provider does. */
async function call(caller: Member | null, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (caller) {
    headers.set("cookie", [...caller.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    headers.set("origin", ORIGIN);
    headers.set("x-request-type", "client");
  }
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(ORIGIN + path, { ...init, headers }), configured, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const post = async <T>(url: string, body: unknown): Promise<T> =>
  (await fetch(url, { method: "POST", body: JSON.stringify(body) })).json<T>();
const emailOf = async (m: Member) =>
  (await env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(m.userId).first<{ email: string }>())!.email;
const stopsOf = async (m: Member) =>
  (await env.DB.prepare("SELECT reason FROM mail_stops WHERE user_id = ?").bind(m.userId).all<{ reason: string }>())
    .results.length;

/**
 * Run `callback` while D1 lags behind: with its route on the list (as the app has it) or taken out.
 * Answers the constraint the callback's session started with.
 */
async function onLaggingReplica(path: string, listed: boolean, callback: () => Promise<Response>): Promise<string> {
  const list = PROVIDER_CALLBACKS as string[];
  const at = list.indexOf(path);
  expect(at, path).toBeGreaterThanOrEqual(0);
  if (!listed) list.splice(at, 1);
  const { opened } = lagBehind();
  try {
    const res = await callback();
    expect(res.status, path).toBe(200);
  } finally {
    vi.restoreAllMocks();
    if (!listed) list.splice(at, 0, path);
  }
  return opened[0]!;
}

describe("a provider's callback on a replica that has not seen its row yet", () => {
  it("the Mollie webhook credits an order written after the replica's copy", async () => {
    const credited = async (listed: boolean) => {
      const m = await chatMember(ORIGIN);
      await snapshot();
      const res = await call(m, "/api/order.php", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ bundle_id: 1, method: "ideal" }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const { order } = await res.json<OrderCreated>();
      const view = (await (await call(m, `/api/order.php?id=${order.id}`)).json<OrderResponse>()).order;
      const standIn = mollieUrl.replace(/\/v2$/, "");
      await post(`${standIn}/_stand-in/payments/${view.payment_id}/status`, { status: "paid" });
      const started = await onLaggingReplica("/api/payment-webhook.php", listed, () =>
        call(null, "/api/payment-webhook.php", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: `id=${view.payment_id}`,
        }),
      );
      expect(started).toBe(listed ? "first-primary" : "first-unconstrained");
      return (await creditsOf(m)) > 0;
    };
    expect(await credited(true)).toBe(true);
    expect(await credited(false)).toBe(false);
  });

  /** Whether a bounce report (made by `report` for the address) stops the mail of a member who signed up after the copy. */
  async function bounceStops(path: string, listed: boolean, report: (to: string) => Promise<RequestInit>) {
    await snapshot();
    const m = await chatMember(ORIGIN);
    const init = await report(await emailOf(m));
    await onLaggingReplica(path, listed, () => call(null, path, { method: "POST", ...init }));
    return (await stopsOf(m)) > 0;
  }

  it("Resend's bounce report stops the mail of a member who signed up after the replica's copy", async () => {
    const resendBounce = async (to: string) => {
      const event = await post<{ body: string; headers: Record<string, string> }>(`${resendUrl}/_stand-in/webhooks`, {
        type: "email.bounced",
        to,
      });
      return { headers: event.headers, body: event.body };
    };
    expect(await bounceStops("/api/mail-webhook.php", true, resendBounce)).toBe(true);
    expect(await bounceStops("/api/mail-webhook.php", false, resendBounce)).toBe(false);
  });

  it("an SES bounce through SNS stops the mail of a member who signed up after the replica's copy", async () => {
    const snsBounce = async (to: string) => {
      const message = await post<Record<string, string>>(`${sesUrl}/_stand-in/sns`, { kind: "Bounce", to });
      return {
        headers: { "content-type": "text/plain; charset=UTF-8", "x-amz-sns-message-type": message.Type! },
        body: JSON.stringify(message),
      };
    };
    expect(await bounceStops("/api/mail-sns.php", true, snsBounce)).toBe(true);
    expect(await bounceStops("/api/mail-sns.php", false, snsBounce)).toBe(false);
  });

  it("Sinch's delivery report records the status of an SMS sent after the replica's copy", async () => {
    let number = 0;
    const recorded = async (listed: boolean) => {
      await snapshot();
      const to = `+3584012${String(++number).padStart(5, "0")}`;
      await smsSenderFor(configured, databaseOf(env.DB), null).send(
        { to: { e164: to as never, country: "FI" }, text: "Just sent", from: "Textwave" },
        Math.floor(Date.now() / 1000),
      );
      const batch = (await (await fetch(`${smsUrl}/_stand-in/batches`)).json<{ id: string; to: string[] }[]>()).at(-1)!;
      expect(batch.to).toEqual([to]);
      const report = await post<{ body: string; headers: Record<string, string> }>(`${smsUrl}/_stand-in/reports`, {
        batch_id: batch.id,
        status: "Delivered",
      });
      await onLaggingReplica("/api/sms-report.php", listed, () =>
        call(null, "/api/sms-report.php", { method: "POST", headers: report.headers, body: report.body }),
      );
      const row = await env.DB.prepare("SELECT delivery_status FROM outgoing_sms WHERE provider_id = ?")
        .bind(batch.id)
        .first<{ delivery_status: string | null }>();
      return row!.delivery_status === "Delivered";
    };
    expect(await recorded(true)).toBe(true);
    expect(await recorded(false)).toBe(false);
  });
});
