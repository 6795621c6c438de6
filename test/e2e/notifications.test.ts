import { describe, expect, inject, it } from "vitest";
import nl from "../../locales/nl.json" with { type: "json" };
import type { NotificationsAnswer } from "../../src/shared/notifications";
import { hydrated, phone, sharedBrowser } from "./browser";
import { api, signUpByApi } from "./dutch-site";

const baseUrl = inject("baseUrl");
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
});
