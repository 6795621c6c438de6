import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema";
import { insertOrderHolding } from "../../src/server/db/orders";
import {
  checkDiscount,
  activeDiscountFor,
  timeBonusFor,
  type DiscountMember,
} from "../../src/server/services/discounts";
import { discountedAmount, countdown, type DiscountResponse } from "../../src/shared/discounts";
import type { OrderCreated, OrderResponse } from "../../src/shared/payments-api";
import { chatMember, creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";

const ORIGIN = "http://discount.test";
const SITE = site("discount.test");
const db = drizzle(env.DB, { schema });
const NOW = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  await putSites(SITE);
  const add = (code: string, values: Record<string, unknown>) =>
    env.DB.prepare(
      "INSERT INTO discount_codes (code, percentage, minimum_cents, country, currency, expires_at, status, validity, payment_methods) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
      .bind(
        code,
        values.percentage ?? 20,
        values.minimum ?? 0,
        values.country ?? null,
        values.currency ?? null,
        values.expires ?? null,
        values.status ?? "active",
        values.validity ?? "once_per_user",
        values.methods ?? null,
      )
      .run();
  await add("SPRING20", {});
  await add("EVERYONE10", { percentage: 10, validity: "unlimited" });
  await add("BELGIUM", { country: "BE" });
  await add("BIGSPENDER", { minimum: 1500 });
  await add("OLDNEWS", { expires: NOW() - 60 });
  await add("ENDED", { status: "inactive" });
  await add("CARDONLY", { methods: JSON.stringify(["creditcard"]) });
});

const member = (options: { paid?: boolean } = {}) => chatMember(ORIGIN, options);
const post = (buyer: Member, path: string, body: unknown) =>
  buyer.browser.fetch(path, {
    method: "POST",
    headers: { "cf-connecting-ip": `10.1.${buyer.userId >> 8}.${buyer.userId & 255}` },
    json: body,
  });
const orderCount = async (buyer: Member) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?")
    .bind(buyer.userId)
    .first<{ n: number }>())!.n;

async function order(
  buyer: Member,
  code: string | undefined,
  bundle = 1,
  method = "ideal",
): Promise<OrderCreated["order"]> {
  const res = await post(buyer, "/api/order.php", {
    bundle_id: bundle,
    method,
    ...(code === undefined ? {} : { discount_code: code }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json<OrderCreated>(res)).order;
}

async function orderOf(buyer: Member, id: number) {
  return (await json<OrderResponse>(await buyer.browser.fetch(`/api/order.php?id=${id}`))).order;
}

const pay = (buyer: Member, created: OrderCreated["order"]) =>
  buyer.browser.fetch(new URL(created.checkout_url!).pathname, {
    method: "POST",
    body: new URLSearchParams({ status: "paid" }),
  });

describe("discount code refusals", () => {
  const cases: [string, string, number, string, { bundle?: number; method?: string }?][] = [
    ["NOSUCHCODE", "discount_not_found", 404, "Code not found"],
    ["no good!", "discount_invalid", 400, "Code invalid"],
    ["ENDED", "discount_invalid", 400, "Code invalid"],
    ["BELGIUM", "discount_other_country", 400, "This code is for another country"],
    ["BIGSPENDER", "discount_below_minimum", 400, "This code needs an order of at least €15.00"],
    ["OLDNEWS", "discount_expired", 400, "This code has expired"],
    ["CARDONLY", "discount_method_not_covered", 400, "This code does not apply to this payment method"],
  ];
  for (const [code, error, status, message] of cases) {
    it(`${code}: "${message}", and no order is made`, async () => {
      const buyer = await member();
      const res = await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: code });
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ error, message, field: "discount_code" });
      expect(await orderCount(buyer)).toBe(0);
      const check = await buyer.browser.fetch(
        `/api/discountcode.php?${new URLSearchParams({ code, bundle_id: "1", method: "ideal" })}`,
      );
      expect(check.status).toBe(status);
      expect(await check.json()).toMatchObject({ error, message });
    });
  }

  it("speaks the member's language", async () => {
    const buyer = await member();
    buyer.browser.cookies.set("locale", "de");
    const res = await buyer.browser.fetch("/api/discountcode.php?code=NOSUCHCODE");
    expect(await res.json()).toMatchObject({ error: "discount_not_found", message: "Code nicht gefunden" });
  });

  it("a visitor is asked to log in, and a request's price or percentage is refused", async () => {
    const visitor = await fetchWorker(`${ORIGIN}/api/discountcode.php?welcome=true`);
    expect([401, 403]).toContain(visitor.status);
    const buyer = await member();
    const res = await post(buyer, "/api/order.php", {
      bundle_id: 1,
      method: "ideal",
      discount_code: "SPRING20",
      amount: 1,
      percentage: 99,
    });
    expect(res.status).toBe(201);
    const created = (await json<OrderCreated>(res)).order;
    expect(await orderOf(buyer, created.id)).toMatchObject({ amount: 796, discount: 199 });
  });
});

