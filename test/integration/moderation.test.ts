import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { decisionKey, fileAppeal } from "../../src/server/services/moderation";
import { i18nFor } from "../../src/server/translations";
import { LANGUAGES } from "../../src/shared/locales";
import { appealDeadline, DECISION_GROUNDS, DECISION_OUTCOMES, REPORT_OUTCOMES } from "../../src/shared/moderation";
import { conversationRooms } from "../../src/server/services/chats";
import type { ChatResponse, ServerFrame } from "../../src/shared/chat";
import { ChatSocket, chatMember, clientId, type Member } from "../chat";
import { asOperator, operator } from "../console";
import { putSites, site } from "../fixtures";
import { json } from "../http";

const DOMAIN = "moderation.test";
const ORIGIN = `http://${DOMAIN}`;
const db = databaseOf(env.DB);

beforeAll(async () => {
  await putSites(site(DOMAIN));
});

let photoCounter = 0;
/** A photo of the member waiting for approval; answers its id. */
async function waitingPhoto(member: Member): Promise<number> {
  const n = `${Date.now().toString(16)}${(++photoCounter).toString(16)}${Math.random().toString(16).slice(2, 8)}`;
  const row = await env.DB.prepare(
    "INSERT INTO photos (profile_id, key, thumb_key, blur_key, status, width, height) VALUES (?, ?, ?, ?, 'pending', 480, 600) RETURNING id",
  )
    .bind(member.id, `p/${n}.jpg`, `t/${n}.jpg`, `b/${n}.jpg`)
    .first<{ id: number }>();
  return row!.id;
}

const photoStatus = async (id: number) =>
  (await env.DB.prepare("SELECT status FROM photos WHERE id = ?").bind(id).first<{ status: string }>())!.status;
const auditOf = async (kind: string, id: number | string) =>
  (
    await env.DB.prepare(
      "SELECT action, actor, reason, before, after FROM audit_log WHERE target_kind = ? AND target_id = ? ORDER BY id",
    )
      .bind(kind, String(id))
      .all<{ action: string; actor: string; reason: string | null; before: string | null; after: string | null }>()
  ).results;
const decisionsOf = async (userId: number) =>
  (
    await env.DB.prepare(
      "SELECT id, outcome, ground, facts, restricts, appeal_until, operator_id FROM moderation_decisions WHERE user_id = ? ORDER BY id",
    )
      .bind(userId)
      .all<{
        id: number;
        outcome: string;
        ground: string | null;
        facts: string | null;
        restricts: number;
        appeal_until: number | null;
        operator_id: number;
      }>()
  ).results;
const mailsTo = async (userId: number, kind: string) =>
  (
    await env.DB.prepare(
      "SELECT subject, text FROM outgoing_mail WHERE kind = ? AND to_address = (SELECT email FROM users WHERE id = ?) ORDER BY id",
    )
      .bind(kind, userId)
      .all<{ subject: string; text: string }>()
  ).results;
const accountStatus = async (userId: number) =>
  (await env.DB.prepare("SELECT status FROM users WHERE id = ?").bind(userId).first<{ status: string }>())!.status;

/** A page's member socket (live badges) of the member; `closed` turns true when the server closes it. */
async function memberSocket(member: Member): Promise<{ closed: boolean }> {
  const res = await member.browser.fetch("/api/member-socket.php?visible=1", {
    headers: { upgrade: "websocket", origin: member.browser.origin },
  });
  if (!res.webSocket) throw new Error(`no socket: ${res.status}`);
  res.webSocket.accept();
  const state = { closed: false };
  res.webSocket.addEventListener("close", () => (state.closed = true));
  await new Promise<void>((resolve) => res.webSocket!.addEventListener("message", () => resolve(), { once: true }));
  return state;
}

async function reportAbout(
  reporter: Member,
  reported: Member,
  description = "He keeps asking me for money for a plane ticket.",
): Promise<number> {
  const response = await reporter.browser.post("/api/report.php", {
    subject: "scam",
    description,
    category: "scams_and_fraud",
    good_faith: true,
    profile_id: reported.id,
  });
  expect(response.status).toBe(201);
  return (await json<{ report: { id: number } }>(response)).report.id;
}

