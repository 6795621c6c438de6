import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { MollieProvider } from "../../src/server/payments/mollie";
import { PaymentProviderError, type NewPayment } from "../../src/server/payments/provider";
import { offeredMethods } from "../../src/server/services/payment-methods";
import type { PaymentContext } from "../../src/server/services/payments";
import type { OrderCreated, PaymentMethodsResponse } from "../../src/shared/payments-api";
import { creditsOf } from "../chat";
import { putSites } from "../fixtures";
import { STAND_IN_KEY } from "../mollie-stand-in";
import {
  call,
  control,
  db,
  deliverEvents,
  deliverWebhooks,
  directDebitForm,
  directDebitOrder,
  expectBooksBalanced,
  lastCreate,
  liveEnv,
  member,
  mollieEnv,
  mollieUrl,
  order,
  orderView,
  ORIGIN,
  paidOrder,
  PUBLIC_URL,
  requests,
  setStatus,
  SITES,
  UUID_V4,
  webhook,
} from "../mollie-app";

beforeAll(async () => {
  await putSites(...SITES);
});

describe("the Mollie adapter against a stand-in of its API", () => {
  it("describes the payment on the checkout and the statement in the member's language", async () => {
    const m = await member();
    // The language the member reads the site in (here chosen with the language switcher's cookie).
    m.browser.cookies.set("locale", "pl");
    const { created } = await order(m);
    const { body } = await lastCreate();
    expect(body.description).toMatch(new RegExp(` 50 kredytów #${created.id}$`));
    expect(body.description).not.toContain("credits");
  });

  it("a plain order is a one-off payment: no customer, no sequenceType; URLs on the site's public address; a UUID v4 key per attempt", async () => {
    const m = await member();
    const first = await order(m);
    const sent = await lastCreate();
    expect(first.created.checkout_url).toMatch(/^https:\/\/www\.mollie\.com\/checkout\//);
    expect(sent.body).toMatchObject({
      amount: { currency: "EUR", value: "9.95" },
      description: expect.stringContaining("50 credits"),
      redirectUrl: `${PUBLIC_URL}/credits/1/ideal?order=${first.created.id}`,
      webhookUrl: `${PUBLIC_URL}/api/payment-webhook.php`,
      method: "ideal",
      locale: "en_US",
      metadata: { order_id: first.created.id },
    });
    expect(sent.body).not.toHaveProperty("customerId");
    expect(sent.body).not.toHaveProperty("sequenceType");
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM payment_customers WHERE user_id = ?")
        .bind(m.userId)
        .first<{ n: number }>())!.n,
    ).toBe(0);
    const second = await order(m);
    const keys = await env.DB.prepare("SELECT idempotency_key AS k FROM orders WHERE id IN (?, ?) ORDER BY id")
      .bind(first.created.id, second.created.id)
      .all<{ k: string }>();
    expect(keys.results.map((r) => r.k)).toEqual([sent.idempotencyKey, (await lastCreate()).idempotencyKey]);
    for (const { k } of keys.results) expect(k).toMatch(UUID_V4);
    expect(keys.results[0]!.k).not.toBe(keys.results[1]!.k);
  });

  it("saving the method makes a first payment with a customer; a method that cannot leave a mandate stays one-off", async () => {
    const m = await member();
    await order(m, { bundle_id: 1, method: "creditcard", save_method: true });
    expect((await lastCreate()).body).toMatchObject({
      method: "creditcard",
      sequenceType: "first",
      customerId: expect.stringMatching(/^cst_/),
    });
    const pl = await member("http://pl.mollie.test");
    await order(pl, { bundle_id: 1, method: "blik", save_method: true }, mollieEnv, "http://pl.mollie.test");
    const blik = (await lastCreate()).body;
    expect(blik).toMatchObject({ method: "blik", amount: { currency: "PLN", value: "45.00" } });
    expect(blik).not.toHaveProperty("sequenceType");
    expect(blik).not.toHaveProperty("customerId");
  });

  it("repeat order: a recurring payment without method on the directdebit mandate an iDEAL first payment left; the order records the method paid with", async () => {
    const m = await member();
    const first = await paidOrder(m, { bundle_id: 2, method: "ideal", save_method: true });
    expect(await creditsOf(m)).toBe(125);
    const res = await call(m, "/api/repeat-order.php", { method: "POST" });
    expect(res.status, await res.clone().text()).toBe(201);
    const repeated = (await res.json<OrderCreated>()).order;
    expect(repeated).toMatchObject({ checkout_url: null, status: "pending" });
    const sent = await lastCreate();
    expect(sent.body).toMatchObject({
      sequenceType: "recurring",
      amount: { value: "19.95" },
      mandateId: expect.stringMatching(/^mdt_/),
      customerId: expect.stringMatching(/^cst_/),
    });
    expect(sent.body).not.toHaveProperty("method");
    const pending = await orderView(m, repeated.id);
    await setStatus(pending.payment_id!, "paid");
    await deliverWebhooks(pending.payment_id!);
    const paid = await orderView(m, repeated.id);
    expect(paid).toMatchObject({ status: "paid", recurring: true, method: "ideal", paid_method: "directdebit" });
    expect((await orderView(m, first.id)).paid_method).toBe("ideal");
    expect(await creditsOf(m)).toBe(250);
    await expectBooksBalanced(m);
  });

  it("repeat order without a valid mandate is a normal checkout", async () => {
    const m = await member();
    await paidOrder(m, { bundle_id: 1, method: "ideal" });
    const res = await call(m, "/api/repeat-order.php", { method: "POST" });
    expect(res.status).toBe(201);
    expect((await res.json<OrderCreated>()).order.checkout_url).toMatch(/^https:\/\/www\.mollie\.com\/checkout\//);
    const sent = (await lastCreate()).body;
    expect(sent).toMatchObject({ method: "ideal" });
    expect(sent).not.toHaveProperty("sequenceType");
  });

  it("the stand-in refuses what Mollie refuses: recurring with another method than the mandate's, first without a customer, iDEAL in kroner", async () => {
    const provider = new MollieProvider(STAND_IN_KEY, mollieUrl);
    const base: NewPayment = {
      amount: 995,
      currency: "EUR",
      description: "x",
      redirectUrl: "https://x.example/",
      webhookUrl: "https://x.example/",
      method: "ideal",
      locale: "nl_NL",
      metadata: { order_id: 1, order_key: "k" },
      idempotencyKey: crypto.randomUUID(),
    };
    const customerId = await provider.createCustomer({ name: "A", email: "a@example.com", locale: "nl_NL" });
    const firstPayment = await provider.createPayment({ ...base, customerId, sequenceType: "first" });
    await setStatus(firstPayment.id, "paid");
    const mandate = await provider.validMandate(customerId);
    expect(mandate?.method).toBe("directdebit");
    const refused = (payment: NewPayment) =>
      provider.createPayment(payment).then(
        () => null,
        (e: PaymentProviderError) => e.status,
      );
    expect(
      await refused({
        ...base,
        idempotencyKey: crypto.randomUUID(),
        customerId,
        sequenceType: "recurring",
        mandateId: mandate!.id,
      }),
    ).toBe(422);
    expect(await refused({ ...base, idempotencyKey: crypto.randomUUID(), sequenceType: "first" })).toBe(422);
    expect(await refused({ ...base, idempotencyKey: crypto.randomUUID(), currency: "DKK" })).toBe(422);
    expect(await refused({ ...base, idempotencyKey: crypto.randomUUID(), method: "klarna" })).toBe(422);
    const recurring = await provider.createPayment({
      ...base,
      idempotencyKey: crypto.randomUUID(),
      method: null,
      customerId,
      sequenceType: "recurring",
      mandateId: mandate!.id,
    });
    expect(recurring.method).toBe("directdebit");
  });

  it("idempotency: within the hour the same key and body replays the payment, other parameters are refused (400), a key in flight is a conflict (409)", async () => {
    const provider = new MollieProvider(STAND_IN_KEY, mollieUrl);
    const key = crypto.randomUUID();
    const payment: NewPayment = {
      amount: 995,
      currency: "EUR",
      description: "Flirtwave 50 credits #1",
      redirectUrl: "https://x.example/",
      webhookUrl: "https://x.example/",
      method: "ideal",
      locale: "nl_NL",
      metadata: { order_id: 1, order_key: "k" },
      idempotencyKey: key,
    };
    const made = await provider.createPayment(payment);
    expect((await provider.createPayment(payment)).id).toBe(made.id);
    const other = await provider.createPayment({ ...payment, amount: 1995 }).then(
      () => null,
      (e: PaymentProviderError) => e,
    );
    expect(other).toBeInstanceOf(PaymentProviderError);
    expect(other!.status).toBe(400);
    // A request held in flight at the provider: the same key again is a conflict, then the first answers.
    const held = crypto.randomUUID();
    await control(`/holds/${held}`, {});
    const first = provider.createPayment({ ...payment, idempotencyKey: held });
    await control(`/holds/${held}/held`);
    const again = await provider.createPayment({ ...payment, idempotencyKey: held }).then(
      () => null,
      (e: PaymentProviderError) => e.status,
    );
    expect(again).toBe(409);
    await control(`/holds/${held}/release`, {});
    expect((await first).id).toMatch(/^tr_/);
    // A create that times out on our side may still be made: asked again with the same key, it is answered once.
    const slow = crypto.randomUUID();
    await control(`/holds/${slow}`, {});
    const impatient = new MollieProvider(STAND_IN_KEY, mollieUrl, undefined, 200);
    const timedOut = await impatient.createPayment({ ...payment, idempotencyKey: slow }).then(
      () => null,
      (e: PaymentProviderError) => e,
    );
    // Asked three times (a timeout, then 409 twice while the first is still being worked on): unanswered, never refused.
    expect(timedOut).toBeInstanceOf(PaymentProviderError);
    expect(timedOut!.unanswered).toBe(true);
    expect(timedOut!.refused).toBe(false);
    await control(`/holds/${slow}/release`, {});
    const creates = async () => (await requests()).filter((r) => r.idempotencyKey === slow).length;
    const retried = await provider.createPayment({ ...payment, idempotencyKey: slow });
    expect((await provider.createPayment({ ...payment, idempotencyKey: slow })).id).toBe(retried.id);
    expect(await creates()).toBe(5);
    // Mollie keeps a key for an hour: after that the same key makes a new payment.
    await control("/idempotency/age", { key: payment.idempotencyKey, advance_ms: 3_600_001 });
    expect((await provider.createPayment(payment)).id).not.toBe(made.id);
  });

  it("Methods API: each currency gets the methods that pay in it (MobilePay in DKK, BLIK and Przelewy24 in PLN, TWINT in CHF; never iDEAL or Bancontact)", async () => {
    const cases: [string, string[], string[]][] = [
      ["http://dk.mollie.test", ["mobilepay", "creditcard", "paypal", "trustly"], ["creditcard", "paypal"]],
      ["http://pl.mollie.test", ["blik", "przelewy24", "creditcard"], ["creditcard"]],
      ["http://ch.mollie.test", ["twint", "creditcard", "paypal"], ["creditcard", "paypal"]],
      [ORIGIN, ["ideal", "creditcard", "paypal", "directdebit"], ["ideal", "creditcard", "paypal"]],
    ];
    for (const [origin, methods, savable] of cases) {
      const m = await member(origin);
      const res = await call(m, "/api/payment-methods.php?bundle_id=1", {}, mollieEnv, origin);
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json<PaymentMethodsResponse>(), origin).toEqual({ methods, savable });
    }
    const m = await member("http://dk.mollie.test");
    expect(
      (await call(null, "/api/payment-methods.php?bundle_id=1", {}, mollieEnv, "http://dk.mollie.test")).status,
    ).toBe(403);
    expect(
      (await call(m, "/api/payment-methods.php?bundle_id=abc", {}, mollieEnv, "http://dk.mollie.test")).status,
    ).toBe(400);
    const unknown = await call(m, "/api/payment-methods.php?bundle_id=99", {}, mollieEnv, "http://dk.mollie.test");
    expect(unknown.status).toBe(404);
    expect((await unknown.json<{ error: string }>()).error).toBe("bundle_not_found");
    const refused = await call(
      m,
      "/api/order.php",
      { method: "POST", json: { bundle_id: 1, method: "ideal" } },
      mollieEnv,
      "http://dk.mollie.test",
    );
    expect(refused.status).toBe(400);
    expect((await refused.json<{ error: string }>()).error).toBe("method_not_offered");
    const sent = (await requests()).filter((r) => r.path.startsWith("/v2/methods?"));
    expect(
      sent.some(
        (r) =>
          r.path.includes("amount%5Bcurrency%5D=DKK") &&
          r.path.includes("billingCountry=DK") &&
          r.path.includes("sequenceType=first"),
      ),
    ).toBe(true);
    const mobilepay = await order(m, { bundle_id: 1, method: "mobilepay" }, mollieEnv, "http://dk.mollie.test");
    expect(mobilepay.created.checkout_url).not.toBeNull();
    expect((await lastCreate()).body).toMatchObject({
      method: "mobilepay",
      amount: { currency: "DKK", value: "75.00" },
      locale: "en_US",
    });
  });

  it("Methods API answers are kept per site for a day, then asked again", async () => {
    const provider = new MollieProvider(STAND_IN_KEY, mollieUrl);
    const pl = SITES[2]!;
    const now = 2_000_000_000 + Math.floor(Math.random() * 1_000_000);
    const ctx = (at: number): PaymentContext => ({
      db,
      env,
      provider,
      site: { ...pl, domain: `cache${now}.mollie.test` },
      origin: PUBLIC_URL,
      now: at,
    });
    const buyer = {
      userId: 1,
      language: "pl",
      country: "PL",
      email: "a@example.com",
      name: "A",
      paid: false,
      signupDate: 0,
    };
    const asked = async () =>
      (await requests()).filter((r) => r.path.startsWith("/v2/methods?") && r.path.includes("amount%5Bcurrency%5D=PLN"))
        .length;
    const before = await asked();
    expect((await offeredMethods(ctx(now), env.SETTINGS, buyer, 1)).methods).toEqual([
      "blik",
      "przelewy24",
      "creditcard",
    ]);
    expect(await asked()).toBe(before + 2);
    await offeredMethods(ctx(now + 86_399), env.SETTINGS, buyer, 1);
    expect(await asked()).toBe(before + 2);
    await offeredMethods(ctx(now + 86_400), env.SETTINGS, buyer, 1);
    expect(await asked()).toBe(before + 4);
  });

  it("Klarna is offered only with a billing address, and then sent with its order lines and that address", async () => {
    const origin = "http://de.mollie.test";
    const m = await member(origin);
    const offered = async () =>
      (
        await (
          await call(m, "/api/payment-methods.php?bundle_id=1", {}, mollieEnv, origin)
        ).json<PaymentMethodsResponse>()
      ).methods;
    expect(await offered()).toEqual(["creditcard", "directdebit"]);
    const refused = await call(
      m,
      "/api/order.php",
      { method: "POST", json: { bundle_id: 1, method: "klarna" } },
      mollieEnv,
      origin,
    );
    expect(refused.status).toBe(400);
    await directDebitOrder(m, origin);
    expect(await offered()).toEqual(["klarna", "creditcard", "directdebit"]);
    await order(m, { bundle_id: 1, method: "klarna" }, mollieEnv, origin);
    expect((await lastCreate()).body).toMatchObject({
      method: "klarna",
      lines: [
        {
          type: "digital",
          description: "50 credits",
          quantity: 1,
          unitPrice: { currency: "EUR", value: "9.95" },
          totalAmount: { currency: "EUR", value: "9.95" },
          vatRate: "19.00",
          vatAmount: { currency: "EUR", value: "1.59" },
        },
      ],
      billingAddress: {
        givenName: "Jan",
        familyName: "de Vries",
        streetAndNumber: "Damrak 1",
        postalCode: "1012 LG",
        city: "Amsterdam",
        country: "DE",
        email: expect.stringContaining("@example.com"),
      },
    });
  });

  for (const status of ["paid", "failed", "canceled", "expired"]) {
    it(`${status}: the webhook reads the payment back and records it; only paid credits, once`, async () => {
      const m = await member();
      const { created, view } = await order(m);
      await setStatus(view.payment_id!, status);
      await deliverWebhooks(view.payment_id!);
      await Promise.all(Array.from({ length: 6 }, () => webhook(view.payment_id!)));
      expect((await orderView(m, created.id)).status).toBe(status);
      expect(await creditsOf(m)).toBe(status === "paid" ? 50 : 0);
      await expectBooksBalanced(m);
    });
  }

  it("an unknown status or authorized is recorded and answered 200, never credited, never retried", async () => {
    const m = await member();
    const { created, view } = await order(m);
    await setStatus(view.payment_id!, "in_review");
    expect((await webhook(view.payment_id!)).status).toBe(200);
    expect((await orderView(m, created.id)).status).toBe("open");
    const row = await env.DB.prepare("SELECT provider_status FROM payments WHERE provider_payment_id = ?")
      .bind(view.payment_id)
      .first<{ provider_status: string }>();
    expect(row!.provider_status).toBe("in_review");
    await setStatus(view.payment_id!, "authorized");
    expect((await webhook(view.payment_id!)).status).toBe(200);
    expect((await orderView(m, created.id)).status).toBe("authorized");
    expect(await creditsOf(m)).toBe(0);
    await setStatus(view.payment_id!, "paid");
    await webhook(view.payment_id!);
    expect(await creditsOf(m)).toBe(50);
    await expectBooksBalanced(m);
  });

  it("a forged or unknown id changes nothing and is answered alike", async () => {
    const m = await member();
    const { created, view } = await order(m);
    await webhook(view.payment_id!);
    expect((await webhook("tr_forged0001")).status).toBe(200);
    expect((await orderView(m, created.id)).status).toBe("open");
    expect(await creditsOf(m)).toBe(0);
    const provider = new MollieProvider(STAND_IN_KEY, mollieUrl);
    expect(await provider.getPayment("tr_unknown123")).toBeNull();
    expect(await provider.getPayment("../customers")).toBeNull();
  });

  it("customers are kept per mode: a live key gets its own customer, never the test one", async () => {
    const m = await member();
    await order(m, { bundle_id: 1, method: "creditcard", save_method: true });
    const testCustomer = (await lastCreate()).body["customerId"];
    await order(m, { bundle_id: 1, method: "creditcard", save_method: true }, liveEnv);
    const liveCustomer = (await lastCreate()).body["customerId"];
    expect(liveCustomer).toMatch(/^cst_/);
    expect(liveCustomer).not.toBe(testCustomer);
    const rows = await env.DB.prepare(
      "SELECT provider, customer_id FROM payment_customers WHERE user_id = ? ORDER BY provider",
    )
      .bind(m.userId)
      .all<{ provider: string; customer_id: string }>();
    expect(rows.results).toEqual([
      { provider: "mollie:live", customer_id: liveCustomer },
      { provider: "mollie:test", customer_id: testCustomer },
    ]);
  });

  it("a member's refund takes the credits when it is made and gives them back when it fails", async () => {
    const m = await member();
    const paid = await paidOrder(m);
    expect(await creditsOf(m)).toBe(50);
    const res = await call(m, "/api/refund.php", { method: "POST", json: { order_id: paid.id } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await creditsOf(m)).toBe(0);
    const sent = (await requests())
      .filter((r) => r.path === `/v2/payments/${paid.paymentId}/refunds` && r.method === "POST")
      .at(-1)!;
    expect(sent.idempotencyKey).toMatch(UUID_V4);
    expect(sent.body).toMatchObject({
      amount: { currency: "EUR", value: "9.95" },
      metadata: { refund_key: sent.idempotencyKey },
    });
    const [refund] = await control<{ id: string }[]>(`/payments/${paid.paymentId}/refunds`);
    await control(`/payments/${paid.paymentId}/refunds/${refund!.id}/status`, { status: "processing" });
    await deliverWebhooks(paid.paymentId);
    expect(await creditsOf(m)).toBe(0);
    await control(`/payments/${paid.paymentId}/refunds/${refund!.id}/status`, { status: "failed" });
    await Promise.all([deliverWebhooks(paid.paymentId), ...Array.from({ length: 8 }, () => webhook(paid.paymentId))]);
    expect(await creditsOf(m)).toBe(50);
    expect((await orderView(m, paid.id)).status).toBe("paid");
    await expectBooksBalanced(m);
  });

  it("a refund request whose answer is lost is looked up, not assumed failed: the credits stay taken", async () => {
    const m = await member();
    const paid = await paidOrder(m);
    await control("/lose-next-refund-answer", {});
    const res = await call(m, "/api/refund.php", { method: "POST", json: { order_id: paid.id } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await creditsOf(m)).toBe(0);
    const refunds = await control<{ id: string }[]>(`/payments/${paid.paymentId}/refunds`);
    expect(refunds).toHaveLength(1);
    const row = await env.DB.prepare("SELECT provider_id, status FROM payment_adjustments WHERE order_id = ?")
      .bind(paid.id)
      .first<{ provider_id: string; status: string }>();
    expect(row).toEqual({ provider_id: refunds[0]!.id, status: "pending" });
    await expectBooksBalanced(m);
  });

  it("a refund made in Mollie's dashboard reaches the ledger through the payment's webhook, once, and comes back if it fails", async () => {
    const m = await member();
    const paid = await paidOrder(m, { bundle_id: 2, method: "creditcard" });
    expect(await creditsOf(m)).toBe(125);
    const refund = await control<{ id: string }>(`/payments/${paid.paymentId}/dashboard-refund`, { amount: 798 });
    // Mollie's call and repeats of it, all at once: the refund's credits are taken once.
    const [calls] = await Promise.all([
      deliverWebhooks(paid.paymentId),
      ...Array.from({ length: 8 }, () => webhook(paid.paymentId)),
    ]);
    expect(calls).toBe(1);
    // 7.98 of 19.95 is 40 % of the 125 credits.
    expect(await creditsOf(m)).toBe(75);
    await expectBooksBalanced(m);
    await control(`/payments/${paid.paymentId}/refunds/${refund.id}/status`, { status: "failed" });
    await Promise.all([deliverWebhooks(paid.paymentId), ...Array.from({ length: 8 }, () => webhook(paid.paymentId))]);
    expect(await creditsOf(m)).toBe(125);
    await expectBooksBalanced(m);
  });

  it("a partial chargeback takes back in proportion and blocks direct debit; its reversal gives back and lifts the block", async () => {
    const m = await member();
    const debit = await directDebitOrder(m);
    expect(await creditsOf(m)).toBe(50);
    expect((await lastCreate()).body).toMatchObject({
      sequenceType: "recurring",
      method: "directdebit",
      amount: { value: "9.95" },
    });
    await setStatus(debit.paymentId, "paid");
    await deliverWebhooks(debit.paymentId);
    const chargeback = await control<{ id: string }>(`/payments/${debit.paymentId}/chargebacks`, { amount: 398 });
    await Promise.all([deliverWebhooks(debit.paymentId), ...Array.from({ length: 8 }, () => webhook(debit.paymentId))]);
    // 3.98 of 9.95 is 40 % of the 50 credits.
    expect(await creditsOf(m)).toBe(30);
    expect((await orderView(m, debit.id)).status).toBe("reversed");
    await expectBooksBalanced(m);
    const blocked = await call(m, "/api/directdebit.php", { method: "POST", json: directDebitForm(m) });
    expect(blocked.status).toBe(403);
    expect((await blocked.json<{ message: string }>()).message).toBe("Direct debit is blocked for your account");
    await control(`/payments/${debit.paymentId}/chargebacks/${chargeback.id}/reverse`, {});
    // Mollie tells a reversal only by its next-gen webhook (https://docs.mollie.com/reference/chargebacks-api-webhooks).
    expect(await deliverWebhooks(debit.paymentId)).toBe(0);
    expect((await deliverEvents(debit.paymentId)).map((e) => e.type)).toContain("chargeback.reversed");
    expect(await creditsOf(m)).toBe(50);
    expect((await orderView(m, debit.id)).status).toBe("paid");
    await expectBooksBalanced(m);
    expect((await call(m, "/api/directdebit.php", { method: "POST", json: directDebitForm(m) })).status).toBe(200);
  });

  it("a full chargeback on a card payment takes back the unused credits", async () => {
    const m = await member();
    const paid = await paidOrder(m, { bundle_id: 1, method: "creditcard" });
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET credits = credits - 20 WHERE id = ?").bind(m.userId),
      env.DB.prepare("INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?, -20, 'message')").bind(m.userId),
    ]);
    await control(`/payments/${paid.paymentId}/chargebacks`, {});
    await deliverWebhooks(paid.paymentId);
    expect(await creditsOf(m)).toBe(0);
    expect((await orderView(m, paid.id)).status).toBe("reversed");
    await expectBooksBalanced(m);
  });

  it("an unreachable provider: the checkout is not started, nothing is charged, the order waits to be settled; a refusal fails it", async () => {
    const m = await member();
    const down = { ...mollieEnv, MOLLIE_API_URL: "http://127.0.0.1:9/v2" };
    const res = await call(m, "/api/order.php", { method: "POST", json: { bundle_id: 1, method: "ideal" } }, down);
    expect(res.status).toBe(502);
    expect((await res.json<{ message: string }>()).message).toBe(
      "The payment could not be started. Nothing has been charged; please try again in a moment.",
    );
    expect(await creditsOf(m)).toBe(0);
    const statuses = async () =>
      (
        await env.DB.prepare("SELECT status FROM orders WHERE user_id = ? ORDER BY id")
          .bind(m.userId)
          .all<{ status: string }>()
      ).results.map((r) => r.status);
    expect(await statuses()).toEqual(["pending"]);
    const wrongKey = { ...mollieEnv, MOLLIE_API_KEY: "test_wrong" };
    const refused = await call(
      m,
      "/api/order.php",
      { method: "POST", json: { bundle_id: 1, method: "ideal" } },
      wrongKey,
    );
    expect(refused.status).toBe(502);
    expect((await refused.json<{ message: string }>()).message).toBe(
      "The payment could not be started, please try again later",
    );
    expect(await statuses()).toEqual(["pending", "failed"]);
  });
});
