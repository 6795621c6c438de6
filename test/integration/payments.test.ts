import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema";
import { ledgerSum } from "../../src/server/db/ledger";
import { findOrder, takeBackStatements } from "../../src/server/db/orders";
import { SandboxProvider } from "../../src/server/payments/sandbox";
import { type PaymentContext } from "../../src/server/services/payments";
import type {
  OrderCreated,
  OrderResponse,
  TransactionResponse,
  TransactionsResponse,
} from "../../src/shared/payments-api";
import type { User } from "../../src/shared/api";
import { ChatSocket, chatMember, clientId, creditsOf, type Member } from "../chat";
import { COMPANY, putSites, site } from "../fixtures";
import { LANGUAGES } from "../../src/shared/locales";
import { MESSAGES } from "../../src/server/translations";
import { fetchWorker, json } from "../http";
import { jpeg, picture } from "../images";
import { refundOrder } from "../../src/server/services/refunds";

const ORIGIN = "http://pay.test";
const SITE = site("pay.test", { refund_days: 14 });
const db = drizzle(env.DB, { schema });
const NOW = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  await putSites(SITE);
});

/** A member whose books start balanced: the fixture sets the balance, a ledger row records it. */
async function member(options: { credits?: number; paid?: boolean } = {}): Promise<Member> {
  const m = await chatMember(ORIGIN, options);
  await env.DB.prepare(
    "INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?1, (SELECT credits FROM users WHERE id = ?1) - (SELECT SUM(delta) FROM credit_ledger WHERE user_id = ?1), 'bonus')",
  )
    .bind(m.userId)
    .run();
  return m;
}

/** Each member orders from an address of their own (order creation is also limited per address). */
const post = (buyer: Member, path: string, body?: unknown) =>
  buyer.browser.fetch(path, {
    method: "POST",
    headers: { "cf-connecting-ip": `10.0.${buyer.userId >> 8}.${buyer.userId & 255}` },
    ...(body === undefined ? {} : { json: body }),
  });

async function order(
  buyer: Member,
  body: Record<string, unknown> = { bundle_id: 1, method: "ideal" },
): Promise<OrderCreated["order"]> {
  const res = await post(buyer, "/api/order.php", body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json<OrderCreated>(res)).order;
}

/** The tester presses a status button on the sandbox's checkout page; the sandbox calls the webhook. */
async function press(buyer: Member, checkoutUrl: string, status: string): Promise<Response> {
  return buyer.browser.fetch(new URL(checkoutUrl).pathname, { method: "POST", body: new URLSearchParams({ status }) });
}

const webhook = (id: string, extra: Record<string, string> = {}) =>
  fetchWorker(`${ORIGIN}/api/payment-webhook.php`, { method: "POST", body: new URLSearchParams({ id, ...extra }) });

async function orderOf(buyer: Member, id: number) {
  const res = await buyer.browser.fetch(`/api/order.php?id=${id}`);
  expect(res.status).toBe(200);
  return (await json<OrderResponse>(res)).order;
}

async function userOf(buyer: Member): Promise<User> {
  return (await json<{ user: User }>(await buyer.browser.fetch("/api/user.php"))).user;
}

async function orderCount(buyer: Member): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?")
    .bind(buyer.userId)
    .first<{ n: number }>())!.n;
}

async function expectLedgerMatches(buyer: Member) {
  expect(await ledgerSum(db, buyer.userId)).toBe(await creditsOf(buyer));
}

