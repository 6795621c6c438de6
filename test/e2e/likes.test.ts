import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import { enterSite as enterShared, hydrated, phone, sharedBrowser } from "./browser";
import { signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();

const enterSite = (page: Page) => enterShared(page, nl.entry_warning.enter);
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));

const signUp = (page: Page, name: string, gender: "male" | "female") =>
  signUpByApi(page, baseUrl, "likes", name, gender);

describe("likes on the Dutch site", () => {
  it("A likes B; B sees the badge and title count, the new-like popup, likes back from the received tab, and both see the match", async () => {
    const a = await phone(browser());
    const b = await phone(browser());
    const anna = await signUp(a.page, "anna", "female");
    const bram = await signUp(b.page, "bram", "male");
    localD1(
      statePath,
      `UPDATE users SET status = 'active' WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${anna.profile.id}, ${bram.profile.id}))`,
    );

    // Anna likes Bram from his profile.
    await a.page.goto(`${baseUrl}/members/${bram.profile.id}`);
    await enterSite(a.page);
    await hydrated(a.page);
    await a.page.locator(".member__actions").getByRole("button", { name: nl.likes.like, exact: true }).click();
    await expect
      .poll(() => a.page.locator(".member__actions").getByRole("button", { name: nl.likes.unlike }).count())
      .toBe(1);

    // Bram, on the next page he opens, has one new like: the Likes badge and the title say so.
    await b.page.clock.install();
    await b.page.goto(`${baseUrl}/members?t=2`);
    await enterSite(b.page);
    const likesLink = b.page.locator(".top-bar").getByRole("link", { name: nl.nav.likes });
    await expect.poll(() => likesLink.locator(".badge--likes").textContent()).toBe("1");
    await expect.poll(() => b.page.title()).toMatch(/^\(1\) /);

    // The new-like popup comes after two seconds (t=2) with Anna's photo, and the URL loses t.
    const popup = b.page.locator(".like-popup");
    await b.page.clock.runFor(1500);
    expect(await popup.count()).toBe(0);
    expect(new URL(b.page.url()).searchParams.get("t")).toBe("2");
    await b.page.clock.runFor(1000);
    await expect.poll(() => popup.count()).toBe(1);
    expect(await popup.textContent()).toContain(fill(nl.likes.popup.title, { name: anna.profile.name }));
    await expect.poll(() => new URL(b.page.url()).searchParams.has("t")).toBe(false);
    // Its button opens Anna's profile, which clears the new mark: the badge and the title count go.
    await popup.getByRole("button", { name: nl.likes.popup.action }).click();
    await b.page.waitForURL(new RegExp(`/members/${anna.profile.id}$`));
    await b.page.clock.runFor(600);
    await b.page.clock.resume();
    await expect.poll(() => likesLink.locator(".badge--likes").count()).toBe(0);
    await expect.poll(() => b.page.title()).not.toMatch(/^\(/);

    // The received tab lists Anna; Bram likes her back there.
    await likesLink.click();
    await b.page.waitForURL(/\/likes$/);
    const card = b.page.locator(".like-card").filter({ hasText: anna.profile.name });
    await card.getByRole("button", { name: nl.likes.like_back }).click();
    // The match moment opens on both pages (test/e2e/phone-app.test.ts); Bram leaves it with Escape.
    const moment = b.page.getByRole("dialog", { name: nl.likes.match });
    await expect.poll(() => moment.count()).toBe(1);
    await b.page.keyboard.press("Escape");
    await expect.poll(() => moment.count()).toBe(0);
    await expect.poll(() => card.getByRole("link", { name: nl.likes.message }).count()).toBe(1);

    // Both see the match, offered as the start of their chat.
    await b.page.getByRole("link", { name: nl.likes.tabs.matches }).click();
    await b.page.waitForURL(/\/likes\/matches$/);
    await expect.poll(() => b.page.locator(".like-card").filter({ hasText: anna.profile.name }).count()).toBe(1);
    await a.page.goto(`${baseUrl}/likes/matches`);
    const annaSees = a.page.locator(".like-card").filter({ hasText: bram.profile.name });
    await expect.poll(() => annaSees.count()).toBe(1);
    expect(await annaSees.getByRole("link", { name: nl.likes.message }).getAttribute("href")).toBe(
      `/members/${bram.profile.id}/chat`,
    );

    // The swipe game: Anna passes with the left arrow key and likes with the right one; the day's count goes down.
    await a.page.goto(`${baseUrl}/swipe-game`);
    await hydrated(a.page);
    const left = a.page.locator(".swipe__left");
    await expect.poll(() => left.textContent()).toBe(fill(nl.swipe.left_other, { count: 4 }));
    const shown = () => a.page.locator(".swipe__card").getAttribute("data-profile");
    const first = await shown();
    await a.page.keyboard.press("ArrowLeft");
    await expect.poll(shown).not.toBe(first);
    // The next card takes keys once the pass is done (its buttons are enabled again).
    await expect.poll(() => a.page.locator(".swipe__button--like").isEnabled()).toBe(true);
    await a.page.keyboard.press("ArrowRight");
    await expect.poll(() => left.textContent()).toBe(fill(nl.swipe.left_other, { count: 3 }));

    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});
