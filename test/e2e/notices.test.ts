import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import { enterSite, hydrated, phone, sharedBrowser } from "./browser";
import { signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();
const SHOTS = ".tmp/shots/notices";

async function openChat(page: Page, peerId: number) {
  await page.goto(`${baseUrl}/members/${peerId}/chat`);
  await enterSite(page, nl.entry_warning.enter);
  await hydrated(page);
}

describe("a member reports one message from the chat", () => {
  it("opens the form from the bubble, with the message's place filled in, and files a notice about that message", async () => {
    const anna = await phone(browser(), { width: 390, height: 844 });
    const bram = await phone(browser(), { width: 390, height: 844 });
    const annaId = (await signUpByApi(anna.page, baseUrl, "nt", "anna", "female")).profile.id;
    const bramId = (await signUpByApi(bram.page, baseUrl, "nt", "bram", "male")).profile.id;
    localD1(
      statePath,
      `UPDATE users SET status = 'active', credits = 1000, paid_user = 1 WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${annaId}, ${bramId}))`,
    );
    await openChat(bram.page, annaId);
    const ice = bram.page.getByRole("dialog");
    await expect.poll(() => ice.count()).toBe(1);
    await ice.getByRole("button", { name: nl.chat.ice_breaker.own }).click();
    const input = bram.page.locator("textarea").first();
    await input.fill("Stuur me 500 euro, dan kom ik langs");
    await input.press("Enter");
    // The first paid message of a conversation asks once, with its price.
    await bram.page.getByRole("dialog").getByRole("button", { name: nl.spend.send }).click();
    await expect.poll(() => bram.page.locator(".message--own").count()).toBe(1);

    await openChat(anna.page, bramId);
    const bubble = anna.page.locator(".message--theirs").filter({ hasText: "500 euro" });
    await expect.poll(() => bubble.count()).toBe(1);
    await bubble.getByRole("button", { name: nl.reports.report_message }).click();
    const dialog = anna.page.getByRole("dialog", { name: nl.reports.report_message });
    await expect.poll(() => dialog.count()).toBe(1);
    await expect
      .poll(() => dialog.locator(".report-form__location").textContent())
      .toContain(`/members/${bramId}/chat#message-`);
    await dialog.locator('select[name="subject"]').selectOption("scam");
    await dialog.locator('textarea[name="description"]').fill("Hij vraagt me om geld voordat we elkaar zien.");
    await dialog.locator('input[name="good_faith"]').check();
    await anna.page.screenshot({ path: `${SHOTS}/report-message-form.png` });
    await dialog.getByRole("button", { name: nl.reports.send }).click();
    await expect.poll(() => dialog.getByText(nl.reports.sent.split("{id}")[0]!.trim()).count()).toBe(1);
    await anna.page.screenshot({ path: `${SHOTS}/report-message-sent.png` });
  });
});

describe("a visitor reports one photo from a profile", () => {
  it("opens the form from the photo, gives a name and address, and files a notice about that photo", async () => {
    const [[profile]] = localD1(
      statePath,
      "SELECT id, name, main_photo_id AS photo FROM profiles WHERE country = 'NL' AND searchable = 1 AND main_photo_id IS NOT NULL ORDER BY id LIMIT 1",
    ) as [[{ id: number; name: string; photo: number }]];
    const visitor = await phone(browser(), { width: 390, height: 844 });
    await visitor.page.goto(`${baseUrl}/members/${profile.id}`);
    await enterSite(visitor.page, nl.entry_warning.enter);
    await hydrated(visitor.page);
    await visitor.page.getByRole("button", { name: nl.reports.report_photo }).click();
    const dialog = visitor.page.getByRole("dialog", { name: nl.reports.report_photo });
    await expect.poll(() => dialog.count()).toBe(1);
    await expect
      .poll(() => dialog.locator(".report-form__location").textContent())
      .toContain(`/members/${profile.id}#photo-${profile.photo}`);
    await dialog.locator('select[name="subject"]').selectOption("inappropriate_content");
    await dialog.locator('textarea[name="description"]').fill("Deze foto is niet van deze persoon, ik ken haar.");
    await dialog.locator('input[name="email"]').fill("melder@example.invalid");
    // Without a name, the form says what is missing and sends nothing.
    await dialog.locator('input[name="good_faith"]').check();
    await dialog.getByRole("button", { name: nl.reports.send }).click();
    await expect.poll(() => dialog.getByText(nl.reports.errors.name_required).count()).toBe(1);
    await dialog.locator('input[name="name"]').fill("Mila de Vries");
    await visitor.page.screenshot({ path: `${SHOTS}/report-photo-form.png` });
    await dialog.getByRole("button", { name: nl.reports.send }).click();
    await expect.poll(() => dialog.getByText(nl.reports.sent.split("{id}")[0]!.trim()).count()).toBe(1);
    await visitor.page.screenshot({ path: `${SHOTS}/report-photo-sent.png` });
    const [[stored]] = localD1(
      statePath,
      `SELECT photo_id, reporter_name, good_faith, location FROM reports WHERE email = 'melder@example.invalid'`,
    ) as [[{ photo_id: number; reporter_name: string; good_faith: number; location: string }]];
    expect(stored).toMatchObject({ photo_id: profile.photo, reporter_name: "Mila de Vries", good_faith: 1 });
    expect(stored.location).toContain(`#photo-${profile.photo}`);
  });
});
