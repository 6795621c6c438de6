import { describe, expect, inject, it } from "vitest";
import type { CDPSession, Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import { enterSite as enterShared, hydrated, phone, sharedBrowser } from "./browser";
import { formatMoney } from "../../src/shared/payments";
import type { PricesResponse } from "../../src/shared/payments-api";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

// Issue 23 on a phone: the match moment both members see live, and the swipe game by touch and on screen.
const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();

const enterSite = (page: Page) => enterShared(page, nl.entry_warning.enter);
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
const signUp = (page: Page, name: string, gender: "male" | "female") =>
  signUpByApi(page, baseUrl, "phone", name, gender);
const activate = (...profileIds: number[]) =>
  localD1(
    statePath,
    `UPDATE users SET status = 'active' WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${profileIds.join(",")}))`,
  );

const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
];

/** A finger on the screen: CDP touch events, as a phone's touchscreen sends them. */
async function touchDrag(cdp: CDPSession, from: { x: number; y: number }, dx: number, during?: () => Promise<void>) {
  const at = (x: number) => [{ x: Math.round(x), y: Math.round(from.y), id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(from.x) });
  const steps = 8;
  for (let i = 1; i <= steps; i++)
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(from.x + (dx * i) / steps) });
  await during?.();
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

describe("the match moment", () => {
  it("shows live on the pages both members have open, with both faces, and leads to their chat or away", async () => {
    const a = await phone(browser(), PHONES[0]);
    const b = await phone(browser(), PHONES[0]);
    const anna = await signUp(a.page, "anna", "female");
    const bram = await signUp(b.page, "bram", "male");
    activate(anna.profile.id, bram.profile.id);
    // Bram takes over an approved demo photo as his main photo, so one face is a photo and the other initials.
    const [[photo]] = localD1(statePath, "SELECT id FROM photos WHERE status = 'active' ORDER BY id LIMIT 1") as [
      [{ id: number }],
    ];
    localD1(
      statePath,
      `UPDATE photos SET profile_id = ${bram.profile.id} WHERE id = ${photo.id}; UPDATE profiles SET main_photo_id = ${photo.id} WHERE id = ${bram.profile.id}`,
    );

    // Anna likes Bram from his profile, then goes on to the search.
    await a.page.goto(`${baseUrl}/members/${bram.profile.id}`);
    await enterSite(a.page);
    await hydrated(a.page);
    await a.page.locator(".member__actions").getByRole("button", { name: nl.likes.like, exact: true }).click();
    await expect
      .poll(() => a.page.locator(".member__actions").getByRole("button", { name: nl.likes.unlike }).count(), {
        timeout: 10_000,
      })
      .toBe(1);
    await a.page.goto(`${baseUrl}/members`);
    await hydrated(a.page);

    // Bram, on Anna's profile, likes her back: a match.
    await b.page.goto(`${baseUrl}/members/${anna.profile.id}`);
    await enterSite(b.page);
    await hydrated(b.page);
    await b.page.locator(".member__actions").getByRole("button", { name: nl.likes.like_back }).click();

    // Both see the moment at once, each on the page they have open.
    const annaSees = a.page.getByRole("dialog", { name: nl.likes.match });
    const bramSees = b.page.getByRole("dialog", { name: nl.likes.match });
    await expect.poll(() => annaSees.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => bramSees.count(), { timeout: 10_000 }).toBe(1);
    expect(new URL(a.page.url()).pathname).toBe("/members");
    expect(await annaSees.textContent()).toContain(fill(nl.likes.match_notice, { name: bram.profile.name }));
    expect(await bramSees.textContent()).toContain(fill(nl.likes.match_notice, { name: anna.profile.name }));
    // Both faces: Bram's photo, Anna's initials (she has no photo).
    const bramsPhoto = annaSees.getByRole("img", { name: bram.profile.name, exact: true });
    await expect
      .poll(() => bramsPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(
      await annaSees.getByRole("img", { name: fill(nl.phone_app.no_photo_of, { name: anna.profile.name }) }).count(),
    ).toBe(1);
    expect(
      await bramSees.getByRole("img", { name: fill(nl.phone_app.no_photo_of, { name: anna.profile.name }) }).count(),
    ).toBe(1);
    expect(await bramSees.getByRole("img", { name: bram.profile.name, exact: true }).count()).toBe(1);
    // Full screen, a modal dialog with focus inside on "Send a message".
    const box = (await annaSees.boundingBox())!;
    expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, PHONES[0]!.width, PHONES[0]!.height]);
    expect(await a.page.evaluate(() => document.activeElement?.textContent)).toBe(nl.likes.message);
    expect(await annaSees.getByRole("button", { name: nl.phone_app.keep_swiping }).count()).toBe(1);

    // Escape leaves it on Bram's side; his page is as it was.
    await b.page.keyboard.press("Escape");
    await expect.poll(() => bramSees.count(), { timeout: 10_000 }).toBe(0);
    expect(new URL(b.page.url()).pathname).toBe(`/members/${anna.profile.id}`);

    // "Send a message" takes Anna to their chat; "Keep swiping" would take her to the swipe game.
    await annaSees.getByRole("link", { name: nl.likes.message }).click();
    await a.page.waitForURL(new RegExp(`/members/${bram.profile.id}/chat$`), { timeout: 10_000 });
    expect(await annaSees.count()).toBe(0);

    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});

describe("the swipe game on a phone", () => {
  it("keeps the card and both buttons inside 390x844 and 360x740", async () => {
    for (const viewport of PHONES) {
      const m = await phone(browser(), viewport);
      const me = await signUp(m.page, `fit${viewport.width}`, "male");
      activate(me.profile.id);
      await m.page.goto(`${baseUrl}/swipe-game`);
      await enterSite(m.page);
      await hydrated(m.page);
      await m.page.locator(".swipe__card").waitFor();
      for (const target of [
        m.page.locator(".swipe__photo"),
        m.page.getByRole("button", { name: nl.swipe.pass }),
        m.page.getByRole("button", { name: nl.swipe.like }),
      ]) {
        const box = (await target.boundingBox())!;
        expect(box.y, `${viewport.width}x${viewport.height}`).toBeGreaterThanOrEqual(0);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        expect(
          box.y + box.height,
          `${viewport.width}x${viewport.height}: bottom of ${await target.getAttribute("class")}`,
        ).toBeLessThanOrEqual(viewport.height);
      }
      // The photo stays a real part of the screen (at least its 13rem floor), even under the notices above it.
      expect((await m.page.locator(".swipe__photo").boundingBox())!.height).toBeGreaterThanOrEqual(208);
      // A tab bar fixed to the bottom of the screen, with the notices above put away as a member would
      // (the layout shows one at a time): the buttons move up above the bar.
      await m.page.evaluate(() => {
        for (const key of ["hide-enrich-alert", "hide-push-notification-alert"])
          localStorage.setItem(key, String(Date.now()));
      });
      await m.page.reload();
      await hydrated(m.page);
      await m.page.locator(".swipe__card").waitFor();
      await m.page.evaluate(() => {
        const bar = document.createElement("nav");
        bar.style.cssText = "position: fixed; left: 0; right: 0; bottom: 0; height: 64px; background: #333; z-index: 5";
        document.body.appendChild(bar);
        window.dispatchEvent(new Event("resize"));
      });
      for (const name of [nl.swipe.pass, nl.swipe.like]) {
        await expect
          .poll(async () => {
            const b = (await m.page.getByRole("button", { name }).boundingBox())!;
            return b.y + b.height;
          })
          .toBeLessThanOrEqual(viewport.height - 64);
      }
      expect(m.errors).toEqual([]);
      await m.context.close();
    }
  });

  it("likes with a swipe to the right and passes with one to the left, the card following the finger", async () => {
    const m = await phone(browser(), PHONES[1]);
    const me = await signUp(m.page, "toucher", "female");
    activate(me.profile.id);
    await m.page.goto(`${baseUrl}/swipe-game`);
    await enterSite(m.page);
    await hydrated(m.page);
    const cdp = await m.context.newCDPSession(m.page);
    const left = m.page.locator(".swipe__left");
    await expect.poll(() => left.textContent(), { timeout: 10_000 }).toBe(fill(nl.swipe.left_other, { count: 4 }));
    const shown = () => m.page.locator(".swipe__card").getAttribute("data-profile");
    const deck = m.page.locator(".swipe__deck");
    const centre = async () => {
      const box = (await deck.boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };

    // A swipe to the right: mid-drag the card has moved with the finger and says Like; then it is liked.
    const liked = Number(await shown());
    let midDrag = "";
    let stamp = "";
    await touchDrag(cdp, await centre(), 140, async () => {
      midDrag = await deck.evaluate((el) => getComputedStyle(el).transform);
      stamp = await m.page.locator(".swipe__stamp--like").evaluate((el) => getComputedStyle(el).opacity);
    });
    expect(midDrag).toMatch(/^matrix\(/);
    // The stamp fades in with the drag (a short transition): well past half-way it is all but opaque.
    expect(Number(stamp)).toBeGreaterThan(0.9);
    await expect.poll(() => left.textContent(), { timeout: 10_000 }).toBe(fill(nl.swipe.left_other, { count: 3 }));
    await expect.poll(shown, { timeout: 10_000 }).not.toBe(String(liked));
    expect(new URL(m.page.url()).pathname).toBe("/swipe-game");
    const likes = localD1(statePath, `SELECT liked_id FROM likes WHERE liker_id = ${me.profile.id}`)[0]!;
    expect(likes.map((r) => r.liked_id)).toEqual([liked]);

    // A swipe to the left passes: the next card comes, no like is spent, the pass is stored for today.
    // (The card takes a swipe once the like is done: its buttons are enabled again.)
    await expect.poll(() => m.page.locator(".swipe__button--pass").isEnabled(), { timeout: 10_000 }).toBe(true);
    const passed = Number(await shown());
    await touchDrag(cdp, await centre(), -140);
    await expect.poll(shown, { timeout: 10_000 }).not.toBe(String(passed));
    expect(await left.textContent()).toBe(fill(nl.swipe.left_other, { count: 3 }));
    const passes = localD1(statePath, `SELECT passed_id FROM swipe_passes WHERE profile_id = ${me.profile.id}`)[0]!;
    expect(passes.map((r) => r.passed_id)).toEqual([passed]);

    // A short drag is neither: the card springs back and stays.
    const stays = await shown();
    await touchDrag(cdp, await centre(), 30);
    await expect.poll(() => deck.evaluate((el) => getComputedStyle(el).transform)).toBe("none");
    expect(await shown()).toBe(stays);
    expect(await left.textContent()).toBe(fill(nl.swipe.left_other, { count: 3 }));
    // Cards come photo first: the demo has plenty with a photo, so each card shown has one.
    expect(await m.page.locator(".swipe__photo > img").count()).toBe(1);

    expect(m.errors).toEqual([]);
    await m.context.close();
  });
});

describe("payment screens and the signup on a phone", () => {
  it("show each method's marks and the server's order summary, keep the most chosen bundle's label on one line, and name the site at signup", async () => {
    const m = await phone(browser(), PHONES[1]);
    await signUp(m.page, "payer", "female");
    await m.page.goto(`${baseUrl}/credits`);
    await enterSite(m.page);
    await hydrated(m.page);
    const mark = m.page.locator(".bundle__mark");
    await mark.waitFor();
    const lineHeight = await mark.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await mark.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);

    // The methods of the Dutch site, each with its mark, and the order summary of the server's price.
    await m.page.goto(`${baseUrl}/credits/2`);
    await hydrated(m.page);
    const ideal = m.page.getByRole("link", { name: nl.payments.methods.ideal, exact: true });
    await ideal.waitFor();
    expect(await ideal.locator(".payment-mark svg").count()).toBe(1);
    expect(
      await m.page.getByRole("link", { name: nl.payments.methods.creditcard }).locator(".payment-mark svg").count(),
    ).toBe(2);
    expect(
      await m.page.getByRole("link", { name: nl.payments.methods.paypal }).locator(".payment-mark svg").count(),
    ).toBe(1);
    // Marks render with their own clip paths: no id is used twice on the page.
    const ids = await m.page.evaluate(() => [...document.querySelectorAll("svg [id]")].map((el) => el.id));
    expect(new Set(ids).size).toBe(ids.length);
    const { body } = await api<PricesResponse>(m.page, "GET", "/api/prices.php?bundle_id=2");
    const price = body.prices[0]!;
    const lines = await m.page
      .locator(".order-summary")
      .evaluate((dl) =>
        [...dl.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
      );
    const money = (cents: number) => formatMoney(cents, price.currency, "nl");
    expect(lines).toEqual([
      [nl.payments.bundle, fill(nl.payments.credits_count_other, { count: price.credits })],
      [nl.payments.price, money(price.price)],
      [nl.payments.discount, price.discount ? `${money(-price.discount)} (${price.discount_code})` : money(0)],
      [fill(nl.payments.vat, { rate: price.vat_rate }), money(price.vat)],
      [nl.payments.total, money(price.amount)],
    ]);

    // The signup names the site with its logo, inside the first screen.
    const visitor = await phone(browser(), PHONES[1]);
    await visitor.page.goto(`${baseUrl}/signup`);
    await enterSite(visitor.page);
    const brand = visitor.page.locator(".signup .site-brand");
    expect(await brand.textContent()).toBe("Flirtwave Nederland");
    expect(await brand.locator("img").count()).toBe(1);
    const box = (await brand.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(PHONES[1]!.height);

    expect(m.errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
    await m.context.close();
    await visitor.context.close();
  });
});