describe("the photo queue", { timeout: 30_000 }, () => {
  it("lists waiting photos oldest first, with the member's other photos and profile, for moderators only", async () => {
    const [moderator, support] = [await operator("moderator"), await operator("support")];
    const member = await chatMember(ORIGIN, { name: "Queue" });
    const first = await waitingPhoto(member);
    const second = await waitingPhoto(member);
    const list = await (await asOperator(moderator, "/photos")).text();
    expect(list.indexOf(`href="/photos/${first}"`)).toBeGreaterThan(-1);
    expect(list.indexOf(`href="/photos/${first}"`)).toBeLessThan(list.indexOf(`href="/photos/${second}"`));
    const page = await (await asOperator(moderator, `/photos/${second}`)).text();
    expect(page).toContain(`#${first} pending`);
    expect(page).toContain("About me");
    expect((await asOperator(support, "/photos")).status).toBe(403);
    expect((await asOperator(support, `/photos/${first}/approve`, { form: {} })).status).toBe(403);
    expect(await photoStatus(first)).toBe("pending");
  });

  it("approving makes the photo public, with its decision and audit row in the same batch", async () => {
    const moderator = await operator("moderator");
    const member = await chatMember(ORIGIN);
    const photo = await waitingPhoto(member);
    expect((await asOperator(moderator, `/photos/${photo}/approve`, { form: {} })).status).toBe(200);
    expect(await photoStatus(photo)).toBe("active");
    expect(await decisionsOf(member.userId)).toMatchObject([{ outcome: "approve", restricts: 0, appeal_until: null }]);
    expect(await auditOf("photo", photo)).toMatchObject([
      {
        action: "photo.approve",
        actor: moderator,
        before: JSON.stringify({ status: "pending" }),
        after: JSON.stringify({ status: "active" }),
      },
    ]);
    expect(await mailsTo(member.userId, "statement")).toEqual([]);
  });

  it("rejecting needs a rule of the terms, and sends the member a statement of reasons in their language", async () => {
    const moderator = await operator("moderator");
    const member = await chatMember(ORIGIN);
    await env.DB.prepare("UPDATE users SET language = 'de' WHERE id = ?").bind(member.userId).run();
    const photo = await waitingPhoto(member);
    const refused = await asOperator(moderator, `/photos/${photo}/reject`, { form: { ground: "", facts: "" } });
    expect(refused.status).toBe(400);
    expect(await photoStatus(photo)).toBe("pending");
    expect(await auditOf("photo", photo)).toEqual([]);

    expect(
      (
        await asOperator(moderator, `/photos/${photo}/reject`, {
          form: { ground: "contact_details", facts: "The photo shows a phone number." },
        })
      ).status,
    ).toBe(200);
    expect(await photoStatus(photo)).toBe("rejected");
    const [decision] = await decisionsOf(member.userId);
    expect(decision).toMatchObject({
      outcome: "reject_photo",
      ground: "contact_details",
      facts: "The photo shows a phone number.",
      restricts: 1,
    });
    expect(decision!.appeal_until).toBe(
      appealDeadline(
        (await env.DB.prepare("SELECT created_at FROM moderation_decisions WHERE id = ?")
          .bind(decision!.id)
          .first<{ created_at: number }>())!.created_at,
      ),
    );
    const [mail] = await mailsTo(member.userId, "statement");
    expect(mail!.subject).toBe(i18nFor("de").t("moderation.mail.statement.subject", { site: `Testwave ${DOMAIN}` }));
    expect(mail!.text).toContain(i18nFor("de").t("moderation.outcomes.reject_photo"));
    const key = await decisionKey(env.SESSION_SECRET, decision!.id, member.userId);
    expect(mail!.text).toContain(`/decisions/${decision!.id}?key=${key}`);
    expect(await auditOf("photo", photo)).toMatchObject([
      { action: "photo.reject", reason: "The photo shows a phone number." },
    ]);
  });

  it("many moderators deciding one photo at once: it is decided once, with one decision and one audit row", async () => {
    const moderators = await Promise.all([operator("moderator"), operator("moderator"), operator("admin")]);
    for (let round = 0; round < 3; round++) {
      const member = await chatMember(ORIGIN);
      const photo = await waitingPhoto(member);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2
            ? asOperator(moderators[i % 3]!, `/photos/${photo}/approve`, { form: {} })
            : asOperator(moderators[i % 3]!, `/photos/${photo}/reject`, {
                form: { ground: "offensive", facts: `attempt ${i}` },
              }),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
      expect(await decisionsOf(member.userId)).toHaveLength(1);
      expect(await auditOf("photo", photo)).toHaveLength(1);
    }
  });
});

