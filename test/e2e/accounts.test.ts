import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import { enterSite as enterShared, phone, sharedBrowser } from "./browser";
import { signUpByForm } from "./dutch-site";

const baseUrl = inject("baseUrl");
const browser = sharedBrowser();

const enterSite = (page: Page) => enterShared(page, nl.entry_warning.enter);

/** Open the newest mail of a kind to an address in the outbox and follow its link. */
async function followMailedLink(page: Page, to: string, kind: string) {
  await page.goto(`${baseUrl}/dev/outbox?to=${encodeURIComponent(to)}`);
  const link = page.locator(`article[data-kind="${kind}"]`).first().locator("pre a");
  await link.click();
}

describe("an account on the Dutch site", () => {
  it("signs up, activates from the outbox, logs out and in, deletes and reactivates", async () => {
    const { context, page, errors } = await phone(browser());
    const email = `e2e${Date.now()}@example.com`;
    const password = "een goed wachtwoord";

    await page.goto(`${baseUrl}/signup`);
    await enterSite(page);
    await page.getByLabel(nl.signup.email).fill(email);
    await page.getByLabel(nl.signup.username, { exact: true }).fill(`e2e${Date.now() % 1_000_000}`);
    await page.getByLabel(nl.signup.password, { exact: true }).fill(password);
    await page.getByLabel(nl.signup.day).selectOption("14");
    await page.getByLabel(nl.signup.month).selectOption({ index: 3 });
    await page.getByLabel(nl.signup.year).selectOption("1990");
    await page.getByLabel(nl.signup.gender_female).check();
    // Sign-up asks whom she looks for; without an answer it says so and sends nothing.
    await page.locator('input[name="terms"]').check();
    await page.getByRole("button", { name: nl.signup.submit }).click();
    await expect.poll(() => page.getByText(nl.validation.looking_for_required).count()).toBe(1);
    await page.screenshot({ path: ".tmp/screenshots/signup-looking-for-390.png", fullPage: true });
    await page.getByLabel(nl.signup.looking_for_male, { exact: true }).check();
    await page.getByRole("button", { name: nl.signup.submit }).click();
    await page.waitForURL(/\/complete-signup$/);
    // A woman looking for men: her first matches and her search show men only.
    const firstMatches = await page.evaluate(
      async () =>
        (
          (await (await fetch("/api/search.php", { headers: { "X-Request-Type": "client" } })).json()) as {
            profiles: { gender: string }[];
          }
        ).profiles,
    );
    expect(firstMatches.length).toBeGreaterThan(0);
    expect(new Set(firstMatches.map((p) => p.gender))).toEqual(new Set(["male"]));

    // The signup steps: welcome, then the photo step offers the same upload as the profile screen.
    await page.getByRole("button", { name: nl.complete_signup.next }).click();
    await expect.poll(() => page.locator("h1").textContent()).toBe(nl.complete_signup.photo.title);
    await expect.poll(() => page.getByText(nl.profile_edit.photos.upload).count()).toBeGreaterThan(0);

    // Not confirmed yet: the reminder shows in the members area.
    await page.goto(`${baseUrl}/members`);
    const reminder = page.locator(".alerts .alert--warning");
    await expect.poll(() => reminder.count()).toBe(1);
    expect(await reminder.textContent()).toContain(email);

    await followMailedLink(page, email, "activation");
    await page.waitForURL(/\/activate\/done$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe(nl.activate.done_title);

    // Logged in: the members home with the account menu and no reminder.
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(/\/members$/);
    await expect.poll(() => page.locator(".account-menu").count()).toBe(1);
    expect(await page.locator(".alerts .alert--warning").count()).toBe(0);

    // Log out, then in again.
    await page.locator(".account-menu summary").click();
    await page.getByRole("link", { name: nl.nav.logout }).click();
    await expect.poll(() => page.locator(".top-bar").getByRole("link", { name: nl.nav.login }).count()).toBe(1);
    expect((await context.cookies()).some((c) => c.name === "session")).toBe(false);

    await page.goto(`${baseUrl}/login`);
    await page.getByLabel(nl.login.email).fill(email);
    await page.getByLabel(nl.login.password).fill("een fout wachtwoord");
    await page.getByRole("button", { name: nl.login.submit }).click();
    await expect.poll(() => page.getByText(nl.errors.login_failed).count()).toBe(1);
    await page.getByLabel(nl.login.password).fill(password);
    await page.getByRole("button", { name: nl.login.submit }).click();
    await page.waitForURL(/\/members$/);
    await expect.poll(() => page.locator(".account-menu").count()).toBe(1);

    // Delete (past the retention offer), then keep the account with the mailed link.
    await page.goto(`${baseUrl}/notifications`);
    await page.getByRole("button", { name: nl.settings.delete.start }).click();
    const decline = page.getByRole("button", { name: nl.settings.offer.decline });
    if (await decline.count()) await decline.click();
    await page.getByLabel(nl.settings.current_password).last().fill(password);
    await page.getByRole("button", { name: nl.settings.delete.submit }).last().click();
    await page.waitForURL(/\/account-deleted$/);
    expect((await context.cookies()).some((c) => c.name === "session")).toBe(false);
    // This browser just deleted its account: the page says it was logged out.
    await expect.poll(() => page.getByRole("heading", { name: nl.account_deleted.title }).count()).toBe(1);
    expect(await page.getByText(nl.account_deleted.text_other.replace("{count}", "14")).count()).toBe(1);
    await page.screenshot({ path: ".tmp/screenshots/account-deleted-390.png", fullPage: true });
    // Any other visitor of the address gets a neutral page, without "you have been logged out".
    {
      const other = await phone(browser());
      await other.page.goto(`${baseUrl}/account-deleted`);
      await expect
        .poll(() => other.page.getByRole("heading", { name: nl.account_deleted.neutral_title }).count())
        .toBe(1);
      expect(await other.page.getByText(nl.account_deleted.neutral_text).count()).toBe(1);
      expect(await other.page.getByText(nl.account_deleted.title).count()).toBe(0);
      await other.page.screenshot({ path: ".tmp/screenshots/account-deleted-visitor-390.png", fullPage: true });
      await other.context.close();
    }

    await followMailedLink(page, email, "deletion");
    await page.waitForURL(/\/members$/);
    await expect.poll(() => page.locator(".account-menu").count()).toBe(1);

    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps the signup modal open on Escape once the form is touched", async () => {
    const { context, page } = await phone(browser());
    await page.goto(`${baseUrl}/members`);
    await enterSite(page);
    await page.locator(".profile-card a").first().click();
    await page.waitForURL(/\/members\/\d+$/);
    await page.getByRole("button", { name: nl.profile.message }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.count()).toBe(1);
    expect(await dialog.textContent()).toContain(nl.login_needed.chat);
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);

    for (const [button, reason] of [
      [nl.profile.like, nl.login_needed.like],
      [nl.profile.gift, nl.login_needed.gift],
    ] as const) {
      await page.getByRole("button", { name: button, exact: true }).click();
      await expect.poll(() => dialog.count()).toBe(1);
      expect(await dialog.textContent()).toContain(reason);
      await page.keyboard.press("Escape");
      await expect.poll(() => dialog.count()).toBe(0);
    }

    await page.getByRole("button", { name: nl.profile.message }).click();
    await page.getByLabel(nl.signup.email).fill("half@example.com");
    await page.keyboard.press("Escape");
    await page.waitForTimeout(200);
    expect(await dialog.count()).toBe(1);
    await context.close();
  });

  it("saves a member's language switch to the account, whose language the mails are written in", async () => {
    const { context, page, errors } = await phone(browser());
    await signUpByForm(page, baseUrl, "lang");
    const language = () =>
      page.evaluate(
        async () =>
          (
            (await (await fetch("/api/user.php", { headers: { "X-Request-Type": "client" } })).json()) as {
              user: { language: string };
            }
          ).user.language,
      );
    expect(await language()).toBe("nl");

    // The language screen: the choice goes to the account through PUT /api/user.php, then the page is English.
    await page.goto(`${baseUrl}/lang-config`);
    const saved = page.waitForRequest((r) => r.url().endsWith("/api/user.php") && r.method() === "PUT");
    await page.locator('.lang-config a[lang="en"]').click();
    expect((await saved).postDataJSON()).toEqual({ language: "en" });
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("en");
    expect(await language()).toBe("en");

    // The switcher in the top bar does the same.
    await page.waitForURL(/\/members$/);
    await page.locator(".language-switcher summary").click();
    const savedAgain = page.waitForRequest((r) => r.url().endsWith("/api/user.php") && r.method() === "PUT");
    await page.locator('.language-switcher a[lang="nl"]').click();
    expect((await savedAgain).postDataJSON()).toEqual({ language: "nl" });
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("nl");
    await expect.poll(language).toBe("nl");
    expect(errors).toEqual([]);
    await context.close();
  });
});
