import { describe, expect, inject, it } from "vitest";
import type { Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import type { ProfileResponse, SearchResponse } from "../../src/shared/api";
import { phone, sharedBrowser } from "./browser";
import { signUpByForm } from "./dutch-site";

const baseUrl = inject("baseUrl");
const browser = sharedBrowser();

/** A small real JPEG, drawn on a canvas in the page (a different colour each time). */
async function jpegFile(page: Page, colour: string): Promise<Buffer> {
  const dataUrl = await page.evaluate((fill) => {
    const canvas = document.createElement("canvas");
    canvas.width = 120;
    canvas.height = 150;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = fill;
    ctx.fillRect(0, 0, 120, 150);
    ctx.fillStyle = "#fff";
    ctx.fillRect(30, 40, 60, 70);
    return canvas.toDataURL("image/jpeg", 0.9);
  }, colour);
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
}

describe("my profile on the Dutch site", () => {
  it("edits a field, uploads photos, chooses the main one, deletes one and fills the location from geolocation", async () => {
    const { context, page, errors } = await phone(browser());
    await context.grantPermissions(["geolocation"], { origin: baseUrl });
    await context.setGeolocation({ latitude: 52.3731, longitude: 4.8922 });
    await signUpByForm(page, baseUrl, "profile");

    await page.goto(`${baseUrl}/profile`);
    const location = page.locator("section#location");
    await expect.poll(() => location.count()).toBe(1);

    // Edit a field and save.
    const city = location.getByLabel(nl.profile.city, { exact: true });
    await city.fill("Teststad");
    await location.getByRole("button", { name: nl.profile_edit.save }).click();
    await expect.poll(() => location.locator(".profile-edit__saved").textContent()).toContain(nl.profile_edit.saved);

    // Upload two photos: both listed, waiting for approval; the first one is the main photo.
    const photos = page.locator("section#photos");
    await expect.poll(() => photos.getByText(nl.profile_edit.photos.none).count()).toBe(1);
    expect(await photos.locator(".photo-upload__count").textContent()).toBe(
      nl.profile_edit.photos.count_other.replace("{n}", "0").replace("{count}", "3"),
    );
    const input = photos.locator('input[type="file"]');
    expect(await input.getAttribute("accept")).toBe("image/jpeg,image/png,image/webp");
    await input.setInputFiles({ name: "een.jpg", mimeType: "image/jpeg", buffer: await jpegFile(page, "#c33") });
    const items = photos.locator(".own-photo");
    await expect.poll(() => items.count()).toBe(1);
    await input.setInputFiles({ name: "twee.jpg", mimeType: "image/jpeg", buffer: await jpegFile(page, "#36c") });
    await expect.poll(() => items.count()).toBe(2);
    for (let i = 0; i < 2; i++)
      expect(await items.nth(i).locator(".own-photo__status").textContent()).toBe(
        nl.profile_edit.photos.status_pending,
      );
    expect(await photos.locator(".photo-upload__count").textContent()).toBe(
      nl.profile_edit.photos.count_other.replace("{n}", "2").replace("{count}", "3"),
    );
    await expect.poll(() => items.nth(0).getAttribute("class")).toContain("is-main");

    // Buttons are big enough to tap on a phone.
    const makeMain = items.nth(1).getByRole("button", { name: nl.profile_edit.photos.make_main });
    const box = await makeMain.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    const uploadBox = await photos.locator(".photo-upload__button").boundingBox();
    expect(uploadBox!.height).toBeGreaterThanOrEqual(44);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // Make the second one the main photo.
    const secondId = await items.nth(1).getAttribute("data-photo-id");
    await makeMain.click();
    await expect.poll(() => items.nth(1).getAttribute("class")).toContain("is-main");
    expect(await items.nth(0).getAttribute("class")).not.toContain("is-main");
    expect(await items.nth(1).getByText(nl.profile_edit.photos.main).count()).toBe(1);
    expect(await items.nth(0).getByRole("button", { name: nl.profile_edit.photos.make_main }).count()).toBe(1);

    // Delete the first one, after confirming.
    await items.nth(0).getByRole("button", { name: nl.profile_edit.photos.delete, exact: true }).click();
    expect(await items.nth(0).getByText(nl.profile_edit.photos.delete_confirm).count()).toBeGreaterThan(0);
    await items.nth(0).getByRole("button", { name: nl.profile_edit.photos.delete_yes }).click();
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.nth(0).getAttribute("data-photo-id")).toBe(secondId);
    expect(await items.nth(0).getAttribute("class")).toContain("is-main");
    const own = await page.evaluate(() =>
      fetch("/api/photos.php", { headers: { "X-Request-Type": "client" } }).then((r) => r.json()),
    );
    expect((own as { photos: { id: number }[] }).photos.map((p) => String(p.id))).toEqual([secondId]);

    // Geolocation fills the city and the region.
    await location.getByRole("button", { name: nl.profile_edit.location.geolocate }).click();
    await expect.poll(() => city.inputValue()).toBe("Amsterdam");
    const region = location.locator('select[name="region"]');
    expect(await region.locator("option:checked").textContent()).toBe("Noord-Holland");
    const stored = await page.evaluate(() => sessionStorage.getItem("geocode"));
    expect(JSON.parse(stored!)).toMatchObject({ city: "Amsterdam", country: "NL" });
    await location.getByRole("button", { name: nl.profile_edit.save }).click();
    await expect.poll(() => location.locator(".profile-edit__saved").textContent()).toContain(nl.profile_edit.saved);

    // As a free member, a demo profile's extra photos are blurred and locked.
    const target = await page.evaluate(async () => {
      const headers = { "X-Request-Type": "client" };
      const search = (await (await fetch("/api/search.php", { headers })).json()) as SearchResponse;
      for (const card of search.profiles) {
        const detail = (await (await fetch(`/api/profile.php?id=${card.id}`, { headers })).json()) as ProfileResponse;
        if (detail.photos.some((p) => p.locked)) return card.id;
      }
      return null;
    });
    expect(target).not.toBeNull();
    await page.goto(`${baseUrl}/members/${target}`);
    const lockedThumbs = page.locator(".member__thumbs .thumb.is-locked");
    await expect.poll(() => lockedThumbs.count()).toBeGreaterThan(0);
    const srcs = await lockedThumbs
      .locator("img")
      .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).getAttribute("src") ?? ""));
    for (const src of srcs) expect(src).toMatch(/\/media\/b\//);
    expect(await lockedThumbs.first().locator(".thumb__lock").count()).toBe(1);
    await lockedThumbs.first().click();
    await expect.poll(() => page.locator(".member__main-photo .lock-overlay").count()).toBe(1);
    expect(await page.locator(".member__main-photo .lock-overlay").textContent()).toContain(nl.profile.locked_photo);
    expect(await page.locator(".member__main-photo > img").getAttribute("src")).toMatch(/\/media\/b\//);

    // The account button shows the member's own main photo, not an initial.
    const me = (await page.evaluate(() =>
      fetch("/api/user.php", { headers: { "X-Request-Type": "client" } }).then((r) => r.json()),
    )) as { user: { profile: { main_image: { thumb_filename: string } | null } } };
    const thumb = me.user.profile.main_image!.thumb_filename;
    expect(await page.locator(".account-menu summary img.avatar").getAttribute("src")).toContain(thumb);
    expect(await page.locator(".account-menu__initial").count()).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });
});
