import { describe, expect, inject, it } from "vitest";
import nl from "../../locales/nl.json" with { type: "json" };
import type { NotificationsAnswer } from "../../src/shared/notifications";
import { hydrated, phone, sharedBrowser } from "./browser";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();

describe("the notification settings on the Dutch site", () => {
  it("saves a switch at once, says so, and it stays after a reload, on a 360 px phone", async () => {
    const { page, errors } = await phone(browser());
    await signUpByApi(page, baseUrl, "notifications", "Noor", "female");
    await page.goto(`${baseUrl}/notifications`);
    await hydrated(page);

    const email = page.getByRole("region", { name: nl.notifications.email_title });
    const newMessages = email.getByRole("switch", { name: nl.notifications.email_kinds.new_messages });
    const news = email.getByRole("switch", { name: nl.notifications.email_kinds.news });
    expect(await newMessages.isChecked()).toBe(true);
    expect(await news.isChecked()).toBe(false);
    await email.getByText(nl.notifications.email_kinds.new_messages, { exact: true }).click();
    await expect.poll(() => email.getByRole("status").textContent()).toBe(nl.notifications.saved);
    expect(await newMessages.isChecked()).toBe(false);

    const push = page.getByRole("region", { name: nl.notifications.push_title });
    expect(await push.getByText(nl.notifications.push_intro).count()).toBe(1);
    await push.getByText(nl.notifications.previews, { exact: true }).click();
    await expect.poll(() => push.getByRole("status").textContent()).toBe(nl.notifications.saved);

    await page.reload();
    await hydrated(page);
    expect(await newMessages.isChecked()).toBe(false);
    expect(await push.getByRole("switch", { name: nl.notifications.previews }).isChecked()).toBe(true);
    const saved = await api<NotificationsAnswer>(page, "GET", "/api/notifications.php");
    expect(saved.body.notifications.email.new_messages).toBe(false);
    expect(saved.body.notifications.previews).toBe(true);

    // Nothing sticks out sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(errors).toEqual([]);
  });

  it("tells a member whose mail bounced instead of the activation reminder, until they have it sent again or dismiss it", async () => {
    const { page, errors } = await phone(browser());
    const user = await signUpByApi(page, baseUrl, "bounce", "Bram", "male");
    const bounce = () =>
      localD1(
        statePath,
        `INSERT OR REPLACE INTO mail_stops (user_id, reason, kind, address) SELECT user_id, 'bounce', '', '${user.email}' FROM profiles WHERE id = ${user.profile.id}`,
      );
    const bounced = nl.notifications.alert.bounce.replace("{email}", user.email);
    const activation = nl.alerts.activation.replace("{email}", user.email);

    // On a page outside the members area, where the time bonus does not take the notices' first turn (decision 0037).
    await page.goto(`${baseUrl}/profile`);
    await hydrated(page);
    expect(await page.getByText(activation).count()).toBe(1);
    bounce();
    await page.reload();
    await hydrated(page);
    expect(await page.getByText(bounced).count()).toBe(1);
    expect(await page.getByText(activation).count()).toBe(0);

    // The alert leads to the switches, where the member asks for mail again.
    await page.getByRole("link", { name: nl.notifications.alert.settings }).click();
    await page.waitForURL(/\/notifications#notifications$/);
    expect(await page.getByText(bounced).count()).toBe(0);
    await page.getByRole("button", { name: nl.notifications.stopped.resume }).click();
    await expect.poll(() => page.getByRole("button", { name: nl.notifications.stopped.resume }).count()).toBe(0);
    await page.goto(`${baseUrl}/profile`);
    await hydrated(page);
    expect(await page.getByText(bounced).count()).toBe(0);
    expect(await page.getByText(activation).count()).toBe(1);

    // Dismissed, it stays away.
    bounce();
    await page.reload();
    await hydrated(page);
    await page
      .locator('[data-alert="disabled-notifications"]')
      .getByRole("button", { name: nl.alerts.dismiss })
      .click();
    expect(await page.getByText(bounced).count()).toBe(0);
    await page.reload();
    await hydrated(page);
    expect(await page.getByText(bounced).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("the privacy switches save at once, stay after a reload, and go back with the server's text when refused", async () => {
    const { page, errors } = await phone(browser());
    await signUpByApi(page, baseUrl, "switches", "Iris", "female");
    await page.goto(`${baseUrl}/notifications`);
    await hydrated(page);
    const invisible = page.getByRole("switch", { name: nl.settings.invisible.label });
    const verifiedOnly = page.getByRole("switch", { name: nl.verification.verified_only });
    // A member touches the switch's label and track (the checkbox itself is drawn by them).
    const touch = (box: typeof invisible) => page.locator("label.toggle").filter({ has: box }).click();
    await expect.poll(() => verifiedOnly.isEnabled()).toBe(true);
    expect(await invisible.isChecked()).toBe(false);
    expect(await verifiedOnly.isChecked()).toBe(false);

    await touch(invisible);
    await expect.poll(() => invisible.isEnabled()).toBe(true);
    expect(await invisible.isChecked()).toBe(true);
    await touch(verifiedOnly);
    await expect.poll(() => verifiedOnly.isEnabled()).toBe(true);
    expect(await verifiedOnly.isChecked()).toBe(true);
    // Each section says what it is about in a short heading; the switch says what it does.
    expect(await page.getByRole("heading", { name: nl.verification.verified_only_title }).count()).toBe(1);
    await page.getByRole("heading", { name: nl.settings.invisible.title }).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 120));
    await page.screenshot({ path: ".tmp/screenshots/settings-switches-390.png" });
    await page.reload();
    await hydrated(page);
    await expect.poll(() => verifiedOnly.isChecked()).toBe(true);
    expect(await invisible.isChecked()).toBe(true);

    // The server refuses (here: an answer made up for the test): the switch goes back and says why.
    await page.route("**/api/verification.php", (route) =>
      route.request().method() === "PUT"
        ? route.fulfill({
            status: 400,
            contentType: "application/json",
            body: JSON.stringify({ error: "invalid_parameter", message: "Niet gelukt" }),
          })
        : route.continue(),
    );
    await touch(verifiedOnly);
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "Niet gelukt" }).count()).toBe(1);
    expect(await verifiedOnly.isChecked()).toBe(true);
    expect(await verifiedOnly.isEnabled()).toBe(true);
    expect(errors.filter((e) => !e.includes("400"))).toEqual([]);
  });
});
