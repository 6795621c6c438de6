/**
 * The installable app in Chromium: the service worker, the manifest, the offline page and what a
 * push does to open pages. Headless Chromium cannot subscribe to a push service here (no network),
 * so the push is handed to the service worker through the DevTools protocol; the subscription call
 * itself is covered by the workerd tests of POST /api/user.php?push=1.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import type { CDPSession, Page } from "playwright-core";
import de from "../../locales/de.json" with { type: "json" };
import nl from "../../locales/nl.json" with { type: "json" };
import type { PushPayload } from "../../src/shared/member-events";
import { enterSite, hydrated, phone, phoneWithProfile, sharedBrowser } from "./browser";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();

/** Wait until the page is controlled by the service worker (it claims pages when it activates); if it never is, say what the page and its registration were doing. */
async function controlled(page: Page) {
  const controller = () => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
  try {
    await expect.poll(controller, { timeout: 30_000 }).toBe(`${baseUrl}/sw.js`);
  } catch (error) {
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration("/");
      const worker = (w: ServiceWorker | null | undefined) => (w ? `${w.scriptURL} ${w.state}` : null);
      return {
        url: location.href,
        readyState: document.readyState,
        registration: registration
          ? {
              installing: worker(registration.installing),
              waiting: worker(registration.waiting),
              active: worker(registration.active),
            }
          : null,
      };
    });
    throw new Error(
      `the page was never controlled by /sw.js: ${JSON.stringify(state)}; its console: ${JSON.stringify(consoleOf.get(page) ?? [])}`,
      { cause: error },
    );
  }
}

/** What each page printed on its console, for the message above. */
const consoleOf = new WeakMap<Page, string[]>();
function keepConsole(page: Page) {
  const lines: string[] = [];
  consoleOf.set(page, lines);
  page.on("console", (m) => lines.push(`${m.type()}: ${m.text()}`));
}

/** A phone in the shared browser whose context closes when the test ends, passed or not (so a failure leaves no worker behind for the next test). */
async function closingPhone() {
  const opened = await phone(browser());
  keepConsole(opened.page);
  onTestFinished(() => opened.context.close());
  return opened;
}

/**
 * The id of the service worker registration that controls `page`, as the DevTools protocol names
 * it: the one whose running version lists the page's target among the clients it controls.
 */
async function registrationId(page: Page, session: CDPSession): Promise<string> {
  const { targetInfo } = await session.send("Target.getTargetInfo");
  const found = new Promise<string>((resolve) => {
    session.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
      const ours = versions.find((v) => v.controlledClients?.includes(targetInfo.targetId) && v.status === "activated");
      if (ours) resolve(ours.registrationId);
    });
  });
  await session.send("ServiceWorker.enable");
  return withDeadline(found, 15_000, `no service worker version reported controlling ${page.url()}`);
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

