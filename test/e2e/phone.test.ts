import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import type { User } from "../../src/shared/api";
import { LANDERS } from "../../src/shared/routes";
import { LEGAL_PAGES } from "../../src/shared/legal";
import { hydrated, phone, PHONE, sharedBrowser } from "./browser";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();

/** The two phones of issue 23: a 390x844 one and a small 360x740 one. */
const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
] as const;

type Box = { top: number; bottom: number; height: number; width: number };
const box = (page: Page, selector: string): Promise<Box | null> =>
  page.evaluate((s) => {
    const element = document.querySelector(s);
    if (!element) return null;
    const r = element.getBoundingClientRect();
    // Hidden by the stylesheet (display: none) counts as absent.
    return r.width === 0 && r.height === 0 ? null : { top: r.top, bottom: r.bottom, height: r.height, width: r.width };
  }, selector);

/** How many of the notices above the content the member can see. */
const visibleNotices = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll(".alerts > *")]
      .filter((n) => n.getBoundingClientRect().height > 0)
      .map((n) => Math.round(n.getBoundingClientRect().height)),
  );

const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function member(page: Page, tag: string, name: string, gender: "male" | "female"): Promise<User> {
  return signUpByApi(page, baseUrl, `phone${tag}`, name, gender);
}

describe("a member on a phone", () => {
  for (const viewport of PHONES) {
    it(`at ${viewport.width}x${viewport.height}: the tab bar on every member screen, a one-row top bar, one notice at a time, people on the first screen`, async () => {
      const { page, context, errors } = await phone(browser(), viewport);
      const me = await member(page, `tabs${viewport.width}`, "Sanne", "female");
      const other = (await api<{ profiles: { id: number }[] }>(page, "GET", "/api/search.php")).body.profiles[0]!.id;

      for (const path of [
        "/members",
        `/members/${other}`,
        "/likes",
        "/likes/sent",
        `/likes/m/${other}`,
        "/chats",
        "/profile",
        "/notifications",
        "/credits",
        "/premium",
        "/swipe-game",
        "/match-finder",
      ]) {
        await page.goto(`${baseUrl}${path}`);
        await hydrated(page);
        const bar = await box(page, ".tab-bar");
        expect(bar, path).not.toBeNull();
        // At the bottom edge, thumb-high, with its four tabs.
        expect(Math.round(bar!.bottom), path).toBe(viewport.height);
        expect(bar!.height, path).toBeLessThanOrEqual(64);
        expect(await page.locator(".tab-bar__tab").count(), path).toBe(4);
        const top = await box(page, ".top-bar__inner");
        expect(top!.height, path).toBeLessThanOrEqual(56);
        expect(await sidewaysScroll(page), path).toBeLessThanOrEqual(0);
        // One notice at a time, each within 64 px until opened.
        const notices = await visibleNotices(page);
        expect(notices.length, path).toBeLessThanOrEqual(1);
        for (const height of notices) expect(height, path).toBeLessThanOrEqual(64);
      }

      // The tabs lead where they say; the current one is marked.
      await page.goto(`${baseUrl}/members`);
      await hydrated(page);
      await page.locator(".tab-bar").getByRole("link", { name: nl.nav.messages }).click();
      await page.waitForURL(/\/chats$/);
      // The address changes before the new screen is drawn: wait for the mark to follow.
      await expect.poll(() => page.locator('.tab-bar [aria-current="page"]').textContent()).toContain(nl.nav.messages);
      await page.locator(".tab-bar").getByRole("link", { name: nl.nav.likes }).click();
      await page.waitForURL(/\/likes$/);
      // The swipe game and the match-finder from the likes area.
      await page.getByRole("link", { name: nl.routes["swipe-game"] }).click();
      await page.waitForURL(/\/swipe-game$/);
      // The address changes before the new screen is drawn: wait for the mark to follow.
      await expect.poll(() => page.locator('.tab-bar [aria-current="page"]').textContent()).toContain(nl.nav.likes);
      await page.goBack();
      await page.getByRole("link", { name: nl.routes["match-finder"] }).click();
      await page.waitForURL(/\/match-finder$/);

      // A new, unconfirmed member has notices (the activation reminder at least): one shows, the first profiles still fit.
      await page.goto(`${baseUrl}/members`);
      await hydrated(page);
      await expect.poll(() => visibleNotices(page)).toHaveLength(1);
      const first = await box(page, ".profile-grid .profile-card");
      const tabBar = await box(page, ".tab-bar");
      expect(first!.top).toBeLessThan(viewport.height / 2);
      // The first row's photos are wholly above the tab bar.
      const photo = await box(page, ".profile-grid .profile-card .profile-card__photo");
      expect(photo!.bottom).toBeLessThanOrEqual(tabBar!.top);
      // Side by side: both cards measured in one frame, so a notice changing meanwhile cannot part them.
      const [left, right] = await page
        .locator(".profile-grid .profile-card")
        .evaluateAll((cards) => cards.slice(0, 2).map((card) => card.getBoundingClientRect().top));
      expect(right).toBe(left);

      // The search form is folded into a one-line summary; opened, it is a sheet; searching closes it and the summary says what is on.
      expect(await box(page, ".search-form")).toBeNull();
      const summary = page.getByRole("button", { name: nl.shell.filters });
      expect((await box(page, ".search-panel__summary"))!.height).toBeLessThanOrEqual(48);
      await summary.click();
      const sheet = (await box(page, ".search-form"))!;
      expect(Math.round(sheet.bottom)).toBe(viewport.height);
      await page.getByLabel(nl.search.min_age).fill("30");
      await page.getByLabel(nl.search.max_age).fill("45");
      await page.getByRole("button", { name: nl.search.submit, exact: true }).click();
      await page.waitForURL(/min_age=30&max_age=45/);
      await expect.poll(() => box(page, ".search-form")).toBeNull();
      await expect.poll(() => page.locator(".search-panel__active").textContent()).toContain("30–45");

      // The notices wait their turn: the time bonus (it runs out) before the activation reminder, which is there but not shown.
      expect(await page.locator(".alerts > *").count()).toBeGreaterThanOrEqual(2);
      expect(await page.locator(".alerts > :first-child").getAttribute("class")).toContain("time-bonus-banner");
      const banner = (await box(page, ".time-bonus-banner"))!;
      // One line with its countdown.
      expect(banner.height).toBeLessThanOrEqual(44);
      expect(await page.locator(".time-bonus-banner__time").textContent()).toMatch(/^0[0-3]:\d\d:\d\d$/);
      expect(await box(page, ".alerts .alert")).toBeNull();

      // Outside the members area there is no bonus banner: the activation reminder has its turn, cut to 64 px until tapped open.
      await page.goto(`${baseUrl}/credits`);
      await hydrated(page);
      const reminder = page.locator(".alerts > .alert").first();
      expect(await reminder.textContent()).toContain(nl.alerts.activation.replace("{email}", me.email));
      expect((await box(page, ".alerts > .alert"))!.height).toBeLessThanOrEqual(64);
      await reminder.locator(".alert__text").click();
      expect(await reminder.getAttribute("class")).toContain("is-open");
      expect((await box(page, ".alerts > .alert"))!.height).toBeGreaterThan(64);
      expect(me.profile.id).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  for (const viewport of PHONES) {
    it(`at ${viewport.width}x${viewport.height}: a profile puts the name on its photo and Message and Like above the tab bar`, async () => {
      const { page, context, errors } = await phone(browser(), viewport);
      await member(page, `profile${viewport.width}`, "Noor", "female");
      const other = (await api<{ profiles: { id: number; name: string }[] }>(page, "GET", "/api/search.php")).body
        .profiles[0]!;
      await page.goto(`${baseUrl}/members/${other.id}`);
      await hydrated(page);
      await page.locator(".member__nameplate h1").waitFor();
      expect(await page.locator(".member__nameplate h1").textContent()).toContain(other.name);
      const photo = (await box(page, ".member__main-photo"))!;
      const name = (await box(page, ".member__nameplate h1"))!;
      expect(name.top).toBeGreaterThanOrEqual(photo.top);
      expect(name.bottom).toBeLessThanOrEqual(photo.bottom);
      // Both actions are whole on the first screen, between the photo and the tab bar.
      const bar = (await box(page, ".tab-bar"))!;
      const actions = (await box(page, ".member__actions"))!;
      expect(actions.bottom).toBeLessThanOrEqual(bar.top + 1);
      expect(actions.top).toBeGreaterThan(0);
      for (const label of [nl.profile.message, nl.likes.like]) {
        const button = page.locator(".member__actions").getByText(label, { exact: true });
        const b = (await button.boundingBox())!;
        expect(b.y + b.height).toBeLessThanOrEqual(bar.top + 1);
        expect(await button.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      }
      // Scrolled down the profile, the actions stay above the tab bar, never under it.
      await page.mouse.wheel(0, 300);
      await page.waitForTimeout(200);
      const held = (await box(page, ".member__actions"))!;
      expect(held.bottom).toBeLessThanOrEqual(bar.top + 1);
      await page.screenshot({ path: `.tmp/screenshots/profile-${viewport.width}.png` });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("a chat opened from the Messages list takes the whole screen, the message list at least 60% of it, at 390x844 and 360x740", async () => {
    const a = await phone(browser(), PHONES[0]);
    const b = await phone(browser(), PHONES[0]);
    const anna = await member(a.page, "chat", "Anna", "female");
    const bram = await member(b.page, "chat", "Bram", "male");
    localD1(
      statePath,
      `UPDATE users SET status = 'active' WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${anna.profile.id}, ${bram.profile.id}))`,
    );

    await a.page.goto(`${baseUrl}/members/${bram.profile.id}/chat`);
    await hydrated(a.page);
    const iceBreaker = a.page.locator(".ice-breaker");
    if (await iceBreaker.count()) await iceBreaker.getByRole("button", { name: nl.chat.ice_breaker.own }).click();
    const input = a.page.getByLabel(nl.chat.message_to.replace("{name}", bram.profile.name));
    await input.fill("Hoi Bram, zin in koffie?");
    await input.press("Enter");
    await expect.poll(() => a.page.locator(".message--own").count()).toBe(1);
    // Stored, not only drawn: leaving while it is still on its way could cancel it.
    await expect.poll(() => a.page.locator(".message--own.is-sending").count()).toBe(0);

    for (const viewport of PHONES) {
      await a.page.setViewportSize(viewport);
      await a.page.goto(`${baseUrl}/chats`);
      await hydrated(a.page);
      await a.page.locator(".chat-item__link").first().click();
      await a.page.waitForURL(/\/chats\/\d+$/);
      await expect.poll(() => a.page.locator(".message--own").count()).toBe(1);
      // Nothing of the site's frame above or below: the header at the top, the composer at the bottom.
      expect(await box(a.page, ".top-bar")).toBeNull();
      expect(await box(a.page, ".tab-bar")).toBeNull();
      expect(await box(a.page, ".alerts")).toBeNull();
      const header = (await box(a.page, ".conversation__header"))!;
      expect(Math.round(header.top)).toBe(0);
      const list = (await box(a.page, ".messages"))!;
      expect(list.height).toBeGreaterThanOrEqual(0.6 * viewport.height);
      const composer = (await box(a.page, ".chat-footer"))!;
      expect(Math.round(composer.bottom)).toBe(viewport.height);
      // A full-width composer: the text area takes most of the row, attach, gift and send are icons.
      const area = (await box(a.page, ".chat-footer__input"))!;
      expect(area.width).toBeGreaterThanOrEqual(viewport.width - 4 * 48);
      // It grows with the text to five lines, then scrolls.
      const oneLine = area.height;
      await a.page.locator(".chat-footer__input").fill("een\ntwee\ndrie");
      const threeLines = (await box(a.page, ".chat-footer__input"))!.height;
      expect(threeLines).toBeGreaterThan(oneLine + 30);
      await a.page.locator(".chat-footer__input").fill("1\n2\n3\n4\n5\n6\n7\n8\n9");
      const tall = (await box(a.page, ".chat-footer__input"))!.height;
      expect(tall).toBeGreaterThan(threeLines);
      expect(tall).toBeLessThanOrEqual(5 * 24 + 24);
      await a.page.locator(".chat-footer__input").fill("");
      // At most one compact notice above the composer.
      expect(await a.page.locator(".chat-alerts .alert").count()).toBeLessThanOrEqual(1);
      // Anna is free: the premium notice shows, and its whole text stays inside its box.
      const notice = a.page.locator(".chat-alerts .alert");
      expect(await notice.textContent()).toContain(nl.chat.premium_alert);
      const inside = await notice.evaluate((el) => {
        const outer = el.getBoundingClientRect();
        const text = el.querySelector("p")!.getBoundingClientRect();
        return text.top >= outer.top && text.bottom <= outer.bottom && el.scrollHeight <= el.clientHeight + 1;
      });
      expect(inside).toBe(true);
      expect(await sidewaysScroll(a.page)).toBeLessThanOrEqual(0);
    }

    // The other member's typing shows in full in the header.
    await a.page.setViewportSize(PHONES[1]);
    await b.page.goto(`${baseUrl}/chats`);
    await hydrated(b.page);
    await b.page.locator(".chat-item__link").first().click();
    await b.page.waitForURL(/\/chats\/\d+$/);
    await b.page
      .getByLabel(nl.chat.message_to.replace("{name}", anna.profile.name))
      .pressSequentially("Ja leuk", { delay: 40 });
    const typing = a.page.locator(".conversation__status-line");
    await expect.poll(() => typing.textContent()).toBe(nl.chat.typing.replace("{name}", bram.profile.name));
    expect(
      await typing.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1),
    ).toBe(true);

    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it("a new member's page arrives with the time bonus as its notice: nothing moves when the app takes over", async () => {
    const { page, context, errors } = await phone(browser(), PHONES[0]);
    await member(page, "bonus", "Bo", "female");
    // The page as the Worker sends it: the bonus banner comes first among the notices, with its countdown.
    const html = await page.evaluate(() => fetch("/members").then((r) => r.text()));
    expect(html).toMatch(/<div class="alerts"><a [^>]*class="time-bonus-banner"/);
    expect(html).toMatch(/class="time-bonus-banner__time">0[0-4]:\d\d:\d\d</);

    // Where the first profile stands before any script runs, and once the app has hydrated and fetched.
    const still = await browser().newContext({
      ...PHONE,
      viewport: PHONES[0],
      storageState: await context.storageState(),
      javaScriptEnabled: false,
    });
    const bare = await still.newPage();
    await bare.goto(`${baseUrl}/members`);
    const before = await box(bare, ".profile-grid .profile-card");
    const bannerBefore = await box(bare, ".time-bonus-banner");
    await still.close();
    await page.goto(`${baseUrl}/members`);
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    expect(await box(page, ".time-bonus-banner")).toEqual(bannerBefore);
    expect((await box(page, ".profile-grid .profile-card"))!.top).toBe(before!.top);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the likes tabs fit at 360 px and carry their counts: new likes on Received, the sent likes and the matches", async () => {
    const a = await phone(browser(), PHONES[1]);
    const b = await phone(browser(), PHONES[1]);
    const lotte = await member(a.page, "likes", "Lotte", "female");
    const pim = await member(b.page, "likes", "Pim", "male");
    expect((await api(b.page, "POST", "/api/like.php", { profile: { id: lotte.profile.id } })).status).toBe(200);

    await a.page.goto(`${baseUrl}/likes`);
    await hydrated(a.page);
    const tabs = a.page.locator(".tabs__tab");
    expect(await tabs.count()).toBe(3);
    for (let i = 0; i < 3; i++) {
      const tab = await tabs.nth(i).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, clipped: el.scrollWidth > el.clientWidth };
      });
      expect(tab.left).toBeGreaterThanOrEqual(0);
      expect(tab.right).toBeLessThanOrEqual(360);
      expect(tab.clipped).toBe(false);
    }
    await expect.poll(() => tabs.first().locator(".badge").textContent()).toBe("1");
    // Nothing sent, no match yet: those tabs carry no count.
    expect(await tabs.nth(1).textContent()).toBe(nl.likes.tabs.sent);
    expect(await tabs.nth(2).textContent()).toBe(nl.likes.tabs.matches);
    // Liking Pim back from the Received tab: one sent, one match, counted on their tabs at once.
    await a.page.locator(".like-card").getByRole("button", { name: nl.likes.like_back }).click();
    // The match moment comes first; Escape leaves it on the Likes page.
    const moment = a.page.getByRole("dialog", { name: nl.likes.match });
    await expect.poll(() => moment.count(), { timeout: 10_000 }).toBe(1);
    await a.page.keyboard.press("Escape");
    await expect.poll(() => moment.count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => tabs.nth(2).textContent()).toBe(`${nl.likes.tabs.matches}1`);
    expect(await tabs.nth(1).textContent()).toBe(`${nl.likes.tabs.sent}1`);
    await tabs.nth(2).click();
    await a.page.waitForURL(/\/likes\/matches$/);
    await expect.poll(() => a.page.locator(".like-card").count()).toBe(1);
    expect(await tabs.nth(2).textContent()).toBe(`${nl.likes.tabs.matches}1`);
    await a.page.screenshot({ path: ".tmp/screenshots/likes-matches-360.png" });
    // Pim has no photo: his initials stand in the middle of the card's frame, not in a corner under the "new" mark.
    const frame = (await a.page.locator(".like-card .initials-portrait").boundingBox())!;
    const letters = (await a.page.locator(".like-card .initials-portrait__letters").boundingBox())!;
    expect(Math.abs(letters.x + letters.width / 2 - (frame.x + frame.width / 2))).toBeLessThan(2);
    expect(Math.abs(letters.y + letters.height / 2 - (frame.y + frame.height / 2))).toBeLessThan(2);
    for (let i = 0; i < 3; i++) {
      const tabBox = (await tabs.nth(i).boundingBox())!;
      expect(tabBox.x + tabBox.width).toBeLessThanOrEqual(360);
    }
    expect(await sidewaysScroll(a.page)).toBeLessThanOrEqual(0);
    // Pim's profile says they match, with one button for the message action right under it, leading to their chat.
    await a.page.goto(`${baseUrl}/members/${pim.profile.id}`);
    await hydrated(a.page);
    const notice = a.page.locator(".notice--match");
    await expect.poll(() => notice.count()).toBe(1);
    const message = a.page.getByRole("link", { name: nl.profile.message, exact: true });
    expect(await message.count()).toBe(1);
    const [noticeBox, messageBox] = [(await notice.boundingBox())!, (await message.boundingBox())!];
    expect(messageBox.y - (noticeBox.y + noticeBox.height)).toBeLessThan(40);
    await notice.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await a.page.screenshot({ path: ".tmp/screenshots/profile-match-360.png" });
    await message.click();
    await a.page.waitForURL(new RegExp(`/members/${pim.profile.id}/chat$`));
    expect(a.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it("no route of the specification scrolls sideways at 360 px, for a member and for a visitor", async () => {
    const { page, context, errors } = await phone(browser(), PHONES[1]);
    await member(page, "wide", "Femke", "female");
    const other = (await api<{ profiles: { id: number }[] }>(page, "GET", "/api/search.php")).body.profiles[0]!.id;
    const paths = [
      "/",
      "/members",
      `/members/${other}`,
      `/likes/m/${other}`,
      `/members/${other}/chat`,
      `/members/${other}/landing`,
      `/members/${other}/signup`,
      `/members/${other}/landing2`,
      `/members/${other}/landing3`,
      "/likes",
      "/likes/received",
      "/likes/sent",
      "/likes/matches",
      "/chats",
      "/complaints",
      "/complete-signup",
      "/signup",
      "/signup-matches",
      "/login",
      "/reset-password",
      "/reset-password/do",
      "/account-deleted",
      "/activate/done",
      "/activate/error",
      "/mail-change/do",
      "/credits",
      "/credits/repeat-order",
      "/credits/1",
      "/directdebit",
      "/transactions",
      "/premium",
      "/pricing",
      "/profile",
      "/notifications",
      "/lang-config",
      "/match-finder",
      "/swipe-game",
      "/landers/tinderswipe",
      ...LANDERS.map((lander) => `/landers/${lander}`),
      ...LEGAL_PAGES.map((name) => `/pages/${name}`),
      `/${LEGAL_PAGES[0]}`,
      "/no-such-page",
    ];
    const wide: string[] = [];
    const check = async (who: string, on: typeof page) => {
      for (const path of paths) {
        await on.goto(`${baseUrl}${path}`);
        await hydrated(on);
        if ((await sidewaysScroll(on)) > 0) wide.push(`${who} ${path}`);
      }
    };
    // The member and a visitor (a context of its own, without cookies) side by side.
    const visitor = await phone(browser(), PHONES[1]);
    await Promise.all([check("member", page), check("visitor", visitor.page)]);
    expect(wide).toEqual([]);
    // Pages that answer 404 or send a visitor elsewhere say so in the network log, not as errors of the page.
    expect([...errors, ...visitor.errors].filter((e) => !/^(401|403|404) /.test(e))).toEqual([]);
    await Promise.all([context.close(), visitor.context.close()]);
  }, 300_000);
});

// Issue 23: the tab bar and the folded search are for phones; from 992 px the top navigation stays as it was.
describe("a member on a desktop", () => {
  for (const viewport of [
    { width: 992, height: 768 },
    { width: 1280, height: 800 },
  ]) {
    it(`at ${viewport.width}x${viewport.height}: the top navigation in one row, no tab bar, the search form open, every notice shown`, async () => {
      const context = await browser().newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await member(page, `desk${viewport.width}`, "Sanne", "female");

      for (const path of ["/members", "/likes", "/chats", "/profile"]) {
        await page.goto(`${baseUrl}${path}`);
        await hydrated(page);
        expect(await box(page, ".tab-bar"), path).toBeNull();
        const links = page.locator(".top-bar__links");
        expect(await links.isVisible(), path).toBe(true);
        // Search, messages and likes side by side in the one row of the top bar, with the premium button and the account.
        const row = await links
          .locator("a")
          .evaluateAll((anchors) => anchors.map((a) => Math.round(a.getBoundingClientRect().top)));
        expect(row, path).toHaveLength(3);
        expect(new Set(row).size, path).toBe(1);
        expect((await box(page, ".top-bar__inner"))!.height, path).toBeLessThanOrEqual(72);
        expect(await page.locator(".top-bar__premium").isVisible(), path).toBe(true);
        expect(await page.locator(".account-menu__name").isVisible(), path).toBe(true);
        expect(await sidewaysScroll(page), path).toBeLessThanOrEqual(0);
      }

      // The links lead where they say.
      await page.goto(`${baseUrl}/members`);
      await hydrated(page);
      await page.locator(".top-bar__links").getByRole("link", { name: nl.nav.messages }).click();
      await page.waitForURL(/\/chats$/);
      await page.locator(".top-bar__links").getByRole("link", { name: nl.nav.likes }).click();
      await page.waitForURL(/\/likes$/);
      await page.locator(".top-bar__links").getByRole("link", { name: nl.nav.search_members }).click();
      await page.waitForURL(/\/members$/);
      await hydrated(page);

      // The search form is open in the page, with no folded summary; a new member's notices all show, none cut short.
      expect(await box(page, ".search-form")).not.toBeNull();
      expect(await box(page, ".search-panel__summary")).toBeNull();
      await expect.poll(async () => (await visibleNotices(page)).length).toBeGreaterThanOrEqual(2);
      await page.screenshot({ path: `.tmp/screenshots/members-desktop-${viewport.width}.png` });
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
