import { mkdirSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import type { User } from "../../src/shared/api";
import type { GiftsResponse } from "../../src/shared/chat";
import { formatMoney } from "../../src/shared/payments";
import type { SearchResponse } from "../../src/shared/api";
import { SITES } from "../../scripts/demo/sites";
import { hydrated, phone, sharedBrowser } from "./browser";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();
const SHOTS = ".tmp/shots/credits";
const CREDITS = 100;

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
const credits = async (page: Page) => (await api<{ user: User }>(page, "GET", "/api/user.php")).body.user.credits;

/** The Dutch site's cheapest bundle per credit: what a credit is worth to a member who bought none. */
const dutch = SITES.find((site) => site.countries[0] === "NL")!;
const perCredit = Math.min(...dutch.pricing.NL!.bundles.map((b) => b.amount / b.credits));
/** "5 credits ≈ € 0,53" as the Dutch page writes it. */
const about = (count: number) =>
  fill(count === 1 ? nl.spend.about_one : nl.spend.about_other, {
    count,
    money: formatMoney(Math.round(count * perCredit), "EUR", "nl"),
  });

async function jpeg(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 160;
    canvas.height = 200;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "#2a6";
    ctx.fillRect(0, 0, 160, 200);
    ctx.fillStyle = "#fff";
    ctx.fillRect(40, 50, 80, 90);
    return canvas.toDataURL("image/jpeg", 0.9);
  });
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
}