describe("applying a code", () => {
  it("the price shown is the price charged, and a once-per-member code is used once it is paid", async () => {
    const buyer = await member();
    const shown = await json<DiscountResponse>(
      await buyer.browser.fetch("/api/discountcode.php?code=spring20&bundle_id=2&method=ideal"),
    );
    expect(shown.discount).toMatchObject({ code: "SPRING20", percentage: 20, validity: "once_per_user" });
    const created = await order(buyer, " spring20 ", 2);
    const placed = await orderOf(buyer, created.id);
    expect(placed.amount).toBe(discountedAmount(1995, shown.discount.percentage));
    expect(placed).toMatchObject({ amount: 1596, discount: 399, vat: 277 });
    // Not paid yet: the code is held while the payment is under way, not used, and the member is told so.
    const held = await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: "SPRING20" });
    expect(held.status).toBe(409);
    expect(await held.json()).toMatchObject({
      error: "discount_held",
      message: "This code is waiting for a payment you started",
      field: "discount_code",
    });
    const shownHeld = await buyer.browser.fetch("/api/discountcode.php?code=SPRING20&bundle_id=1&method=ideal");
    expect(await shownHeld.json()).toMatchObject({ error: "discount_held" });
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM discount_uses WHERE user_id = ?")
        .bind(buyer.userId)
        .first<{ n: number }>())!.n,
    ).toBe(0);
    await pay(buyer, created);
    expect(await orderOf(buyer, created.id)).toMatchObject({ status: "paid", credits: 125 });
    const again = await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: "SPRING20" });
    expect(await again.json()).toMatchObject({ error: "discount_used", message: "Code already used" });
  });

  it("an abandoned order frees the code after the hold", async () => {
    const buyer = await member();
    const first = await order(buyer, "SPRING20");
    await env.DB.prepare("UPDATE discount_holds SET held_until = held_until - 3600 WHERE order_id = ?")
      .bind(first.id)
      .run();
    expect((await orderOf(buyer, (await order(buyer, "SPRING20")).id)).discount).toBe(199);
  });

  it("a reusable code serves many orders", async () => {
    const buyer = await member();
    for (let i = 0; i < 2; i++) await pay(buyer, await order(buyer, "EVERYONE10"));
    expect(await creditsOf(buyer)).toBe(100);
  });

  it("two paid orders racing with a once-per-member code use it once", async () => {
    const buyer = await member();
    const a = await order(buyer, "SPRING20");
    await env.DB.prepare("UPDATE discount_holds SET held_until = held_until - 3600 WHERE order_id = ?")
      .bind(a.id)
      .run();
    const b = await order(buyer, "SPRING20");
    await Promise.all([pay(buyer, a), pay(buyer, b)]);
    const uses = await env.DB.prepare("SELECT order_id FROM discount_uses WHERE user_id = ?")
      .bind(buyer.userId)
      .all<{ order_id: number }>();
    expect(uses.results.length).toBe(1);
    expect([a.id, b.id]).toContain(uses.results[0]!.order_id);
    // Money in is never ignored: both are credited.
    expect(await creditsOf(buyer)).toBe(100);
    expect(
      (await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: "SPRING20" })).status,
    ).toBe(409);
  });

  it("the retention offer is a real code for that member only", async () => {
    const leaving = await member();
    const { discount } = await json<{ discount: { code: string; percentage: number } }>(
      await post(leaving, "/api/retention.php", {}),
    );
    expect(discount.percentage).toBe(50);
    const created = await order(leaving, discount.code);
    expect(await orderOf(leaving, created.id)).toMatchObject({ amount: 497, discount: 498 });
    const other = await member();
    const res = await post(other, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: discount.code });
    expect(await res.json()).toMatchObject({ error: "discount_not_found" });
    expect(await orderCount(other)).toBe(0);
  });
});

