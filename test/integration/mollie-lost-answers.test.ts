/**
 * Money calls whose answer goes wrong the way Mollie documents it can (issue 38): a create executed
 * although its answer is lost (docs.mollie.com/reference/api-idempotency), 5xx, 429 with Retry-After
 * (docs.mollie.com/reference/rate-limiting), refusals, webhooks for payments the app never heard
 * back about, Klarna's names and its authorise-then-capture flow, and mandate references. Each ends
 * with balance = sum of the ledger.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { MollieProvider } from "../../src/server/payments/mollie";
import { PaymentProviderError, type NewPayment } from "../../src/server/payments/provider";
import { settleUnanswered } from "../../src/server/services/unanswered-orders";
import worker from "../../src/worker";
import type { OrderCreated, PaymentMethodsResponse } from "../../src/shared/payments-api";
import { creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { STAND_IN_KEY, type Fault } from "../mollie-stand-in";
import {
  call,
  control,
  deliverWebhooks,
  directDebitOrder,
  expectBooksBalanced,
  member,
  mollieEnv,
  mollieUrl,
  order,
  orderView,
  requests,
  setStatus,
  SITES,
  webhook,
} from "../mollie-app";

/** A site of its own: its public address is in every create's webhookUrl, so the faults below meet only this file's calls. */
const LOST = "http://lost.mollie.test";
const LOST_PUBLIC = "https://lost.flirtwave.example";
const KLARNA = "http://de.mollie.test";

beforeAll(async () => {
  await putSites(...SITES, site("lost.mollie.test", { public_url: LOST_PUBLIC }));
});

const creates = `^POST /v2/payments .*${LOST_PUBLIC.replaceAll(".", "\\.")}`;
const faults = (...list: Fault[]) => control("/faults", { faults: list });
const lose = (times: number, match = creates): Fault => ({ match, kind: "lose", times });

/** Payments the stand-in holds for an order (its metadata), whatever the app recorded: its list, newest first. */
async function paymentsAtMollie(orderId: number) {
  const { key } = (await env.DB.prepare("SELECT idempotency_key AS key FROM orders WHERE id = ?")
    .bind(orderId)
    .first<{ key: string }>())!;
  type Listed = {
    id: string;
    status: string;
    method: string | null;
    sequenceType: string;
    metadata: { order_key?: string } | null;
  };
  const found: Listed[] = [];
  let next: string | null = `${mollieUrl}/payments?limit=250`;
  for (let page = 0; next && page < 4; page++) {
    const res = await fetch(next, { headers: { authorization: `Bearer ${STAND_IN_KEY}` } });
    const list: { _embedded: { payments: Listed[] }; _links: { next: { href: string } | null } } = await res.json();
    found.push(...list._embedded.payments.filter((p) => p.metadata?.order_key === key));
    next = list._links.next?.href ?? null;
  }
  return found;
}

