/**
 * An invisible member (SPEC §4: hidden from search) is kept out of search engines too (issue 20,
 * point 6): each public page of the profile carries noindex in its head and its headers, gives link
 * previews no photo, and no sitemap lists it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { chatMember, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { Browser, fetchWorker } from "../http";

const ORIGIN = "http://invisible.test";
const NOINDEX = '<meta name="robots" content="noindex"/>';

beforeAll(async () => {
  await putSites(site("invisible.test"));
});

const pagesOf = (member: Member) => [
  `/members/${member.id}`,
  `/members/${member.id}/landing`,
  `/members/${member.id}/landing2`,
  `/members/${member.id}/landing3/romance`,
];

async function setInvisible(member: Member, invisible: boolean) {
  expect((await member.browser.put("/api/user.php", { invisible })).status).toBe(200);
}

async function page(browser: Browser | null, path: string) {
  const res = browser ? await browser.fetch(path) : await fetchWorker(ORIGIN + path);
  return { status: res.status, robots: res.headers.get("x-robots-tag"), html: await res.text() };
}

describe("an invisible member's public pages", () => {
  it("ask search engines not to index them, in the head and the headers, for visitors and other members alike", async () => {
    const ines = await chatMember(ORIGIN, { name: "Ines" });
    const other = await chatMember(ORIGIN);
    await setInvisible(ines, true);
    for (const path of pagesOf(ines)) {
      for (const viewer of [null, other.browser, ines.browser]) {
        const answer = await page(viewer, path);
        expect(answer.status, path).toBe(200);
        expect(answer.html, path).toContain(NOINDEX);
        expect(answer.robots, path).toBe("noindex");
        // No alternates pointing engines at the same page elsewhere, no preview photo.
        expect(answer.html, path).not.toContain('rel="alternate"');
        expect(answer.html, path).not.toContain('property="og:image"');
      }
    }
  });

  it("are indexable again once the member is visible, and a visible member's pages never carry noindex", async () => {
    const vera = await chatMember(ORIGIN, { name: "Vera" });
    await setInvisible(vera, true);
    expect((await page(null, `/members/${vera.id}`)).html).toContain(NOINDEX);
    await setInvisible(vera, false);
    for (const path of pagesOf(vera)) {
      const answer = await page(null, path);
      expect(answer.status, path).toBe(200);
      expect(answer.html, path).not.toContain('name="robots"');
      expect(answer.robots, path).toBeNull();
    }
  });

  it("are in no sitemap", async () => {
    const ines = await chatMember(ORIGIN, { name: "Ines" });
    await setInvisible(ines, true);
    const res = await fetchWorker(`${ORIGIN}/sitemap.xml`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain("<urlset");
    expect(body).not.toContain(`/members/${ines.id}`);
  });
});
