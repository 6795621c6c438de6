import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import { enterSite, phone, sharedBrowser } from "./browser";
import { localD1 } from "./server";
import { signUpByApi } from "./dutch-site";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();

/** Fill the signup form (Dutch) as a visitor would and send it. */
async function signUp(page: Page, email: string, username: string) {
  await page.getByLabel(nl.signup.email).fill(email);
  await page.getByLabel(nl.signup.username, { exact: true }).fill(username);
  await page.getByLabel(nl.signup.password, { exact: true }).fill("een goed wachtwoord");
  await page.getByLabel(nl.signup.day).selectOption("14");
  await page.getByLabel(nl.signup.month).selectOption({ index: 3 });
  await page.getByLabel(nl.signup.year).selectOption("1990");
  await page.getByLabel(nl.signup.gender_male).check();
  await page.getByLabel(nl.signup.looking_for_female, { exact: true }).check();
  await page.locator('input[name="terms"]').check();
  await page.getByRole("button", { name: nl.signup.submit }).click();
}

describe("a visitor from an ad", () => {
  it("comes in on a lander, signs up and lands in the signup steps with the traffic source kept", async () => {
    const { context, page, errors } = await phone(browser());
    const stamp = Date.now();
    const email = `lander${stamp}@example.com`;

    await page.goto(`${baseUrl}/landers/socialnetwork/nearby?network=e2enet&ref=spring&sub1=s1&sub2=s2&sub3=s3`);
    await enterSite(page, nl.entry_warning.enter);
    expect(await page.locator("h1").textContent()).toBe(nl.landers.variants.nearby);
    // Real members with their photos, and no way around the signup.
    expect(await page.locator(".feed__post img.feed__photo").count()).toBeGreaterThan(0);
    await page.locator(".lander__end").getByRole("link", { name: nl.landers.cta }).click();
    await page.waitForURL(/\/signup\?network=e2enet&ref=spring&sub1=s1&sub2=s2&sub3=s3$/);

    await signUp(page, email, `lander${stamp % 1_000_000}`);
    await page.waitForURL(/\/complete-signup$/);
    await expect.poll(() => page.getByRole("button", { name: nl.complete_signup.next }).count()).toBe(1);

    const [rows] = localD1(statePath, `SELECT network, ref, sub1, sub2, sub3 FROM users WHERE email = '${email}'`);
    expect(rows).toEqual([{ network: "e2enet", ref: "spring", sub1: "s1", sub2: "s2", sub3: "s3" }]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("comes in on a member's landing page and signs up to write exactly that member", async () => {
    const { context, page, errors } = await phone(browser());
    const [found] = localD1(
      statePath,
      "SELECT id, name FROM profiles WHERE country = 'NL' AND searchable = 1 AND fictional = 1 AND main_photo_id IS NOT NULL ORDER BY last_active_at DESC LIMIT 1",
    );
    const member = found![0] as { id: number; name: string };

    await page.goto(`${baseUrl}/members/${member.id}/landing3?network=e2enet&ref=member`);
    await enterSite(page, nl.entry_warning.enter);
    expect(await page.locator("h1").textContent()).toBe(nl.landers.member.chat.replace("{name}", member.name));
    await page.getByRole("link", { name: nl.landers.member.cta.replace("{name}", member.name) }).click();
    await page.waitForURL(new RegExp(`/members/${member.id}/signup\\?network=e2enet&ref=member$`));
    // The named heading comes once the member's profile has loaded.
    await expect
      .poll(() => page.locator("h1").textContent())
      .toBe(nl.signup.title_member.replace("{name}", member.name));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("never sees a real member who did not choose it on a landing page, nor in a lander's row of members", async () => {
    const { context, page } = await phone(browser());
    // A real member, signed up and active, who never chose the promotion pages.
    const joined = await signUpByApi(page, baseUrl, "landing", "Lotte", "female");
    localD1(
      statePath,
      `UPDATE users SET status = 'active' WHERE id = (SELECT user_id FROM profiles WHERE id = ${joined.profile.id}); UPDATE profiles SET searchable = 1 WHERE id = ${joined.profile.id}`,
    );
    const [found] = localD1(statePath, `SELECT id, name, user_id FROM profiles WHERE id = ${joined.profile.id}`);
    const member = found![0] as { id: number; name: string; user_id: number };
    await context.clearCookies();

    const refused = await page.goto(`${baseUrl}/members/${member.id}/landing3`);
    await enterSite(page, nl.entry_warning.enter);
    expect(refused!.status()).toBe(404);
    expect(await page.locator("h1").textContent()).not.toContain(member.name);
    // The landers' rows show fictional profiles and members who chose it, nobody else.
    await page.goto(`${baseUrl}/landers/socialnetwork/nearby`);
    const shown = await page.locator(".feed__post").allTextContents();
    expect(shown.length).toBeGreaterThan(0);
    const ids = (
      await page.evaluate(
        async () => (await (await fetch("/api/showcase.php")).json()) as { profiles: { id: number }[] },
      )
    ).profiles.map((p) => p.id);
    if (ids.length) {
      const [rows] = localD1(
        statePath,
        `SELECT count(*) AS n FROM profiles p JOIN users u ON u.id = p.user_id WHERE p.id IN (${ids.join(",")}) AND p.fictional = 0 AND u.promotion_pages = 0`,
      );
      expect(rows).toEqual([{ n: 0 }]);
    }

    // Once the member chooses it, the page shows them, with nothing said for them.
    localD1(statePath, `UPDATE users SET promotion_pages = 1 WHERE id = ${member.user_id}`);
    const shownPage = await page.goto(`${baseUrl}/members/${member.id}/landing3`);
    expect(shownPage!.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toBe(nl.landers.member.chat.replace("{name}", member.name));
    await page.screenshot({ path: ".tmp/screenshots/member-landing-390.png" });
    await context.close();
  });
});
