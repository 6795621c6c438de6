import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { hydrated, phone, sharedBrowser } from "./browser";
import { localD1 } from "./server";
import nl from "../../locales/nl.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();

const visitor = () => phone(browser());

const cards = (page: Page) => page.locator(".profile-grid").first().locator(".profile-card");

/** Ages shown on the result cards ("Sanne, 34"). */
async function agesOnCards(page: Page): Promise<number[]> {
  const names = await cards(page).locator(".profile-card__name").allTextContents();
  return names.map((n) => Number(/,\s*(\d+)/.exec(n)?.[1]));
}

async function enterSite(page: Page) {
  const enter = page.getByRole("button", { name: nl.entry_warning.enter });
  await enter.click();
  await expect.poll(() => enter.count()).toBe(0);
}

describe("member search on the Dutch site", () => {
  it("browses, filters, pages, opens a profile without reloading, goes back, and shows the 404 page", async () => {
    const { context, page, errors } = await visitor();
    const response = await page.goto(`${baseUrl}/members`);
    expect(response?.status()).toBe(200);

    await enterSite(page);
    await expect.poll(() => page.locator("h1").textContent()).toBe(nl.search.title);
    await expect.poll(() => page.title()).toContain(nl.search.title);
    expect(await page.getByRole("link", { name: nl.nav.search_members }).count()).toBe(1);
    expect(await cards(page).count()).toBe(24);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("nl");

    // Nothing spills over the side of a 360 px phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // A marker on window survives client navigation and is gone after a document load.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const marker = () => page.evaluate(() => (window as unknown as { marker?: number }).marker);

    // On a phone the filters are folded into a one-line summary that opens them.
    await page.getByRole("button", { name: nl.shell.filters }).click();
    await page.getByLabel(nl.search.min_age).fill("25");
    await page.getByLabel(nl.search.max_age).fill("60");
    await page.getByRole("button", { name: nl.search.submit, exact: true }).click();
    await page.waitForURL(/\/members\?min_age=25&max_age=60$/);
    await expect.poll(async () => (await agesOnCards(page)).length).toBe(24);
    for (const age of await agesOnCards(page)) {
      expect(age).toBeGreaterThanOrEqual(25);
      expect(age).toBeLessThanOrEqual(60);
    }
    expect(await marker()).toBe(1);

    // The next page is added below the first.
    const firstNames = await cards(page).locator(".profile-card__name").allTextContents();
    await page.getByRole("button", { name: nl.search.more }).click();
    await expect.poll(() => cards(page).count()).toBe(48);
    expect((await cards(page).locator(".profile-card__name").allTextContents()).slice(0, 24)).toEqual(firstNames);
    expect(await marker()).toBe(1);

    // Open a profile by client navigation.
    const card = cards(page).nth(30);
    const name = (await card.locator(".profile-card__name").textContent())!.trim();
    await card.locator("a").click();
    await page.waitForURL(/\/members\/\d+$/);
    await expect.poll(() => page.locator("h1").textContent()).toContain(name);
    expect(await page.locator(".member__main-photo > img").getAttribute("src")).toMatch(
      /^\/media\/p\/[0-9a-f]{32}\.jpg$/,
    );
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await marker()).toBe(1);

    // Back to the search, still without a reload.
    await page.goBack();
    await page.waitForURL(/\/members\?min_age=25&max_age=60$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe(nl.search.title);
    expect(await cards(page).count()).toBeGreaterThanOrEqual(24);
    expect(await marker()).toBe(1);

    // An unknown likes tab is the 404 page.
    const notFound = await page.goto(`${baseUrl}/likes/bogus`);
    expect(notFound?.status()).toBe(404);
    await expect.poll(() => page.locator("h1").textContent()).toBe(nl.errors.page_not_found);
    await page.getByRole("link", { name: nl.errors.back_home }).click();
    await page.waitForURL(`${baseUrl}/`);

    expect(errors).toEqual([]);
    await context.close();
  });

  it("clears the filters and shows the default search again", async () => {
    const { context, page, errors } = await visitor();
    await page.goto(`${baseUrl}/members?gender=female&min_age=70`);
    await enterSite(page);
    const summary = page.locator(".search-panel__active");
    expect(await summary.textContent()).toBe(`${nl.search.gender_female} · 70+`);
    await page.getByRole("button", { name: nl.shell.filters }).click();
    await page.getByRole("button", { name: nl.search.clear }).click();
    await page.waitForURL(/\/members$/);
    await expect.poll(() => page.getByLabel(nl.search.min_age).inputValue()).toBe("");
    await expect.poll(() => summary.textContent()).toBe(nl.shell.filters_everyone);
    await expect.poll(() => cards(page).count()).toBe(24);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("refuses a minimum age above the maximum in the form, in Dutch, and the page asked for says the same", async () => {
    const { context, page, errors } = await phone(browser(), { width: 390, height: 844 });
    await page.goto(`${baseUrl}/members`);
    await enterSite(page);
    await page.getByRole("button", { name: nl.shell.filters }).click();
    await page.getByLabel(nl.search.min_age).fill("60");
    await page.getByLabel(nl.search.max_age).fill("30");
    await page.getByRole("button", { name: nl.search.submit, exact: true }).click();
    const alert = page.getByRole("alert").filter({ hasText: nl.validation.age_range_reversed });
    await expect.poll(() => alert.count()).toBe(1);
    expect(await page.getByLabel(nl.search.max_age).getAttribute("aria-invalid")).toBe("true");
    // Nothing was searched: the address is the same, and no field's name is shown.
    expect(new URL(page.url()).search).toBe("");
    expect(await page.locator("body").innerText()).not.toContain("max_age");
    await page.screenshot({ path: ".tmp/screenshots/members-age-range-390.png" });

    // Corrected, the search goes, and the message is gone.
    await page.getByLabel(nl.search.max_age).fill("70");
    expect(await alert.count()).toBe(0);
    await page.getByRole("button", { name: nl.search.submit, exact: true }).click();
    await page.waitForURL(/\/members\?min_age=60&max_age=70$/);

    // Typed into the address instead, the page answers 400 with the same text.
    const response = await page.goto(`${baseUrl}/members?min_age=60&max_age=30`);
    expect(response?.status()).toBe(400);
    expect(await page.locator("body").innerText()).toContain(nl.validation.age_range_reversed);
    expect(await page.locator("body").innerText()).not.toContain("max_age");
    expect(errors.filter((e) => !e.includes("400"))).toEqual([]);
    await context.close();
  });

  it("switches the language with the switcher and keeps it", async () => {
    const { context, page } = await visitor();
    await page.goto(`${baseUrl}/members`);
    await enterSite(page);
    await page.locator(".language-switcher summary").click();
    await page.getByRole("link", { name: "English" }).click();
    await expect.poll(() => page.locator("h1").textContent()).toBe(en.search.title);
    const cookie = (await context.cookies()).find((c) => c.name === "locale");
    expect(cookie?.value).toBe("en");
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
    await page.goto(`${baseUrl}/pages/terms`);
    expect(await page.locator("h1").textContent()).toBe(en.pages.terms.title);
    await context.close();
  });

  it("remembers that the entry warning was closed", async () => {
    const { context, page } = await visitor();
    await page.goto(`${baseUrl}/`);
    await enterSite(page);
    expect(await page.evaluate(() => localStorage.getItem("site-entry-skip"))).toMatch(/^\d+$/);
    await page.goto(`${baseUrl}/members`);
    await page.locator(".profile-card").first().waitFor();
    expect(await page.getByRole("dialog").count()).toBe(0);
    await context.close();
  });
});

describe("a visitor who signs up", () => {
  it("sees first matches of whom she looks for, not the list she browsed as a visitor", async () => {
    const { context, page, errors } = await visitor();
    // As a visitor: the home page shows recent members of every gender.
    await page.goto(`${baseUrl}/`);
    await enterSite(page);
    await hydrated(page);
    // Into the signup form without reloading the page (the app keeps what it fetched).
    await page.locator('a[href="/signup"]').first().click();
    await page.getByLabel(nl.signup.email).waitFor();
    const stamp = `${Date.now() % 1_000_000}`;
    await page.getByLabel(nl.signup.email).fill(`e2e-looking${stamp}@example.com`);
    await page.getByLabel(nl.signup.username, { exact: true }).fill(`looking${stamp}`);
    await page.getByLabel(nl.signup.password, { exact: true }).fill("een goed wachtwoord");
    await page.getByLabel(nl.signup.day).selectOption("14");
    await page.getByLabel(nl.signup.month).selectOption({ index: 3 });
    await page.getByLabel(nl.signup.year).selectOption("1990");
    await page.getByLabel(nl.signup.gender_female).check();
    await page.getByLabel(nl.signup.looking_for_male, { exact: true }).check();
    await page.locator('input[name="terms"]').check();
    await page.getByRole("button", { name: nl.signup.submit }).click();
    await page.waitForURL(/\/complete-signup$/);
    // Her first matches, still without a reload.
    await page.evaluate(() => {
      history.pushState({}, "", "/signup-matches");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    const links = page.locator(".signup-matches .profile-card a[href^='/members/']");
    await expect.poll(() => links.count()).toBeGreaterThan(0);
    const ids = [
      ...new Set(
        (await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")!))).map((h) => Number(h.split("/")[2])),
      ),
    ].filter((id) => id > 0);
    const [rows] = localD1(statePath, `SELECT DISTINCT gender FROM profiles WHERE id IN (${ids.join(",")})`);
    expect(rows).toEqual([{ gender: "male" }]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
