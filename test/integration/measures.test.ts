/**
 * Graded, time-limited measures (docs/decisions/0061): each is enforced while in force, ends by itself
 * at its end (the rule reads `now`), can be lifted early, and its statement of reasons holds every
 * element of DSA Art. 17(3) in the member's language.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { measureRefusal } from "../../src/server/measure-refusal";
import { decisionKey } from "../../src/server/services/moderation";
import { i18nFor } from "../../src/server/translations";
import { FACT_TEMPLATES, MEASURE_PERIODS, UNTIL_LIFTED } from "../../src/shared/moderation";
import { ChatSocket, chatMember, clientId, creditsOf, type Member } from "../chat";
import { asOperator, operator } from "../console";
import { putSites, site } from "../fixtures";
import { Browser, json } from "../http";

const DOMAIN = "measures.test";
const ORIGIN = `http://${DOMAIN}`;

beforeAll(async () => {
  await putSites(site(DOMAIN));
});

async function reportAbout(reporter: Member, reported: Member): Promise<number> {
  const response = await reporter.browser.post("/api/report.php", {
    subject: "harassment",
    description: "Keeps sending me insults after I said no.",
    category: "illegal_or_harmful_speech",
    good_faith: true,
    profile_id: reported.id,
  });
  expect(response.status).toBe(201);
  return (await json<{ report: { id: number } }>(response)).report.id;
}

async function decide(report: number, form: Record<string, string>) {
  const moderator = await operator("moderator");
  const answer = await asOperator(moderator, `/reports/${report}/decide`, { form });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

const mailsTo = async (userId: number, kind: string) =>
  (
    await env.DB.prepare(
      "SELECT subject, text FROM outgoing_mail WHERE kind = ? AND to_address = (SELECT email FROM users WHERE id = ?) ORDER BY id",
    )
      .bind(kind, userId)
      .all<{ subject: string; text: string }>()
  ).results;

const latestDecision = async (userId: number) =>
  (await env.DB.prepare(
    "SELECT id, outcome, measure, initiative, detection_automated, content_scope, territorial_scope, starts_at, ends_at, lifted_at, basis, terms_clause, fact_template FROM moderation_decisions WHERE user_id = ? ORDER BY id DESC LIMIT 1",
  )
    .bind(userId)
    .first<Record<string, unknown>>())!;

async function sendOnce(from: Member, to: Member, body: string) {
  const socket = await ChatSocket.open(from, to.id);
  const id = clientId();
  socket.sendText(id, body);
  const reply = await socket.reply(id);
  socket.close();
  return reply;
}

describe("a chat restriction", () => {
  it("refuses the member's messages with the end date in their language, and lets them write again once lifted", async () => {
    const [reporter, reported] = [await chatMember(ORIGIN), await chatMember(ORIGIN, { credits: 100, paid: true })];
    await decide(await reportAbout(reporter, reported), {
      outcome: "restrict_chat",
      ground: "harassment",
      facts: "Sent insults to a member who had said no.",
      period: "week",
    });
    const decision = await latestDecision(reported.userId);
    expect(decision).toMatchObject({ outcome: "restrict_chat", measure: "restrict_chat", initiative: "notice" });
    expect(Number(decision.ends_at) - Number(decision.starts_at)).toBe(MEASURE_PERIODS.week);

    const refused = await sendOnce(reported, reporter, "Hello again");
    expect(refused).toMatchObject({ type: "error", error: "chat_restricted" });
    expect((refused as { message: string }).message).toContain("You cannot send messages until");
    // Nothing was charged for the refused message.
    expect(await creditsOf(reported)).toBe(100);
    // The member can still sign in and read: only sending stops.
    expect((await reported.browser.fetch("/api/user.php")).status).toBe(200);

    const support = await operator("support");
    const lifted = await asOperator(support, `/members/${reported.userId}/decisions/${decision.id}/lift`, {
      form: { reason: "Apologised, and the reporter agreed." },
    });
    expect(lifted.status, await lifted.clone().text()).toBe(200);
    expect((await latestDecision(reported.userId)).lifted_at).not.toBeNull();
    expect(await sendOnce(reported, reporter, "Sorry about before")).toMatchObject({ type: "ack" });
    const audit = await env.DB.prepare(
      "SELECT reason FROM audit_log WHERE action = 'decision.lift' ORDER BY id DESC LIMIT 1",
    ).first<{ reason: string }>();
    expect(audit!.reason).toBe("Apologised, and the reporter agreed.");
    expect(await mailsTo(reported.userId, "lifted")).toHaveLength(1);
  });

  it("ends by itself at its end: the rule compares with now", () => {
    const end = 1_800_000_000;
    expect(measureRefusal({ chatRestrictedUntil: end }, end - 1)).toMatchObject({ code: "chat_restricted" });
    expect(measureRefusal({ chatRestrictedUntil: end }, end)).toBeNull();
    expect(measureRefusal({ suspendedUntil: UNTIL_LIFTED }, end + 10 * 365 * 86_400)).toMatchObject({
      code: "suspended",
      key: "moderation.enforced.suspended_until_lifted",
    });
  });
});

describe("a suspension", () => {
  it("ends the member's sessions and refuses signing in, saying until when", async () => {
    const [reporter, reported] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
    expect((await reported.browser.fetch("/api/user.php")).status).toBe(200);
    await decide(await reportAbout(reporter, reported), {
      outcome: "suspend",
      ground: "harassment",
      facts: "Threatened a member after being blocked.",
      period: "day",
    });
    expect((await reported.browser.fetch("/api/user.php")).status).not.toBe(200);
    const login = await reported.browser.post("/api/user.php", {
      email: reported.user.email,
      password: "a good password",
    });
    expect(login.status).toBe(403);
    const body = await json<{ error: string; message: string }>(login);
    expect(body.error).toBe("suspended");
    expect(body.message).toContain("Your account is suspended until");
  });
});

describe("a statement of reasons in the member's language", () => {
  for (const language of ["nl", "pl"] as const) {
    it(`holds every element in ${language}, with the facts in ${language} and the moderator's words marked`, async () => {
      const [reporter, reported] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
      await env.DB.prepare("UPDATE users SET language = ? WHERE id = ?").bind(language, reported.userId).run();
      reported.browser.cookies.set("locale", language);
      const report = await reportAbout(reporter, reported);
      const template = `harassment.${FACT_TEMPLATES.harassment[0]}`;
      await decide(report, {
        outcome: "restrict_search",
        ground: "harassment",
        fact_template: template,
        facts: "Three members reported the same messages.",
        period: "month",
      });
      const decision = await latestDecision(reported.userId);
      expect(decision).toMatchObject({
        measure: "restrict_search",
        initiative: "notice",
        detection_automated: 0,
        basis: "terms",
      });
      expect(decision.ends_at).not.toBeNull();
      expect(decision.terms_clause).toBeTruthy();
      const t = i18nFor(language).t;
      const en = i18nFor("en").t;
      const text = (await mailsTo(reported.userId, "statement")).at(-1)?.text ?? "";
      for (const key of [
        "moderation.statement.measure",
        "moderation.statement.scope",
        "moderation.statement.duration",
        "moderation.statement.initiative",
        "moderation.statement.automated",
        "moderation.statement.basis",
        "moderation.statement.redress",
        "moderation.statement.own_words",
      ]) {
        expect(text, key).toContain(t(key));
        expect(t(key), key).not.toBe(en(key));
      }
      expect(text).toContain(t(`moderation.fact_templates.${template}`));
      expect(t(`moderation.fact_templates.${template}`)).not.toBe(en(`moderation.fact_templates.${template}`));
      expect(text).toContain("Three members reported the same messages.");
    });
  }
});

describe("a reversed appeal", () => {
  for (const measure of ["restrict_chat", "suspend"] as const) {
    it(`lifts a ${measure === "suspend" ? "suspension" : "chat restriction"} at once: the member writes and signs in again`, async () => {
      const [reporter, reported] = [await chatMember(ORIGIN), await chatMember(ORIGIN, { credits: 100, paid: true })];
      await decide(await reportAbout(reporter, reported), {
        outcome: measure,
        ground: "harassment",
        facts: "Insulted a member.",
        period: "lifted",
      });
      const decision = await latestDecision(reported.userId);
      const key = await decisionKey(env.SESSION_SECRET, Number(decision.id), reported.userId);
      const filed = await new Browser(ORIGIN).post("/api/appeal.php", {
        decision_id: decision.id,
        key,
        text: "Those were not my messages, someone used my phone.",
      });
      expect(filed.status).toBe(201);
      const appeal = (await env.DB.prepare("SELECT id FROM appeals WHERE decision_id = ?")
        .bind(decision.id)
        .first<{ id: number }>())!.id;
      const decided = await asOperator(await operator("moderator"), `/appeals/${appeal}/decide`, {
        form: { decision: "reverse", note: "The messages came from another device; we believe you." },
      });
      expect(decided.status, await decided.clone().text()).toBe(200);
      const restrictions = await env.DB.prepare("SELECT chat_restricted_until, suspended_until FROM users WHERE id = ?")
        .bind(reported.userId)
        .first<{ chat_restricted_until: number | null; suspended_until: number | null }>();
      const now = Math.floor(Date.now() / 1000);
      expect(
        measureRefusal(
          { chatRestrictedUntil: restrictions!.chat_restricted_until, suspendedUntil: restrictions!.suspended_until },
          now,
        ),
      ).toBeNull();
      if (measure === "suspend") {
        const login = await reported.browser.post("/api/user.php", {
          email: reported.user.email,
          password: "a good password",
        });
        expect(login.status).toBe(200);
      }
      expect(await sendOnce(reported, reporter, "Thank you for looking again")).toMatchObject({ type: "ack" });
    });
  }
  it("calls back a deletion by an operator while it is pending: the member signs in again and is in search", async () => {
    const member = await chatMember(ORIGIN);
    const statement = {
      ground: "fake_profile",
      fact_template: "fake_profile.false_details",
      facts: "Checked by hand.",
    };
    const asked = await asOperator(await operator("support", "moderator"), `/members/${member.userId}/delete`, {
      form: { reason: "fake profile", confirmed: "yes", ...statement },
    });
    expect(asked.status, await asked.clone().text()).toBe(200);
    const request = await env.DB.prepare(
      "SELECT id FROM operator_requests WHERE target_kind = 'member' AND target_id = ? AND status = 'waiting'",
    )
      .bind(String(member.userId))
      .first<{ id: number }>();
    const confirmed = await asOperator(await operator("support", "moderator"), `/requests/${request!.id}/confirm`, {
      form: { reason: "checked it", confirmed: "yes" },
    });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    const statusOf = async () =>
      (await env.DB.prepare(
        "SELECT u.status, p.searchable FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?",
      )
        .bind(member.userId)
        .first<{ status: string; searchable: number }>())!;
    expect(await statusOf()).toMatchObject({ status: "pending_deletion", searchable: 0 });
    // The member is sent the statement, not the link that undoes a deletion they asked for themselves.
    expect(await mailsTo(member.userId, "statement")).toHaveLength(1);
    expect(await mailsTo(member.userId, "deletion")).toHaveLength(0);
    const decision = await latestDecision(member.userId);
    expect(decision.outcome).toBe("delete");
    const key = await decisionKey(env.SESSION_SECRET, Number(decision.id), member.userId);
    const filed = await new Browser(ORIGIN).post("/api/appeal.php", {
      decision_id: decision.id,
      key,
      text: "This is my real profile; I can show my passport.",
    });
    expect(filed.status).toBe(201);
    const appeal = (await env.DB.prepare("SELECT id FROM appeals WHERE decision_id = ?")
      .bind(decision.id)
      .first<{ id: number }>())!.id;
    const decided = await asOperator(await operator("moderator"), `/appeals/${appeal}/decide`, {
      form: { decision: "reverse", note: "The passport matches the photos." },
    });
    expect(decided.status, await decided.clone().text()).toBe(200);
    expect(await statusOf()).toMatchObject({ status: "active", searchable: 1 });
    const login = await member.browser.post("/api/user.php", { email: member.user.email, password: "a good password" });
    expect(login.status).toBe(200);
  });
});
