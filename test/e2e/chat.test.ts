import { describe, expect, inject, it } from "vitest";
import type { Page, WebSocketRoute } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import type { User } from "../../src/shared/api";
import type { GiftsResponse } from "../../src/shared/chat";
import { enterSite as enterShared, hydrated, phone, sharedBrowser } from "./browser";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();
const CREDITS = 1000;

const enterSite = (page: Page) => enterShared(page, nl.entry_warning.enter);
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));

const signUp = (page: Page, name: string, gender: "male" | "female") =>
  signUpByApi(page, baseUrl, "chat", name, gender);
const credits = async (page: Page) => (await api<{ user: User }>(page, "GET", "/api/user.php")).body.user.credits;

describe("two members chatting on the Dutch site", () => {
  it("A writes, B sees it live with the typing indicator and the unread badge, B answers, A pays per message", async () => {
    const a = await phone(browser());
    const b = await phone(browser());
    // Bram's chat sockets pass through here, so the test can cut his connection.
    const bramRoutes: WebSocketRoute[] = [];
    let bramOffline = false;
    await b.context.routeWebSocket(/\/api\/chat-socket\.php/, (route) => {
      if (bramOffline) return void route.close();
      route.connectToServer();
      bramRoutes.push(route);
    });
    // The app icon badge: recorded here, and refused as a browser may refuse it (which must be ignored).
    await b.context.addInitScript(() => {
      const w = window as unknown as { appBadges: (number | null)[] };
      w.appBadges = [];
      Object.assign(navigator, {
        setAppBadge: (n: number) => (w.appBadges.push(n), Promise.reject(new Error("not allowed"))),
        clearAppBadge: () => (w.appBadges.push(null), Promise.resolve()),
      });
    });
    const anna = await signUp(a.page, "anna", "female");
    const bram = await signUp(b.page, "bram", "male");
    // Both confirmed their e-mail and bought credits (payments are a later issue): set in the served D1.
    localD1(
      statePath,
      `UPDATE users SET status = 'active', credits = ${CREDITS}, paid_user = 1 WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${anna.profile.id}, ${bram.profile.id}))`,
    );
    const settings = (await api<{ message_credits: number }>(a.page, "GET", "/api/settings.php")).body;

    // Anna opens the chat with Bram from his profile link: no messages yet, so the ice-breaker offers first lines.
    await a.page.goto(`${baseUrl}/members/${bram.profile.id}/chat`);
    await enterSite(a.page);
    const iceBreaker = a.page.getByRole("dialog");
    await expect.poll(() => iceBreaker.count()).toBe(1);
    await iceBreaker.getByRole("button", { name: nl.chat.ice_breaker.own }).click();
    const annaInput = a.page.getByLabel(fill(nl.chat.message_to, { name: bram.profile.name }));
    await annaInput.fill("Hoi Bram!");
    await annaInput.press("Enter");
    // Her first paid message asks once, with its price.
    await a.page.getByRole("dialog").getByRole("button", { name: nl.spend.send }).click();
    await expect.poll(() => a.page.locator(".message--own").filter({ hasText: "Hoi Bram!" }).count()).toBe(1);

    // Bram, elsewhere on the site, has an unread message: the Messages badge and the title say so.
    await b.page.goto(`${baseUrl}/members`);
    await enterSite(b.page);
    const messagesLink = b.page.locator(".top-bar").getByRole("link", { name: nl.nav.messages });
    await expect.poll(() => messagesLink.locator(".badge--unread").textContent()).toBe("1");
    await expect.poll(() => b.page.title()).toMatch(/^\(1\) /);
    await expect
      .poll(() => b.page.evaluate(() => (window as unknown as { appBadges: (number | null)[] }).appBadges.at(-1)))
      .toBe(1);

    // He opens the conversation from his list; reading it clears the count.
    await messagesLink.click();
    await b.page.waitForURL(/\/chats$/);
    const item = b.page.locator(".chat-item").filter({ hasText: anna.profile.name });
    await expect.poll(() => item.locator(".chat-item__unread").textContent()).toBe("1");
    await item.locator(".chat-item__link").click();
    await b.page.waitForURL(/\/chats\/\d+$/);
    await expect.poll(() => b.page.locator(".message--theirs").filter({ hasText: "Hoi Bram!" }).count()).toBe(1);
    await expect.poll(() => b.page.title()).not.toMatch(/^\(/);
    await expect
      .poll(() => b.page.evaluate(() => (window as unknown as { appBadges: (number | null)[] }).appBadges.at(-1)))
      .toBeNull();

    // Anna types: Bram sees it while it happens, then her message arrives without a reload.
    await annaInput.pressSequentially("Zin in koffie?", { delay: 30 });
    await expect.poll(() => b.page.getByText(fill(nl.chat.typing, { name: anna.profile.name })).count()).toBe(1);
    await annaInput.press("Enter");
    await expect.poll(() => b.page.locator(".message--theirs").filter({ hasText: "Zin in koffie?" }).count()).toBe(1);

    // Bram answers; Anna sees it live, and her own messages are marked seen.
    const bramInput = b.page.getByLabel(fill(nl.chat.message_to, { name: anna.profile.name }));
    await bramInput.fill("Graag! Zaterdag?");
    await bramInput.press("Enter");
    await b.page.getByRole("dialog").getByRole("button", { name: nl.spend.send }).click();
    await expect.poll(() => a.page.locator(".message--theirs").filter({ hasText: "Graag! Zaterdag?" }).count()).toBe(1);
    await expect.poll(() => a.page.getByText(nl.chat.status.seen).count()).toBeGreaterThan(0);

    // Anna sends a rose from the gift picker; Bram sees the gift arrive.
    const gifts = (await api<GiftsResponse>(a.page, "GET", "/api/gifts.php")).body.gifts;
    const rose = gifts.find((g) => g.slug === "rose")!;
    await a.page.getByRole("button", { name: nl.chat.send_gift }).click();
    await a.page
      .getByRole("dialog")
      .getByRole("button", { name: new RegExp(nl.gifts.rose) })
      .click();
    // A gift above the site's threshold asks before it is sent.
    if (rose.credits > 5) await a.page.getByRole("dialog").getByRole("button", { name: nl.spend.send }).click();
    await expect
      .poll(() => b.page.locator(".message--theirs.message--gift").filter({ hasText: nl.gifts.rose }).count())
      .toBe(1);

    // Two paid messages and a gift from Anna, one message from Bram.
    expect(await credits(a.page)).toBe(CREDITS - 2 * settings.message_credits - rose.credits);
    expect(await credits(b.page)).toBe(CREDITS - settings.message_credits);
    // Bram's connection drops while Anna writes more than a page of messages: when he is back, his
    // socket reconnects and every message is there, in order, none twice.
    await expect.poll(() => bramRoutes.length).toBeGreaterThan(0);
    bramOffline = true;
    for (const route of bramRoutes.splice(0)) await route.close();
    await expect.poll(() => b.page.getByText(nl.chat.reconnecting).count()).toBe(1);
    for (let i = 1; i <= 35; i++) {
      await annaInput.fill(`Bericht ${i}`);
      await annaInput.press("Enter");
    }
    await expect
      .poll(() =>
        a.page.locator(".message--own.is-sent, .message--own.is-seen").filter({ hasText: "Bericht 35" }).count(),
      )
      .toBe(1);
    bramOffline = false;
    await expect.poll(() => bramRoutes.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect
      .poll(
        () =>
          b.page
            .locator(".message--theirs .message__bubble")
            .filter({ hasText: /^Bericht 35$/ })
            .count(),
        { timeout: 15_000 },
      )
      .toBe(1);
    const received = await b.page.locator(".message--theirs.message--text .message__bubble").allTextContents();
    const numbered = received.filter((text) => text.startsWith("Bericht "));
    expect(numbered).toEqual(Array.from({ length: 35 }, (_, i) => `Bericht ${i + 1}`));
    expect(received.slice(0, 2)).toEqual(["Hoi Bram!", "Zin in koffie?"]);

    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it("removes a chat from the list at once; when the server refuses, says so and shows the list again", async () => {
    const y = await phone(browser(), { width: 390, height: 844 });
    const yara = await signUp(y.page, "yara", "female");
    const writers = [];
    for (const name of ["xander", "zeno"]) {
      const w = await phone(browser());
      const member = await signUp(w.page, name, "male");
      localD1(
        statePath,
        `UPDATE users SET status = 'active' WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${member.profile.id}, ${yara.profile.id}))`,
      );
      await w.page.goto(`${baseUrl}/members/${yara.profile.id}/chat`);
      await hydrated(w.page);
      const dialog = w.page.getByRole("dialog");
      if (await dialog.count()) await dialog.getByRole("button", { name: nl.chat.ice_breaker.own }).click();
      const input = w.page.getByLabel(fill(nl.chat.message_to, { name: yara.profile.name }));
      await input.fill(`Hallo van ${name}`);
      await input.press("Enter");
      await expect.poll(() => w.page.locator(".message--own.is-sent").count()).toBe(1);
      writers.push({ ...w, member });
    }
    const [xander, zeno] = writers as [(typeof writers)[0], (typeof writers)[0]];

    await y.page.goto(`${baseUrl}/chats`);
    await hydrated(y.page);
    const row = (name: string) => y.page.locator(".chat-item").filter({ hasText: name });
    await expect.poll(() => y.page.locator(".chat-item").count()).toBe(2);

    // The row goes at once; the server's answer comes after, and the reload must not overtake it.
    const removed = y.page.waitForResponse(
      (r) => r.url().endsWith("/api/chat.php") && r.request().method() === "DELETE",
    );
    // The × asks first and says what goes; "cancel" keeps the chat and sends nothing.
    const deletes: string[] = [];
    y.page.on("request", (r) => {
      if (r.url().endsWith("/api/chat.php") && r.method() === "DELETE") deletes.push(r.url());
    });
    const askRemove = async (name: string) => {
      await row(name)
        .getByRole("button", { name: fill(nl.chat.remove_with, { name }) })
        .click();
      const ask = row(name).getByRole("group", { name: fill(nl.chat.remove_with, { name }) });
      await expect.poll(() => ask.textContent()).toContain(fill(nl.chat.remove_confirm, { name }));
      return ask;
    };
    const xanderName = xander.member.profile.name;
    const asked = await askRemove(xanderName);
    await y.page.screenshot({ path: ".tmp/screenshots/chats-remove-asked-390.png" });
    await asked.getByRole("button", { name: nl.chat.remove_cancel }).click();
    expect(await row(xanderName).count()).toBe(1);
    expect(await row(xanderName).getByRole("group").count()).toBe(0);
    expect(deletes).toEqual([]);
    await (await askRemove(xanderName)).getByRole("button", { name: nl.chat.remove, exact: true }).click();
    await expect.poll(() => row(xander.member.profile.name).count()).toBe(0);
    expect((await removed).status()).toBe(200);
    await y.page.reload();
    await hydrated(y.page);
    await expect.poll(() => y.page.locator(".chat-item").count()).toBe(1);

    // The server fails the next removal: an alert with the error, then the list as the server has it.
    await y.page.route("**/api/chat.php", (route) =>
      route.request().method() === "DELETE"
        ? route.fulfill({
            status: 500,
            contentType: "application/json",
            body: JSON.stringify({ error: "internal_error", message: nl.errors.try_again_later }),
          })
        : route.fallback(),
    );
    const alerts: string[] = [];
    y.page.on("dialog", (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    await (
      await askRemove(zeno.member.profile.name)
    )
      .getByRole("button", { name: nl.chat.remove, exact: true })
      .click();
    await expect.poll(() => alerts).toEqual([nl.errors.try_again_later]);
    await expect.poll(() => row(zeno.member.profile.name).count()).toBe(1);

    // Blocking asks first too, says that the chat and the likes end for good, and "cancel" blocks nobody.
    await y.page.goto(`${baseUrl}/members/${zeno.member.profile.id}`);
    await hydrated(y.page);
    await y.page.getByRole("button", { name: nl.profile.block, exact: true }).click();
    const askBlock = y.page.getByRole("group", { name: nl.profile.block });
    await expect
      .poll(() => askBlock.textContent())
      .toContain(fill(nl.profile.block_confirm, { name: zeno.member.profile.name }));
    await askBlock.scrollIntoViewIfNeeded();
    await y.page.screenshot({ path: ".tmp/screenshots/profile-block-asked-390.png" });
    await askBlock.getByRole("button", { name: nl.profile.block_cancel }).click();
    expect(await y.page.getByText(fill(nl.profile.blocked_notice, { name: zeno.member.profile.name })).count()).toBe(0);
    await y.page.getByRole("button", { name: nl.profile.block, exact: true }).click();
    await askBlock.getByRole("button", { name: nl.profile.block, exact: true }).click();
    await expect
      .poll(() => y.page.getByText(fill(nl.profile.blocked_notice, { name: zeno.member.profile.name })).count())
      .toBe(1);
    // Unblocking loses nothing and asks nothing.
    await y.page.getByRole("button", { name: nl.profile.unblock }).click();
    await expect.poll(() => y.page.getByRole("button", { name: nl.profile.block, exact: true }).count()).toBe(1);

    for (const c of [y, xander, zeno]) {
      expect(c.errors.filter((e) => !e.startsWith("500 "))).toEqual([]);
      await c.context.close();
    }
  });
});
