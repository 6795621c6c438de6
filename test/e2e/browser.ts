import { afterAll, beforeAll } from "vitest";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

const CHROMIUM = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
  ],
};
export const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** Debian's Chromium, headless, kept off the network; `args` adds flags (the fake camera). */
export function launch(args: string[] = []): Promise<Browser> {
  return chromium.launch({ ...CHROMIUM, args: [...CHROMIUM.args, ...args] });
}

/** A phone-sized visitor whose page errors, console errors and failed sub-requests are collected. */
export async function phone(
  browser: Browser,
  viewport = PHONE.viewport,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  return watched(await browser.newContext({ ...PHONE, viewport }));
}

/**
 * The same phone with a profile on disk (`dir`): Chromium offers to install an app only outside
 * incognito, and every context of a launched browser is incognito. Closing the context ends that Chromium.
 */
export async function phoneWithProfile(
  dir: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  return watched(await chromium.launchPersistentContext(dir, { ...CHROMIUM, ...PHONE }));
}

async function watched(context: BrowserContext): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    // A failed response is reported below with its URL; the console only says "Failed to load resource".
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("response", (r) => {
    if (r.status() >= 400 && r.request().resourceType() !== "document" && r.request().resourceType() !== "fetch")
      errors.push(`${r.status()} ${r.url()}`);
  });
  return { context, page, errors };
}

/** Wait until the page's React has hydrated, so a click reaches its handler instead of the bare markup. */
export async function hydrated(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Close the site-entry warning if it shows (its button says `enter` in the page's language). */
export async function enterSite(page: Page, enter: string) {
  const button = page.getByRole("button", { name: enter });
  if (await button.count()) await button.click();
}

/** One Chromium for a test file: launched before its tests, closed after them. */
export function sharedBrowser(args: string[] = []): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launch(args);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("the browser is not running");
    return browser;
  };
}
