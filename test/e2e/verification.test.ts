/**
 * Issue 28 in Chromium with the browser's fake camera: a member takes the pose selfie on their
 * profile in the pose the server drew (asking once for another, issue 37), a moderator approves it in the console, and the badge shows on the member's card on the
 * other member's search page, which stayed open (filtered on verified members, without a reload).
 * Screens at 390x844 go to SHOTS when it is set.
 */
import { mkdirSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import nl from "../../locales/nl.json" with { type: "json" };
import { hydrated, phone, sharedBrowser } from "./browser";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const consoleUrl = baseUrl.replace("nl.localhost", "ops.localhost");
const browser = sharedBrowser(["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]);
const SCREEN = { width: 390, height: 844 };
const shots = process.env.SHOTS;
if (shots) mkdirSync(shots, { recursive: true });

describe("verified people on the Dutch site", () => {
  it(
    "a member takes the pose selfie, a moderator approves it, the badge shows on the other member's open search page",
    { timeout: 180_000 },
    async () => {
      const a = await phone(browser(), SCREEN);
      const b = await phone(browser(), SCREEN);
      const anna = await signUpByApi(a.page, baseUrl, "verify", "anna", "female");
      const bram = await signUpByApi(b.page, baseUrl, "verify", "bram", "male");
      localD1(
        statePath,
        `UPDATE users SET status = 'active', credits = 100 WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${anna.profile.id}, ${bram.profile.id}))`,
      );

      // Anna's main photo, approved: what the moderator compares the selfie with (issue 37).
      const photoId = await a.page.evaluate(async () => {
        const canvas = document.createElement("canvas");
        canvas.width = 240;
        canvas.height = 300;
        const ctx = canvas.getContext("2d")!;
        ctx.fillStyle = "#c33";
        ctx.fillRect(0, 0, 240, 300);
        ctx.fillStyle = "#fff";
        ctx.fillRect(60, 80, 120, 140);
        const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made!), "image/jpeg", 0.9));
        const form = new FormData();
        form.append("photo", blob, "me.jpg");
        const res = await fetch("/api/photos.php", {
          method: "POST",
          headers: { "X-Request-Type": "client" },
          body: form,
        });
        return ((await res.json()) as { photo: { id: number } }).photo.id;
      });
      localD1(statePath, `UPDATE photos SET status = 'active' WHERE id = ${photoId}`);

      // Bram's search page is open, once loaded and never again.
      await b.page.goto(`${baseUrl}/members?gender=female`);
      await hydrated(b.page);
      await b.page.evaluate(() => Object.assign(window, { loadedOnce: true }));

      // Anna's own profile: the pose beside the live picture of the (fake) front camera.
      await a.page.goto(`${baseUrl}/profile#verification`);
      await hydrated(a.page);
      const section = a.page.locator("#verification");
      await section.getByRole("button", { name: nl.verification.open_camera }).click();
      const video = section.locator("video");
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.videoWidth > 0), { timeout: 10_000 })
        .toBe(true);
      await expect.poll(() => section.getByRole("img", { name: nl.verification.pose_drawing }).count()).toBe(1);
      // The server's pose, the same after a reload; "another pose" asks the server for a new one.
      const poseText = () => section.locator(".verification__figure figcaption strong").textContent();
      const given = await poseText();
      const poseNames = Object.values(nl.verification.poses) as string[];
      expect(poseNames).toContain(given);
      await section.getByRole("button", { name: nl.verification.another_pose }).click();
      await expect.poll(poseText).not.toBe(given);
      const drawn = await poseText();
      expect(poseNames).toContain(drawn);
      await a.page.reload();
      await hydrated(a.page);
      expect(await poseText()).toBe(drawn);
      await section.getByRole("button", { name: nl.verification.open_camera }).click();
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.videoWidth > 0), { timeout: 10_000 })
        .toBe(true);
      if (shots) {
        await section.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 130));
        await a.page.screenshot({ path: `${shots}/selfie-screen.png` });
      }
      await section.getByRole("button", { name: nl.verification.take_photo }).click();
      await section.getByRole("img", { name: nl.verification.your_selfie }).waitFor();
      await section.getByRole("button", { name: nl.verification.send }).click();
      await section.getByText(nl.verification.pending).waitFor();
      const waiting = localD1(
        statePath,
        `SELECT id, selfie_key FROM verifications WHERE profile_id = ${anna.profile.id} AND status = 'pending'`,
      )[0]![0] as { id: number; selfie_key: string };
      expect(waiting.selfie_key).toMatch(/^v\//);
      // Anna herself cannot fetch it.
      expect(await a.page.evaluate(async (key) => (await fetch(`/media/${key}`)).status, waiting.selfie_key)).toBe(404);

      // A moderator (the console's development login) approves it in the queue.
      const moderator = `moderator-${Date.now()}@flirtwave.test`;
      localD1(
        statePath,
        `INSERT INTO operators (email, status) VALUES ('${moderator}', 'active'); INSERT INTO operator_roles (operator_id, role) SELECT id, 'moderator' FROM operators WHERE email = '${moderator}'`,
      );
      const ops = await phone(browser(), { width: 1200, height: 900 });
      await ops.page.goto(`${consoleUrl}/login?return=/verifications`);
      await ops.page.getByLabel("Operator e-mail").fill(moderator);
      await ops.page.getByRole("button", { name: "Log in" }).click();
      await ops.page.waitForURL(`${consoleUrl}/verifications`);
      const item = ops.page.locator(`[data-verification="${waiting.id}"]`);
      await expect
        .poll(() =>
          item.locator("img[alt^='Selfie']").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        )
        .toBe(true);
      await expect
        .poll(() =>
          item
            .locator(`img[alt^='Photo ${photoId}']`)
            .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        )
        .toBe(true);
      if (shots) await item.screenshot({ path: `${shots}/console-queue-item.png` });
      await item.getByRole("button", { name: "Approve" }).click();
      await expect.poll(() => ops.page.locator(`[data-verification="${waiting.id}"]`).count()).toBe(0);

      // Bram, on the same open page, asks for verified members only: Anna's card carries the badge.
      // The filters fold into a sheet on a phone: it opens from its one-line summary.
      const onlyVerified = b.page.getByLabel(nl.verification.search_filter);
      if (!(await onlyVerified.isVisible())) await b.page.locator(".search-panel__summary").click();
      await onlyVerified.check();
      await b.page.getByRole("button", { name: nl.search.submit }).click();
      const card = b.page.locator(`[data-profile="${anna.profile.id}"]`);
      await card.getByRole("img", { name: nl.verification.badge_label }).waitFor();
      expect(await b.page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
      if (shots) {
        await card.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 140));
        await b.page.screenshot({ path: `${shots}/badge-search.png` });
      }

      // Anna takes first messages from verified members only: Bram is told why and how to verify, and nothing is charged.
      expect((await api(a.page, "PUT", "/api/verification.php", { verified_only: true })).status).toBe(200);
      await b.page.goto(`${baseUrl}/members/${anna.profile.id}/chat`);
      await hydrated(b.page);
      await b.page.getByText(nl.verification.chat_refused.replace("{name}", anna.profile.name)).waitFor();
      await b.page.getByRole("link", { name: nl.verification.verify_now }).waitFor();
      await b.page.locator(".conversation__header").getByRole("img", { name: nl.verification.badge_label }).waitFor();
      if (shots) await b.page.screenshot({ path: `${shots}/verified-only-notice.png` });
      const credits = localD1(
        statePath,
        `SELECT credits FROM users WHERE id IN (SELECT user_id FROM profiles WHERE id = ${bram.profile.id})`,
      )[0]![0] as { credits: number };
      expect(credits.credits).toBe(100);

      if (shots) {
        await a.page.goto(`${baseUrl}/members/${anna.profile.id}`);
        await hydrated(a.page);
        await a.page
          .locator(".member__nameplate h1")
          .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 140));
        await a.page.screenshot({ path: `${shots}/badge-profile.png` });
      }
      for (const p of [a, b, ops]) await p.context.close();
      expect([...a.errors, ...b.errors]).toEqual([]);
    },
  );
});
