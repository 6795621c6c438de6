import { describe, expect, inject, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import { hydrated, phone, sharedBrowser } from "./browser";
import { operatorPage } from "./console-login";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();
const consoleOrigin = `http://ops.localhost:${new URL(baseUrl).port}`;
const SHOTS = ".tmp";

const one = <T>(sql: string) => localD1(statePath, sql)[0]![0] as T;

const moderatorPage = (context: BrowserContext) => operatorPage(context, consoleOrigin, statePath);

describe("an appeal from the member's phone to the reviewer's console and back", () => {
  it("the content removed comes back, and the member reads the reviewer's reasons", async () => {
    const anna = await phone(browser(), { width: 390, height: 844 });
    const bram = await phone(browser());
    const annaId = (await signUpByApi(anna.page, baseUrl, "appeal", "anna", "female")).profile.id;
    await signUpByApi(bram.page, baseUrl, "appeal", "bram", "male");
    const about = "Ik hou van wandelen in de duinen en lange etentjes.";
    localD1(
      statePath,
      `UPDATE users SET status = 'active' WHERE id IN (SELECT user_id FROM profiles WHERE id = ${annaId}); UPDATE profiles SET about_me = '${about}' WHERE id = ${annaId}`,
    );
    const report = await api<{ report: { id: number } }>(bram.page, "POST", "/api/report.php", {
      subject: "scam",
      description: "Haar profieltekst verwijst naar een andere site.",
      category: "scams_and_fraud",
      good_faith: true,
      profile_id: annaId,
    });
    expect(report.status).toBe(201);

    const desktop = () => browser().newContext({ viewport: { width: 1280, height: 900 } });
    const first = await moderatorPage(await desktop());
    await first.goto(`${consoleOrigin}/reports`);
    expect(await first.locator("[data-queue-total]").count()).toBe(1);
    await first.screenshot({ path: `${SHOTS}/console-reports-queue.png`, fullPage: true });
    await first.goto(`${consoleOrigin}/reports/${report.body.report.id}`);
    await first.check("input[name=outcome][value=remove_content]");
    await first.selectOption("select[name=ground]", "spam");
    await first.fill("textarea[name=facts]", "De tekst verwijst naar een andere datingsite.");
    await Promise.all([
      first.waitForURL(`${consoleOrigin}/reports`),
      first.getByRole("button", { name: "Decide" }).click(),
    ]);
    expect(one<{ about_me: string | null }>(`SELECT about_me FROM profiles WHERE id = ${annaId}`).about_me).toBeNull();

    // Anna appeals from the mailed link on her phone, and has the receipt.
    const address = one<{ email: string }>(
      `SELECT email FROM users WHERE id = (SELECT user_id FROM profiles WHERE id = ${annaId})`,
    ).email;
    const statement = one<{ text: string }>(
      `SELECT text FROM outgoing_mail WHERE to_address = '${address}' AND kind = 'statement' ORDER BY id DESC LIMIT 1`,
    );
    const link = new URL(/https?:\/\/[^\s]+\/decisions\/\d+\?key=[\w-]+/.exec(statement.text)![0]);
    await anna.page.goto(`${baseUrl}${link.pathname}${link.search}`);
    await hydrated(anna.page);
    await anna.page.fill("#appeal-text", "Er staat geen link in mijn tekst, kijk nog eens.");
    await anna.page.getByRole("button", { name: nl.moderation.page.appeal_send }).click();
    await expect.poll(() => anna.page.getByTestId("appeal-status").count()).toBe(1);
    expect(
      one<{ n: number }>(
        `SELECT count(*) AS n FROM outgoing_mail WHERE to_address = '${address}' AND kind = 'appeal_receipt'`,
      ).n,
    ).toBe(1);

    // Another moderator: the queue, then the appeal with the evidence, reversed with a note.
    const second = await moderatorPage(await desktop());
    await second.goto(`${consoleOrigin}/appeals`);
    await second.screenshot({ path: `${SHOTS}/console-appeals-queue.png`, fullPage: true });
    await second.locator('a[href^="/appeals/"]').last().click();
    await second.locator('[data-evidence="removed-content"]').waitFor();
    expect(await second.getByText(about).count()).toBeGreaterThan(0);
    await second.screenshot({ path: `${SHOTS}/console-appeal-evidence.png`, fullPage: true });
    await second.check("input[name=decision][value=reverse]");
    const note = "Je tekst noemt geen andere site; we hebben hem teruggezet.";
    await second.fill("textarea[name=note]", note);
    await Promise.all([
      second.waitForURL(`${consoleOrigin}/appeals`),
      second.getByRole("button", { name: "Decide" }).click(),
    ]);
    expect(one<{ about_me: string }>(`SELECT about_me FROM profiles WHERE id = ${annaId}`).about_me).toBe(about);

    await anna.page.reload();
    await hydrated(anna.page);
    await expect.poll(() => anna.page.getByTestId("appeal-note").textContent()).toBe(note);
    expect(await anna.page.getByTestId("other-remedies").count()).toBe(1);
    await anna.page.screenshot({ path: `${SHOTS}/decision-appeal-reversed-390.png`, fullPage: true });
    expect(await anna.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(anna.errors).toEqual([]);
  });
});
