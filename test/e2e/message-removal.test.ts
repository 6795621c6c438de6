import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import { enterSite, hydrated, phone, sharedBrowser } from "./browser";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();
const consoleOrigin = `http://ops.localhost:${new URL(baseUrl).port}`;
const SHOTS = ".tmp/screenshots";

/** Open the chat with a member as the chat screen is reached from their profile. */
async function openChat(page: Page, peerId: number) {
  await page.goto(`${baseUrl}/members/${peerId}/chat`);
  await enterSite(page, nl.entry_warning.enter);
  await hydrated(page);
}

describe("a reported chat message removed by a moderator", () => {
  it("disappears from both members' open chat pages at once, with the removed text in its place", async () => {
    const anna = await phone(browser(), { width: 390, height: 844 });
    const bram = await phone(browser(), { width: 390, height: 844 });
    const annaId = (await signUpByApi(anna.page, baseUrl, "rm", "anna", "female")).profile.id;
    const bramUser = await signUpByApi(bram.page, baseUrl, "rm", "bram", "male");
    const bramId = bramUser.profile.id;
    localD1(
      statePath,
      `UPDATE users SET status = 'active', credits = 1000, paid_user = 1 WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${annaId}, ${bramId}))`,
    );

    await openChat(bram.page, annaId);
    const dialog = bram.page.getByRole("dialog");
    await expect.poll(() => dialog.count()).toBe(1);
    await dialog.getByRole("button", { name: nl.chat.ice_breaker.own }).click();
    const input = bram.page.locator("textarea").first();
    for (const [i, text] of ["Stuur me 500 euro op NL00BANK0123456789", "Ben je er nog?"].entries()) {
      await input.fill(text);
      await input.press("Enter");
      // His first paid message asks once, with its price.
      if (i === 0) await dialog.getByRole("button", { name: nl.spend.send }).click();
      await expect.poll(() => bram.page.locator(".message--own").filter({ hasText: text }).count()).toBe(1);
    }
    await openChat(anna.page, bramId);
    await expect.poll(() => anna.page.locator(".message--theirs").filter({ hasText: "NL00BANK" }).count()).toBe(1);
    const history = await api<{ messages: { id: number; body: string | null }[] }>(
      anna.page,
      "GET",
      `/api/chat.php?profile=${bramId}`,
    );
    const messageId = history.body.messages.find((m) => m.body?.includes("NL00BANK"))!.id;
    const report = await api<{ report: { id: number } }>(anna.page, "POST", "/api/report.php", {
      subject: "scam",
      category: "scams_and_fraud",
      good_faith: true,
      description: "Hij vraagt om geld.",
      profile_id: bramId,
      message_id: messageId,
    });
    expect(report.status).toBe(201);

    const email = `mod-rm-${Date.now()}@flirtwave.test`;
    localD1(
      statePath,
      `INSERT INTO operators (email, status, created_at) VALUES ('${email}', 'active', unixepoch()); INSERT INTO operator_roles (operator_id, role) SELECT id, 'moderator' FROM operators WHERE email = '${email}'`,
    );
    const ops = await (await browser().newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await ops.goto(`${consoleOrigin}/login`);
    await ops.fill("input[name=email]", email);
    await Promise.all([ops.waitForURL(`${consoleOrigin}/`), ops.click("button[type=submit]")]);
    await ops.goto(`${consoleOrigin}/reports/${report.body.report.id}`);
    await ops.check("input[name=outcome][value=remove_content]");
    await ops.selectOption("select[name=ground]", "scam");
    await ops.fill("textarea[name=facts]", "Asked a member for money in a chat message.");
    await Promise.all([
      ops.waitForURL(`${consoleOrigin}/reports`),
      ops.getByRole("button", { name: "Decide" }).click(),
    ]);

    // Both open pages show it removed without a reload; the message after it stays.
    for (const page of [anna.page, bram.page]) {
      await expect
        .poll(() => page.locator(".message__removed").filter({ hasText: nl.moderation.message_removed }).count(), {
          timeout: 3000,
        })
        .toBe(1);
      expect(await page.getByText("NL00BANK").count()).toBe(0);
      expect(await page.getByText("Ben je er nog?").count()).toBe(1);
    }
    await anna.page.screenshot({ path: `${SHOTS}/chat-message-removed-recipient.png` });
    await bram.page.screenshot({ path: `${SHOTS}/chat-message-removed-sender.png` });
    // A fresh load shows it removed too.
    await anna.page.reload();
    await hydrated(anna.page);
    await expect.poll(() => anna.page.locator(".message__removed").count()).toBe(1);
    expect(await anna.page.getByText("NL00BANK").count()).toBe(0);
  });
});
