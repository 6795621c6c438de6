/**
 * One price, computed once (issue 21, point 1): what /credits, the method choice, the overview and
 * repeat order are given (GET /api/prices.php, GET /api/repeat-order.php, and the pages that embed
 * them) is what the order is created with, and what the receipt and the transactions then show.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "../../src/shared/payments";
import type {
  OrderCreated,
  OrderPrice,
  OrderResponse,
  PricesResponse,
  RepeatOrderResponse,
  TransactionResponse,
  TransactionsResponse,
} from "../../src/shared/payments-api";
import { chatMember, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";

const ORIGIN = "http://price.test";
const SITE = site("price.test");

beforeAll(async () => {
  await putSites(SITE);
  await env.DB.prepare(
    "INSERT INTO discount_codes (code, percentage, minimum_cents, status, validity) VALUES ('BIG10', 10, 1500, 'active', 'unlimited')",
  ).run();
});

const member = () => chatMember(ORIGIN);
const post = (buyer: Member, path: string, body?: unknown) =>
  buyer.browser.fetch(path, {
    method: "POST",
    headers: { "cf-connecting-ip": `10.2.${buyer.userId >> 8}.${buyer.userId & 255}` },
    ...(body === undefined ? {} : { json: body }),
  });
const prices = async (buyer: Member, query = "") => {
  const res = await buyer.browser.fetch(`/api/prices.php${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return json<PricesResponse>(res);
};
const orderOf = async (buyer: Member, id: number) =>
  (await json<OrderResponse>(await buyer.browser.fetch(`/api/order.php?id=${id}`))).order;
const pay = (buyer: Member, created: OrderCreated["order"]) =>
  buyer.browser.fetch(new URL(created.checkout_url!).pathname, {
    method: "POST",
    body: new URLSearchParams({ status: "paid" }),
  });
/** The page as the member's browser gets it, in Dutch. */
const page = async (buyer: Member, path: string) => {
  buyer.browser.cookies.set("locale", "nl");
  const html = await (await buyer.browser.fetch(path)).text();
  buyer.browser.cookies.set("locale", "en");
  return html;
};
const nl = (price: number) => formatMoney(price, "EUR", "nl");