describe("the installable app", () => {
  it("registers a service worker at /sw.js that controls the page, and Chromium finds the app installable", async () => {
    const profile = mkdtempSync(join(tmpdir(), "flirtwave-install-"));
    const { context, page, errors } = await phoneWithProfile(profile);
    keepConsole(page);
    onTestFinished(async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    });
    await signUpByApi(page, baseUrl, "install", "iris", "female");
    await page.goto(`${baseUrl}/members`);
    await hydrated(page);
    await controlled(page);

    const script = await page.evaluate(async () => {
      const res = await fetch("/sw.js");
      return {
        status: res.status,
        cache: res.headers.get("cache-control"),
        allowed: res.headers.get("service-worker-allowed"),
        type: res.headers.get("content-type"),
      };
    });
    expect(script.status).toBe(200);
    expect(script.cache).toBe("no-cache");
    expect(script.allowed).toBe("/");
    expect(script.type).toMatch(/javascript/);

    const session = await context.newCDPSession(page);
    const { installabilityErrors } = await session.send("Page.getInstallabilityErrors");
    expect(installabilityErrors).toEqual([]);
    const manifest = await session.send("Page.getAppManifest");
    expect(manifest.errors).toEqual([]);
    const parsed = JSON.parse(manifest.data!) as {
      name: string;
      display: string;
      lang: string;
      description: string;
      icons: { sizes: string; purpose: string }[];
    };
    expect(parsed.display).toBe("standalone");
    expect(parsed.lang).toBe("nl");
    expect(parsed.description.length).toBeGreaterThan(0);
    expect(parsed.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(
      expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]),
    );

    // Nothing of the member is kept: the only cache holds the offline page and the notification icons.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls.toSorted();
    });
    expect(cached).toEqual(["/icons/badge-96.png", "/icons/icon-192.png", "/offline.html"]);
    expect(errors).toEqual([]);
    // Every feature the Permissions-Policy header names is one this browser knows (an unknown one warns on every page).
    expect(consoleOf.get(page)!.filter((line) => line.includes("Permissions-Policy"))).toEqual([]);
  });

  it("a page whose loading began while the worker was installing is taken over too", async () => {
    const { context, page: late } = await closingPhone();
    // The late page's navigation starts first and is held back until the worker has activated.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await late.route(`${baseUrl}/login`, async (route) => {
      await held;
      await route.continue();
    });
    const loading = late.goto(`${baseUrl}/login`);

    const first = await context.newPage();
    keepConsole(first);
    await first.goto(`${baseUrl}/`);
    await controlled(first);
    release();
    await loading;
    await hydrated(late);
    await controlled(late);
  });

  it("with the network gone, a navigation shows the offline page in the member's language", async () => {
    const { context, page } = await closingPhone();
    await signUpByApi(page, baseUrl, "offline", "otto", "male");
    // The member reads the site in German: the page tells the service worker, which stores the German offline page.
    await page.goto(`${baseUrl}/lang-config?locale=de&return=/members`);
    await hydrated(page);
    await controlled(page);
    await expect
      .poll(
        () => page.evaluate(async () => (await caches.match("/offline.html"))?.headers.get("content-language") ?? null),
        { timeout: 15_000 },
      )
      .toBe("de");

    await context.setOffline(true);
    await page.goto(`${baseUrl}/chats`);
    await expect.poll(() => page.locator("h1").textContent()).toBe(de.app_install.offline.title);
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    await expect.poll(() => page.getByRole("link", { name: de.app_install.offline.retry }).count()).toBe(1);

    // Back online, "try again" loads the page it stood in for.
    await context.setOffline(false);
    await page.getByRole("link", { name: de.app_install.offline.retry }).click();
    await page.waitForURL(`${baseUrl}/chats`);
    await hydrated(page);
    expect(await page.locator("h1").first().textContent()).not.toBe(de.app_install.offline.title);
  });

  it("a new deploy's service worker takes over: older caches go, and the page's next navigation loads the new build", async () => {
    const { page } = await closingPhone();
    await signUpByApi(page, baseUrl, "update", "uwe", "male");
    await page.goto(`${baseUrl}/members`);
    await hydrated(page);
    await controlled(page);
    const messages = page.locator(".top-bar").getByRole("link", { name: nl.nav.messages });
    const sameDocument = () =>
      page.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument === true);
    await page.evaluate(async () => {
      await (await caches.open("flirtwave-an-older-build")).put("/offline.html", new Response("old"));
      (window as Window & { sameDocument?: boolean }).sameDocument = true;
    });

    // Without a new build, moving around the app keeps the page (no reload).
    await messages.click();
    await page.waitForURL(`${baseUrl}/chats`);
    expect(await sameDocument()).toBe(true);
    await page.goBack();
    await page.waitForURL(`${baseUrl}/members`);

    // The deploy: a service worker script the browser has not run yet installs, takes over and clears up.
    await page.evaluate(() =>
      navigator.serviceWorker.register("/sw.js?deploy=2", { scope: "/" }).then(() => undefined),
    );
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 15_000 })
      .toBe(`${baseUrl}/sw.js?deploy=2`);
    await expect
      .poll(() => page.evaluate(() => caches.keys()))
      .toEqual([expect.stringMatching(/^flirtwave-[0-9a-f]{16}$/)]);
    expect(await sameDocument()).toBe(true);

    // The next navigation loads the page anew, from the new build.
    await messages.click();
    await page.waitForURL(`${baseUrl}/chats`);
    await hydrated(page);
    expect(await sameDocument()).toBe(false);
  });

  it("a push shows a notification and makes the open page reload the member's likes and chats", async () => {
    const liker = await closingPhone();
    const member = await closingPhone();
    const lena = await signUpByApi(liker.page, baseUrl, "push", "lena", "female");
    const piet = await signUpByApi(member.page, baseUrl, "push", "piet", "male");
    localD1(
      statePath,
      `UPDATE users SET status = 'active' WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${lena.profile.id}, ${piet.profile.id}))`,
    );
    await member.context.grantPermissions(["notifications"], { origin: baseUrl });

    // Piet's page runs with its clock stopped, so the 60 s refresh cannot be what brings the news.
    await member.page.clock.install();
    await member.page.goto(`${baseUrl}/members`);
    await enterSite(member.page, nl.entry_warning.enter);
    await hydrated(member.page);
    await controlled(member.page);
    await member.page.clock.pauseAt(Date.now() + 1000);
    const likesBadge = member.page
      .locator(".top-bar")
      .getByRole("link", { name: nl.nav.likes })
      .locator(".badge--likes");
    expect(await likesBadge.count()).toBe(0);

    // Lena likes Piet: his open page hears of it through the member channel first.
    expect((await api(liker.page, "POST", "/api/like.php", { profile: { id: piet.profile.id } })).status).toBe(200);
    await expect.poll(() => likesBadge.textContent(), { timeout: 5_000 }).toBe("1");
    await member.page.waitForLoadState("networkidle");

    // Then the push: what the page fetches now, it fetches because of the push.
    const session = await member.context.newCDPSession(member.page);
    const id = await registrationId(member.page, session);
    const chats = member.page.waitForRequest((r) => r.url() === `${baseUrl}/api/chats.php`);
    const likes = member.page.waitForRequest((r) => r.url().startsWith(`${baseUrl}/api/likes.php`));
    const payload: PushPayload = {
      kind: "like",
      title: "Lena",
      body: "vindt je leuk",
      tag: `like-${lena.profile.id}`,
      url: `/members/${lena.profile.id}`,
      badge: 1,
    };
    await session.send("ServiceWorker.deliverPushMessage", {
      origin: baseUrl,
      registrationId: id,
      data: JSON.stringify(payload),
    });
    await Promise.all([chats, likes]);

    // The pages are told first; the notification shows once the service worker has drawn it.
    const shown = () =>
      member.page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          url: (n.data as { url: string }).url,
        }));
      });
    try {
      await expect
        .poll(shown, { timeout: 10_000 })
        .toEqual([
          { title: "Lena", body: "vindt je leuk", tag: `like-${lena.profile.id}`, url: `/members/${lena.profile.id}` },
        ]);
    } catch (error) {
      // What the service workers themselves see: their permission and notifications.
      const workers = await Promise.all(
        member.context.serviceWorkers().map((worker) =>
          worker
            .evaluate(async () => {
              const scope = self as unknown as { registration: ServiceWorkerRegistration; location: Location };
              return {
                script: scope.location.href,
                permission: Notification.permission,
                notifications: (await scope.registration.getNotifications()).length,
              };
            })
            .catch((e: unknown) => ({ failed: String(e) })),
        ),
      );
      throw new Error(
        `no notification shown; the service workers: ${JSON.stringify(workers)}; the page's console: ${JSON.stringify(consoleOf.get(member.page) ?? [])}`,
        { cause: error },
      );
    }
  });
});