describe("orders through the sandbox provider", () => {
  it("paid: the checkout page credits the bundle once, makes the member premium and returns to the order's page", async () => {
    const buyer = await member();
    const created = await order(buyer);
    expect(created.status).toBe("open");
    expect(created.checkout_url).toMatch(/^http:\/\/pay\.test\/sandbox\/checkout\/tr_sb/);
    const page = await buyer.browser.fetch(new URL(created.checkout_url!).pathname);
    const html = await page.text();
    for (const status of ["paid", "failed", "canceled", "expired", "open"])
      expect(html).toContain(`value="${status}">${status}</button>`);

    const back = await press(buyer, created.checkout_url!, "paid");
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(`${ORIGIN}/credits/1/ideal?order=${created.id}`);
    expect(await orderOf(buyer, created.id)).toMatchObject({
      status: "paid",
      credits: 50,
      amount: 995,
      vat: 173,
      currency: "EUR",
      method: "ideal",
    });
    expect(await creditsOf(buyer)).toBe(50);
    expect((await userOf(buyer)).paid_user).toBe(true);
    await expectLedgerMatches(buyer);
  });

  it("tells 'premium from now on' only for the purchase that made the member premium, not a second one", async () => {
    const buyer = await member();
    const madePremium = async (id: number) =>
      (await json<OrderResponse>(await buyer.browser.fetch(`/api/order.php?id=${id}`))).made_premium;
    const first = await order(buyer);
    // Not paid yet: nothing made the member premium.
    expect(await madePremium(first.id)).toBe(false);
    await press(buyer, first.checkout_url!, "paid");
    expect(await madePremium(first.id)).toBe(true);
    const second = await order(buyer);
    await press(buyer, second.checkout_url!, "paid");
    expect(await madePremium(second.id)).toBe(false);
    // The first stays the one that did.
    expect(await madePremium(first.id)).toBe(true);
  });

  for (const status of ["failed", "canceled", "expired"]) {
    it(`${status}: recorded on the order, nothing credited, still free`, async () => {
      const buyer = await member();
      const created = await order(buyer);
      await press(buyer, created.checkout_url!, status);
      expect((await orderOf(buyer, created.id)).status).toBe(status);
      expect(await creditsOf(buyer)).toBe(0);
      expect((await userOf(buyer)).paid_user).toBe(false);
    });
  }

  it("open: leaving the checkout open changes nothing, and the return page never credits by itself", async () => {
    const buyer = await member();
    const created = await order(buyer);
    await press(buyer, created.checkout_url!, "open");
    const page = await buyer.browser.fetch(`/credits/1/ideal?order=${created.id}`);
    expect(page.status).toBe(200);
    expect((await orderOf(buyer, created.id)).status).toBe("open");
    expect(await creditsOf(buyer)).toBe(0);
  });

  it("a webhook delivered five times, and paid arriving after failed, credit once", async () => {
    const buyer = await member();
    const created = await order(buyer);
    const { payment_id } = await orderOf(buyer, created.id);
    await press(buyer, created.checkout_url!, "failed");
    for (let i = 0; i < 5; i++) expect((await webhook(payment_id!)).status).toBe(200);
    expect(await creditsOf(buyer)).toBe(0);
    await press(buyer, created.checkout_url!, "paid");
    for (let i = 0; i < 5; i++) await webhook(payment_id!);
    expect(await creditsOf(buyer)).toBe(50);
    // A failure reported after the payment was paid does not move it back.
    await env.DB.prepare("UPDATE sandbox_payments SET status = 'failed' WHERE id = ?").bind(payment_id).run();
    await webhook(payment_id!);
    expect((await orderOf(buyer, created.id)).status).toBe("paid");
    expect(await creditsOf(buyer)).toBe(50);
    await expectLedgerMatches(buyer);
  });

  it("concurrent webhooks for one paid payment credit once", async () => {
    const buyer = await member();
    const created = await order(buyer);
    const { payment_id } = await orderOf(buyer, created.id);
    await env.DB.prepare("UPDATE sandbox_payments SET status = 'paid' WHERE id = ?").bind(payment_id).run();
    const answers = await Promise.all(Array.from({ length: 6 }, () => webhook(payment_id!)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(await creditsOf(buyer)).toBe(50);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM credit_ledger WHERE ref = ? AND reason = 'purchase'")
      .bind(`order:${created.id}`)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });

  it("a forged webhook credits nothing: unknown ids, and a status the provider does not confirm", async () => {
    const buyer = await member();
    const created = await order(buyer);
    const { payment_id } = await orderOf(buyer, created.id);
    expect((await webhook("tr_doesnotexist")).status).toBe(200);
    expect((await webhook(payment_id!, { status: "paid", amount: "995" })).status).toBe(200);
    expect((await orderOf(buyer, created.id)).status).toBe("open");
    expect(await creditsOf(buyer)).toBe(0);
    const bad = await fetchWorker(`${ORIGIN}/api/payment-webhook.php`, {
      method: "POST",
      body: new URLSearchParams({ id: "../../x" }),
    });
    expect(bad.status).toBe(400);
    expect(
      (
        await fetchWorker(`${ORIGIN}/api/payment-webhook.php`, {
          method: "POST",
          body: new URLSearchParams({ constructor: "x" }),
        })
      ).status,
    ).toBe(400);
  });

  it("refuses bad orders with a clear text and creates nothing", async () => {
    const buyer = await member();
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ bundle_id: 99, method: "ideal" }, 404, "bundle_not_found", "This bundle does not exist"],
      [
        { bundle_id: 1, method: "bancontact" },
        400,
        "method_not_offered",
        "This payment method is not available in your country",
      ],
      [
        { bundle_id: 1, method: "directdebit" },
        400,
        "method_not_offered",
        "This payment method is not available in your country",
      ],
      [{ bundle_id: 1, method: "bitcoin" }, 400, "invalid_parameter", "method"],
      [{ bundle_id: "1", method: "ideal" }, 400, "invalid_parameter", "bundle_id"],
      [{ bundle_id: 1, method: "ideal", discount_code: "FREE100" }, 404, "discount_not_found", "Code not found"],
    ];
    for (const [body, status, error, text] of cases) {
      const res = await post(buyer, "/api/order.php", body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      const answer = await json<{ error: string; message: string; field?: string }>(res);
      expect(answer.error).toBe(error);
      expect(answer.message.includes(text) || answer.field === text).toBe(true);
    }
    expect(await orderCount(buyer)).toBe(0);
    // The price comes from the settings, never from the request.
    const created = await order(buyer, { bundle_id: 2, method: "ideal", amount: 1, credits: 100000 });
    expect(await orderOf(buyer, created.id)).toMatchObject({ amount: 1995, credits: 125 });
    // A visitor, and a call from another site's page, are refused.
    expect(
      (
        await fetchWorker(`${ORIGIN}/api/order.php`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: ORIGIN, "x-request-type": "client" },
          body: JSON.stringify({ bundle_id: 1, method: "ideal" }),
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await buyer.browser.fetch("/api/order.php", {
          method: "POST",
          headers: { origin: "http://evil.test" },
          json: { bundle_id: 1, method: "ideal" },
        })
      ).status,
    ).toBe(403);
    expect(await orderCount(buyer)).toBe(1);
  });

  it("nobody reads or pays another member's order or receipt", async () => {
    const buyer = await member();
    const other = await member();
    const created = await order(buyer);
    for (const path of [`/api/order.php?id=${created.id}`, `/api/transaction.php?id=${created.id}`]) {
      const res = await other.browser.fetch(path);
      expect(res.status).toBe(404);
      expect((await json<{ error: string }>(res)).error).toBe("order_not_found");
    }
    const refund = await other.browser.post("/api/refund.php", { order_id: created.id });
    expect(refund.status).toBe(404);
    expect((await other.browser.fetch(`/transactions/${created.id}`)).status).toBe(404);
  });

  it("limits order creation per member", async () => {
    const buyer = await member();
    for (let i = 0; i < 10; i++) await order(buyer);
    const refused = await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal" });
    expect(refused.status).toBe(429);
    expect((await json<{ message: string }>(refused)).message).toBe(
      "Too many orders in a short time, please try again later",
    );
    expect(await orderCount(buyer)).toBe(10);
  });
});

