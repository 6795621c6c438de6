import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import en from "../../locales/en.json" with { type: "json" };
import nl from "../../locales/nl.json" with { type: "json" };
import { enterSite as enterShared, hydrated, phone, sharedBrowser } from "./browser";
import { signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();

const PAGES = ["terms", "privacy", "cookies", "ban", "faq", "return-policy", "service"] as const;
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));

describe("the static pages", () => {
  it("render in Dutch, each with its own text and the company, and navigate from the footer", async () => {
    const { context, page, errors } = await phone(browser());
    await page.goto(`${baseUrl}/pages/terms`);
    await enterShared(page, nl.entry_warning.enter);
    for (const name of PAGES) {
      await page.goto(`${baseUrl}/pages/${name}`);
      expect(await page.locator("h1").textContent(), name).toBe(nl.pages[name].title);
      const firstHeading = Object.values(nl.legal_text[name])[0]!.heading;
      expect(await page.locator(".static-page section h2").first().textContent(), name).toBe(firstHeading);
      expect((await page.locator(".static-page__company strong").textContent())?.length, name).toBeGreaterThan(3);
      expect(await page.locator("main").textContent(), name).not.toMatch(/\{\w+\}/);
    }
    expect(await page.locator(".static-page__version").count()).toBe(0);

    // The footer goes to another page without a reload: its text comes through the API in Dutch.
    await page.goto(`${baseUrl}/terms`);
    expect(await page.locator(".static-page__version").textContent()).toMatch(/^Versie van /);
    await page.locator(".footer").getByRole("link", { name: nl.footer.cookies }).click();
    await page.waitForURL(/\/pages\/cookies$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe(nl.pages.cookies.title);
    expect(await page.locator("table").getByText("session", { exact: true }).count()).toBe(1);
    expect(await page.locator("table").getByText("hide-enrich-alert", { exact: true }).count()).toBe(1);

    // Customer service: a number typed with dashes is the support number, another one is not.
    await page.goto(`${baseUrl}/pages/service`);
    const phoneLink = await page.locator(".static-page__company a[href^='tel:']").textContent();
    const check = page.getByLabel(nl.legal.phone_check.label);
    await check.fill(phoneLink!.replace(/\s+/g, "-"));
    await page.getByRole("button", { name: nl.legal.phone_check.button }).click();
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toBe(fill(nl.legal.phone_check.ours, { phone: phoneLink! }));
    await check.fill("+31 6 1234 5678");
    await page.getByRole("button", { name: nl.legal.phone_check.button }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe(nl.legal.phone_check.not_ours);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("render in English, privacy with the US text", async () => {
    const { context, page, errors } = await phone(browser());
    await context.addCookies([{ name: "locale", value: "en", url: baseUrl }]);
    await page.goto(`${baseUrl}/pages/privacy`);
    await enterShared(page, en.entry_warning.enter);
    expect(await page.locator("h1").textContent()).toBe(en.pages.privacy.title);
    expect(await page.getByRole("heading", { name: en.legal_text.privacy.rights.heading }).count()).toBe(1);
    expect(await page.getByRole("heading", { name: "Privacy notice for United States residents" }).count()).toBe(1);
    await page.goto(`${baseUrl}/pages/terms`);
    expect(await page.locator(".static-page__version").textContent()).toMatch(/^Version of .* UTC$/);
    expect(await page.locator("h1").textContent()).toBe(en.pages.terms.title);
    expect(errors).toEqual([]);
    await context.close();
  });
});

const signUp = (page: Page, name: string, gender: "male" | "female") =>
  signUpByApi(page, baseUrl, "report", name, gender);

describe("a member reports another from a chat", () => {
  it("files the report once, with the member filled in, and is told when reporting again", async () => {
    const a = await phone(browser());
    const b = await phone(browser());
    const sanne = await signUp(a.page, "sanne", "female");
    const tom = await signUp(b.page, "tom", "male");
    localD1(
      statePath,
      `UPDATE users SET status = 'active' WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${sanne.profile.id}, ${tom.profile.id}))`,
    );

    await a.page.goto(`${baseUrl}/members/${tom.profile.id}/chat`);
    // The ice-breaker opens once the page runs: look for it only then.
    await hydrated(a.page);
    const iceBreaker = a.page.locator(".ice-breaker");
    if (await iceBreaker.count()) await iceBreaker.getByRole("button", { name: nl.chat.ice_breaker.own }).click();
    const label = fill(nl.reports.report_member, { name: tom.profile.name });
    await a.page.locator(".conversation__header").getByRole("button", { name: nl.reports.report }).click();
    const dialog = a.page.getByRole("dialog", { name: label });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    // The form's code arrives when it is first opened.
    await expect
      .poll(() => dialog.textContent())
      .toContain(fill(nl.reports.reference_member, { name: tom.profile.name }));

    // Too short first: the form says so and sends nothing.
    await dialog.getByLabel(nl.reports.subject).selectOption("harassment");
    await dialog.getByLabel(nl.reports.description).fill("Gemeen");
    await dialog.locator('input[name="good_faith"]').check();
    await dialog.getByRole("button", { name: nl.reports.send }).click();
    expect(await dialog.locator(".field__error").textContent()).toBe(
      fill(nl.reports.description_hint_other, { count: 10 }),
    );

    await dialog.getByLabel(nl.reports.description).fill("Hij blijft me beledigende berichten sturen.");
    await dialog.getByRole("button", { name: nl.reports.send }).click();
    const sent = dialog.getByRole("status");
    await expect
      .poll(() => sent.textContent())
      .toMatch(new RegExp(`^${fill(nl.reports.sent, { id: "(\\d+)" }).replace(/[.;]/g, "\\$&")}$`));
    const [[report]] = localD1(
      statePath,
      `SELECT subject, profile_id, target_key, status FROM reports WHERE reporter_user_id = (SELECT user_id FROM profiles WHERE id = ${sanne.profile.id})`,
    ) as [[Record<string, unknown>]];
    expect(report).toEqual({
      subject: "harassment",
      profile_id: tom.profile.id,
      target_key: `profile:${tom.profile.id}`,
      status: "open",
    });
    const [[mail]] = localD1(
      statePath,
      `SELECT subject FROM outgoing_mail WHERE kind = 'report' AND to_address LIKE 'e2e-report-sanne%' ORDER BY id DESC LIMIT 1`,
    ) as [[{ subject: string }]];
    expect(mail.subject).toMatch(/^We hebben je melding \d+ ontvangen$/);
    await dialog.getByRole("button", { name: nl.reports.close }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // Once is enough: a second report about Tom is refused with a clear text, and nothing more is stored.
    await a.page.locator(".conversation__header").getByRole("button", { name: nl.reports.report }).click();
    await dialog.getByLabel(nl.reports.subject).selectOption("fake_profile");
    await dialog.getByLabel(nl.reports.description).fill("Zijn foto's zijn ook niet van hem.");
    await dialog.locator('input[name="good_faith"]').check();
    await dialog.getByRole("button", { name: nl.reports.send }).click();
    await expect.poll(() => dialog.getByRole("alert").first().textContent()).toBe(nl.reports.errors.profile_reported);
    const [[count]] = localD1(
      statePath,
      `SELECT count(*) AS n FROM reports WHERE target_key = 'profile:${tom.profile.id}'`,
    ) as [[{ n: number }]];
    expect(count.n).toBe(1);
    expect(a.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});
