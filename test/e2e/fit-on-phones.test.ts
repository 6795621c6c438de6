/**
 * Every site in every language it offers fits a 360 and a 390 px wide phone (issue 40): the entry
 * popup a visitor meets first, the top bar and a member's tab bar show nothing wider than its box.
 * One page load per site and language for each, measured at both widths; the Dutch site is also
 * read in all 11 languages, so a language no demo site offers yet is measured too.
 */
import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import { SITES } from "../../scripts/demo/sites";
import { LANGUAGES, languagesForCountry, type Language } from "../../src/shared/locales";
import { hydrated, phone, sharedBrowser } from "./browser";
import { api } from "./dutch-site";

const baseUrl = inject("baseUrl");
const port = new URL(baseUrl).port;
const browser = sharedBrowser();
const WIDTHS = [360, 390] as const;
/** The popup and top bar the issue showed broken, kept at 390×844 under .tmp/ to be looked at. */
const SCREENSHOTS = [
  ["nl.localhost", "fi"],
  ["be.localhost", "fr"],
] as const;

const languagesOf = (domain: string, country: string): readonly Language[] =>
  domain === "nl.localhost" ? LANGUAGES : languagesForCountry(country);

/**
 * What sticks out of its box inside each of `selectors`: an element whose content is wider than
 * the element (a button's label past its edge, a link run under its neighbour), or a box past the
 * screen's edge. Read out (1 px clipped) texts and ellipsised ones are meant to be cut and count not.
 */
function overflows(page: Page, selectors: readonly string[]): Promise<string[]> {
  return page.evaluate((list) => {
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth) found.push("the page scrolls sideways");
    for (const selector of list) {
      const root = document.querySelector(selector);
      if (!root) {
        found.push(`${selector} is missing`);
        continue;
      }
      for (const el of [root, ...root.querySelectorAll("*")]) {
        if (!(el instanceof HTMLElement)) continue;
        const style = getComputedStyle(el);
        if (style.display === "none" || el.clientWidth <= 1 || style.textOverflow === "ellipsis") continue;
        // A closed menu's list is not drawn.
        if (el.closest("details:not([open]) > :not(summary)")) continue;
        if (el.scrollWidth > el.clientWidth + 1) found.push(`${name(el)}: ${el.scrollWidth} > ${el.clientWidth}`);
        const box = el.getBoundingClientRect();
        if (box.right > window.innerWidth + 0.5 || box.left < -0.5) found.push(`${name(el)}: past the screen's edge`);
      }
    }
    return found;
  }, selectors);
}

/** What overflows at each width, as "fi 360: what", for one page already loaded. */
async function measured(page: Page, language: Language, selectors: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 740 });
    for (const problem of await overflows(page, selectors)) out.push(`${language} ${width}: ${problem}`);
  }
  return out;
}

describe("every site and language on a 360 and a 390 px phone", () => {
  for (const site of SITES) {
    const origin = `http://${site.domain}:${port}`;
    const country = site.countries[0]!;
    const languages = languagesOf(site.domain, country);

    it(`${site.domain} (${languages.join(", ")}): the entry popup and the visitor's top bar fit`, async () => {
      const { page, context } = await phone(browser());
      const found: string[] = [];
      for (const language of languages) {
        // A first visit from the site's own country: the popup shows.
        await page.goto(`${origin}/?lang=${language}&dev_country=${country}`);
        await page.locator(".entry-warning").waitFor();
        found.push(...(await measured(page, language, [".entry-warning", ".top-bar__inner"])));
        if (SCREENSHOTS.some(([d, l]) => d === site.domain && l === language)) {
          await page.setViewportSize({ width: 390, height: 844 });
          await page.screenshot({ path: `.tmp/fit-${site.domain}-${language}-390.png` });
        }
      }
      await context.close();
      expect(found).toEqual([]);
    });

    it(`${site.domain} (${languages.join(", ")}): a member's top bar and tab bar fit`, async () => {
      const { page, context } = await phone(browser());
      await page.goto(`${origin}/?dev_country=${country}`);
      const unique = `${Date.now() % 1_000_000}${Math.floor(Math.random() * 1000)}`;
      const signup = await api(page, "POST", "/api/signup.php", {
        email: `e2e-fit-${site.domain}-${unique}@example.com`,
        username: `fit${unique}`,
        password: "a good password",
        date_of_birth: "1991-06-02",
        gender: "female",
        terms: true,
      });
      expect(signup.status).toBe(201);
      const found: string[] = [];
      for (const language of languages) {
        await page.goto(`${origin}/members?lang=${language}`);
        await hydrated(page);
        found.push(...(await measured(page, language, [".top-bar__inner", ".tab-bar"])));
      }
      await context.close();
      expect(found).toEqual([]);
    });
  }
});