describe("the payment pages", () => {
  it("render in all 11 languages with the country's prices, and the receipt carries the company's details", async () => {
    const buyer = await member();
    const created = await order(buyer);
    await press(buyer, created.checkout_url!, "paid");
    for (const language of LANGUAGES) {
      buyer.browser.cookies.set("locale", language);
      const messages = MESSAGES[language] as unknown as { payments: Record<string, string> };
      const price = new Intl.NumberFormat(language, { style: "currency", currency: "EUR" }).format(9.95);
      for (const [path, text] of [
        ["/credits", messages.payments.most_popular!],
        ["/credits/1", messages.payments.choose_method!],
        ["/credits/1/ideal", messages.payments.overview!],
        [`/credits/1/ideal?order=${created.id}`, messages.payments.completed_title!],
        ["/transactions", messages.payments.transactions!],
        [`/transactions/${created.id}`, COMPANY.vat_numbers[0]!],
        ["/premium", messages.payments.benefit_uploads!],
        ["/pricing", price],
      ] as const) {
        const page = await buyer.browser.fetch(path);
        expect(page.status, `${language} ${path}`).toBe(200);
        const html = (await page.text()).replaceAll("&#x27;", "'").replaceAll("&amp;", "&").replaceAll("&quot;", '"');
        expect(html, `${language} ${path}`).toContain(text);
      }
    }
  }, 60_000);

  it("limits order creation per address too", async () => {
    const address = "10.9.9.9";
    const buyers = [await member(), await member(), await member(), await member()];
    let created = 0;
    let refused: Response | null = null;
    for (const buyer of buyers) {
      for (let i = 0; i < 10 && !refused; i++) {
        const res = await buyer.browser.fetch("/api/order.php", {
          method: "POST",
          headers: { "cf-connecting-ip": address },
          json: { bundle_id: 1, method: "ideal" },
        });
        if (res.status === 201) created++;
        else refused = res;
      }
    }
    expect(created).toBe(30);
    expect(refused!.status).toBe(429);
  }, 60_000);
});

