import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { SearchResponse } from "../../src/shared/api";
import { REPORTS_PER_HOUR } from "../../src/shared/reports";
import { closeReportQuery, disableAccount } from "../../src/server/db/reports";
import { runRetention } from "../../src/server/services/retention";
import { databaseOf } from "../../src/server/db/database";
import type { ServerFrame } from "../../src/shared/chat";
import { ChatSocket, chatMember, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { Browser, json } from "../http";

const ORIGIN = "http://reports.test";
let address = 0;

/** Each test files from its own network address, so the per-address limit of one test leaves the others alone. */
async function member(name: string): Promise<Member> {
  const m = await chatMember(ORIGIN, { name });
  address++;
  const fetch = m.browser.fetch.bind(m.browser);
  const ip = `192.0.2.${address}`;
  m.browser.fetch = (path, init = {}) =>
    fetch(path, { ...init, headers: { ...(init.headers as Record<string, string>), "cf-connecting-ip": ip } });
  return m;
}

const report = (who: Member | Browser, body: Record<string, unknown>) =>
  ("browser" in who ? who.browser : who).post("/api/report.php", {
    subject: "harassment",
    description: "Keeps sending me rude messages.",
    category: "illegal_or_harmful_speech",
    good_faith: true,
    ...body,
  });

const reportsOf = async (userId: number) =>
  (
    await env.DB.prepare(
      "SELECT subject, target_key, profile_id, message_id, email, status FROM reports WHERE reporter_user_id = ? ORDER BY id",
    )
      .bind(userId)
      .all()
  ).results;

const mailsTo = async (to: string) =>
  (
    await env.DB.prepare("SELECT subject, text FROM outgoing_mail WHERE to_address = ? AND kind = 'report' ORDER BY id")
      .bind(to)
      .all<{ subject: string; text: string }>()
  ).results;

beforeAll(async () => {
  await putSites(site("reports.test", { domain_language: "en" }));
});

describe("a member reports another member", () => {
  it("files the report once, with a confirmation mail to the account's address", async () => {
    const reporter = await member("rep");
    const reported = await member("bad");
    const res = await report(reporter, { profile_id: reported.id });
    expect(res.status).toBe(201);
    const { report: filed } = await json<{ report: { id: number; status: string } }>(res);
    expect(filed.status).toBe("open");
    expect(await reportsOf(reporter.userId)).toEqual([
      {
        subject: "harassment",
        target_key: `profile:${reported.id}`,
        profile_id: reported.id,
        message_id: null,
        email: reporter.user.email,
        status: "open",
      },
    ]);
    const mails = await mailsTo(reporter.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(String(filed.id));
    expect(mails[0]!.text).toContain("Harassment or threats");

    // The member's data export holds it.
    const archive = await json<{ reports: { id: number; subject: string; profile_id: number }[] }>(
      await reporter.browser.fetch("/api/my-data.php"),
    );
    expect(archive.reports).toMatchObject([{ id: filed.id, subject: "harassment", profile_id: reported.id }]);

    const again = await report(reporter, {
      profile_id: reported.id,
      subject: "fake_profile",
      description: "And the photos are not hers.",
    });
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({
      error: "already_reported",
      message: "You have already reported this member. We are looking into it.",
    });
    expect(await reportsOf(reporter.userId)).toHaveLength(1);
    expect(await mailsTo(reporter.user.email)).toHaveLength(1);
  });

  it(`is limited to ${REPORTS_PER_HOUR} reports an hour`, async () => {
    const reporter = await member("busy");
    const others = await Promise.all(Array.from({ length: REPORTS_PER_HOUR + 1 }, (_, i) => member(`o${i}`)));
    for (const other of others.slice(0, REPORTS_PER_HOUR))
      expect((await report(reporter, { profile_id: other.id })).status).toBe(201);
    const over = await report(reporter, { profile_id: others[REPORTS_PER_HOUR]!.id });
    expect(over.status).toBe(429);
    expect(await json(over)).toEqual({
      error: "too_many_reports",
      message: `You have sent ${REPORTS_PER_HOUR} reports in the last hour. Please try again later.`,
    });
    expect(await reportsOf(reporter.userId)).toHaveLength(REPORTS_PER_HOUR);
  });

  it("reports a message of a conversation the member is in, naming its sender; never someone else's message", async () => {
    const reporter = await member("msg");
    const sender = await member("snd");
    const outsider = await member("out");
    // The sender writes to the reporter through their conversation's object, as chat does.
    const socket = await ChatSocket.open(sender, reporter.id);
    socket.sendText(crypto.randomUUID(), "send money");
    const ack = await socket.next((f): f is Extract<ServerFrame, { type: "ack" }> => f.type === "ack", 3000);
    socket.close();
    const messageId = ack.message.id;

    const stranger = await report(outsider, { message_id: messageId, profile_id: sender.id, subject: "scam" });
    expect(stranger.status).toBe(404);
    expect((await json(stranger)).error).toBe("message_not_found");
    expect(await reportsOf(outsider.userId)).toEqual([]);
    const unnamed = await report(reporter, { message_id: messageId, subject: "scam" });
    expect((await json(unnamed)).error).toBe("message_not_found");
    const ownMessage = await report(sender, { message_id: messageId, profile_id: reporter.id, subject: "scam" });
    expect((await json(ownMessage)).error).toBe("invalid_parameter");
    expect(await reportsOf(sender.userId)).toEqual([]);

    expect((await report(reporter, { message_id: messageId, profile_id: sender.id, subject: "scam" })).status).toBe(
      201,
    );
    const pair = `${Math.min(reporter.id, sender.id)}:${Math.max(reporter.id, sender.id)}`;
    expect(await reportsOf(reporter.userId)).toMatchObject([
      { target_key: `message:${pair}:${messageId}`, profile_id: sender.id, message_id: messageId },
    ]);
    const twice = await report(reporter, { message_id: messageId, profile_id: sender.id, subject: "scam" });
    expect(await json(twice)).toMatchObject({
      error: "already_reported",
      message: "You have already reported this message. We are looking into it.",
    });
  });

  it("refuses a report about oneself, an unknown member and a bad body, and stores nothing", async () => {
    const reporter = await member("bad");
    const self = await report(reporter, { profile_id: reporter.id });
    expect(self.status).toBe(400);
    expect(await json(self)).toMatchObject({
      error: "own_profile",
      field: "profile_id",
      message: "You cannot report yourself.",
    });
    const unknown = await report(reporter, { profile_id: 999_999 });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error).toBe("profile_not_found");
    for (const body of [
      { subject: "spam?" },
      { description: "short" },
      { profile_id: -1 },
      { profile_id: "5" },
      { constructor: "x" },
    ]) {
      const res = await report(reporter, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await reportsOf(reporter.userId)).toEqual([]);
  });
});

describe("a visitor's complaint", () => {
  it("/complaints is a form, with the member or message of its link filled in", async () => {
    const visitor = new Browser(ORIGIN);
    visitor.cookies.set("locale", "en");
    const main = async (path: string) =>
      /<main[^>]*>([\s\S]*)<\/main>/.exec(await (await visitor.fetch(path)).text())![1]!;
    const form = await main("/complaints?profile=12");
    expect(form).toContain("<h1>Complaints and reports</h1>");
    expect(form).toMatch(/name="reference" value="12"/);
    expect(await main("/complaints?message=7")).toContain("About message 7");
    expect(await main("/complaints?message=x7")).not.toContain("About message");
  });

  it("needs an e-mail address, gets the confirmation there, and cannot name a message", async () => {
    const visitor = new Browser(ORIGIN);
    visitor.cookies.set("locale", "en");
    const complaint = { subject: "payment", description: "I was charged twice for one order." };
    const without = await report(visitor, complaint);
    expect(without.status).toBe(400);
    expect(await json(without)).toMatchObject({ error: "invalid_parameter", field: "email" });

    const res = await report(visitor, { ...complaint, email: "Visitor@Example.com" });
    expect(res.status).toBe(201);
    // A billing question is support's: its confirmation says so, and no notice is counted.
    expect((await json<{ report: { queue: string } }>(res)).report.queue).toBe("support");
    const confirmation = await env.DB.prepare("SELECT kind FROM outgoing_mail WHERE to_address = ?")
      .bind("Visitor@Example.com")
      .all<{ kind: string }>();
    expect(confirmation.results.map((row) => row.kind)).toEqual(["support_question"]);

    const message = await report(visitor, { ...complaint, email: "visitor@example.com", message_id: 1 });
    expect(message.status).toBe(403);
    expect((await json(message)).message).toBe("Log in to report a message.");
  });
});

describe("an operator disables an account", () => {
  it("takes the profile out of search and off its page, and ends its sessions", async () => {
    const viewer = await member("viewer");
    const target = await member("target");
    const found = async () =>
      (await json<SearchResponse>(await viewer.browser.fetch("/api/search.php?gender=any"))).profiles.map((p) => p.id);
    expect(await found()).toContain(target.id);
    expect((await target.browser.fetch("/api/user.php")).status).toBe(200);

    await disableAccount(databaseOf(env.DB), target.id, Math.floor(Date.now() / 1000));

    expect(await found()).not.toContain(target.id);
    expect((await viewer.browser.fetch(`/api/profile.php?id=${target.id}`)).status).toBe(404);
    expect((await viewer.browser.fetch(`/members/${target.id}`)).status).toBe(404);
    const gone = await target.browser.fetch("/api/user.php");
    expect(gone.status).toBe(403);
    expect((await json(gone)).error).toBe("authentication_required");
    const sessions = await env.DB.prepare(
      "SELECT count(*) AS live FROM sessions WHERE user_id = ? AND revoked_at IS NULL",
    )
      .bind(target.userId)
      .first<{ live: number }>();
    expect(sessions!.live).toBe(0);
    // Reporting the disabled member now finds nobody.
    expect((await report(viewer, { profile_id: target.id })).status).toBe(404);
  });
});

describe("keeping reports", () => {
  it("erases a report two years after it was handled, never an open one", async () => {
    const db = databaseOf(env.DB);
    const reporter = await member("keep");
    const [x, y] = [await member("x"), await member("y")];
    const ids: number[] = [];
    for (const other of [x, y])
      ids.push((await json<{ report: { id: number } }>(await report(reporter, { profile_id: other.id }))).report.id);
    const now = Math.floor(Date.now() / 1000);
    const twoYears = 2 * 365 * 24 * 60 * 60;
    await closeReportQuery(db, ids[0]!, "resolved", "warned the member", now - twoYears - 60);
    expect((await runRetention(db, now, { outboxDays: 30 })).deleted.reports).toBe(1);
    expect((await reportsOf(reporter.userId)).map((r) => r.profile_id)).toEqual([y.id]);
  });
});
