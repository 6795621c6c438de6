import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { app } from "../../src/server/app";
import { MollieProvider } from "../../src/server/payments/mollie";
import type { OrderCreated, OrderResponse } from "../../src/shared/payments-api";
import { chatMember, creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { STAND_IN_KEY } from "../mollie-stand-in";

const ORIGIN = "http://mollie.test";
const mollieUrl = inject("mollieUrl");
const standIn = mollieUrl.replace(/\/v2$/, "");
const mollieEnv = { ...env, PAYMENT_PROVIDER: "mollie", MOLLIE_API_URL: mollieUrl, MOLLIE_API_KEY: STAND_IN_KEY };

beforeAll(async () => {
  await putSites(site("mollie.test"));
});

/** A request from the member's browser to the app configured with the Mollie provider. */
async function call(member: Member | null, path: string, init: { method?: string; json?: unknown; form?: Record<string, string> } = {}, configured: Env = mollieEnv): Promise<Response> {
  const headers = new Headers();
  if (member) headers.set("cookie", [...member.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  if (init.method && init.method !== "GET" && member) {
    headers.set("origin", ORIGIN);
    headers.set("x-request-type", "client");
    headers.set("cf-connecting-ip", `10.1.${member.userId >> 8}.${member.userId & 255}`);
  }
  let body: BodyInit | null = null;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  } else if (init.form) body = new URLSearchParams(init.form);
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(ORIGIN + path, { method: init.method ?? "GET", headers, body }), configured, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const setStatus = (id: string, status: string) => fetch(`${standIn}/_stand-in/payments/${id}/status`, { method: "POST", body: JSON.stringify({ status }) });
const requests = async () => (await (await fetch(`${standIn}/_stand-in/requests`)).json()) as { method: string; path: string; idempotencyKey: string | null; body: Record<string, unknown> }[];
const webhook = (id: string, configured: Env = mollieEnv) => call(null, "/api/payment-webhook.php", { method: "POST", form: { id } }, configured);

async function order(member: Member, body: Record<string, unknown> = { bundle_id: 1, method: "ideal" }) {
  const res = await call(member, "/api/order.php", { method: "POST", json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  const created = (await res.json<OrderCreated>()).order;
  const { order: view } = await (await call(member, `/api/order.php?id=${created.id}`)).json<OrderResponse>();
  return { created, view };
}

describe("the Mollie adapter against a stand-in of its API", () => {
  it("creates a payment with amount, description, URLs, method, locale, metadata and an Idempotency-Key", async () => {
    const member = await chatMember(ORIGIN);
    const { created, view } = await order(member);
    expect(created.checkout_url).toMatch(/^https:\/\/www\.mollie\.com\/checkout\//);
    expect(view.payment_id).toMatch(/^tr_/);
    const sent = (await requests()).filter((r) => r.path === "/v2/payments" && r.method === "POST").at(-1)!;
    expect(sent.idempotencyKey).toBe(`order-${created.id}`);
    expect(sent.body).toMatchObject({
      amount: { currency: "EUR", value: "9.95" },
      description: expect.stringContaining("50 credits"),
      redirectUrl: `${ORIGIN}/credits/1/ideal?order=${created.id}`,
      webhookUrl: `${ORIGIN}/api/payment-webhook.php`,
      method: "ideal",
      locale: "en_US",
      metadata: { order_id: created.id },
      sequenceType: "first",
    });
    // The same key again: the provider answers the payment it made, not a second one.
    const provider = new MollieProvider(STAND_IN_KEY, mollieUrl);
    const again = await provider.createPayment({ amount: 995, currency: "EUR", description: "x", redirectUrl: "http://x/", webhookUrl: "http://x/", method: "ideal", locale: "nl_NL", metadata: { order_id: created.id }, idempotencyKey: `order-${created.id}` });
    expect(again.id).toBe(view.payment_id);
    expect(await provider.getPayment("tr_unknown123")).toBeNull();
    expect(await provider.getPayment("../customers")).toBeNull();
  });

  for (const status of ["paid", "failed", "canceled", "expired"]) {
    it(`${status}: the webhook reads the payment back and records it; only paid credits`, async () => {
      const member = await chatMember(ORIGIN);
      const { created, view } = await order(member);
      await setStatus(view.payment_id!, status);
      for (let i = 0; i < 5; i++) expect((await webhook(view.payment_id!)).status).toBe(200);
      const { order: after } = await (await call(member, `/api/order.php?id=${created.id}`)).json<OrderResponse>();
      expect(after.status).toBe(status);
      expect(await creditsOf(member)).toBe(status === "paid" ? 50 : 0);
      const gets = (await requests()).filter((r) => r.method === "GET" && r.path === `/v2/payments/${view.payment_id}`);
      expect(gets.length).toBe(5);
    });
  }

  it("open: a webhook before the member paid changes nothing; a forged id is never looked up as ours", async () => {
    const member = await chatMember(ORIGIN);
    const { created, view } = await order(member);
    await webhook(view.payment_id!);
    expect((await webhook("tr_forged0001")).status).toBe(200);
    const { order: after } = await (await call(member, `/api/order.php?id=${created.id}`)).json<OrderResponse>();
    expect(after.status).toBe("open");
    expect(await creditsOf(member)).toBe(0);
  });

  it("repeat order charges the mandate of the paid first payment as a recurring payment", async () => {
    const member = await chatMember(ORIGIN);
    const { view } = await order(member, { bundle_id: 2, method: "creditcard" });
    await setStatus(view.payment_id!, "paid");
    await webhook(view.payment_id!);
    expect(await creditsOf(member)).toBe(125);
    const res = await call(member, "/api/repeat-order.php", { method: "POST" });
    expect(res.status).toBe(201);
    const repeated = (await res.json<OrderCreated>()).order;
    expect(repeated).toMatchObject({ checkout_url: null, status: "pending" });
    const sent = (await requests()).filter((r) => r.path === "/v2/payments" && r.method === "POST").at(-1)!;
    expect(sent.body).toMatchObject({ sequenceType: "recurring", amount: { value: "19.95" }, mandateId: expect.stringMatching(/^mdt_/) });
    const { order: pending } = await (await call(member, `/api/order.php?id=${repeated.id}`)).json<OrderResponse>();
    await setStatus(pending.payment_id!, "paid");
    await webhook(pending.payment_id!);
    expect(await creditsOf(member)).toBe(250);
  });

  it("refunds the unused credits' part of the price through the API", async () => {
    const member = await chatMember(ORIGIN);
    const { created, view } = await order(member);
    await setStatus(view.payment_id!, "paid");
    await webhook(view.payment_id!);
    const res = await call(member, "/api/refund.php", { method: "POST", json: { order_id: created.id } });
    expect(res.status).toBe(200);
    const sent = (await requests()).filter((r) => r.path === `/v2/payments/${view.payment_id}/refunds`).at(-1)!;
    expect(sent.idempotencyKey).toBe(`refund-order-${created.id}`);
    expect(sent.body).toMatchObject({ amount: { currency: "EUR", value: "9.95" } });
    expect(await creditsOf(member)).toBe(0);
  });

  it("direct debit: a mandate for the account, a recurring debit credited at once, and a chargeback taking the credits back", async () => {
    const member = await chatMember(ORIGIN);
    const mobile = `+3161${String(member.userId).padStart(7, "0")}`;
    const form = { bundle_id: 1, account_holder: "Jan Jansen", iban: "NL91 ABNA 0417 1643 00", street: "Damrak", house_number: "1", postal_code: "1012 LG", city: "Amsterdam", mobile, authorise: true };
    expect((await call(member, "/api/directdebit.php", { method: "POST", json: form })).status).toBe(200);
    const sms = await env.DB.prepare("SELECT text FROM outgoing_sms WHERE to_number = ? ORDER BY id DESC").bind(mobile).first<{ text: string }>();
    const code = /\b(\d{6})\b/.exec(sms!.text)![1]!;
    const res = await call(member, "/api/directdebit-confirm.php", { method: "POST", json: { bundle_id: 1, code } });
    expect(res.status).toBe(201);
    expect(await creditsOf(member)).toBe(50);
    const sent = await requests();
    const mandate = sent.filter((r) => r.method === "POST" && /\/v2\/customers\/[^/]+\/mandates$/.test(r.path)).at(-1)!;
    expect(mandate.body).toMatchObject({ method: "directdebit", consumerName: "Jan Jansen", consumerAccount: "NL91ABNA0417164300" });
    const debit = sent.filter((r) => r.path === "/v2/payments" && r.method === "POST").at(-1)!;
    expect(debit.body).toMatchObject({ sequenceType: "recurring", method: "directdebit", amount: { value: "9.95" } });

    // The debit is collected, then the bank reverses it (a chargeback): the credits go back, direct debit is blocked.
    const { order: debitOrder } = await res.json<OrderCreated>();
    const { order: view } = await (await call(member, `/api/order.php?id=${debitOrder.id}`)).json<OrderResponse>();
    await setStatus(view.payment_id!, "paid");
    await webhook(view.payment_id!);
    expect(await creditsOf(member)).toBe(50);
    await fetch(`${standIn}/_stand-in/payments/${view.payment_id}/status`, { method: "POST", body: JSON.stringify({ chargeback: true }) });
    for (let i = 0; i < 3; i++) await webhook(view.payment_id!);
    expect(await creditsOf(member)).toBe(0);
    const { order: reversed } = await (await call(member, `/api/order.php?id=${debitOrder.id}`)).json<OrderResponse>();
    expect(reversed.status).toBe("reversed");
    const again = await call(member, "/api/directdebit.php", { method: "POST", json: form });
    expect(again.status).toBe(403);
    expect((await again.json<{ message: string }>()).message).toBe("Direct debit is blocked for your account");
  });

  it("an unreachable provider refuses the order with a clear text and credits nothing", async () => {
    const member = await chatMember(ORIGIN);
    const down = { ...mollieEnv, MOLLIE_API_URL: "http://127.0.0.1:9/v2" };
    const res = await call(member, "/api/order.php", { method: "POST", json: { bundle_id: 1, method: "ideal" } }, down);
    expect(res.status).toBe(502);
    expect((await res.json<{ message: string }>()).message).toBe("The payment could not be started, please try again later");
    expect(await creditsOf(member)).toBe(0);
    const wrongKey = { ...mollieEnv, MOLLIE_API_KEY: "test_wrong" };
    expect((await call(member, "/api/order.php", { method: "POST", json: { bundle_id: 1, method: "ideal" } }, wrongKey)).status).toBe(502);
  });
});