describe("transactions, repeat order and refunds", () => {
  it("lists the member's orders newest first and shows a receipt", async () => {
    const buyer = await member();
    const first = await order(buyer);
    await press(buyer, first.checkout_url!, "paid");
    const second = await order(buyer, { bundle_id: 2, method: "creditcard" });
    const list = await json<TransactionsResponse>(await buyer.browser.fetch("/api/transactions.php"));
    expect(list.orders.map((o) => o.id)).toEqual([second.id, first.id]);
    expect(list.balance).toBe(50);
    const receipt = await json<TransactionResponse>(await buyer.browser.fetch(`/api/transaction.php?id=${first.id}`));
    expect(receipt).toMatchObject({ order: { status: "paid", vat: 173 }, refundable: true });
    const page = await buyer.browser.fetch(`/transactions/${first.id}`);
    expect(page.status).toBe(200);
  });

  it("repeat last order charges the mandate of a method the member saved, without a checkout", async () => {
    const buyer = await member();
    const first = await order(buyer, { bundle_id: 1, method: "creditcard", save_method: true });
    await press(buyer, first.checkout_url!, "paid");
    const res = await post(buyer, "/api/repeat-order.php");
    expect(res.status).toBe(201);
    const repeated = (await json<OrderCreated>(res)).order;
    expect(repeated).toMatchObject({ status: "paid", checkout_url: null });
    expect(await creditsOf(buyer)).toBe(100);
    await expectLedgerMatches(buyer);
  });

  it("repeat last order without a mandate opens a new checkout with the same bundle and method", async () => {
    const buyer = await member();
    await order(buyer, { bundle_id: 2, method: "paypal" });
    const repeated = (await json<OrderCreated>(await post(buyer, "/api/repeat-order.php"))).order;
    expect(repeated.checkout_url).toMatch(/\/sandbox\/checkout\//);
    expect(await orderOf(buyer, repeated.id)).toMatchObject({ bundle_id: 2, method: "paypal", status: "open" });
    const none = await member();
    const refused = await post(none, "/api/repeat-order.php");
    expect(refused.status).toBe(404);
    expect((await json<{ message: string }>(refused)).message).toBe("You have no previous order to repeat");
  });

  it("returns the unused credits of the latest purchase within refund_days, and refuses later or spent ones", async () => {
    const buyer = await member();
    const created = await order(buyer);
    await press(buyer, created.checkout_url!, "paid");
    const paidAt = (await env.DB.prepare("SELECT credited_at FROM orders WHERE id = ?")
      .bind(created.id)
      .first<{ credited_at: number }>())!.credited_at;
    const ctx = (now: number): PaymentContext => ({
      db,
      env,
      provider: new SandboxProvider(db, ORIGIN),
      site: SITE,
      origin: ORIGIN,
      now,
    });

    await expect(refundOrder(ctx(paidAt + 15 * 86_400), buyer.userId, created.id)).rejects.toMatchObject({
      code: "refund_too_late",
    });
    expect(await creditsOf(buyer)).toBe(50);
    // Spend 20 of the 50: 30 come back with 30/50 of the price.
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET credits = credits - 20 WHERE id = ?").bind(buyer.userId),
      env.DB.prepare("INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?, -20, 'message')").bind(
        buyer.userId,
      ),
    ]);
    const refunded = await refundOrder(ctx(paidAt + 13 * 86_400), buyer.userId, created.id);
    expect(refunded).toMatchObject({ status: "refunded", refundedCredits: 30, refundedCents: 597 });
    expect(await creditsOf(buyer)).toBe(0);
    await expectLedgerMatches(buyer);
    const again = await buyer.browser.post("/api/refund.php", { order_id: created.id });
    expect(again.status).toBe(409);
    expect((await json<{ error: string }>(again)).error).toBe("already_refunded");

    const spender = await member();
    const spent = await order(spender);
    await press(spender, spent.checkout_url!, "paid");
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET credits = 0 WHERE id = ?").bind(spender.userId),
      env.DB.prepare("INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?, -50, 'message')").bind(
        spender.userId,
      ),
    ]);
    const refused = await spender.browser.post("/api/refund.php", { order_id: spent.id });
    expect(refused.status).toBe(409);
    expect((await json<{ message: string }>(refused)).message).toBe(
      "The credits of this purchase have already been spent",
    );
    expect((await orderOf(spender, spent.id)).status).toBe("paid");
  });

  it("a take-back whose credits were spent after the balance was read changes nothing: no status, no refunded values, no ledger row", async () => {
    for (const reason of ["refund", "reversal"] as const) {
      const buyer = await member({ credits: 10 });
      const created = await order(buyer);
      await press(buyer, created.checkout_url!, "paid");
      const row = (await findOrder(db, created.id))!;
      // Read at 60; then 45 went on gifts before the take-back's batch ran.
      await env.DB.batch([
        env.DB.prepare("UPDATE users SET credits = credits - 45 WHERE id = ?").bind(buyer.userId),
        env.DB.prepare("INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?, -45, 'message')").bind(
          buyer.userId,
        ),
      ]);
      const [taken] = await db.batch([...takeBackStatements(db, row, { credits: 50, cents: 995, reason, now: NOW() })]);
      expect(taken.meta.changes).toBe(0);
      expect(await orderOf(buyer, created.id)).toMatchObject({
        status: "paid",
        refunded_credits: 0,
        refunded_amount: 0,
      });
      expect(await creditsOf(buyer)).toBe(15);
      await expectLedgerMatches(buyer);
      // What is left can still be taken back.
      const [later] = await db.batch([...takeBackStatements(db, row, { credits: 15, cents: 298, reason, now: NOW() })]);
      expect(later.meta.changes).toBe(1);
      expect(await orderOf(buyer, created.id)).toMatchObject({
        status: reason === "refund" ? "refunded" : "reversed",
        refunded_credits: 15,
      });
      expect(await creditsOf(buyer)).toBe(0);
      await expectLedgerMatches(buyer);
    }
  });

  it("a refund the provider refused gives the credits back, and a second try is refused cleanly with nothing changed", async () => {
    const buyer = await member();
    const created = await order(buyer);
    await press(buyer, created.checkout_url!, "paid");
    // The sandbox refuses a refund of more than is left to refund.
    const payment = (await env.DB.prepare("SELECT provider_payment_id AS id FROM payments WHERE order_id = ?")
      .bind(created.id)
      .first<{ id: string }>())!.id;
    await env.DB.prepare("UPDATE sandbox_payments SET refunded_cents = amount_cents WHERE id = ?").bind(payment).run();
    const refused = await buyer.browser.post("/api/refund.php", { order_id: created.id });
    expect(refused.status).toBe(502);
    expect(await creditsOf(buyer)).toBe(50);
    expect(await orderOf(buyer, created.id)).toMatchObject({ status: "paid", refunded_credits: 0, refunded_amount: 0 });
    await expectLedgerMatches(buyer);
    const again = await buyer.browser.post("/api/refund.php", { order_id: created.id });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: "not_refundable", message: "This purchase cannot be refunded" });
    expect(await creditsOf(buyer)).toBe(50);
    expect(await orderOf(buyer, created.id)).toMatchObject({ status: "paid", refunded_credits: 0 });
    await expectLedgerMatches(buyer);
  });

  it("a refund racing three gifts either returns the credits with its ledger row or changes nothing (issue 20, point 4)", async () => {
    const peer = await member({ paid: true });
    let refusedRounds = 0;
    for (let round = 0; round < 12; round++) {
      // 60 credits: 10 of their own and a purchase of 50 (the order a refund takes from).
      const buyer = await member({ credits: 25 });
      // A first gift opens the pair's conversation, so the racing gifts meet a running conversation object.
      expect(
        (
          await buyer.browser.post("/api/gift.php", {
            profile: { id: peer.id },
            gift: "rose",
            client_id: `gift-race-${round}-open`,
          })
        ).status,
      ).toBe(200);
      const created = await order(buyer);
      await press(buyer, created.checkout_url!, "paid");
      expect(await creditsOf(buyer)).toBe(60);
      const gift = (i: number) =>
        buyer.browser.post("/api/gift.php", {
          profile: { id: peer.id },
          gift: "rose",
          client_id: `gift-race-${round}-${i}-x`,
        });
      const refundNow = () => buyer.browser.post("/api/refund.php", { order_id: created.id });
      // The refund starts before the gifts, among them, or once the first gift is answered while the
      // other two are still on their way, so its read of the balance and its write meet them in every order.
      let refund: Response;
      if (round % 3 === 2) {
        const first = gift(0);
        const rest = [gift(1), gift(2)];
        expect((await first).status).toBe(200);
        [refund] = await Promise.all([refundNow(), ...rest]);
      } else {
        const sends = [refundNow, () => gift(0), () => gift(1), () => gift(2)];
        if (round % 3 === 1) sends.reverse();
        const all = await Promise.all(sends.map((send) => send()));
        refund = all[round % 3 === 1 ? 3 : 0]!;
      }
      const ledger = await env.DB.prepare("SELECT delta FROM credit_ledger WHERE user_id = ? AND reason = 'refund'")
        .bind(buyer.userId)
        .all<{ delta: number }>();
      const stored = await orderOf(buyer, created.id);
      if (refund.status === 200) {
        expect(stored).toMatchObject({ status: "refunded" });
        expect(ledger.results.map((r) => r.delta)).toEqual([-stored.refunded_credits]);
      } else {
        refusedRounds++;
        expect(refund.status).toBe(409);
        expect((await json<{ error: string }>(refund)).error).toBe("credits_spent");
        // Refused means nothing changed: still paid, nothing refunded, no ledger row.
        expect(stored).toMatchObject({ status: "paid", refunded_credits: 0, refunded_amount: 0 });
        expect(ledger.results).toEqual([]);
        // The credits left can still be returned.
        const left = await creditsOf(buyer);
        if (left > 0) {
          const later = await buyer.browser.post("/api/refund.php", { order_id: created.id });
          expect(later.status, await later.clone().text()).toBe(200);
          expect(await orderOf(buyer, created.id)).toMatchObject({ status: "refunded", refunded_credits: left });
        }
      }
      await expectLedgerMatches(buyer);
    }
    console.info(JSON.stringify({ event: "refund_race", refused_rounds: refusedRounds }));
  }, 120_000);

  it("the balance equals the sum of the ledger after signup credits, a purchase, messages and a refund", async () => {
    const buyer = await member();
    const peer = await member({ paid: true, credits: 100 });
    const created = await order(buyer, { bundle_id: 2, method: "ideal" });
    await press(buyer, created.checkout_url!, "paid");
    const socket = await ChatSocket.open(buyer, peer.id);
    for (let i = 0; i < 3; i++) {
      const id = clientId();
      socket.sendText(id, `hello ${i}`);
      await socket.ack(id);
    }
    socket.close();
    expect(await creditsOf(buyer)).toBe(125 - 3 * 5);
    const refund = await buyer.browser.post("/api/refund.php", { order_id: created.id });
    expect(refund.status).toBe(200);
    expect(await creditsOf(buyer)).toBe(0);
    await expectLedgerMatches(buyer);
  });
});