describe("the welcome discount and the time bonus", () => {
  const signup = 1_800_000_000;
  const fresh: DiscountMember = { userId: 0, paid: false, signupDate: signup, language: "en", country: "NL" };

  it("the time bonus exists at 3:59:59 after signup and not at 4:00:01; then the welcome discount is active", () => {
    expect(timeBonusFor(SITE, fresh, signup + 14_399)).toMatchObject({
      code: "TIMEBONUS25",
      percentage: 25,
      expires: signup + 14_400,
      country: "NL",
      currency: "EUR",
      time_bonus: true,
    });
    expect(timeBonusFor(SITE, fresh, signup + 14_401)).toBeNull();
    expect(activeDiscountFor(SITE, fresh, signup + 14_399)?.code).toBe("TIMEBONUS25");
    expect(activeDiscountFor(SITE, fresh, signup + 14_401)).toMatchObject({ code: "WELCOME25", percentage: 25 });
    expect(activeDiscountFor(SITE, { ...fresh, paid: true }, signup + 10)).toBeNull();
    expect(countdown(14_399)).toBe("03:59:59");
    expect(countdown(61)).toBe("00:01:01");
  });

  it("the time bonus and the welcome discount keep the country's minimum order value of the site", async () => {
    const nl = SITE.pricing.NL!;
    const [smallest, ...larger] = nl.bundles.toSorted((a, b) => a.amount - b.amount);
    const strict = { ...SITE, pricing: { ...SITE.pricing, NL: { ...nl, offer_minimum_order: smallest!.amount + 1 } } };
    const buyer = await member();
    const m = { ...fresh, userId: buyer.userId };
    const ctx = { db, site: strict, now: signup + 60 };
    expect(timeBonusFor(strict, m, signup + 60)?.minimum).toBe(smallest!.amount + 1);
    for (const code of ["TIMEBONUS25", "WELCOME25"]) {
      await expect(checkDiscount(ctx, m, code, { bundle: smallest!, method: "ideal" })).rejects.toMatchObject({
        code: "discount_below_minimum",
      });
      expect((await checkDiscount(ctx, m, code, { bundle: larger[0]!, method: "ideal" })).view.percentage).toBe(25);
    }
    expect(timeBonusFor(SITE, m, signup + 60)?.minimum).toBe(0);
  });

  it("TIMEBONUS25 is accepted at 3:59:59 and refused as expired at 4:00:01", async () => {
    const buyer = await member();
    const m = { ...fresh, userId: buyer.userId };
    const ctx = (now: number) => ({ db, site: SITE, now });
    expect((await checkDiscount(ctx(signup + 14_399), m, "TIMEBONUS25")).view.percentage).toBe(25);
    await expect(checkDiscount(ctx(signup + 14_401), m, "TIMEBONUS25")).rejects.toMatchObject({
      code: "discount_expired",
    });
    await expect(checkDiscount(ctx(signup + 10), { ...m, paid: true }, "TIMEBONUS25")).rejects.toMatchObject({
      code: "discount_used",
    });
  });

  it("a new member is offered both; an order with the time bonus charges 25 percent less; paid, neither is offered again", async () => {
    const buyer = await member();
    const offer = await json<DiscountResponse>(await buyer.browser.fetch("/api/discountcode.php?welcome=true"));
    expect(offer.discount).toMatchObject({ code: "WELCOME25", percentage: 25 });
    expect(offer.time_bonus).toMatchObject({ code: "TIMEBONUS25", percentage: 25, currency: "EUR" });
    expect(offer.time_bonus!.expires! - NOW()).toBeGreaterThan(14_300);
    const created = await order(buyer, "TIMEBONUS25");
    expect(await orderOf(buyer, created.id)).toMatchObject({ amount: 746, discount: 249 });
    await pay(buyer, created);
    expect((await buyer.browser.fetch("/api/discountcode.php?welcome=true")).status).toBe(404);
    const res = await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: "WELCOME25" });
    expect(await res.json()).toMatchObject({ error: "discount_used", message: "Code already used" });
  });

  it("four hours after signup only the welcome discount is left", async () => {
    const buyer = await member();
    await env.DB.prepare("UPDATE users SET signup_date = ? WHERE id = ?")
      .bind(NOW() - 14_401, buyer.userId)
      .run();
    const offer = await json<DiscountResponse>(await buyer.browser.fetch("/api/discountcode.php?welcome=true"));
    expect(offer).toMatchObject({ discount: { code: "WELCOME25" }, time_bonus: null });
    const res = await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: "TIMEBONUS25" });
    expect(await res.json()).toMatchObject({ error: "discount_expired" });
    expect((await orderOf(buyer, (await order(buyer, "WELCOME25")).id)).amount).toBe(746);
  });
});

