import { describe, expect, inject, it } from "vitest";
import nl from "../../locales/nl.json" with { type: "json" };
import { enterSite, hydrated, phone, sharedBrowser } from "./browser";

const baseUrl = inject("baseUrl");
const browser = sharedBrowser();

describe("a page's texts (decision 0042)", () => {
  it("come once, beside the page, and the app hydrates and draws new screens with them", async () => {
    const { context, page, errors } = await phone(browser());
    const warnings: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "warning") warnings.push(m.text());
    });
    const texts: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.startsWith("/texts/")) texts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${baseUrl}/members`);
    await hydrated(page);
    await enterSite(page, nl.entry_warning.enter);
    // The head's preload is the one request: the app's own fetch takes its answer.
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/^\/texts\/nl\.[0-9a-f]{12}\.json$/);
    // The server's words and the browser's agree (no hydration warning), and a screen drawn in the browser speaks Dutch.
    await page.locator("footer").getByRole("link", { name: nl.footer.faq }).click();
    await page.waitForURL(/\/pages\/faq$/);
    await expect.poll(() => page.locator("h1").textContent()).toBe(nl.pages.faq.title);
    // Chromium says so a few seconds after the load when a preload went unused.
    await page.waitForTimeout(3500);
    expect(warnings.filter((w) => /preload/i.test(w))).toEqual([]);
    expect(texts).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("draws words with accents whole in the built Worker's pages", async () => {
    const { context, page } = await phone(browser());
    await page.goto(`${baseUrl}/pages/terms`);
    // The page as the Worker sends it, before any script of it runs.
    const html = await page.evaluate(() => fetch("/members").then((r) => r.text()));
    expect(html).toContain(">Fryslân</option>");
    expect(html).toContain(`>${nl.footer.faq}</a>`);
    await context.close();
  });
});
