/**
 * Four eyes in a desktop browser (docs/decisions/0060): one support operator asks to disable a
 * member (the form's sentence ticked first), the member's page and the Waiting requests screen say it
 * waits for a second operator, and a second operator confirms it there.
 */
import { describe, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { phone, sharedBrowser } from "./browser";
import { signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();
const consoleOrigin = `http://ops.localhost:${new URL(baseUrl).port}`;
const SHOTS = ".tmp/screenshots";
const DESKTOP = { width: 1280, height: 800 };

/** The console at desktop size, signed in through the development login as a new support operator. */
async function supportPage(b: Browser, name: string): Promise<Page> {
  const email = `${name}-${Date.now()}@flirtwave.test`;
  localD1(
    statePath,
    `INSERT INTO operators (email, status, created_at) VALUES ('${email}', 'active', unixepoch()); INSERT INTO operator_roles (operator_id, role) SELECT id, 'support' FROM operators WHERE email = '${email}'`,
  );
  const page = await (await b.newContext({ viewport: DESKTOP })).newPage();
  await page.goto(`${consoleOrigin}/login`);
  await page.fill("input[name=email]", email);
  await Promise.all([page.waitForURL(`${consoleOrigin}/`), page.click("button[type=submit]")]);
  return page;
}

const statusOf = (userId: number) =>
  localD1(statePath, `SELECT status FROM users WHERE id = ${userId}`)[0]![0]!.status as string;

describe("a second operator in the console", () => {
  it("a disabling asked by one operator waits, is listed, and is done when another confirms it", async () => {
    const member = await phone(browser());
    const user = await signUpByApi(member.page, baseUrl, "fouroges", "sanne", "female");
    const userId = localD1(statePath, `SELECT user_id FROM profiles WHERE id = ${user.profile.id}`)[0]![0]!
      .user_id as number;
    localD1(statePath, `UPDATE users SET status = 'active' WHERE id = ${userId}`);

    const first = await supportPage(browser(), "first");
    await first.goto(`${consoleOrigin}/members/${userId}`);
    const disable = first.locator(`form[action="/members/${userId}/disable"]`);
    await disable.locator("input[name=reason]").fill("fake profile, photos of someone else");
    // The statement of reasons the member will read (docs/decisions/0061).
    await disable.locator("select[name=ground]").selectOption("not_the_member");
    await disable.locator("select[name=fact_template]").selectOption("not_the_member.other_person");
    // Without the tick the button does nothing (the browser asks for it; the server would refuse it).
    await disable.locator("button").click();
    expect(statusOf(userId)).toBe("active");
    await disable.locator("input[name=confirmed]").check();
    await Promise.all([first.waitForLoadState("load"), disable.locator("button").click()]);
    await first.locator(".waiting").waitFor();
    await first.screenshot({ path: `${SHOTS}/console-member-waiting.png` });
    expect(statusOf(userId)).toBe("active");

    await first.goto(`${consoleOrigin}/requests`);
    await expect(first.locator("main").textContent()).resolves.toContain("You asked for this");

    const second = await supportPage(browser(), "second");
    await second.goto(`${consoleOrigin}/requests`);
    await second.screenshot({ path: `${SHOTS}/console-waiting-requests.png`, fullPage: true });
    const confirm = second.locator('form[action$="/confirm"]').first();
    await confirm.locator("input[name=reason]").fill("checked the photos");
    await confirm.locator("input[name=confirmed]").check();
    await Promise.all([second.waitForLoadState("load"), confirm.locator("button").click()]);
    await second.getByText("Nothing is waiting for a second operator.").waitFor();
    await second.screenshot({ path: `${SHOTS}/console-requests-decided.png`, fullPage: true });
    expect(statusOf(userId)).toBe("disabled");
  });
});
