import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import { enterSite as enterShared, hydrated, phone, sharedBrowser } from "./browser";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();

const enterSite = (page: Page) => enterShared(page, nl.entry_warning.enter);
/** Issue 13: a new message shows on every open page of the member within a second. */
const LIVE_MS = 1000;

type Recorded = { appBadges: (number | null)[]; loadedOnce: boolean };

/** A's page writes to B over the conversation's socket, as the chat screen does; resolves when the message is stored (acknowledged). */
function write(page: Page, to: number, body: string): Promise<void> {
  return page.evaluate(
    ([profile, text]) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/api/chat-socket.php?profile=${profile}`);
        const clientId = `live${Math.random().toString(36).slice(2, 12)}`;
        ws.addEventListener("message", (event) => {
          const frame = JSON.parse(event.data as string) as { type: string; client_id?: string; message?: string };
          if (frame.type === "ready")
            ws.send(JSON.stringify({ type: "send", client_id: clientId, kind: "text", body: text }));
          if (frame.type === "ack" && frame.client_id === clientId) resolve();
          if (frame.type === "error") reject(new Error(frame.message));
        });
        ws.addEventListener("close", () => reject(new Error("chat socket closed")));
      }),
    [to, body] as const,
  );
}

describe("live badges on the Dutch site", () => {
  it("B has the search page open while A writes to B: B's Messages badge, title and app badge change within a second, with no reload", async () => {
    const a = await phone(browser());
    const b = await phone(browser());
    // The app icon badge is recorded, and a marker set once per load shows whether the page reloaded.
    await b.context.addInitScript(() => {
      const w = window as unknown as Recorded;
      w.appBadges = [];
      w.loadedOnce = true;
      Object.assign(navigator, {
        setAppBadge: (n: number) => (w.appBadges.push(n), Promise.reject(new Error("not allowed"))),
        clearAppBadge: () => (w.appBadges.push(null), Promise.resolve()),
      });
    });
    const anna = await signUpByApi(a.page, baseUrl, "live", "anna", "female");
    const bram = await signUpByApi(b.page, baseUrl, "live", "bram", "male");
    // Anna will have 10 credits left after her first message: the top bar then shows her credits badge (SPEC §2).
    const price = (await api<{ message_credits: number }>(a.page, "GET", "/api/settings.php")).body.message_credits;
    localD1(
      statePath,
      `UPDATE users SET status = 'active', credits = 1000, paid_user = 1 WHERE id IN (SELECT user_id FROM profiles WHERE id = ${bram.profile.id})`,
    );
    localD1(
      statePath,
      `UPDATE users SET status = 'active', credits = ${10 + price}, paid_user = 1 WHERE id IN (SELECT user_id FROM profiles WHERE id = ${anna.profile.id})`,
    );

    // Bram is on the search page; his page's member socket has told him his badges.
    const counted = b.page
      .waitForEvent("websocket", (ws) => ws.url().includes("/api/member-socket.php"))
      .then((ws) => ws.waitForEvent("framereceived", (f) => String(f.payload).includes('"counts"')));
    await b.page.goto(`${baseUrl}/members`);
    await enterSite(b.page);
    await hydrated(b.page);
    await counted;
    const messagesLink = b.page.locator(".top-bar").getByRole("link", { name: nl.nav.messages });
    expect(await messagesLink.locator(".badge--unread").count()).toBe(0);
    expect(await b.page.title()).not.toMatch(/^\(/);
    await b.page.evaluate(() => ((window as unknown as Recorded).loadedOnce = false));

    await a.page.goto(`${baseUrl}/members`);
    await hydrated(a.page);
    const annaCredits = a.page.locator(".top-bar").getByRole("link", { name: nl.nav.credits }).locator(".badge");
    expect(await annaCredits.count()).toBe(0);
    await write(a.page, bram.profile.id, "Hoi Bram, ben je er?");
    await expect.poll(() => messagesLink.locator(".badge--unread").textContent(), { timeout: LIVE_MS }).toBe("1");
    await expect.poll(() => b.page.title(), { timeout: LIVE_MS }).toMatch(/^\(1\) /);
    await expect
      .poll(() => b.page.evaluate(() => (window as unknown as Recorded).appBadges.at(-1)), { timeout: LIVE_MS })
      .toBe(1);
    // Anna's own page shows what the message cost her.
    await expect.poll(() => annaCredits.textContent(), { timeout: LIVE_MS }).toBe("10");

    // A second message, and a like: the counts follow.
    await write(a.page, bram.profile.id, "Nog een bericht");
    await expect.poll(() => messagesLink.locator(".badge--unread").textContent(), { timeout: LIVE_MS }).toBe("2");
    await a.page.evaluate(
      (id) =>
        fetch("/api/like.php", {
          method: "POST",
          headers: { "X-Request-Type": "client", "Content-Type": "application/json" },
          body: JSON.stringify({ profile: { id } }),
        }),
      bram.profile.id,
    );
    await expect.poll(() => b.page.title(), { timeout: LIVE_MS }).toMatch(/^\(3\) /);
    expect(
      await b.page.locator(".top-bar").getByRole("link", { name: nl.nav.likes }).locator(".badge--likes").textContent(),
    ).toBe("1");
    await expect.poll(() => annaCredits.textContent(), { timeout: LIVE_MS }).toBe(String(10 - price));
    // No reload happened: the marker set after the load is still there.
    expect(await b.page.evaluate(() => (window as unknown as Recorded).loadedOnce)).toBe(false);

    // The chat list updates live too: Bram goes to his chats, Anna writes again.
    await messagesLink.click();
    await b.page.waitForURL(/\/chats$/);
    const item = b.page.locator(".chat-item").filter({ hasText: anna.profile.name });
    await expect.poll(() => item.locator(".chat-item__unread").textContent()).toBe("2");
    await write(a.page, bram.profile.id, "Derde bericht");
    await expect.poll(() => item.locator(".chat-item__unread").textContent(), { timeout: LIVE_MS }).toBe("3");
    await expect.poll(() => item.textContent(), { timeout: LIVE_MS }).toContain("Derde bericht");
    expect(b.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});
