import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import type { ProfileResponse, SearchResponse } from "../../src/shared/api";
import { enterSite, phone, sharedBrowser } from "./browser";

const baseUrl = inject("baseUrl");
const euro = (amount: number) => new Intl.NumberFormat("nl", { style: "currency", currency: "EUR" }).format(amount);
const browser = sharedBrowser();

/** A new free member of the Dutch site (signup credits only); the page ends on /complete-signup. */
async function signUp(page: Page) {
  const stamp = `${Date.now() % 1_000_000}${Math.floor(Math.random() * 100)}`;
  await page.goto(`${baseUrl}/signup`);
  await enterSite(page, nl.entry_warning.enter);
  await page.getByLabel(nl.signup.email).fill(`e2e-pay${stamp}@example.com`);
  await page.getByLabel(nl.signup.username, { exact: true }).fill(`e2epay${stamp}`);
  await page.getByLabel(nl.signup.password, { exact: true }).fill("een goed wachtwoord");
  await page.getByLabel(nl.signup.day).selectOption("2");
  await page.getByLabel(nl.signup.month).selectOption({ index: 5 });
  await page.getByLabel(nl.signup.year).selectOption("1988");
  await page.getByLabel(nl.signup.gender_male).check();
  await page.locator('input[name="terms"]').check();
  await page.getByRole("button", { name: nl.signup.submit }).click();
  await page.waitForURL(/\/complete-signup$/);
}

describe("buying credits on the Dutch site", () => {
  it("a free member pays a bundle with iDEAL in the sandbox checkout, becomes premium, sees a blurred photo in full and reads the receipt", async () => {
    const { page, context, errors } = await phone(browser());
    await signUp(page);

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
    expect(await page.locator(".bundle").first().locator(".bundle__price").textContent()).toBe(euro(9.95));
    await page.locator(".bundle").first().getByRole("link", { name: nl.payments.choose }).click();
    await page.waitForURL(/\/credits\/1$/);
    await page.getByRole("link", { name: nl.payments.methods.ideal }).click();
    await page.waitForURL(/\/credits\/1\/ideal$/);
    expect(await page.locator(".receipt__lines").textContent()).toContain(euro(1.73));
    await page.getByRole("button", { name: nl.payments.pay.replace("{price}", euro(9.95)) }).click();

    // The sandbox's checkout page: one button per status; the sandbox then calls the webhook.
    await page.waitForURL(/\/sandbox\/checkout\/tr_sb/);
    await page.getByRole("button", { name: "paid", exact: true }).click();
    await page.waitForURL(/\/credits\/1\/ideal\?order=\d+$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe(nl.payments.completed_title);
    await expect.poll(() => page.locator(".credits__balance").textContent()).toBe(nl.payments.balance.replace("{credits}", "60"));
    expect(await page.locator(".top-bar .badge--premium").textContent()).toBe(nl.payments.premium_badge);

    // Premium: the photos that were blurred are shown in full.
    await page.goto(`${baseUrl}/members/${target}`);
    await page.locator(".member__thumbs .thumb").first().waitFor();
    expect(await page.locator(".member__thumbs .thumb.is-locked").count()).toBe(0);
    const thumbs = page.locator(".member__thumbs .thumb");
    await thumbs.nth((await thumbs.count()) - 1).click();
    const src = await page.locator(".member__main-photo img").getAttribute("src");
    expect(src).toMatch(/^\/media\/p\//);
    expect(await page.locator(".member__main-photo .lock-overlay").count()).toBe(0);
    expect(await page.evaluate(async (path) => (await fetch(path!)).status, src)).toBe(200);
    await expect.poll(() => page.locator(".member__main-photo img").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    // The receipt in /transactions.
    await page.goto(`${baseUrl}/transactions`);
    await page.locator(".transaction").first().click();
    await page.waitForURL(/\/transactions\/\d+$/);
    const receipt = page.locator(".receipt");
    await expect.poll(() => receipt.locator(".receipt__company").textContent()).toContain("Wavelength Media B.V.");
    const text = (await receipt.textContent())!;
    for (const part of ["87654321", "NL864213579B01", euro(9.95), euro(1.73), nl.payments.status.paid]) expect(text).toContain(part);
    expect(await receipt.getByRole("button", { name: nl.payments.refund_button }).count()).toBe(1);
    // Nothing is wider than the phone.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > 360.5).map((e) => `${e.tagName}.${e.className}:${Math.round(e.getBoundingClientRect().right)}`),
    );
    expect(wide).toEqual([]);

    expect(errors).toEqual([]);
    await context.close();
  });
});