const recordedPayments = async (orderId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE order_id = ?").bind(orderId).first<{ n: number }>())!
    .n;

const now = () => Math.floor(Date.now() / 1000);

/** A member with a card mandate on the lost site (a paid first payment), ready for a repeat order. */
async function memberWithMandate(): Promise<Member> {
  const m = await member(LOST);
  const { created, view } = await order(m, { bundle_id: 1, method: "creditcard", save_method: true }, mollieEnv, LOST);
  await setStatus(view.payment_id!, "paid");
  await deliverWebhooks(view.payment_id!);
  expect((await orderView(m, created.id, mollieEnv, LOST)).credited).toBe(true);
  return m;
}

/** A repeat order whose every create attempt loses its answer: 201, pending, being confirmed. */
async function lostRepeatOrder(m: Member) {
  await faults(lose(3));
  const res = await call(m, "/api/repeat-order.php", { method: "POST", json: {} }, mollieEnv, LOST);
  expect(res.status, await res.clone().text()).toBe(201);
  const { order: created } = await res.json<OrderCreated>();
  const view = await orderView(m, created.id, mollieEnv, LOST);
  expect(view).toMatchObject({ status: "pending", credited: false, confirming: true, payment_id: null });
  const made = await paymentsAtMollie(created.id);
  expect(made).toHaveLength(1);
  expect(made[0]).toMatchObject({ sequenceType: "recurring" });
  return { id: created.id, paymentId: made[0]!.id };
}

// The adapter really waits between attempts (a quarter second, then half): these tests take seconds.
describe("money calls whose answer is lost, refused or late", { timeout: 30_000 }, () => {
  it("a recurring payment whose answer is lost on every attempt is credited once when its webhook comes (concurrent and repeated)", async () => {
    const m = await memberWithMandate();
    expect(await creditsOf(m)).toBe(50);
    const lost = await lostRepeatOrder(m);
    // Each attempt carried the order's one key: Mollie made one payment (lostRepeatOrder).
    const { key } = (await env.DB.prepare("SELECT idempotency_key AS key FROM orders WHERE id = ?")
      .bind(lost.id)
      .first<{ key: string }>())!;
    expect((await requests()).filter((r) => r.method === "POST" && r.idempotencyKey === key)).toHaveLength(3);
    expect(await creditsOf(m)).toBe(50);
    await setStatus(lost.paymentId, "paid");
    // Mollie's call of the webhook for a payment the app never recorded, with repeats all at once.
    await Promise.all([deliverWebhooks(lost.paymentId), ...Array.from({ length: 10 }, () => webhook(lost.paymentId))]);
    expect(await creditsOf(m)).toBe(100);
    expect(await recordedPayments(lost.id)).toBe(1);
    expect(await orderView(m, lost.id, mollieEnv, LOST)).toMatchObject({
      status: "paid",
      credited: true,
      confirming: false,
      payment_id: lost.paymentId,
    });
    // Late and repeated calls change nothing.
    await Promise.all(Array.from({ length: 5 }, () => webhook(lost.paymentId)));
    expect(await creditsOf(m)).toBe(100);
    await expectBooksBalanced(m);
  });

  it("a recurring payment whose answer is lost is credited once when the clock finds it first", async () => {
    const m = await memberWithMandate();
    const lost = await lostRepeatOrder(m);
    await setStatus(lost.paymentId, "paid");
    // Within its first minute the clock leaves it to the webhook.
    expect(await settleUnanswered(mollieEnv, now())).toMatchObject({ found: 0 });
    await Promise.all([settleUnanswered(mollieEnv, now() + 120), settleUnanswered(mollieEnv, now() + 120)]);
    expect(await creditsOf(m)).toBe(100);
    expect((await orderView(m, lost.id, mollieEnv, LOST)).status).toBe("paid");
    // Mollie's webhook comes after: nothing more.
    await Promise.all([deliverWebhooks(lost.paymentId), ...Array.from({ length: 5 }, () => webhook(lost.paymentId))]);
    expect(await settleUnanswered(mollieEnv, now() + 120)).toMatchObject({ found: 0 });
    expect(await creditsOf(m)).toBe(100);
    expect(await recordedPayments(lost.id)).toBe(1);
    await expectBooksBalanced(m);
  });

  it("the five-minute cron of the Worker runs that clock", async () => {
    const m = await memberWithMandate();
    const lost = await lostRepeatOrder(m);
    await setStatus(lost.paymentId, "paid");
    // The cron reads the real clock: the order is made two minutes old instead of waiting.
    await env.DB.prepare("UPDATE orders SET created_at = created_at - 120 WHERE id = ?").bind(lost.id).run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), mollieEnv, ctx);
    await waitOnExecutionContext(ctx);
    expect(await creditsOf(m)).toBe(100);
    await expectBooksBalanced(m);
  });

  it("a direct debit whose answer is lost is credited once, when found, with a unique, well-formed mandate reference", async () => {
    const m = await member(LOST);
    await faults(lose(3));
    // Confirmed with its code: 201, though Mollie's answer to the debit never came.
    const created = await directDebitOrder(m, LOST);
    expect(await orderView(m, created.id, mollieEnv, LOST)).toMatchObject({ credited: false, confirming: true });
    expect(await creditsOf(m)).toBe(0);
    const [debit] = await paymentsAtMollie(created.id);
    expect(debit).toMatchObject({ status: "pending", method: "directdebit" });
    await Promise.all(Array.from({ length: 4 }, () => settleUnanswered(mollieEnv, now() + 120)));
    expect(await creditsOf(m)).toBe(50);
    expect(await orderView(m, created.id, mollieEnv, LOST)).toMatchObject({ credited: true, status: "pending" });
    await setStatus(debit!.id, "paid");
    await Promise.all([deliverWebhooks(debit!.id), ...Array.from({ length: 5 }, () => webhook(debit!.id))]);
    expect(await creditsOf(m)).toBe(50);
    await expectBooksBalanced(m);

    // Two more members' mandates: each reference its own, as a bank reads a SEPA mandate reference.
    const members = [m, await member(), await member()];
    await directDebitOrder(members[1]!);
    await directDebitOrder(members[2]!);
    const log = await requests();
    const references = [];
    for (const each of members) {
      const customer = await env.DB.prepare("SELECT customer_id FROM payment_customers WHERE user_id = ?")
        .bind(each.userId)
        .first<{ customer_id: string }>();
      const sent = log.filter(
        (r) => r.method === "POST" && r.path === `/v2/customers/${customer!.customer_id}/mandates`,
      );
      expect(new Set(sent.map((r) => r.body["mandateReference"])).size).toBe(1);
      references.push(sent[0]!.body["mandateReference"]);
    }
    expect(references).toHaveLength(3);
    for (const reference of references) expect(reference).toMatch(/^[A-Za-z0-9/?:().,'+ -]{1,35}$/);
    expect(new Set(references).size).toBe(3);
  });

  it("a one-off payment whose create answer is lost is asked again with its key: one payment, its checkout, stored at once", async () => {
    const m = await member(LOST);
    await faults(lose(1));
    const { created, view } = await order(m, { bundle_id: 1, method: "ideal" }, mollieEnv, LOST);
    expect(view.payment_id).toMatch(/^tr_/);
    expect(created.checkout_url).toMatch(/^https:\/\/www\.mollie\.com\/checkout\//);
    expect(await paymentsAtMollie(created.id)).toHaveLength(1);
    await setStatus(view.payment_id!, "paid");
    await deliverWebhooks(view.payment_id!);
    expect(await creditsOf(m)).toBe(50);
    await expectBooksBalanced(m);
  });

  it("a one-off payment unanswered on every attempt: nothing charged, the member is told so; its payment found later by its order is credited once", async () => {
    const m = await member(LOST);
    await faults(lose(3));
    const res = await call(
      m,
      "/api/order.php",
      { method: "POST", json: { bundle_id: 1, method: "ideal" } },
      mollieEnv,
      LOST,
    );
    expect(res.status).toBe(502);
    expect((await res.json<{ message: string }>()).message).toBe(
      "The payment could not be started. Nothing has been charged; please try again in a moment.",
    );
    const orderId = (await env.DB.prepare("SELECT id FROM orders WHERE user_id = ?")
      .bind(m.userId)
      .first<{ id: number }>())!.id;
    const [made] = await paymentsAtMollie(orderId);
    expect((await orderView(m, orderId, mollieEnv, LOST)).status).toBe("pending");
    // The webhook for an id the app never stored: looked up, its metadata names the order.
    await setStatus(made!.id, "paid");
    await Promise.all([deliverWebhooks(made!.id), ...Array.from({ length: 10 }, () => webhook(made!.id))]);
    expect(await creditsOf(m)).toBe(50);
    expect(await recordedPayments(orderId)).toBe(1);
    await expectBooksBalanced(m);
    // A paid payment naming another waiting order, but not with that order's key (another deployment's
    // order of the same id), is not taken for it.
    const other = await member(LOST);
    await faults(lose(3));
    await call(other, "/api/order.php", { method: "POST", json: { bundle_id: 1, method: "ideal" } }, mollieEnv, LOST);
    const waiting = (await env.DB.prepare("SELECT id FROM orders WHERE user_id = ?")
      .bind(other.userId)
      .first<{ id: number }>())!.id;
    const stray = await new MollieProvider(STAND_IN_KEY, mollieUrl).createPayment({
      ...strayPayment,
      amount: 995,
      metadata: { order_id: waiting, order_key: crypto.randomUUID() },
    });
    await setStatus(stray.id, "paid");
    expect((await webhook(stray.id)).status).toBe(200);
    expect(await creditsOf(other)).toBe(0);
    expect(await recordedPayments(waiting)).toBe(0);
    await expectBooksBalanced(other);
  });

  it("429 is waited for as Retry-After says, then the call goes through; a 500 is asked again with the same key", async () => {
    const m = await member(LOST);
    await faults({ match: creates, kind: "status", status: 429, retryAfter: 0, times: 2 });
    const first = await order(m, { bundle_id: 1, method: "ideal" }, mollieEnv, LOST);
    expect(first.view.payment_id).toMatch(/^tr_/);
    await faults({ match: creates, kind: "status", status: 500, execute: true });
    const second = await order(m, { bundle_id: 1, method: "ideal" }, mollieEnv, LOST);
    expect(await paymentsAtMollie(second.created.id)).toHaveLength(1);
    expect(second.view.payment_id).toBe((await paymentsAtMollie(second.created.id))[0]!.id);
    await expectBooksBalanced(m);

    // The adapter waits what Mollie asks (seconds), and gives up past what a request may wait.
    const waits: number[] = [];
    const patient = new MollieProvider(STAND_IN_KEY, mollieUrl, undefined, undefined, async (ms) => {
      waits.push(ms);
    });
    const only = `^POST /v2/payments .*"retry-after-test"`;
    await faults({ match: only, kind: "status", status: 429, retryAfter: 1 });
    const made = await patient.createPayment({
      ...strayPayment,
      description: "retry-after-test",
      idempotencyKey: crypto.randomUUID(),
    });
    expect(made.id).toMatch(/^tr_/);
    expect(waits).toEqual([1000]);
    await faults({ match: only, kind: "status", status: 429, retryAfter: 30, times: 3 });
    const limited = await patient
      .createPayment({ ...strayPayment, description: "retry-after-test", idempotencyKey: crypto.randomUUID() })
      .then(
        () => null,
        (e: PaymentProviderError) => e,
      );
    // Not done (a first attempt rate limited is not processed): a refusal.
    expect(limited).toBeInstanceOf(PaymentProviderError);
    expect([limited!.status, limited!.refused, limited!.unanswered]).toEqual([429, true, false]);
    await control("/faults/clear", {});
  });

  it("only a refusal fails an order: a 422 at once and never repeated; a 500 on every attempt leaves it pending", async () => {
    const m = await memberWithMandate();
    await faults({ match: creates, kind: "status", status: 422 });
    const refused = await call(m, "/api/repeat-order.php", { method: "POST", json: {} }, mollieEnv, LOST);
    expect(refused.status).toBe(502);
    const failedId = (await env.DB.prepare("SELECT id FROM orders WHERE user_id = ? ORDER BY id DESC")
      .bind(m.userId)
      .first<{ id: number }>())!.id;
    expect((await orderView(m, failedId, mollieEnv, LOST)).status).toBe("failed");
    await faults({ match: creates, kind: "status", status: 500, times: 3 });
    const unanswered = await call(m, "/api/repeat-order.php", { method: "POST", json: {} }, mollieEnv, LOST);
    expect(unanswered.status).toBe(201);
    const { order: pending } = await unanswered.json<OrderCreated>();
    // Its own attempts, by the order's key (other files' tests use the same stand-in at the same time).
    const { key } = (await env.DB.prepare("SELECT idempotency_key AS key FROM orders WHERE id = ?")
      .bind(pending.id)
      .first<{ key: string }>())!;
    expect((await requests()).filter((r) => r.path === "/v2/payments" && r.idempotencyKey === key)).toHaveLength(3);
    expect(await orderView(m, pending.id, mollieEnv, LOST)).toMatchObject({ status: "pending", confirming: true });
    // Never made (a 500 without executing): after two hours the clock expires it; nothing was charged.
    await settleUnanswered(mollieEnv, now() + 2 * 3600 + 60);
    expect((await orderView(m, pending.id, mollieEnv, LOST)).status).toBe("expired");
    expect(await creditsOf(m)).toBe(50);
    await expectBooksBalanced(m);
  });

  it("Klarna: a name of one letter is never sent and the member is told why; names of two letters go", async () => {
    const m = await member(KLARNA);
    await directDebitOrder(m, KLARNA);
    await env.DB.prepare("UPDATE direct_debit_accounts SET account_holder = 'J de Vries' WHERE user_id = ?")
      .bind(m.userId)
      .run();
    const before = (await requests()).length;
    const res = await call(
      m,
      "/api/order.php",
      { method: "POST", json: { bundle_id: 1, method: "klarna" } },
      mollieEnv,
      KLARNA,
    );
    expect(res.status).toBe(400);
    expect((await res.json<{ message: string }>()).message).toBe(
      "Klarna needs a first and a last name of at least two letters each. Give your full name in your direct debit details, or choose another payment method.",
    );
    expect((await requests()).slice(before).some((r) => r.path === "/v2/payments")).toBe(false);
    const offered = await call(m, "/api/payment-methods.php?bundle_id=1", {}, mollieEnv, KLARNA);
    expect((await offered.json<PaymentMethodsResponse>()).methods).not.toContain("klarna");
    // The stand-in refuses such a name as Mollie does.
    const address = {
      givenName: "J",
      familyName: "de Vries",
      email: "j@example.com",
      streetAndNumber: "Damrak 1",
      postalCode: "1012 LG",
      city: "Amsterdam",
      country: "DE",
    };
    const sent = await new MollieProvider(STAND_IN_KEY, mollieUrl)
      .createPayment({ ...klarnaPayment, billingAddress: address })
      .then(
        () => null,
        (e: PaymentProviderError) => e,
      );
    expect([sent?.status, sent?.refused]).toEqual([422, true]);
    await env.DB.prepare("UPDATE direct_debit_accounts SET account_holder = 'Jo Li' WHERE user_id = ?")
      .bind(m.userId)
      .run();
    const { view } = await order(m, { bundle_id: 1, method: "klarna" }, mollieEnv, KLARNA);
    expect(view.payment_id).toMatch(/^tr_/);
    await expectBooksBalanced(m);
  });

  it("Klarna is authorised, then captured by the app and credited once", async () => {
    const m = await member(KLARNA);
    await directDebitOrder(m, KLARNA);
    expect(await creditsOf(m)).toBe(50);
    const { created, view } = await order(m, { bundle_id: 1, method: "klarna" }, mollieEnv, KLARNA);
    // The customer completes Klarna: authorised, not paid.
    await setStatus(view.payment_id!, "paid");
    expect((await orderView(m, created.id, mollieEnv, KLARNA)).status).toBe("open");
    await Promise.all([
      deliverWebhooks(view.payment_id!),
      ...Array.from({ length: 6 }, () => webhook(view.payment_id!)),
    ]);
    const captures = (await requests()).filter(
      (r) => r.method === "POST" && r.path === `/v2/payments/${view.payment_id}/captures`,
    );
    expect(captures.length).toBeGreaterThan(0);
    expect(new Set(captures.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(await orderView(m, created.id, mollieEnv, KLARNA)).toMatchObject({ status: "paid", credited: true });
    // The capture's own webhook (Mollie calls it when the payment is paid) changes nothing.
    await deliverWebhooks(view.payment_id!);
    expect(await creditsOf(m)).toBe(100);
    await expectBooksBalanced(m);
  });
});

const strayPayment: NewPayment = {
  amount: 1,
  currency: "EUR",
  description: "stray",
  redirectUrl: "https://x.example/",
  webhookUrl: "https://x.example/",
  method: "ideal",
  locale: "nl_NL",
  metadata: { order_id: 0, order_key: "none" },
  idempotencyKey: crypto.randomUUID(),
};

const klarnaPayment: NewPayment = {
  amount: 995,
  currency: "EUR",
  description: "klarna",
  redirectUrl: "https://x.example/",
  webhookUrl: "https://x.example/",
  method: "klarna",
  locale: "de_DE",
  metadata: { order_id: 0, order_key: "none" },
  idempotencyKey: crypto.randomUUID(),
  lines: [
    { description: "50 credits", quantity: 1, unitPrice: 995, totalAmount: 995, vatRate: "19.00", vatAmount: 159 },
  ],
};