describe("the report queue", { timeout: 30_000 }, () => {
  it("shows the report with the reported member, earlier reports and decisions; decisions need a ground and facts", async () => {
    const moderator = await operator("moderator");
    const [reporter, other, reported] = [
      await chatMember(ORIGIN),
      await chatMember(ORIGIN),
      await chatMember(ORIGIN, { name: "Reported" }),
    ];
    const earlier = await reportAbout(other, reported, "Asked me for my bank details twice.");
    const report = await reportAbout(reporter, reported);
    const list = await (await asOperator(moderator, "/reports")).text();
    expect(list.indexOf(`Report ${earlier}`)).toBeLessThan(list.indexOf(`Report ${report}`));
    const page = await (await asOperator(moderator, `/reports/${report}`)).text();
    expect(page).toContain("He keeps asking me for money");
    expect(page).toContain("Earlier reports about this member");
    expect(page).toContain(`Report ${earlier}`);
    expect(
      (
        await asOperator(moderator, `/reports/${report}/decide`, {
          form: { outcome: "restrict", ground: "", facts: "x" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await asOperator(moderator, `/reports/${report}/decide`, {
          form: { outcome: "restrict", ground: "scam", facts: "" },
        })
      ).status,
    ).toBe(400);
    expect(await auditOf("report", report)).toEqual([]);
  });

  it("dismissing closes it, changes nothing on the member, and tells the reporter", async () => {
    const moderator = await operator("moderator");
    const [reporter, reported] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
    const report = await reportAbout(reporter, reported);
    expect(
      (await asOperator(moderator, `/reports/${report}/decide`, { form: { outcome: "dismiss", facts: "" } })).status,
    ).toBe(200);
    expect(
      (await env.DB.prepare("SELECT status FROM reports WHERE id = ?").bind(report).first<{ status: string }>())!
        .status,
    ).toBe("rejected");
    expect(await accountStatus(reported.userId)).toBe("active");
    expect(await mailsTo(reported.userId, "statement")).toEqual([]);
    const [told] = await mailsTo(reporter.userId, "notice_dismissed");
    expect(told!.text).toContain(i18nFor("en").t("moderation.report_outcomes.dismiss"));
    // The redress a notifier has: contest it here (the keyed link), the out-of-court body or a court.
    expect(told!.text).toMatch(/\/complaints\?contest=\d+&key=[\w-]+/);
    expect(told!.text).toContain("or to a court");
    expect(await auditOf("report", report)).toMatchObject([{ action: "report.dismiss" }]);
  });

  it("restricting hides the member from search; the member gets a statement, the reporter the outcome", async () => {
    const moderator = await operator("moderator");
    const [reporter, reported] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
    const report = await reportAbout(reporter, reported);
    expect(
      (
        await asOperator(moderator, `/reports/${report}/decide`, {
          form: { outcome: "restrict", ground: "scam", facts: "Asked two members for money." },
        })
      ).status,
    ).toBe(200);
    const row = await env.DB.prepare(
      "SELECT u.restricted_at, p.searchable FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?",
    )
      .bind(reported.userId)
      .first<{ restricted_at: number | null; searchable: number }>();
    expect(row!.restricted_at).not.toBeNull();
    expect(row!.searchable).toBe(0);
    expect(await mailsTo(reported.userId, "statement")).toHaveLength(1);
    expect((await mailsTo(reporter.userId, "notice_outcome"))[0]!.text).toContain(
      i18nFor("en").t("moderation.report_outcomes.restrict"),
    );
    // The member reads the statement in the app, with their session.
    const { decision } = await json<{
      decision: { outcome: string; ground: string; facts: string; automated: boolean; can_appeal: boolean };
    }>(await reported.browser.fetch(`/api/decision.php?id=${(await decisionsOf(reported.userId))[0]!.id}`));
    expect(decision).toMatchObject({
      outcome: "restrict",
      ground: "scam",
      facts: "Asked two members for money.",
      automated: false,
      can_appeal: true,
    });
  });

  it("disabling ends the member's sessions and open pages at once and writes its audit row", async () => {
    const moderator = await operator("moderator");
    const [reporter, reported] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
    const report = await reportAbout(reporter, reported);
    expect((await reported.browser.fetch("/api/user.php")).status).toBe(200);
    const page = await memberSocket(reported);
    const chat = await ChatSocket.open(reported, reporter.id);
    expect(
      (
        await asOperator(moderator, `/reports/${report}/decide`, {
          form: { outcome: "disable", ground: "harassment", facts: "Threatened another member." },
        })
      ).status,
    ).toBe(200);
    expect(await accountStatus(reported.userId)).toBe("disabled");
    // Closed before the operator's answer came, as a password change closes them (decision 0025).
    expect([page.closed, chat.closed]).toEqual([true, true]);
    expect((await reported.browser.fetch("/api/user.php")).status).toBe(403);
    expect(await auditOf("report", report)).toMatchObject([
      { action: "report.disable", actor: moderator, reason: "Threatened another member." },
    ]);
    expect(await mailsTo(reported.userId, "statement")).toHaveLength(1);
  });

  it("removing a reported message removes it for both members at once, in history and export, and leaves the money as it was", async () => {
    const moderator = await operator("moderator");
    const [reporter, reported] = [
      await chatMember(ORIGIN, { paid: true, credits: 200 }),
      await chatMember(ORIGIN, { paid: true, credits: 200 }),
    ];
    const senderPage = await ChatSocket.open(reported, reporter.id);
    const bad = clientId();
    senderPage.sendText(bad, "Send 500 euros to NL00BANK0123456789 for my ticket");
    const messageId = (await senderPage.ack(bad)).message.id;
    const kept = clientId();
    senderPage.sendText(kept, "Are you there?");
    await senderPage.ack(kept);
    const reporterPage = await ChatSocket.open(reporter, reported.id);
    const filed = await reporter.browser.post("/api/report.php", {
      subject: "scam",
      description: "He asks me for money.",
      category: "scams_and_fraud",
      good_faith: true,
      profile_id: reported.id,
      message_id: messageId,
    });
    expect(filed.status).toBe(201);
    const report = (await json<{ report: { id: number } }>(filed)).report.id;
    const money = async () => ({
      credits: (
        await env.DB.prepare("SELECT id, credits FROM users WHERE id IN (?, ?) ORDER BY id")
          .bind(reporter.userId, reported.userId)
          .all()
      ).results,
      ledger: (
        await env.DB.prepare("SELECT * FROM credit_ledger WHERE user_id IN (?, ?) ORDER BY id")
          .bind(reporter.userId, reported.userId)
          .all()
      ).results,
      holds: (
        await env.DB.prepare("SELECT * FROM chat_credit_holds WHERE user_id IN (?, ?) ORDER BY user_id")
          .bind(reporter.userId, reported.userId)
          .all()
      ).results,
    });
    const before = await money();

    expect(
      (
        await asOperator(moderator, `/reports/${report}/decide`, {
          form: { outcome: "remove_content", ground: "scam", facts: "Asked a member for money in a chat message." },
        })
      ).status,
    ).toBe(200);

    // Both open pages are told at once.
    const removed = (f: ServerFrame) => f.type === "removed" && f.message_id === messageId;
    await senderPage.next(removed);
    await reporterPage.next(removed);
    // The history of both shows it removed, without its text; the message after it stays.
    for (const [member, peer] of [
      [reporter, reported],
      [reported, reporter],
    ] as const) {
      const history = await json<ChatResponse>(await member.browser.fetch(`/api/chat.php?profile=${peer.id}`));
      const shown = history.messages.find((m) => m.id === messageId)!;
      expect(shown).toMatchObject({ removed: true, body: null, image: null, gift: null, kind: "text" });
      expect(history.messages.find((m) => m.id !== messageId)).toMatchObject({
        removed: false,
        body: "Are you there?",
      });
      expect(JSON.stringify(history)).not.toContain("NL00BANK");
    }
    // The export shows it removed, its charge as it was.
    const archive = await json<{
      messages: { message_id: number; body: string | null; removed: boolean; credits_charged: number }[];
      chat_charges: { message_id: number }[];
    }>(await reported.browser.fetch("/api/my-data.php"));
    const exported = archive.messages.find((m) => m.message_id === messageId)!;
    expect(exported).toMatchObject({ body: null, removed: true });
    expect(exported.credits_charged).toBeGreaterThan(0);
    expect(archive.chat_charges.map((c) => c.message_id)).toContain(messageId);
    expect(JSON.stringify(archive)).not.toContain("NL00BANK");
    // The decision flow of every restricting decision: audit row, statement to the sender, outcome to the reporter.
    expect(await auditOf("report", report)).toMatchObject([{ action: "report.remove_content", actor: moderator }]);
    expect(JSON.parse((await auditOf("report", report))[0]!.after!)).toMatchObject({ removed_message: messageId });
    expect(await mailsTo(reported.userId, "statement")).toHaveLength(1);
    expect((await mailsTo(reporter.userId, "notice_outcome"))[0]!.text).toContain(
      i18nFor("en").t("moderation.report_outcomes.remove_content"),
    );
    expect(await decisionsOf(reported.userId)).toMatchObject([{ outcome: "remove_message", restricts: 1 }]);
    expect((await mailsTo(reported.userId, "statement"))[0]!.text).toContain(
      i18nFor("en").t("moderation.outcomes.remove_message"),
    );
    // The money is untouched: balances, ledger rows and holds are as they were.
    expect(await money()).toEqual(before);
    // The member's profile keeps its text: only the message went.
    expect(
      (await env.DB.prepare("SELECT name FROM profiles WHERE id = ?")
        .bind(reported.id)
        .first<{ name: string | null }>())!.name,
    ).not.toBeNull();

    // A second removal changes nothing: the report is closed, and the object's call finds nothing left to remove.
    expect(
      (
        await asOperator(moderator, `/reports/${report}/decide`, {
          form: { outcome: "remove_content", ground: "scam", facts: "again" },
        })
      ).status,
    ).toBe(409);
    const room = conversationRooms(env.CONVERSATIONS)(reported.id, reporter.id);
    expect(await room.removeMessage(reported.id, reporter.id, messageId, Date.now())).toBeNull();
    const after = await json<ChatResponse>(await reporter.browser.fetch(`/api/chat.php?profile=${reported.id}`));
    expect(after.messages.find((m) => m.id === messageId)).toMatchObject({ removed: true, body: null });
    expect(await money()).toEqual(before);
    senderPage.close();
    reporterPage.close();
  });

  it("a message is removed once when many removals race", async () => {
    const [one, other] = [
      await chatMember(ORIGIN, { paid: true, credits: 200 }),
      await chatMember(ORIGIN, { paid: true, credits: 200 }),
    ];
    const page = await ChatSocket.open(one, other.id);
    const id = clientId();
    page.sendText(id, "something to remove");
    const messageId = (await page.ack(id)).message.id;
    const room = conversationRooms(env.CONVERSATIONS)(one.id, other.id);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => room.removeMessage(one.id, other.id, messageId, Date.now())),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    // One frame told the open page.
    await page.next((f) => f.type === "removed" && f.message_id === messageId);
    expect(page.frames.filter((f) => f.type === "removed")).toEqual([]);
    // A message that does not exist is not removed.
    expect(await room.removeMessage(one.id, other.id, messageId + 100, Date.now())).toBeNull();
    page.close();
  });

  it("a report is decided once when moderators race", async () => {
    const moderators = await Promise.all([operator("moderator"), operator("moderator")]);
    const [reporter, reported] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
    const report = await reportAbout(reporter, reported);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        asOperator(moderators[i % 2]!, `/reports/${report}/decide`, {
          form: { outcome: REPORT_OUTCOMES[i % 2 ? 0 : 1], ground: "scam", facts: `attempt ${i}` },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await auditOf("report", report)).toHaveLength(1);
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM moderation_decisions WHERE report_id = ?")
        .bind(report)
        .first<{ n: number }>())!.n,
    ).toBe(1);
  });
});

describe("statements of reasons", { timeout: 30_000 }, () => {
  it("exist in all 11 languages: every outcome, rule, page text and mail, none left in English", async () => {
    const en = i18nFor("en").t;
    const keys = [
      "moderation.title",
      ...DECISION_OUTCOMES.map((o) => `moderation.outcomes.${o}`),
      ...DECISION_GROUNDS.flatMap((g) => [`moderation.grounds.${g}.name`, `moderation.grounds.${g}.rule`]),
      ...REPORT_OUTCOMES.map((o) => `moderation.report_outcomes.${o}`),
      ...[
        "what",
        "when",
        "facts",
        "ground",
        "automated_no",
        "automated_yes",
        "appeal_title",
        "appeal_intro",
        "appeal_label",
        "appeal_send",
        "appeal_open",
        "appeal_upheld",
        "appeal_reversed",
        "appeal_closed",
        "no_appeal",
        "other_remedies",
      ].map((k) => `moderation.page.${k}`),
      ...["statement", "report_outcome", "appeal_outcome"].flatMap((m) => [
        `moderation.mail.${m}.subject`,
        `moderation.mail.${m}.text`,
        `moderation.mail.${m}.button`,
      ]),
    ];
    for (const language of LANGUAGES) {
      const t = i18nFor(language).t;
      for (const key of keys) {
        const text = t(key, { date: "D", site: "S", id: 1, outcome: "O", min: 1, max: 2 });
        expect(text, `${language} ${key}`).not.toBe(key);
        expect(text.length, `${language} ${key}`).toBeGreaterThan(0);
        if (language !== "en")
          expect(text, `${language} ${key} is English`).not.toBe(
            en(key, { date: "D", site: "S", id: 1, outcome: "O", min: 1, max: 2 }),
          );
      }
    }
  });

  it("open for their member only: by session or the mailed key, never for someone else", async () => {
    const moderator = await operator("moderator");
    const [member, stranger] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
    const photo = await waitingPhoto(member);
    await asOperator(moderator, `/photos/${photo}/reject`, { form: { ground: "explicit_content", facts: "" } });
    const [decision] = await decisionsOf(member.userId);
    const key = await decisionKey(env.SESSION_SECRET, decision!.id, member.userId);
    expect((await member.browser.fetch(`/api/decision.php?id=${decision!.id}`)).status).toBe(200);
    expect((await stranger.browser.fetch(`/api/decision.php?id=${decision!.id}`)).status).toBe(404);
    expect((await stranger.browser.fetch(`/api/decision.php?id=${decision!.id}&key=${key}x`)).status).toBe(404);
    const visitor = await (
      await import("../http")
    ).fetchWorker(`${ORIGIN}/api/decision.php?id=${decision!.id}&key=${key}`);
    expect(visitor.status).toBe(200);
    // The page itself renders it (server-side) in the member's language.
    const page = await member.browser.fetch(`/decisions/${decision!.id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(i18nFor("en").t("moderation.grounds.explicit_content.rule"));
  });
});

describe("appeals", { timeout: 30_000 }, () => {
  async function restricted() {
    const first = await operator("moderator");
    const [reporter, member] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
    const report = await reportAbout(reporter, member);
    await asOperator(first, `/reports/${report}/decide`, {
      form: { outcome: "restrict", ground: "scam", facts: "Asked for money." },
    });
    const [decision] = await decisionsOf(member.userId);
    return { first, member, decision: decision! };
  }

  it("once: a second appeal of the same decision is refused, also when many are sent at once", async () => {
    const { member, decision } = await restricted();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        member.browser.post("/api/appeal.php", { decision_id: decision.id, text: `I only asked once, attempt ${i}.` }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refusals = answers.filter((a) => a.status !== 201);
    expect(refusals.every((a) => a.status === 409)).toBe(true);
    expect((await json<{ message: string }>(refusals[0]!)).message).toBe(
      i18nFor("en").t("moderation.errors.already_appealed"),
    );
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM appeals WHERE decision_id = ?")
        .bind(decision.id)
        .first<{ n: number }>())!.n,
    ).toBe(1);
  });

  it("within six months of the decision: taken on its last day, refused the second after", async () => {
    const { member, decision } = await restricted();
    const deadline = decision.appeal_until!;
    await expect(
      fileAppeal(db, member.userId, { decision_id: decision.id, text: "Too late for this one." }, deadline + 1),
    ).rejects.toMatchObject({ code: "appeal_closed", status: 400 });
    await expect(
      fileAppeal(db, member.userId, { decision_id: decision.id, text: "Just in time for this." }, deadline),
    ).resolves.toMatchObject({ id: expect.any(Number) });
  });

  it("six calendar months: the end of a shorter month is its last day", () => {
    expect(new Date(appealDeadline(Date.UTC(2026, 7, 31, 12) / 1000) * 1000).toISOString()).toBe(
      "2027-02-28T12:00:00.000Z",
    );
    expect(new Date(appealDeadline(Date.UTC(2026, 0, 15, 8) / 1000) * 1000).toISOString()).toBe(
      "2026-07-15T08:00:00.000Z",
    );
  });

  it("only of a restricting decision, and only by its member", async () => {
    const moderator = await operator("moderator");
    const [reporter, warned, stranger] = [await chatMember(ORIGIN), await chatMember(ORIGIN), await chatMember(ORIGIN)];
    const report = await reportAbout(reporter, warned);
    await asOperator(moderator, `/reports/${report}/decide`, {
      form: { outcome: "warn", ground: "spam", facts: "Sent the same text to fifty members." },
    });
    const [warning] = await decisionsOf(warned.userId);
    expect(
      (await warned.browser.post("/api/appeal.php", { decision_id: warning!.id, text: "This is not spam at all." }))
        .status,
    ).toBe(400);
    const { decision } = await restricted();
    expect(
      (await stranger.browser.post("/api/appeal.php", { decision_id: decision.id, text: "Not my decision but still." }))
        .status,
    ).toBe(404);
  });

  it("decided by another operator than the first decider; reversing lifts the restriction", async () => {
    const { first, member, decision } = await restricted();
    const appeal = await json<{ decision: { appeal: { status: string } } }>(
      await member.browser.post("/api/appeal.php", {
        decision_id: decision.id,
        text: "I never asked anyone for money.",
      }),
    );
    expect(appeal.decision.appeal.status).toBe("open");
    const appealId = (await env.DB.prepare("SELECT id FROM appeals WHERE decision_id = ?")
      .bind(decision.id)
      .first<{ id: number }>())!.id;

    const same = await asOperator(first, `/appeals/${appealId}/decide`, {
      form: { decision: "reverse", note: "I was wrong." },
    });
    expect(same.status).toBe(403);
    expect(
      (await env.DB.prepare("SELECT status FROM appeals WHERE id = ?").bind(appealId).first<{ status: string }>())!
        .status,
    ).toBe("open");

    const second = await operator("moderator");
    expect(
      (
        await asOperator(second, `/appeals/${appealId}/decide`, {
          form: { decision: "reverse", note: "The messages show no request for money." },
        })
      ).status,
    ).toBe(200);
    expect(
      (await env.DB.prepare("SELECT status, decided_by FROM appeals WHERE id = ?")
        .bind(appealId)
        .first<{ status: string; decided_by: number }>())!.status,
    ).toBe("reversed");
    const row = await env.DB.prepare(
      "SELECT u.restricted_at, p.searchable FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?",
    )
      .bind(member.userId)
      .first<{ restricted_at: number | null; searchable: number }>();
    expect(row).toEqual({ restricted_at: null, searchable: 1 });
    expect(await auditOf("appeal", appealId)).toMatchObject([{ action: "appeal.reversed", actor: second }]);
    expect((await mailsTo(member.userId, "appeal_outcome"))[0]!.text).toContain(
      i18nFor("en").t("moderation.outcomes.appeal_reversed"),
    );
  });

  it("a disabled member, who cannot log in, appeals with the mailed key and is enabled again when it is reversed", async () => {
    const first = await operator("moderator");
    const [reporter, member] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
    const report = await reportAbout(reporter, member);
    await asOperator(first, `/reports/${report}/decide`, {
      form: { outcome: "disable", ground: "fake_profile", facts: "The photos are of a model." },
    });
    const [decision] = await decisionsOf(member.userId);
    const key = await decisionKey(env.SESSION_SECRET, decision!.id, member.userId);
    const visitor = new (await import("../http")).Browser(ORIGIN);
    expect(
      (await visitor.post("/api/appeal.php", { decision_id: decision!.id, text: "These are my own photos." })).status,
    ).toBe(404);
    expect(
      (await visitor.post("/api/appeal.php", { decision_id: decision!.id, key, text: "These are my own photos." }))
        .status,
    ).toBe(201);
    const appealId = (await env.DB.prepare("SELECT id FROM appeals WHERE decision_id = ?")
      .bind(decision!.id)
      .first<{ id: number }>())!.id;
    expect(
      (
        await asOperator(await operator("admin"), `/appeals/${appealId}/decide`, {
          form: { decision: "reverse", note: "Verified: the photos are hers." },
        })
      ).status,
    ).toBe(200);
    expect(await accountStatus(member.userId)).toBe("active");
  });
});
