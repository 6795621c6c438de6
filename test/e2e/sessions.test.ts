import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import type { User } from "../../src/shared/api";
import { enterSite, hydrated, phone, sharedBrowser } from "./browser";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);

/** Every content security policy violation the page reports, kept across navigations. */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { violations: string[] };
    w.violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { violations: string[] }).violations);
}

describe("content security policy in Chromium", () => {
  it("pages load with no violation, and the chat socket connects to the site's own host", async () => {
    const a = await phone(browser());
    const b = await phone(browser());
    const violations = await recordViolations(a.page);
    await signUpByApi(b.page, baseUrl, "csp", "bram", "male");
    const bram = (await api<{ user: User }>(b.page, "GET", "/api/user.php")).body.user;
    await signUpByApi(a.page, baseUrl, "csp", "anna", "female");

    for (const path of ["/members", "/notifications", "/profile", "/chats"]) {
      await a.page.goto(`${baseUrl}${path}`);
      await hydrated(a.page);
      expect(await violations(), path).toEqual([]);
    }

    // Listen for the "ready" frame as soon as the socket opens: it may come before the page is hydrated.
    const socket = a.page
      .waitForEvent("websocket", (ws) => ws.url().includes("/api/chat-socket.php"))
      .then(async (ws) => {
        await ws.waitForEvent("framereceived", (frame) => String(frame.payload).includes('"ready"'));
        return ws;
      });
    await a.page.goto(`${baseUrl}/members/${bram.profile.id}/chat`);
    await hydrated(a.page);
    const ws = await socket;
    expect(new URL(ws.url()).host).toBe(new URL(baseUrl).host);
    expect(ws.isClosed()).toBe(false);
    expect(await violations()).toEqual([]);
    expect(a.errors).toEqual([]);

    // A socket or a fetch to any other host is refused by the browser, and reported.
    await a.page.evaluate(() => {
      const elsewhere = new WebSocket(`ws://elsewhere.localhost:${location.port}/`);
      elsewhere.addEventListener("error", () => undefined);
      void fetch(`http://elsewhere.localhost:${location.port}/api/settings.php`).catch(() => undefined);
    });
    await expect
      .poll(violations)
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^connect-src ws:\/\/elsewhere/),
          expect.stringMatching(/^connect-src http:\/\/elsewhere/),
        ]),
      );
    await a.context.close();
    await b.context.close();
  });
});

describe("logged-in devices on the settings screen", () => {
  it("shows this phone and the member's other devices; logs out one, then everywhere else", async () => {
    const a = await phone(browser());
    const user = await signUpByApi(a.page, baseUrl, "sessions", "carla", "female");
    // The same member on an iPhone and on a Windows computer.
    const others = await Promise.all(
      [SAFARI_IPHONE, FIREFOX_WINDOWS].map((userAgent) =>
        browser().newContext({ userAgent, viewport: { width: 360, height: 740 } }),
      ),
    );
    const [iphone, windows] = await Promise.all(others.map((context) => context.newPage()));
    for (const page of [iphone!, windows!]) {
      await page.goto(`${baseUrl}/`);
      await enterSite(page, nl.entry_warning.enter);
      expect(
        (await api(page, "POST", "/api/user.php", { email: user.email, password: "een goed wachtwoord" })).status,
      ).toBe(200);
    }

    await a.page.goto(`${baseUrl}/notifications`);
    await hydrated(a.page);
    const section = a.page.getByRole("region", { name: nl.sessions.title });
    const items = section.getByRole("listitem");
    await expect.poll(() => items.count()).toBe(3);
    const safari = items.filter({ hasText: fill(nl.sessions.device, { browser: "Safari", system: "iPhone" }) });
    await expect.poll(() => safari.count()).toBe(1);
    await expect
      .poll(() =>
        items.filter({ hasText: fill(nl.sessions.device, { browser: "Firefox", system: "Windows" }) }).count(),
      )
      .toBe(1);
    // This phone comes first and is marked; only the others can be logged out from here.
    await expect.poll(() => items.first().textContent()).toContain(nl.sessions.this_device);
    await expect.poll(() => items.filter({ hasText: nl.sessions.this_device }).count()).toBe(1);
    await expect.poll(() => items.first().getByRole("button").count()).toBe(0);
    // The times show in the browser's own zone once the page runs.
    await expect.poll(() => safari.textContent()).toContain(fill(nl.sessions.last_used, { when: "" }).trim());

    await safari.getByRole("button", { name: nl.sessions.end }).click();
    await expect.poll(() => items.count()).toBe(2);
    expect((await api(iphone!, "GET", "/api/user.php")).status).toBe(403);
    expect((await api(windows!, "GET", "/api/user.php")).status).toBe(200);

    await section.getByRole("button", { name: nl.sessions.end_others }).click();
    await expect.poll(() => section.getByText(nl.sessions.others_ended).count()).toBe(1);
    await expect.poll(() => items.count()).toBe(1);
    await expect.poll(() => section.getByText(nl.sessions.none_other).count()).toBe(1);
    expect((await api(windows!, "GET", "/api/user.php")).status).toBe(403);
    expect((await api(a.page, "GET", "/api/user.php")).status).toBe(200);
    // Nothing overflows a 360 px phone.
    expect(await a.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(a.errors).toEqual([]);
    await a.context.close();
    await Promise.all(others.map((context) => context.close()));
  });
});

describe("a disabled member at the login form", () => {
  it("is told the account is disabled, with the way to the access ban page, only after the right password", async () => {
    const a = await phone(browser());
    const user = await signUpByApi(a.page, baseUrl, "disabled", "dirk", "male");
    await api(a.page, "GET", "/api/logout.php");
    // As moderation disables an account: the account and its profile, which leaves search.
    localD1(
      statePath,
      `UPDATE users SET status = 'disabled' WHERE email = '${user.email}'; UPDATE profiles SET status = 'disabled', searchable = 0 WHERE id = ${user.profile.id}`,
    );
    await a.page.goto(`${baseUrl}/login`);
    await hydrated(a.page);
    await a.page.getByLabel(nl.login.email).fill(user.email);
    await a.page.getByLabel(nl.login.password).fill("een fout wachtwoord");
    await a.page.getByRole("button", { name: nl.login.submit }).click();
    await expect.poll(() => a.page.getByText(nl.errors.login_failed).count()).toBe(1);
    expect(await a.page.getByText(nl.sessions.account_disabled).count()).toBe(0);

    await a.page.getByLabel(nl.login.password).fill("een goed wachtwoord");
    await a.page.getByRole("button", { name: nl.login.submit }).click();
    await expect.poll(() => a.page.getByText(nl.sessions.account_disabled).count()).toBe(1);
    expect(await a.page.getByText(nl.errors.login_failed).count()).toBe(0);
    await a.page.locator("form").getByRole("link", { name: nl.footer.access_ban }).click();
    await a.page.waitForURL(/\/pages\/ban$/);
    expect(a.errors).toEqual([]);
    await a.context.close();
  });
});
