import { describe, expect, inject, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import nl from "../../locales/nl.json" with { type: "json" };
import { hydrated, phone, sharedBrowser } from "./browser";
import { operatorPage } from "./console-login";
import { api, signUpByApi } from "./dutch-site";
import { localD1 } from "./server";

const baseUrl = inject("baseUrl");
const statePath = inject("statePath");
const browser = sharedBrowser();
const consoleOrigin = `http://ops.localhost:${new URL(baseUrl).port}`;
const SHOTS = ".tmp/screenshots";
/** Decisions reach the members' open pages at once: within a second. */
const AT_ONCE_MS = 1000;

const profileOf = (user: { profile: { id: number } }) => user.profile.id;
const addressOf = (profileId: number) =>
  localD1(
    statePath,
    `SELECT email FROM users WHERE id = (SELECT user_id FROM profiles WHERE id = ${profileId})`,
  )[0]![0]!.email as string;
const mailsTo = (address: string, kind: string) =>
  localD1(
    statePath,
    `SELECT subject, text FROM outgoing_mail WHERE to_address = '${address}' AND kind = '${kind}' ORDER BY id`,
  )[0] as { subject: string; text: string }[];

/** A's page writes to B over the conversation's socket, as the chat screen does; resolves once the message is stored. */
function write(page: Page, to: number, body: string): Promise<void> {
  return page.evaluate(
    ([profile, text]) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/api/chat-socket.php?profile=${profile}`);
        const clientId = `ops${Math.random().toString(36).slice(2, 12)}`;
        ws.addEventListener("message", (event) => {
          const frame = JSON.parse(event.data as string) as { type: string; client_id?: string; message?: string };
          if (frame.type === "ready")
            ws.send(JSON.stringify({ type: "send", client_id: clientId, kind: "text", body: text }));
          if (frame.type === "ack" && frame.client_id === clientId) resolve(ws.close());
          if (frame.type === "error") reject(new Error(frame.message));
        });
        ws.addEventListener("close", () => reject(new Error("chat socket closed")));
      }),
    [to, body] as const,
  );
}

/** A photo uploaded from the member's page, as the profile screen does; answers its id (it waits for approval). */
function uploadPhoto(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 240;
    canvas.height = 300;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "#c33";
    ctx.fillRect(0, 0, 240, 300);
    ctx.fillStyle = "#fff";
    ctx.fillRect(60, 80, 120, 140);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/jpeg", 0.9));
    const form = new FormData();
    form.append("photo", blob, "me.jpg");
    const res = await fetch("/api/photos.php", { method: "POST", headers: { "X-Request-Type": "client" }, body: form });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { photo: { id: number } }).photo.id;
  });
}

/** The console in a desktop browser, signed in through the development login as a moderator. */
const consolePage = (context: BrowserContext): Promise<Page> => operatorPage(context, consoleOrigin, statePath);

describe("the operators' console, with the members' open pages", () => {
  let anna: { page: Page; context: BrowserContext; errors: string[] };
  let bram: { page: Page; context: BrowserContext; errors: string[] };
  let annaId = 0;
  let bramId = 0;
  let ops: Page;

  it("an operator approves a waiting photo and the other member's open page shows it, with no reload", async () => {
    anna = await phone(browser(), { width: 390, height: 844 });
    bram = await phone(browser());
    annaId = profileOf(await signUpByApi(anna.page, baseUrl, "ops", "anna", "female"));
    bramId = profileOf(await signUpByApi(bram.page, baseUrl, "ops", "bram", "male"));
    localD1(
      statePath,
      `UPDATE users SET status = 'active', credits = 1000, paid_user = 1 WHERE id IN (SELECT user_id FROM profiles WHERE id IN (${annaId}, ${bramId}))`,
    );
    const photo = await uploadPhoto(anna.page);
    await write(bram.page, annaId, "Hoi Anna, mooi profiel!");

    await bram.page.goto(`${baseUrl}/members/${annaId}`);
    await hydrated(bram.page);
    const annaPhoto = bram.page.locator(".member__main-photo > img");
    expect(await annaPhoto.count()).toBe(0);
    // No approved photo yet: her initials stand in its place.
    expect(await bram.page.locator(".member__main-photo .initials-portrait").count()).toBe(1);
    await bram.page.evaluate(() => ((window as unknown as { sameLoad: boolean }).sameLoad = true));

    ops = await consolePage(await browser().newContext({ viewport: { width: 1280, height: 800 } }));
    await ops.goto(`${consoleOrigin}/photos`);
    await ops.screenshot({ path: `${SHOTS}/console-photos.png` });
    // The demo data has older photos waiting: the queue's order is the workerd tests' (moderation.test.ts).
    await ops.goto(`${consoleOrigin}/photos/${photo}`);
    await ops.screenshot({ path: `${SHOTS}/console-photo.png`, fullPage: true });
    await Promise.all([
      ops.waitForURL(`${consoleOrigin}/photos`),
      ops.getByRole("button", { name: "Approve" }).click(),
    ]);

    await expect.poll(() => annaPhoto.count(), { timeout: AT_ONCE_MS * 3 }).toBe(1);
    expect(await annaPhoto.getAttribute("src")).toContain("/media/");
    expect(await bram.page.evaluate(() => (window as unknown as { sameLoad?: boolean }).sameLoad)).toBe(true);
  });

  it("an operator decides a report and both members are told; the member reads the statement and appeals", async () => {
    const report = await api<{ report: { id: number } }>(bram.page, "POST", "/api/report.php", {
      subject: "harassment",
      category: "illegal_or_harmful_speech",
      good_faith: true,
      description: "Ze stuurt me steeds berichten nadat ik nee zei.",
      profile_id: annaId,
    });
    expect(report.status).toBe(201);
    await ops.goto(`${consoleOrigin}/reports/${report.body.report.id}`);
    await ops.check("input[name=outcome][value=restrict_search]");
    await ops.selectOption("select[name=period]", "week");
    await ops.selectOption("select[name=ground]", "harassment");
    await ops.fill("textarea[name=facts]", "Sent six messages after being asked to stop.");
    await ops.screenshot({ path: `${SHOTS}/console-report.png`, fullPage: true });
    await Promise.all([
      ops.waitForURL(`${consoleOrigin}/reports`),
      ops.getByRole("button", { name: "Decide" }).click(),
    ]);

    // The reporter learns the outcome, the member gets the statement of reasons, both in Dutch.
    const [outcome] = mailsTo(addressOf(bramId), "notice_outcome");
    expect(outcome!.text).toContain(nl.moderation.report_outcomes.restrict_search);
    const [statement] = mailsTo(addressOf(annaId), "statement");
    expect(statement!.subject).toContain(nl.moderation.mail.statement.subject.split(" {site}")[0]!);
    const link = /https?:\/\/[^\s]+\/decisions\/\d+\?key=[\w-]+/.exec(statement!.text)![0];

    await anna.page.goto(`${baseUrl}${new URL(link).pathname}${new URL(link).search}`);
    await hydrated(anna.page);
    await expect
      .poll(() => anna.page.getByTestId("decision-outcome").textContent())
      .toBe(nl.moderation.outcomes.restrict_search);
    expect(await anna.page.getByText(nl.moderation.grounds.harassment.rule).count()).toBe(1);
    expect(await anna.page.getByText("Sent six messages after being asked to stop.").count()).toBe(1);
    expect(await anna.page.getByText(nl.moderation.page.automated_no).count()).toBe(1);
    await anna.page.screenshot({ path: `${SHOTS}/statement.png`, fullPage: true });
    await anna.page.fill("#appeal-text", "Ik stuurde alleen antwoorden op zijn vragen.");
    await anna.page.getByRole("button", { name: nl.moderation.page.appeal_send }).click();
    await expect.poll(() => anna.page.getByTestId("appeal-status").count()).toBe(1);
    await anna.page.screenshot({ path: `${SHOTS}/statement-appealed.png`, fullPage: true });
    expect(await anna.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it("disabling a member ends their open pages at once", async () => {
    const cas = await phone(browser());
    const casId = profileOf(await signUpByApi(cas.page, baseUrl, "ops", "cas", "male"));
    localD1(
      statePath,
      `UPDATE users SET status = 'active' WHERE id = (SELECT user_id FROM profiles WHERE id = ${casId})`,
    );
    const report = await api<{ report: { id: number } }>(cas.page, "POST", "/api/report.php", {
      subject: "scam",
      category: "scams_and_fraud",
      good_faith: true,
      description: "Ze vroeg me om geld voor een treinkaartje.",
      profile_id: annaId,
    });
    expect(report.status).toBe(201);

    // Anna has her chat with Bram open, and the search in another tab. Each page keeps its sockets,
    // so the test reads their state as the page sees it.
    await anna.context.addInitScript(() => {
      const Native = window.WebSocket;
      const kept: { socket: WebSocket; code: number | null }[] = [];
      Object.assign(window, { keptSockets: kept });
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          const entry = { socket: this as WebSocket, code: null as number | null };
          kept.push(entry);
          this.addEventListener("close", (event) => (entry.code = event.code));
        }
      };
    });
    type Kept = {
      keptSockets: { socket: WebSocket; code: number | null }[];
      openAtDecision?: { socket: WebSocket; code: number | null }[];
    };
    await anna.page.goto(`${baseUrl}/members/${bramId}/chat`);
    await hydrated(anna.page);
    const second = await anna.context.newPage();
    await second.goto(`${baseUrl}/members`);
    await hydrated(second);
    const pages = [anna.page, second];
    const openSockets = (page: Page) =>
      page.evaluate(() =>
        (window as unknown as Kept).keptSockets
          .filter((k) => k.socket.readyState === WebSocket.OPEN)
          .map((k) => k.socket.url.replace(/\?.*$/, "")),
      );
    await expect
      .poll(() => openSockets(anna.page))
      .toEqual(
        expect.arrayContaining([
          expect.stringContaining("/api/chat-socket.php"),
          expect.stringContaining("/api/member-socket.php"),
        ]),
      );
    await expect.poll(() => openSockets(second)).toEqual([expect.stringContaining("/api/member-socket.php")]);
    for (const page of pages)
      await page.evaluate(
        () =>
          ((window as unknown as Kept).openAtDecision = (window as unknown as Kept).keptSockets.filter(
            (k) => k.socket.readyState === WebSocket.OPEN,
          )),
      );

    await ops.goto(`${consoleOrigin}/reports/${report.body.report.id}`);
    await ops.check("input[name=outcome][value=disable]");
    await ops.selectOption("select[name=ground]", "scam");
    await ops.fill("textarea[name=facts]", "Asked a member for money.");
    await Promise.all([
      ops.waitForURL(`${consoleOrigin}/reports`),
      ops.getByRole("button", { name: "Decide" }).click(),
    ]);
    // The server has closed every socket of her pages (1008, policy) by the time the operator's page
    // moves on; the pages see it at once (the socket is closing: nothing more comes in or goes out).
    const ended = (page: Page) =>
      page.evaluate(() =>
        (window as unknown as Kept).openAtDecision!.every((k) => k.socket.readyState >= WebSocket.CLOSING),
      );
    for (const page of pages) await expect.poll(() => ended(page), { timeout: AT_ONCE_MS }).toBe(true);
    // Their close events follow once the local server drops the connections (Chromium waits up to
    // a couple of seconds for that after the closing handshake): each was closed by the server, 1008.
    const codes = (page: Page) => page.evaluate(() => (window as unknown as Kept).openAtDecision!.map((k) => k.code));
    for (const page of pages)
      await expect.poll(async () => (await codes(page)).every((code) => code !== null), { timeout: 10_000 }).toBe(true);
    for (const page of pages) expect(new Set(await codes(page))).toEqual(new Set([1008]));
    expect((await api(second, "GET", "/api/user.php")).status).toBe(403);
    expect(mailsTo(addressOf(annaId), "statement")).toHaveLength(2);
    await ops.goto(`${consoleOrigin}/audit`);
    await ops.screenshot({ path: `${SHOTS}/console-audit.png` });
  });
});