describe("a once-per-member code is used once, however many orders race (issue 20, points 2 and 3)", () => {
  const RACERS = 8;
  const race = (buyer: Member, codes: string[]) =>
    Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: codes[i % codes.length] }),
      ),
    );
  const discounted = async (buyer: Member) =>
    (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ? AND discount_cents > 0")
      .bind(buyer.userId)
      .first<{ n: number }>())!.n;

  it("eight orders at once with the same code: exactly one is made, every round and for every kind of code", async () => {
    for (let round = 0; round < 8; round++) {
      const buyer = await member();
      const kind = round % 4;
      let code = ["TIMEBONUS25", "WELCOME25", "SPRING20"][kind] ?? "";
      if (kind === 3)
        code = (await json<{ discount: { code: string } }>(await post(buyer, "/api/retention.php", {}))).discount.code;
      const answers = await race(buyer, [code]);
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s === 201),
        `${code}: ${statuses.join(",")}`,
      ).toHaveLength(1);
      expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
      for (const refused of answers.filter((a) => a.status === 409))
        expect(await refused.json()).toMatchObject({ error: "discount_held", field: "discount_code" });
      expect(await orderCount(buyer)).toBe(1);
      expect(await discounted(buyer)).toBe(1);
    }
  }, 120_000);

  it("once the winning order is paid, a new race makes no discounted order; once it lapsed unpaid, a new race makes one", async () => {
    for (let round = 0; round < 4; round++) {
      const buyer = await member();
      const code = round % 2 ? "SPRING20" : "TIMEBONUS25";
      const first = await order(buyer, code);
      if (round < 2) {
        await pay(buyer, first);
        const answers = await race(buyer, [code]);
        for (const answer of answers) expect(await answer.json()).toMatchObject({ error: "discount_used" });
        expect(await discounted(buyer)).toBe(1);
      } else {
        await env.DB.prepare("UPDATE discount_holds SET held_until = held_until - 3600 WHERE order_id = ?")
          .bind(first.id)
          .run();
        const answers = await race(buyer, [code]);
        expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
        expect(await discounted(buyer)).toBe(2);
      }
    }
  }, 120_000);

  it("a payment that failed frees the code at once", async () => {
    const buyer = await member();
    const first = await order(buyer, "SPRING20");
    await buyer.browser.fetch(new URL(first.checkout_url!).pathname, {
      method: "POST",
      body: new URLSearchParams({ status: "failed" }),
    });
    expect((await orderOf(buyer, (await order(buyer, "SPRING20")).id)).discount).toBe(199);
  });

  it("the time bonus and the welcome discount are alternatives: two orders of a new member cannot both be discounted, in either order", async () => {
    for (const [a, b] of [
      ["TIMEBONUS25", "WELCOME25"],
      ["WELCOME25", "TIMEBONUS25"],
    ]) {
      const buyer = await member();
      const first = await order(buyer, a);
      const held = await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: b });
      expect(held.status).toBe(409);
      expect(await held.json()).toMatchObject({ error: "discount_held" });
      await pay(buyer, first);
      const used = await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: b });
      expect(used.status).toBe(409);
      expect(await used.json()).toMatchObject({ error: "discount_used" });
      expect(await discounted(buyer)).toBe(1);
    }
  });

  it("the time bonus and the welcome discount raced against each other: one discounted order each round", async () => {
    for (let round = 0; round < 6; round++) {
      const buyer = await member();
      const answers = await race(buyer, ["TIMEBONUS25", "WELCOME25"]);
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(await discounted(buyer)).toBe(1);
    }
  }, 120_000);

  it("the welcome discount is for a first purchase only, even when the member paid between the check and the order", async () => {
    const buyer = await member();
    await pay(buyer, await order(buyer, undefined));
    const res = await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", discount_code: "WELCOME25" });
    expect(await res.json()).toMatchObject({ error: "discount_used" });
    // The order's own batch checks it too: a member who is paid by then gets no order with it.
    const row = {
      userId: buyer.userId,
      siteDomain: "discount.test",
      bundleId: 1,
      credits: 50,
      amountCents: 746,
      vatCents: 129,
      discountCents: 249,
      discountCode: "WELCOME25",
      discountKey: "first-purchase",
      currency: "EUR",
      paymentMethod: "ideal",
      country: "NL",
    };
    expect(
      await insertOrderHolding(db, row, NOW(), { key: "first-purchase", until: NOW() + 900, firstPurchaseOnly: true }),
    ).toBeNull();
    expect(await discounted(buyer)).toBe(0);
  });
});
