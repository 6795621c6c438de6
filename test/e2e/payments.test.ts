import { describe, expect, inject, it } from "vitest";
import nl from "../../locales/nl.json" with { type: "json" };
import type { ProfileResponse, SearchResponse, User } from "../../src/shared/api";
import type { OrderResponse } from "../../src/shared/payments-api";
import { phone, sharedBrowser } from "./browser";
import { api, signUpByForm } from "./dutch-site";

const baseUrl = inject("baseUrl");
const euro = (amount: number) => new Intl.NumberFormat("nl", { style: "currency", currency: "EUR" }).format(amount);
const browser = sharedBrowser();

describe("buying credits on the Dutch site", () => {
  it("a new member pays a bundle with iDEAL and the time bonus (25 percent less) in the sandbox checkout, becomes premium, sees a blurred photo in full and reads the receipt", async () => {
    const { page, context, errors } = await phone(browser());
    await signUpByForm(page, baseUrl, "pay", "male");

    // A demo profile whose extra photos this free member sees blurred.
    const target = await page.evaluate(async () => {
      const headers = { "X-Request-Type": "client" };
      const search = (await (await fetch("/api/search.php", { headers })).json()) as SearchResponse;
      for (const card of search.profiles) {
        const detail = (await (await fetch(`/api/profile.php?id=${card.id}`, { headers })).json()) as ProfileResponse;
        if (detail.photos.some((p) => p.locked)) return card.id;
      }
      return null;
    });
    expect(target).not.toBeNull();

    await page.goto(`${baseUrl}/credits`);
    expect(await page.locator(".bundle").count()).toBe(4);
    expect(await page.locator(".bundle--popular .bundle__mark").textContent()).toBe(nl.payments.most_popular);
    // The time bonus of a member who signed up minutes ago: 25 percent off, shown before paying.
    await expect.poll(() => page.locator(".bundle").first().getByTestId("bundle-price").textContent()).toBe(euro(7.46));
    expect(await page.locator(".bundle").first().locator(".bundle__was").textContent()).toBe(euro(9.95));
    await page.locator(".bundle").first().getByRole("link", { name: nl.payments.choose }).click();
    await page.waitForURL(/\/credits\/1$/);
    await page.getByRole("link", { name: nl.payments.methods.ideal }).click();
    await page.waitForURL(/\/credits\/1\/ideal$/);
    await expect.poll(() => page.getByTestId("order-total").textContent()).toBe(euro(7.46));
    expect(await page.locator(".receipt__lines").textContent()).toContain(euro(1.29));
    await page.getByRole("button", { name: nl.payments.pay.replace("{price}", euro(7.46)) }).click();

    // The sandbox's checkout page: one button per status; the sandbox then calls the webhook.
    await page.waitForURL(/\/sandbox\/checkout\/tr_sb/);
    await page.getByRole("button", { name: "paid", exact: true }).click();
    await page.waitForURL(/\/credits\/1\/ideal\?order=\d+$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe(nl.payments.completed_title);
    await expect
      .poll(() => page.locator(".credits__balance").textContent())
      .toBe(nl.payments.balance_other.replace("{count}", "60"));
    expect(await page.locator(".top-bar .badge--premium").textContent()).toBe(nl.payments.premium_badge);

    // Premium: the photos that were blurred are shown in full.
    await page.goto(`${baseUrl}/members/${target}`);
    await page.locator(".member__thumbs .thumb").first().waitFor();
    expect(await page.locator(".member__thumbs .thumb.is-locked").count()).toBe(0);
    const thumbs = page.locator(".member__thumbs .thumb");
    await thumbs.nth((await thumbs.count()) - 1).click();
    const src = await page.locator(".member__main-photo > img").getAttribute("src");
    expect(src).toMatch(/^\/media\/p\//);
    expect(await page.locator(".member__main-photo .lock-overlay").count()).toBe(0);
    expect(await page.evaluate(async (path) => (await fetch(path!)).status, src)).toBe(200);
    await expect
      .poll(() => page.locator(".member__main-photo > img").evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);

    // The receipt in /transactions.
    await page.goto(`${baseUrl}/transactions`);
    await page.locator(".transaction").first().click();
    await page.waitForURL(/\/transactions\/\d+$/);
    const receipt = page.locator(".receipt");
    await expect.poll(() => receipt.locator(".receipt__company").textContent()).toContain("Wavelength Media B.V.");
    const text = (await receipt.textContent())!;
    for (const part of ["87654321", "NL864213579B01", euro(7.46), euro(1.29), nl.payments.status.paid])
      expect(text).toContain(part);
    expect(await receipt.getByRole("button", { name: nl.payments.refund_button }).count()).toBe(1);
    // Nothing is wider than the phone.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > 360.5)
        .map((e) => `${e.tagName}.${e.className}:${Math.round(e.getBoundingClientRect().right)}`),
    );
    expect(wide).toEqual([]);

    expect(errors).toEqual([]);
    await context.close();
  });

  it("at 390 px the amount on every screen from /credits to the receipt is the order the server stored: with the time bonus, for a repeat order, and without the time bonus", async () => {
    const { page, context, errors } = await phone(browser(), { width: 390, height: 844 });
    await signUpByForm(page, baseUrl, "price", "male");
    // A phone screen's worth (390x844) from the screen's heading, below the top bar and the alerts.
    const shot = async (name: string) => {
      await page.evaluate(() => {
        const heading = document.querySelector("h1");
        const bar = document.querySelector(".top-bar")?.getBoundingClientRect().height ?? 0;
        if (heading) window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - bar - 16);
      });
      await page.screenshot({ path: `.tmp/screens/payment-${name}.png` });
    };
    const text = async (locator: ReturnType<typeof page.locator>) => ((await locator.textContent()) ?? "").trim();

    /** The member pays with iDEAL in the sandbox's checkout, then reads the completed page; answers the order's id. */
    async function payInSandbox(shots: string): Promise<{ id: number; checkout: string | null }> {
      let checkout: string | null = null;
      if (/\/sandbox\/checkout\//.test(page.url())) {
        checkout = await text(page.locator("strong").first());
        await shot(`${shots}-4-checkout`);
        await page.getByRole("button", { name: "paid", exact: true }).click();
      }
      await page.waitForURL(/\?order=\d+$/);
      await expect.poll(() => page.locator("h1").textContent()).toBe(nl.payments.completed_title);
      await shot(`${shots}-5-completed`);
      return { id: Number(new URL(page.url()).searchParams.get("order")), checkout };
    }

    /** The receipt and the transactions list name the order's amount. */
    async function afterwards(id: number, shots: string): Promise<string[]> {
      await page.goto(`${baseUrl}/transactions/${id}`);
      const onReceipt = await text(page.getByTestId("receipt-total"));
      await shot(`${shots}-6-receipt`);
      await page.goto(`${baseUrl}/transactions`);
      const onList = await text(page.locator(`a[href="/transactions/${id}"]`).getByTestId("transaction-amount"));
      await shot(`${shots}-7-transactions`);
      return [onReceipt, onList];
    }

    /** Buys a bundle from /credits through the method choice and the overview; answers every amount shown and the stored order. */
    async function buy(index: number, shots: string) {
      await page.goto(`${baseUrl}/credits`);
      const bundle = page.locator(".bundle").nth(index);
      const onCredits = await text(bundle.getByTestId("bundle-price"));
      await shot(`${shots}-1-credits`);
      await bundle.getByRole("link", { name: nl.payments.choose }).click();
      await page.waitForURL(/\/credits\/\d+$/);
      const line = await text(page.getByTestId("bundle-line"));
      await shot(`${shots}-2-method`);
      await page.getByRole("link", { name: nl.payments.methods.ideal }).click();
      await page.waitForURL(/\/credits\/\d+\/ideal$/);
      const onOverview = await text(page.getByTestId("order-total"));
      await shot(`${shots}-3-overview`);
      await page.getByRole("button", { name: nl.payments.pay.replace("{price}", onOverview) }).click();
      await page.waitForURL(/\/sandbox\/checkout\//);
      const { id, checkout } = await payInSandbox(shots);
      const stored = (await api<OrderResponse>(page, "GET", `/api/order.php?id=${id}`)).body.order;
      const amount = euro(stored.amount / 100);
      expect(
        line.startsWith(
          nl.payments.bundle_line_other.replace("{count}", String(stored.credits)).replace("{price}", amount),
        ),
      ).toBe(true);
      expect([onCredits, onOverview, checkout, ...(await afterwards(id, shots))]).toEqual([
        amount,
        amount,
        amount,
        amount,
        amount,
      ]);
      return stored;
    }

    // A new member: the time bonus applies on every screen, and the order is charged that.
    const withBonus = await buy(1, "bonus");
    expect(withBonus).toMatchObject({ amount: 1496, discount: 499, discount_code: "TIMEBONUS25", status: "paid" });

    // Repeat order: it says the full price (discounts do not carry over), and charges exactly that.
    await page.goto(`${baseUrl}/credits/repeat-order`);
    const stated = await text(page.getByTestId("repeat-text"));
    expect(stated).toContain(euro(19.95));
    expect(stated).not.toContain(euro(14.96));
    expect(await text(page.locator(".credits__note"))).toBe(nl.order_price.repeat_full_price);
    await shot("repeat-1-screen");
    await page.getByRole("button", { name: nl.order_price.repeat_pay.replace("{price}", euro(19.95)) }).click();
    // The first order saved no method (a one-off payment, decision 0027), so the repeat opens a checkout.
    await page.waitForURL(/\/sandbox\/checkout\//);
    const repeated = await payInSandbox("repeat");
    const repeatedOrder = (await api<OrderResponse>(page, "GET", `/api/order.php?id=${repeated.id}`)).body.order;
    expect(repeatedOrder).toMatchObject({ amount: 1995, discount: 0, bundle_id: 2 });
    expect(repeated.checkout).toBe(euro(19.95));
    expect(await afterwards(repeated.id, "repeat")).toEqual([euro(19.95), euro(19.95)]);

    // Paid now, so no time bonus: the full price on every screen, and charged so.
    const without = await buy(0, "full");
    expect(without).toMatchObject({ amount: 995, discount: 0, discount_code: null, status: "paid" });

    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > 390.5)
        .map((e) => e.className),
    );
    expect(wide).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the time bonus counts down, its modal opens after 40 s in the members area only, leaving cancels it and closing keeps it closed", async () => {
    const { page, context, errors } = await phone(browser());
    await signUpByForm(page, baseUrl, "pay", "male");
    // Spend the signup credits on messages (the first three are free): the modal is for members with 0 credits.
    // A demo profile (with a photo): members other tests signed up may be unconfirmed and unable to chat.
    const demo = await page.evaluate(async () =>
      (
        (await (await fetch("/api/search.php", { headers: { "X-Request-Type": "client" } })).json()) as SearchResponse
      ).profiles.find((p) => p.main_image)!,
    );
    await page.goto(`${baseUrl}/members/${demo.id}/chat`);
    const iceBreaker = page.getByRole("dialog");
    await expect.poll(() => iceBreaker.count()).toBe(1);
    await iceBreaker.getByRole("button", { name: nl.chat.ice_breaker.own }).click();
    const input = page.getByLabel(nl.chat.message_to.replace("{name}", demo.name));
    const credits = () =>
      page.evaluate(
        async () =>
          ((await (await fetch("/api/user.php", { headers: { "X-Request-Type": "client" } })).json()) as { user: User })
            .user.credits,
      );
    for (let sent = 1; sent <= 5; sent++) {
      await input.fill(`Bericht ${sent}`);
      await input.press("Enter");
      // The first paid message (after the three free ones) asks once.
      if (sent === 4) await page.getByRole("dialog").getByRole("button", { name: nl.spend.send }).click();
      // Stored and acknowledged (not still sending): the acknowledgement says how many free messages are left.
      await expect
        .poll(() =>
          page
            .locator(".message--own:not(.is-sending)")
            .filter({ hasText: `Bericht ${sent}` })
            .count(),
        )
        .toBe(1);
    }
    await expect.poll(credits).toBe(0);

    await page.clock.install();
    await page.goto(`${baseUrl}/members`);
    const banner = page.locator(".time-bonus-banner");
    await expect.poll(() => banner.textContent(), { timeout: 10_000 }).toMatch(/03:5\d:\d\d/);
    const before = (await banner.textContent())!;
    await page.clock.runFor(2000);
    await expect.poll(() => banner.textContent()).not.toBe(before);
    expect(await banner.getAttribute("href")).toBe("/credits");

    // Some 32 s in the members area (the clock also runs on its own while pages load): no modal; leaving for /credits cancels the timer.
    const modal = page.locator(".time-bonus-modal");
    await page.clock.runFor(30_000);
    expect(await modal.count()).toBe(0);
    await page.getByRole("link", { name: /./ }).and(banner).click();
    await page.waitForURL(/\/credits$/);
    await page.clock.runFor(60_000);
    expect(await modal.count()).toBe(0);
    expect(await banner.count()).toBe(0);

    // Back in the area: 40 s later it opens, with the countdown; closing it keeps it closed.
    await page.goBack();
    await page.waitForURL(/\/members$/);
    await page.clock.runFor(33_000);
    expect(await modal.count()).toBe(0);
    await page.clock.runFor(8_000);
    await expect.poll(() => modal.count()).toBe(1);
    expect(await modal.locator(".time-bonus-modal__countdown").textContent()).toMatch(/^03:5\d:\d\d$/);
    await modal.getByRole("button", { name: nl.discounts.close }).click();
    expect(await modal.count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("hide-time-bonus-modal"))).not.toBeNull();
    await page.reload();
    await page.clock.runFor(45_000);
    expect(await modal.count()).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });
});