/** Order the quoted price the way the overview does: its code and the total it showed. */
async function orderQuoted(buyer: Member, price: OrderPrice, method = "ideal") {
  const res = await post(buyer, "/api/order.php", {
    bundle_id: price.bundle_id,
    method,
    ...(price.discount_code ? { discount_code: price.discount_code } : {}),
    expected_amount: price.amount,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json<OrderCreated>(res)).order;
}

describe("one price from /credits to the receipt", () => {
  it("with the time bonus: every screen's data names the discounted price, and the order, receipt and transactions are that price", async () => {
    const buyer = await member();
    const list = await prices(buyer);
    expect(list.discount).toMatchObject({ code: "TIMEBONUS25", time_bonus: true });
    expect(list.prices.map((p) => [p.bundle_id, p.price, p.discount, p.amount, p.discount_code])).toEqual([
      [1, 995, 249, 746, "TIMEBONUS25"],
      [2, 1995, 499, 1496, "TIMEBONUS25"],
      [3, 3995, 999, 2996, "TIMEBONUS25"],
    ]);
    // The method choice and the overview: the same price as /credits (it was the bundle's full price before).
    const choice = await prices(buyer, "?bundle_id=2");
    const overview = await prices(buyer, "?bundle_id=2&method=ideal");
    expect(choice.prices).toEqual([list.prices[1]]);
    expect(overview.prices).toEqual([list.prices[1]]);
    expect(overview.prices[0]).toMatchObject({ vat: 260, vat_rate: 21, currency: "EUR" });
    // The pages render the server's price, formatted for the member's language.
    expect(await page(buyer, "/credits")).toContain(nl(1496));
    expect(await page(buyer, "/credits/2")).toContain(nl(1496));
    const overviewHtml = await page(buyer, "/credits/2/ideal");
    for (const amount of [1995, -499, 260, 1496]) expect(overviewHtml).toContain(nl(amount));
    expect(overviewHtml).toContain("tijdbonus");

    const created = await orderQuoted(buyer, overview.prices[0]!);
    const stored = await orderOf(buyer, created.id);
    expect(stored).toMatchObject({ amount: 1496, discount: 499, vat: 260, discount_code: "TIMEBONUS25", credits: 125 });
    await pay(buyer, created);
    const receipt = await json<TransactionResponse>(await buyer.browser.fetch(`/api/transaction.php?id=${created.id}`));
    expect(receipt.order).toMatchObject({ amount: 1496, discount: 499, vat: 260 });
    const receiptHtml = await page(buyer, `/transactions/${created.id}`);
    for (const amount of [-499, 1496 - 260, 260, 1496]) expect(receiptHtml).toContain(nl(amount));
    const transactions = await json<TransactionsResponse>(await buyer.browser.fetch("/api/transactions.php"));
    expect(transactions.orders[0]).toMatchObject({ id: created.id, amount: 1496 });
    expect(await page(buyer, "/transactions")).toContain(nl(1496));
    // Paid: no offer any more, full prices everywhere.
    expect((await prices(buyer)).prices.map((p) => p.amount)).toEqual([995, 1995, 3995]);
  });

  it("four hours after signup the welcome discount applies instead, and the screens say so", async () => {
    const buyer = await member();
    await env.DB.prepare("UPDATE users SET signup_date = signup_date - 14401 WHERE id = ?").bind(buyer.userId).run();
    const list = await prices(buyer);
    expect(list.discount).toMatchObject({ code: "WELCOME25", time_bonus: false });
    expect(list.prices[0]).toMatchObject({ amount: 746, discount_code: "WELCOME25" });
    expect(await page(buyer, "/credits")).toContain("welkomstkorting");
  });

  it("a code that needs a larger order leaves the small bundle whole and says why for it", async () => {
    const buyer = await member();
    await env.DB.prepare("UPDATE users SET paid_user = 1 WHERE id = ?").bind(buyer.userId).run();
    const list = await prices(buyer, "?code=big10");
    expect(list.prices.map((p) => p.amount)).toEqual([995, 1795, 3595]);
    expect(list.refusal).toBeNull();
    const small = await prices(buyer, "?code=big10&bundle_id=1&method=ideal");
    expect(small.prices[0]).toMatchObject({ amount: 995, discount: 0, discount_code: null });
    expect(small.refusal).toBe("This code needs an order of at least €15.00");
  });

  it("an order whose shown total is not the server's price is refused, and nothing is made", async () => {
    const buyer = await member();
    const res = await post(buyer, "/api/order.php", { bundle_id: 1, method: "ideal", expected_amount: 746 });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      error: "price_changed",
      message: "The price has changed. Check the new price and try again.",
    });
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?")
        .bind(buyer.userId)
        .first<{ n: number }>())!.n,
    ).toBe(0);
  });

  it("a visitor gets no member's prices", async () => {
    for (const path of ["/api/prices.php", "/api/repeat-order.php"]) {
      const res = await fetchWorker(`${ORIGIN}${path}`);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: "authentication_required" });
    }
  });
});

describe("repeat order states what it charges and charges that", () => {
  it("after a purchase with the time bonus, the repeat is at the bundle's full price, said on the screen, and charged so", async () => {
    const buyer = await member();
    const bonus = (await prices(buyer, "?bundle_id=2&method=ideal")).prices[0]!;
    await pay(buyer, await orderQuoted(buyer, bonus));
    const { repeat } = await json<RepeatOrderResponse>(await buyer.browser.fetch("/api/repeat-order.php"));
    expect(repeat).toMatchObject({
      bundle_id: 2,
      method: "ideal",
      price: { amount: 1995, discount: 0, discount_code: null, vat: 346 },
    });
    const html = await page(buyer, "/credits/repeat-order");
    expect(html).toContain(nl(1995));
    expect(html).not.toContain(nl(1496));
    expect(html).toContain("kortingen gaan niet mee");
    // A screen that showed another total is refused, and nothing is made.
    const stale = await post(buyer, "/api/repeat-order.php", { expected_amount: 1496 });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: "price_changed" });
    const res = await post(buyer, "/api/repeat-order.php", { expected_amount: repeat!.price.amount });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await json<OrderCreated>(res)).order;
    expect(await orderOf(buyer, created.id)).toMatchObject({ bundle_id: 2, amount: 1995, discount: 0, vat: 346 });
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?")
        .bind(buyer.userId)
        .first<{ n: number }>())!.n,
    ).toBe(2);
  });

  it("without a previous order there is nothing to repeat", async () => {
    const buyer = await member();
    expect(await json<RepeatOrderResponse>(await buyer.browser.fetch("/api/repeat-order.php"))).toEqual({
      repeat: null,
    });
  });
});
