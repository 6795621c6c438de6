/**
 * An invisible member (SPEC §4: hidden from search) is kept out of search engines too (issue 20,
 * point 6): each public page of the profile carries noindex in its head and its headers, gives link
 * previews no photo, and no sitemap lists it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileResponse } from "../../src/shared/api";
import { ChatSocket, chatMember, clientId, creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { Browser, fetchWorker, json } from "../http";

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
    // Even having chosen the promotion pages, an invisible member is on none of them (docs/decisions/0052).
    expect((await ines.browser.put("/api/user.php", { promotion_pages: true })).status).toBe(200);
    await setInvisible(ines, true);
    for (const path of pagesOf(ines).slice(1)) expect((await page(null, path)).status, path).toBe(404);
    for (const path of pagesOf(ines).slice(0, 1)) {
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
    // Her landing pages exist because she chose the promotion pages.
    expect((await vera.browser.put("/api/user.php", { promotion_pages: true })).status).toBe(200);
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

/** One text over the chat socket: its ack or its error. */
async function sendOnce(from: Member, to: Member, body: string) {
  const socket = await ChatSocket.open(from, to.id);
  const id = clientId();
  socket.sendText(id, body);
  const reply = await socket.reply(id);
  socket.close();
  return reply;
}

describe("invisible mode (docs/decisions/0051)", () => {
  it("refuses new likes and new chats without charging, lets a chat the invisible member wrote in go on, and the profile says so", async () => {
    const ines = await chatMember(ORIGIN, { name: "Ines" });
    const stranger = await chatMember(ORIGIN, { name: "Sam", credits: 100, paid: true });
    const partner = await chatMember(ORIGIN, { name: "Pim", credits: 100, paid: true });
    expect(await sendOnce(ines, partner, "hi Pim")).toMatchObject({ type: "ack" });
    await setInvisible(ines, true);

    const liked = await stranger.browser.post("/api/like.php", { profile: { id: ines.id } });
    expect(liked.status).toBe(404);
    expect((await json<{ message: string }>(liked)).message).toBe("This member cannot be liked.");
    expect(await sendOnce(stranger, ines, "hello?")).toMatchObject({ type: "error", error: "not_found" });
    expect(await creditsOf(stranger)).toBe(100);

    // Ines wrote to Pim: Pim may answer (and pays as ever), but may not like her.
    const reply = await sendOnce(partner, ines, "hi Ines");
    expect(reply).toMatchObject({ type: "ack" });
    expect(await creditsOf(partner)).toBeLessThan(100);
    expect((await partner.browser.post("/api/like.php", { profile: { id: ines.id } })).status).toBe(404);

    const asStranger = await json<ProfileResponse>(await stranger.browser.fetch(`/api/profile.php?id=${ines.id}`));
    expect(asStranger.invisible).toBe(true);
    expect(asStranger.viewer).toMatchObject({ can_like: false, can_message: false });
    const asPartner = await json<ProfileResponse>(await partner.browser.fetch(`/api/profile.php?id=${ines.id}`));
    expect(asPartner.viewer).toMatchObject({ can_like: false, can_message: true });

    // The page shows no Message or Like to the stranger, and says why.
    const html = await (await stranger.browser.fetch(`/members/${ines.id}`)).text();
    expect(html).toContain("Ines is invisible right now: you cannot like them or start a chat with them.");
    expect(html).not.toContain(`href="/members/${ines.id}/chat"`);
    expect(html).not.toContain(`data-like="${ines.id}"`);
    const partnerHtml = await (await partner.browser.fetch(`/members/${ines.id}`)).text();
    expect(partnerHtml).toContain("you cannot like them, but you can keep chatting with them.");
    expect(partnerHtml).toContain(`href="/members/${ines.id}/chat"`);
    expect(partnerHtml).not.toContain(`data-like="${ines.id}"`);

    // Visible again: likes and chats are open to everyone.
    await setInvisible(ines, false);
    const open = await json<ProfileResponse>(await stranger.browser.fetch(`/api/profile.php?id=${ines.id}`));
    expect(open.viewer).toMatchObject({ can_like: true, can_message: true });
    expect(open.invisible).toBeUndefined();
  });
});