describe("honest credits in a chat at 390×844", () => {
  it("shows the price in credits and money before every paid send, asks once, previews a photo and opens no offer", async () => {
    mkdirSync(SHOTS, { recursive: true });
    const { page, context, errors } = await phone(browser(), { width: 390, height: 844 });
    const me = await signUpByApi(page, baseUrl, "credits", "carla", "female");
    localD1(
      statePath,
      `UPDATE users SET status = 'active', credits = ${CREDITS} WHERE id = (SELECT user_id FROM profiles WHERE id = ${me.profile.id})`,
    );
    const demo = (await api<SearchResponse>(page, "GET", "/api/search.php")).body.profiles.find((p) => p.main_image)!;
    const uploads: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/chat-photo.php")) uploads.push(r.url());
    });

    await page.goto(`${baseUrl}/members/${demo.id}/chat`);
    await hydrated(page);
    const dialog = page.getByRole("dialog");
    if (await page.locator(".ice-breaker").count())
      await dialog.getByRole("button", { name: nl.chat.ice_breaker.own }).click();
    const meta = page.locator(".chat-footer__meta");
    const input = page.getByLabel(fill(nl.chat.message_to, { name: demo.name }));
    const send = async (text: string) => {
      await input.fill(text);
      await input.press("Enter");
    };
    const sent = (text: string) =>
      expect.poll(() => page.locator(".message--own.is-sent").filter({ hasText: text }).count()).toBe(1);

    // The free counter is on screen, and turns into the price as the last free message is acknowledged.
    await expect.poll(() => meta.textContent()).toBe(fill(nl.chat.free_left_other, { count: dutch.free_messages }));
    for (let i = 1; i <= dutch.free_messages; i++) {
      await send(`Gratis ${i}`);
      await sent(`Gratis ${i}`);
    }
    const nextLine = fill(nl.spend.next_message_other, {
      price: about(dutch.message_credits),
      count: CREDITS - dutch.message_credits,
    });
    await expect.poll(() => meta.textContent()).toBe(nextLine);
    await page.screenshot({ path: `${SHOTS}/price-after-free-390.png` });

    // The first paid message asks once, with its price and the balance after it.
    await send("Betaald 1");
    await expect.poll(() => dialog.count()).toBe(1);
    expect(await dialog.getByRole("heading").textContent()).toBe(
      fill(nl.spend.confirm_title, { price: about(dutch.message_credits) }),
    );
    expect(await dialog.textContent()).toContain(
      fill(nl.spend.balance_after_other, { count: CREDITS - dutch.message_credits }),
    );
    await page.screenshot({ path: `${SHOTS}/first-paid-asks-390.png` });
    expect(await credits(page)).toBe(CREDITS);
    await dialog.getByRole("button", { name: nl.spend.send }).click();
    await sent("Betaald 1");
    // The second goes without asking.
    await send("Betaald 2");
    await sent("Betaald 2");
    expect(await dialog.count()).toBe(0);
    let balance = CREDITS - 2 * dutch.message_credits;
    expect(await credits(page)).toBe(balance);

    // Gifts: each tile has its price in money; one above the threshold asks, and cancelling charges nothing.
    const gift = (await api<GiftsResponse>(page, "GET", "/api/gifts.php")).body.gifts.find(
      (g) => g.credits > (dutch.confirm_credits_above ?? 5),
    )!;
    await page.getByRole("button", { name: nl.chat.send_gift }).click();
    const tile = dialog.getByRole("button", { name: new RegExp(gift.name) });
    await expect.poll(() => tile.textContent()).toContain(about(gift.credits));
    await page.screenshot({ path: `${SHOTS}/gift-prices-390.png` });
    await tile.click();
    await expect
      .poll(() => dialog.getByRole("heading").textContent())
      .toBe(fill(nl.spend.confirm_title, { price: about(gift.credits) }));
    await dialog.getByRole("button", { name: nl.spend.cancel }).click();
    expect(await page.locator(".message--own.message--gift").count()).toBe(0);
    expect(await credits(page)).toBe(balance);
    await page.getByRole("button", { name: nl.chat.send_gift }).click();
    await dialog.getByRole("button", { name: new RegExp(gift.name) }).click();
    await dialog.getByRole("button", { name: nl.spend.send }).click();
    await expect.poll(() => page.locator(".message--own.message--gift.is-sent").count()).toBe(1);
    balance -= gift.credits;
    expect(await credits(page)).toBe(balance);

    // A photo is previewed with its price; cancelling uploads and charges nothing.
    const photo = { name: "foto.jpg", mimeType: "image/jpeg", buffer: await jpeg(page) };
    await page.locator(".chat-footer input[type=file]").setInputFiles(photo);
    await expect
      .poll(() => dialog.getByRole("heading").textContent())
      .toBe(fill(nl.spend.preview_title, { name: demo.name }));
    expect(await dialog.textContent()).toContain(fill(nl.spend.preview_price, { price: about(dutch.photo_credits) }));
    await expect.poll(() => dialog.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(160);
    await page.screenshot({ path: `${SHOTS}/photo-preview-390.png` });
    await dialog.getByRole("button", { name: nl.spend.cancel }).click();
    expect(await dialog.count()).toBe(0);
    expect(uploads).toEqual([]);
    expect(await page.locator(".message--own.message--image").count()).toBe(0);
    expect(await credits(page)).toBe(balance);
    await page.locator(".chat-footer input[type=file]").setInputFiles(photo);
    await dialog.getByRole("button", { name: nl.spend.send }).click();
    await expect.poll(() => page.locator(".message--own.message--image.is-sent").count()).toBe(1);
    balance -= dutch.photo_credits;
    expect(await credits(page)).toBe(balance);
    expect(uploads.length).toBe(1);

    // The premium alert above the composer can be put away, and stays away.
    const upsell = page.locator(".chat-alerts .alert--info");
    expect(await upsell.count()).toBe(1);
    await upsell.getByRole("button", { name: nl.chat.close }).click();
    expect(await upsell.count()).toBe(0);
    await page.reload();
    await hydrated(page);
    await expect.poll(() => meta.textContent()).toContain(about(dutch.message_credits));
    expect(await upsell.count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/upsell-put-away-390.png` });

    // From the profile, the same gift shows its money and asks first too.
    await page.goto(`${baseUrl}/members/${demo.id}`);
    await hydrated(page);
    await page.getByRole("button", { name: nl.profile.gift, exact: true }).click();
    await dialog.getByRole("button", { name: new RegExp(gift.name) }).click();
    await expect
      .poll(() => dialog.getByRole("heading").textContent())
      .toBe(fill(nl.spend.confirm_title, { price: about(gift.credits) }));
    await page.screenshot({ path: `${SHOTS}/profile-gift-asks-390.png` });
    await dialog.getByRole("button", { name: nl.spend.send }).click();
    await expect.poll(() => page.getByText(fill(nl.likes.gift_sent, { name: demo.name })).count()).toBe(1);
    balance -= gift.credits;
    expect(await credits(page)).toBe(balance);

    // What credits buy, on the credits page: each price with its money, from the cheapest bundle.
    await page.goto(`${baseUrl}/credits`);
    await hydrated(page);
    const costs = page.locator(".credits__costs li").first();
    await costs.scrollIntoViewIfNeeded();
    expect(await costs.textContent()).toBe(
      `${fill(nl.payments.cost_message_other, { count: dutch.message_credits })} · ${fill(nl.spend.from, {
        money: formatMoney(Math.round(dutch.message_credits * perCredit), "EUR", "nl"),
      })}`,
    );
    await page.screenshot({ path: `${SHOTS}/credits-costs-money-390.png` });

    expect(errors).toEqual([]);
    await context.close();
  });

  it("opens no offer window over an open chat: the time bonus waits for a calm moment outside it", async () => {
    const { page, context, errors } = await phone(browser(), { width: 390, height: 844 });
    const me = await signUpByApi(page, baseUrl, "credits", "dirk", "male");
    localD1(
      statePath,
      `UPDATE users SET status = 'active', credits = 0 WHERE id = (SELECT user_id FROM profiles WHERE id = ${me.profile.id})`,
    );
    const demo = (await api<SearchResponse>(page, "GET", "/api/search.php")).body.profiles.find((p) => p.main_image)!;
    await page.clock.install();
    await page.goto(`${baseUrl}/members`);
    await hydrated(page);
    // The bonus is on offer to this member: its banner shows in the members area.
    await expect.poll(() => page.locator(".time-bonus-banner").count(), { timeout: 10_000 }).toBe(1);
    // A free first message starts the conversation, then it is opened from the chat list (/chats/{id}).
    await page.goto(`${baseUrl}/members/${demo.id}/chat`);
    await hydrated(page);
    if (await page.locator(".ice-breaker").count())
      await page.getByRole("dialog").getByRole("button", { name: nl.chat.ice_breaker.own }).click();
    const input = page.getByLabel(fill(nl.chat.message_to, { name: demo.name }));
    await input.fill("Hallo!");
    await input.press("Enter");
    await expect.poll(() => page.locator(".message--own.is-sent").count()).toBe(1);
    await page.goto(`${baseUrl}/chats`);
    await hydrated(page);
    await page.locator(".chat-item__link").first().click();
    await page.waitForURL(/\/chats\/\d+$/);
    const modal = page.locator(".time-bonus-modal");
    await page.clock.runFor(90_000);
    expect(await modal.count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/chat-no-offer-390.png` });
    // Back outside the chat, the offer may come after its 40 s.
    await page.goto(`${baseUrl}/members`);
    await hydrated(page);
    await page.clock.runFor(41_000);
    await expect.poll(() => modal.count()).toBe(1);

    expect(errors).toEqual([]);
    await context.close();
  });
});
