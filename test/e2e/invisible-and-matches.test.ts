/**
 * Issue 37 points 7 and 8 on a phone (docs/decisions/0051): search cards say "Liked" and "Matched"
 * instead of offering a like again; the profile of an invisible member offers no Message or Like and
 * says why. Screenshots at 390x844 go to /tmp/shots/d/ when SHOTS_DIR is not set otherwise.
 */
import { mkdirSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import { enterSite as enterShared, hydrated, phone, sharedBrowser } from "./browser";
import { signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();
const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots/d";

const enterSite = (page: Page) => enterShared(page, nl.entry_warning.enter);
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));

describe("liked, matched and invisible members on the Dutch site", () => {
  it("search cards show Liked and Matched, a matched profile says so, an invisible profile offers no Message or Like", async () => {
    mkdirSync(SHOTS, { recursive: true });
    const { page, errors } = await phone(browser(), { width: 390, height: 844 });
    const bram = await signUpByApi(page, baseUrl, "invis", "bram", "male");
    const carl = await signUpByApi(page, baseUrl, "invis", "carl", "male");
    const daan = await signUpByApi(page, baseUrl, "invis", "daan", "male");
    const anna = await signUpByApi(page, baseUrl, "invis", "anna", "female");
    const ids = [bram, carl, daan, anna].map((u) => u.profile.id).join(", ");
    // All 80 (no seeded member is), active; Anna likes Daan, Anna and Carl match, Bram is invisible.
    localD1(statePath, `UPDATE profiles SET birth_date = '1946-01-01' WHERE id IN (${ids})`);
    localD1(
      statePath,
      `UPDATE users SET status = 'active' WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${ids}))`,
    );
    localD1(
      statePath,
      `UPDATE users SET invisible = 1 WHERE id = (SELECT user_id FROM profiles WHERE id = ${bram.profile.id})`,
    );
    localD1(statePath, `UPDATE profiles SET searchable = 0 WHERE id = ${bram.profile.id}`);
    const now = Math.floor(Date.now() / 1000);
    localD1(
      statePath,
      `INSERT INTO likes (liker_id, liked_id, is_new, created_at, matched_at) VALUES
        (${anna.profile.id}, ${daan.profile.id}, 1, ${now}, NULL),
        (${anna.profile.id}, ${carl.profile.id}, 1, ${now}, ${now}),
        (${carl.profile.id}, ${anna.profile.id}, 0, ${now}, ${now})`,
    );

    await page.goto(`${baseUrl}/members?gender=any&min_age=80&max_age=80`);
    await enterSite(page);
    await hydrated(page);
    const card = (id: number) => page.locator(`.profile-card[data-profile="${id}"]`);
    await expect.poll(() => card(carl.profile.id).textContent()).toContain(nl.likes.matched);
    expect(await card(daan.profile.id).textContent()).toContain(nl.likes.liked);
    expect(await card(carl.profile.id).getByRole("button", { name: nl.likes.like }).count()).toBe(0);
    expect(await card(daan.profile.id).getByRole("button", { name: nl.likes.like }).count()).toBe(0);
    expect(await card(bram.profile.id).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/search-liked-matched.png` });

    await page.goto(`${baseUrl}/members/${carl.profile.id}`);
    await hydrated(page);
    const actions = page.locator(".member__actions");
    await expect.poll(() => actions.textContent()).toContain(nl.likes.matched);
    expect(await actions.getByRole("button", { name: nl.likes.like, exact: true }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/profile-matched.png` });

    await page.goto(`${baseUrl}/members/${bram.profile.id}`);
    await hydrated(page);
    await expect
      .poll(() => actions.textContent())
      .toContain(fill(nl.profile.invisible_closed, { name: bram.profile.name }));
    expect(await actions.getByRole("link", { name: nl.profile.message }).count()).toBe(0);
    expect(await actions.getByRole("button", { name: nl.likes.like, exact: true }).count()).toBe(0);
    expect(await actions.getByRole("button", { name: nl.profile.gift }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/profile-invisible.png` });

    await page.goto(`${baseUrl}/notifications`);
    await hydrated(page);
    const text = page.getByText(nl.settings.invisible.text);
    await expect.poll(() => text.count()).toBe(1);
    await text.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/settings-invisible.png` });
    expect(errors).toEqual([]);
  });
});
