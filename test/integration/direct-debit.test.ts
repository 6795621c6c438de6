import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema";
import { ledgerSum } from "../../src/server/db/ledger";
import { SandboxProvider } from "../../src/server/payments/sandbox";
import { confirmDirectDebit } from "../../src/server/services/direct-debit";
import type { OrderCreated, OrderResponse } from "../../src/shared/payments-api";
import { chatMember, creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";

const ORIGIN = "http://debit.test";
const SITE = site("debit.test", { direct_debit: { outstanding_limit_credits: 300 } });
const db = drizzle(env.DB, { schema });

beforeAll(async () => {
  await putSites(SITE);
});

let mobiles = 0;
const form = (overrides: Record<string, unknown> = {}) => ({
  bundle_id: 1,
  account_holder: "Jan Jansen",
  iban: "nl91 abna 0417 1643 00",
  street: "Damrak",
  house_number: "1",
  postal_code: "1012 LG",
  city: "Amsterdam",
  mobile: `+31 6 ${String(10_000_000 + ++mobiles).slice(-8)}`,
  authorise: true,
  ...overrides,
});

async function member(): Promise<Member> {
  const m = await chatMember(ORIGIN);
  await env.DB.prepare("DELETE FROM credit_ledger WHERE user_id = ?").bind(m.userId).run();
  return m;
}

const post = (m: Member, path: string, body: unknown) =>
  m.browser.fetch(path, {
    method: "POST",
    headers: { "cf-connecting-ip": `10.2.${m.userId >> 8}.${m.userId & 255}` },
    json: body,
  });

/** Ask for a code; the SMS outbox holds it. */
async function requestCode(m: Member, body = form()): Promise<string> {
  const res = await post(m, "/api/directdebit.php", body);
  expect(res.status, await res.clone().text()).toBe(200);
  const sms = await env.DB.prepare("SELECT text FROM outgoing_sms WHERE to_number = ? ORDER BY id DESC")
    .bind(String(body.mobile).replace(/[\s-]/g, ""))
    .first<{ text: string }>();
  return /\b(\d{6})\b/.exec(sms!.text)![1]!;
}

async function refusal(res: Response, status: number, message: string) {
  expect(res.status).toBe(status);
  expect((await json<{ message: string }>(res)).message).toBe(message);
}

const orders = async (m: Member) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?").bind(m.userId).first<{ n: number }>())!.n;

describe("direct debit", () => {
  it("checks the IBAN and the authorisation before anything is saved or sent", async () => {
    const m = await member();
    for (const [body, field] of [
      [form({ iban: "NL91ABNA0417164301" }), "iban"],
      [form({ authorise: false }), "authorise"],
      [form({ mobile: "call me" }), "mobile"],
    ] as const) {
      const res = await post(m, "/api/directdebit.php", body);
      expect(res.status).toBe(400);
      expect((await json<{ field: string }>(res)).field).toBe(field);
    }
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM direct_debit_accounts WHERE user_id = ?")
        .bind(m.userId)
        .first("n"),
    ).toBe(0);
  });

  it("a right code grants the credits at once; wrong, reused and expired codes are refused", async () => {
    const m = await member();
    const code = await requestCode(m);
    // In development the SMS is readable beside the mail.
    expect(await (await fetchWorker(`${ORIGIN}/dev/outbox`)).text()).toContain(
      `${code} is your Testwave debit.test code`,
    );
    const wrong = code === "000000" ? "111111" : "000000";
    await refusal(await post(m, "/api/directdebit-confirm.php", { bundle_id: 1, code: wrong }), 400, "Code invalid");
    expect(await orders(m)).toBe(0);

    const res = await post(m, "/api/directdebit-confirm.php", { bundle_id: 1, code });
    expect(res.status).toBe(201);
    const { order } = await json<OrderCreated>(res);
    expect(await creditsOf(m)).toBe(50);
    const view = (await json<OrderResponse>(await m.browser.fetch(`/api/order.php?id=${order.id}`))).order;
    expect(view).toMatchObject({ method: "directdebit", credited: true, status: "pending" });
    expect((await json<{ user: { paid_user: boolean } }>(await m.browser.fetch("/api/user.php"))).user.paid_user).toBe(
      true,
    );

    await refusal(await post(m, "/api/directdebit-confirm.php", { bundle_id: 1, code }), 409, "Code already used");
    expect(await creditsOf(m)).toBe(50);

    // A code older than its ten minutes is gone.
    const late = await requestCode(m);
    const ctx = {
      db,
      env,
      provider: new SandboxProvider(db, ORIGIN),
      site: SITE,
      origin: ORIGIN,
      now: Math.floor(Date.now() / 1000) + 11 * 60,
    };
    await expect(
      confirmDirectDebit(
        ctx,
        {
          userId: m.userId,
          language: "en",
          country: "NL",
          email: "x@example.com",
          name: "x",
          paid: true,
          signupDate: 0,
        },
        { bundleId: 1, code: late },
      ),
    ).rejects.toMatchObject({ code: "code_not_found" });
    expect(await orders(m)).toBe(1);
    expect(await ledgerSum(db, m.userId)).toBe(await creditsOf(m));
  });

  it("keeps a code only as a hash keyed with the Worker's secret: a copy of the database does not tell it", async () => {
    const m = await member();
    const code = await requestCode(m);
    const row = await env.DB.prepare("SELECT code_hash FROM sms_codes WHERE user_id = ? ORDER BY id DESC")
      .bind(m.userId)
      .first<{ code_hash: string }>();
    const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const text = new TextEncoder().encode(`${m.userId}:${code}`);
    expect(row!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.code_hash).not.toContain(code);
    // Not the plain hash anyone could compute for each of the million codes.
    expect(row!.code_hash).not.toBe(hex(await crypto.subtle.digest("SHA-256", text)));
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(`sms-code:${env.SESSION_SECRET}`),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    expect(row!.code_hash).toBe(hex(await crypto.subtle.sign("HMAC", key, text)));
  });

  it("a code is dead after five wrong tries, and codes are limited per hour", async () => {
    const m = await member();
    const code = await requestCode(m);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) await post(m, "/api/directdebit-confirm.php", { bundle_id: 1, code: wrong });
    await refusal(await post(m, "/api/directdebit-confirm.php", { bundle_id: 1, code }), 400, "Code invalid");
    for (let i = 0; i < 4; i++) await requestCode(m);
    await refusal(
      await post(m, "/api/directdebit.php", form()),
      429,
      "Too many codes requested, please try again later",
    );
    expect(await orders(m)).toBe(0);
  });

  it("refuses beyond the outstanding limit, and a reversal takes back the unused credits and blocks direct debit", async () => {
    const m = await member();
    await post(m, "/api/directdebit-confirm.php", { bundle_id: 1, code: await requestCode(m) });
    // 50 outstanding + 300 would pass the limit of 300.
    await refusal(
      await post(m, "/api/directdebit.php", form({ bundle_id: 3 })),
      409,
      "Limit reached: your open direct debits must be collected before you can order more this way",
    );

    // The member spends 20; then the bank reverses the debit.
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET credits = credits - 20 WHERE id = ?").bind(m.userId),
      env.DB.prepare("INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?, -20, 'message')").bind(m.userId),
    ]);
    const payment = await env.DB.prepare(
      "SELECT p.provider_payment_id AS id FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.user_id = ?",
    )
      .bind(m.userId)
      .first<{ id: string }>();
    await env.DB.prepare("UPDATE sandbox_payments SET status = 'failed' WHERE id = ?").bind(payment!.id).run();
    expect(
      (
        await fetchWorker(`${ORIGIN}/api/payment-webhook.php`, {
          method: "POST",
          body: new URLSearchParams({ id: payment!.id }),
        })
      ).status,
    ).toBe(200);
    expect(await creditsOf(m)).toBe(0);
    expect(await ledgerSum(db, m.userId)).toBe(0);
    const { order } = await json<{ order: { status: string } }>(
      await m.browser.fetch(
        `/api/order.php?id=${(await env.DB.prepare("SELECT id FROM orders WHERE user_id = ?").bind(m.userId).first<{ id: number }>())!.id}`,
      ),
    );
    expect(order.status).toBe("reversed");
    await refusal(await post(m, "/api/directdebit.php", form()), 403, "Direct debit is blocked for your account");
  });
});