describe("premium", () => {
  it("unlocks a photo original on a chat socket opened before the purchase", async () => {
    const sender = await member({ paid: true, credits: 1000 });
    const buyer = await member();
    // A conversation exists: the buyer wrote first with a free message.
    const buyerSocket = await ChatSocket.open(buyer, sender.id);
    const hello = clientId();
    buyerSocket.sendText(hello, "hello");
    await buyerSocket.ack(hello);

    const form = new FormData();
    form.set("photo", new File([await jpeg(picture(64, 48))], "me.jpg", { type: "image/jpeg" }));
    const { photo } = await json<{ photo: { id: number; image: string } }>(
      await sender.browser.fetch("/api/chat-photo.php", { method: "POST", body: form }),
    );
    const senderSocket = await ChatSocket.open(sender, buyer.id);
    const before = clientId();
    senderSocket.send({ type: "send", client_id: before, kind: "image", photo_id: photo.id });
    await senderSocket.ack(before);
    expect((await buyerSocket.message()).message.image!.locked).toBe(true);

    const created = await order(buyer);
    await press(buyer, created.checkout_url!, "paid");
    const after = clientId();
    senderSocket.send({ type: "send", client_id: after, kind: "image", photo_id: photo.id });
    await senderSocket.ack(after);
    const seen = (await buyerSocket.message()).message.image!;
    expect(seen).toMatchObject({ locked: false, image: photo.image });
    expect((await buyer.browser.fetch(photo.image)).status).toBe(200);
    buyerSocket.close();
    senderSocket.close();
  });
});
