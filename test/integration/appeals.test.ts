import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { clearSiteCache } from "../../src/server/edge/site";
import { decisionKey, fileAppeal } from "../../src/server/services/moderation";
import { runRetention } from "../../src/server/services/retention";
import { i18nFor } from "../../src/server/translations";
import { LANGUAGES } from "../../src/shared/locales";
import { companyKey } from "../../src/shared/settings";
import type { ChatResponse } from "../../src/shared/chat";
import type { Statement } from "../../src/shared/moderation";
import { ChatSocket, chatMember, clientId, type Member } from "../chat";
import { asOperator, operator } from "../console";
import { COMPANY, putSites, site } from "../fixtures";
import { Browser, json } from "../http";

const DOMAIN = "appeals.test";
const ORIGIN = `http://${DOMAIN}`;
const DISPUTE_BODY = { name: "Online Dispute Board Europe", url: "https://disputes.example.eu/start" };

beforeAll(async () => {
  await putSites(site(DOMAIN));
  await env.SETTINGS.put(companyKey("testco"), JSON.stringify({ ...COMPANY, dispute_body: DISPUTE_BODY }));
  clearSiteCache();
});

let photoCounter = 0;
/** A photo of the member with this status; answers its id. */
async function photo(member: Member, status: "active" | "pending" | "rejected", position: number): Promise<number> {
  const n = `${Date.now().toString(16)}${(++photoCounter).toString(16)}${Math.random().toString(16).slice(2, 8)}`;
  const row = await env.DB.prepare(
    "INSERT INTO photos (profile_id, key, thumb_key, blur_key, status, position, width, height) VALUES (?, ?, ?, ?, ?, ?, 480, 600) RETURNING id",
  )
    .bind(member.id, `p/${n}.jpg`, `t/${n}.jpg`, `b/${n}.jpg`, status, position)
    .first<{ id: number }>();
  await env.PHOTOS.put(`p/${n}.jpg`, `bytes ${n}`, { httpMetadata: { contentType: "image/jpeg" } });
  await env.PHOTOS.put(`t/${n}.jpg`, `thumb ${n}`, { httpMetadata: { contentType: "image/jpeg" } });
  return row!.id;
}

/** Everything of a profile a removal or disabling touches, to compare before and after. */
async function profileState(member: Member) {
  const profile = await env.DB.prepare(
    "SELECT p.about_me, p.main_photo_id, p.has_photo, p.searchable, p.status AS profile_status, u.status, u.restricted_at FROM profiles p JOIN users u ON u.id = p.user_id WHERE p.id = ?",
  )
    .bind(member.id)
    .first();
  const photos = (
    await env.DB.prepare("SELECT id, status, position FROM photos WHERE profile_id = ? ORDER BY id")
      .bind(member.id)
      .all()
  ).results;
  return { profile, photos };
}

async function reportAbout(reporter: Member, reported: Member, messageId?: number): Promise<number> {
  const response = await reporter.browser.post("/api/report.php", {
    subject: "scam",
    description: "She asked me for money for her sick mother.",
    category: "scams_and_fraud",
    good_faith: true,
    profile_id: reported.id,
    ...(messageId ? { message_id: messageId } : {}),
  });
  expect(response.status).toBe(201);
  return (await json<{ report: { id: number } }>(response)).report.id;
}

const keptOf = async (decisionId: number) =>
  (await env.DB.prepare("SELECT kept_content FROM moderation_decisions WHERE id = ?")
    .bind(decisionId)
    .first<{ kept_content: string | null }>())!.kept_content;
const decisionOf = async (reportId: number) =>
  (await env.DB.prepare("SELECT id, kept_content FROM moderation_decisions WHERE report_id = ?")
    .bind(reportId)
    .first<{ id: number; kept_content: string | null }>())!;
const appealIdOf = async (decisionId: number) =>
  (await env.DB.prepare("SELECT id FROM appeals WHERE decision_id = ?").bind(decisionId).first<{ id: number }>())!.id;
const mailsTo = async (member: Member, kind: string) =>
  (
    await env.DB.prepare(
      "SELECT subject, text, html FROM outgoing_mail WHERE kind = ? AND to_address = (SELECT email FROM users WHERE id = ?) ORDER BY id",
    )
      .bind(kind, member.userId)
      .all<{ subject: string; text: string; html: string }>()
  ).results;

/** A member with a text, a main photo, a second public photo, one waiting and one refused earlier. */
async function memberWithContent(language = "en") {
  const member = await chatMember(ORIGIN);
  const photos = {
    main: await photo(member, "active", 0),
    second: await photo(member, "active", 1),
    waiting: await photo(member, "pending", 2),
    refused: await photo(member, "rejected", 3),
  };
  await env.DB.prepare("UPDATE profiles SET about_me = ?, main_photo_id = ? WHERE id = ?")
    .bind("Hi! I love hiking 🏔️ and\nlong dinners. Call me: not here.", photos.main, member.id)
    .run();
  await env.DB.prepare("UPDATE users SET language = ? WHERE id = ?").bind(language, member.userId).run();
  return { member, photos };
}

/** A decision by one moderator, the member's appeal of it, and its reversal or upholding by another. */
async function decideAndAppeal(
  reported: Member,
  outcome: string,
  reverse: boolean,
  note = "We looked again: the messages show no request for money.",
) {
  const [first, second] = [await operator("moderator"), await operator("moderator")];
  const reporter = await chatMember(ORIGIN);
  const report = await reportAbout(reporter, reported);
  expect(
    (
      await asOperator(first, `/reports/${report}/decide`, {
        form: { outcome, ground: "scam", facts: "Asked a member for money." },
      })
    ).status,
  ).toBe(200);
  const decision = await decisionOf(report);
  const key = await decisionKey(env.SESSION_SECRET, decision.id, reported.userId);
  // With the mailed key: a disabled member cannot log in.
  const filed = await new Browser(ORIGIN).post("/api/appeal.php", {
    decision_id: decision.id,
    key,
    text: "I never asked anyone for money, please look again.",
  });
  expect(filed.status).toBe(201);
  const appeal = await appealIdOf(decision.id);
  const decided = await asOperator(second, `/appeals/${appeal}/decide`, {
    form: { decision: reverse ? "reverse" : "uphold", note },
  });
  expect(decided.status).toBe(200);
  return { decision, key, appeal, report, reporter };
}

describe("reversing an appeal undoes the measure exactly, in the same request", { timeout: 60_000 }, () => {
  it("remove the content: the text, the main photo and every photo's status come back as they were", async () => {
    const { member, photos } = await memberWithContent();
    const before = await profileState(member);
    const [first, second] = [await operator("moderator"), await operator("moderator")];
    const report = await reportAbout(await chatMember(ORIGIN), member);
    await asOperator(first, `/reports/${report}/decide`, {
      form: { outcome: "remove_content", ground: "contact_details", facts: "The profile gives a phone number." },
    });
    // Removed: the text, the main photo, every shown or waiting photo hidden (not deleted).
    const removed = await profileState(member);
    expect(removed.profile).toMatchObject({ about_me: null, main_photo_id: null, has_photo: 0 });
    expect(removed.photos.map((p) => p.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    for (const id of Object.values(photos))
      expect(await env.DB.prepare("SELECT 1 AS x FROM photos WHERE id = ?").bind(id).first()).not.toBeNull();
    const decision = await decisionOf(report);
    expect(JSON.parse(decision.kept_content!)).toEqual({
      aboutMe: before.profile!.about_me,
      mainPhotoId: photos.main,
      photos: [
        { id: photos.main, status: "active" },
        { id: photos.second, status: "active" },
        { id: photos.waiting, status: "pending" },
      ],
    });
    await member.browser.post("/api/appeal.php", { decision_id: decision.id, text: "My number was not in it, look." });
    expect(
      (
        await asOperator(second, `/appeals/${await appealIdOf(decision.id)}/decide`, {
          form: { decision: "reverse", note: "It was a date, not a phone number." },
        })
      ).status,
    ).toBe(200);
    // Exactly as before: the same text to the character, the same main photo, each photo's own status
    // (the one refused earlier stays refused, the waiting one waits again), in search as before.
    expect(await profileState(member)).toEqual(before);
    const own = await json<{ photos: { id: number; status: string }[] }>(await member.browser.fetch("/api/photos.php"));
    expect(own.photos.map((p) => [p.id, p.status])).toEqual(
      // In the member's order, which is the order they were added here.
      before.photos.map((p) => [p.id, p.status]),
    );
  });

  it("a removed chat message: back for both members with its text, and shown to the reviewer as it was", async () => {
    const [reporter, sender] = [
      await chatMember(ORIGIN, { paid: true, credits: 200 }),
      await chatMember(ORIGIN, { paid: true, credits: 200 }),
    ];
    const page = await ChatSocket.open(sender, reporter.id);
    const sent = clientId();
    const text = "Meet me at the station at 8, the café with the red door ☕";
    page.sendText(sent, text);
    const messageId = (await page.ack(sent)).message.id;
    page.close();
    const report = await reportAbout(reporter, sender, messageId);
    const [first, second] = [await operator("moderator"), await operator("moderator")];
    await asOperator(first, `/reports/${report}/decide`, {
      form: { outcome: "remove_content", ground: "contact_details", facts: "A meeting place in a message." },
    });
    const history = async (member: Member, peer: Member) =>
      (await json<ChatResponse>(await member.browser.fetch(`/api/chat.php?profile=${peer.id}`))).messages.find(
        (m) => m.id === messageId,
      );
    expect(await history(reporter, sender)).toMatchObject({ removed: true, body: null });
    const decision = await decisionOf(report);
    expect(JSON.parse(decision.kept_content!).message).toMatchObject({ id: messageId, kind: "text", body: text });
    await sender.browser.post("/api/appeal.php", { decision_id: decision.id, text: "A station is no contact detail." });
    const appeal = await appealIdOf(decision.id);
    const evidence = await (await asOperator(second, `/appeals/${appeal}`)).text();
    expect(evidence).toContain('data-evidence="removed-message"');
    expect(evidence).toContain("the café with the red door");
    await asOperator(second, `/appeals/${appeal}/decide`, {
      form: { decision: "reverse", note: "A public place is not a contact detail." },
    });
    for (const [member, peer] of [
      [reporter, sender],
      [sender, reporter],
    ] as const)
      expect(await history(member, peer)).toMatchObject({ removed: false, body: text });
  });

  it("remove the content, upheld: nothing comes back", async () => {
    const { member } = await memberWithContent();
    await decideAndAppeal(member, "remove_content", false);
    const after = await profileState(member);
    expect(after.profile).toMatchObject({ about_me: null, main_photo_id: null });
    expect(after.photos.every((p) => p.status === "rejected")).toBe(true);
  });

  it("a text the member wrote since the removal stays theirs; the photos still come back", async () => {
    const { member, photos } = await memberWithContent();
    const [first, second] = [await operator("moderator"), await operator("moderator")];
    const report = await reportAbout(await chatMember(ORIGIN), member);
    await asOperator(first, `/reports/${report}/decide`, {
      form: { outcome: "remove_content", ground: "contact_details", facts: "A phone number." },
    });
    await env.DB.prepare("UPDATE profiles SET about_me = 'A new text' WHERE id = ?").bind(member.id).run();
    const decision = await decisionOf(report);
    await member.browser.post("/api/appeal.php", { decision_id: decision.id, text: "There was no phone number." });
    await asOperator(second, `/appeals/${await appealIdOf(decision.id)}/decide`, {
      form: { decision: "reverse", note: "No number after all." },
    });
    const after = await profileState(member);
    expect(after.profile).toMatchObject({ about_me: "A new text", main_photo_id: photos.main, has_photo: 1 });
  });

  it("disable: the account comes back with the status it had, an unconfirmed one still to be confirmed", async () => {
    for (const status of ["active", "not_confirmed"]) {
      const member = await chatMember(ORIGIN, { status });
      const before = await profileState(member);
      await decideAndAppeal(member, "disable", true);
      const after = await profileState(member);
      expect(after).toEqual(before);
      expect(after.profile!.status).toBe(status);
    }
    // An enabled member logs in again.
    const member = await chatMember(ORIGIN);
    await decideAndAppeal(member, "disable", true);
    const email = (await env.DB.prepare("SELECT email FROM users WHERE id = ?")
      .bind(member.userId)
      .first<{ email: string }>())!.email;
    const login = await new Browser(ORIGIN).post("/api/user.php", { email, password: "a good password" });
    expect(login.status).toBe(200);
  });

  it("restrict: lifted, back in search as before", async () => {
    const member = await chatMember(ORIGIN);
    const before = await profileState(member);
    await decideAndAppeal(member, "restrict", true);
    expect(await profileState(member)).toEqual(before);
  });

  it("a refused photo: public again", async () => {
    const member = await chatMember(ORIGIN);
    const waiting = await photo(member, "pending", 0);
    const [first, second] = [await operator("moderator"), await operator("moderator")];
    await asOperator(first, `/photos/${waiting}/reject`, { form: { ground: "offensive", facts: "" } });
    const decision = (await env.DB.prepare("SELECT id FROM moderation_decisions WHERE photo_id = ?")
      .bind(waiting)
      .first<{ id: number }>())!;
    await member.browser.post("/api/appeal.php", { decision_id: decision.id, text: "It is a photo of my dog." });
    await asOperator(second, `/appeals/${await appealIdOf(decision.id)}/decide`, {
      form: { decision: "reverse", note: "A dog is fine." },
    });
    expect(
      (await env.DB.prepare("SELECT status FROM photos WHERE id = ?").bind(waiting).first<{ status: string }>())!
        .status,
    ).toBe("active");
  });

  it("what a decision kept to undo it is cleared once no appeal can come, and kept while one is open", async () => {
    const { member } = await memberWithContent();
    const first = await operator("moderator");
    const report = await reportAbout(await chatMember(ORIGIN), member);
    await asOperator(first, `/reports/${report}/decide`, {
      form: { outcome: "remove_content", ground: "contact_details", facts: "A phone number." },
    });
    const decision = await decisionOf(report);
    const until = (await env.DB.prepare("SELECT appeal_until FROM moderation_decisions WHERE id = ?")
      .bind(decision.id)
      .first<{ appeal_until: number }>())!.appeal_until;
    const db = databaseOf(env.DB);
    await runRetention(db, until, { outboxDays: 30 });
    expect(await keptOf(decision.id)).not.toBeNull();
    // An appeal filed in time and still open keeps it past the deadline.
    // (Through the service: the member's login has ended by then, retention removed it.)
    await fileAppeal(db, member.userId, { decision_id: decision.id, text: "Please look at it again." }, until);
    await runRetention(db, until + 1, { outboxDays: 30 });
    expect(await keptOf(decision.id)).not.toBeNull();
    await env.DB.prepare("UPDATE appeals SET status = 'upheld' WHERE decision_id = ?").bind(decision.id).run();
    const run = await runRetention(db, until + 1, { outboxDays: 30 });
    expect(run.deleted.kept_content).toBeGreaterThanOrEqual(1);
    expect(await keptOf(decision.id)).toBeNull();
  });
});

describe("the member gets a reasoned answer", { timeout: 60_000 }, () => {
  it("filing an appeal sends a receipt in the member's language, with the link to the decision", async () => {
    const member = await chatMember(ORIGIN);
    await env.DB.prepare("UPDATE users SET language = 'nl' WHERE id = ?").bind(member.userId).run();
    const first = await operator("moderator");
    const report = await reportAbout(await chatMember(ORIGIN), member);
    await asOperator(first, `/reports/${report}/decide`, {
      form: { outcome: "restrict", ground: "scam", facts: "Asked for money." },
    });
    const decision = await decisionOf(report);
    expect(await mailsTo(member, "appeal_receipt")).toEqual([]);
    await member.browser.post("/api/appeal.php", { decision_id: decision.id, text: "Ik vroeg nooit om geld." });
    const receipts = await mailsTo(member, "appeal_receipt");
    expect(receipts).toHaveLength(1);
    const nl = i18nFor("nl").t;
    expect(receipts[0]!.subject).toBe(nl("moderation.mail.appeal_receipt.subject", { site: `Testwave ${DOMAIN}` }));
    expect(receipts[0]!.text).toContain(nl("moderation.mail.appeal_receipt.text"));
    const key = await decisionKey(env.SESSION_SECRET, decision.id, member.userId);
    expect(receipts[0]!.text).toContain(`/decisions/${decision.id}?key=${key}`);
    // A refused second appeal sends no second receipt.
    await member.browser.post("/api/appeal.php", { decision_id: decision.id, text: "Nog een keer, alsjeblieft." });
    expect(await mailsTo(member, "appeal_receipt")).toHaveLength(1);
  });

  for (const reverse of [true, false])
    it(`${reverse ? "reversed" : "upheld"}: the mail and the decision page give the reviewer's note and the out-of-court body`, async () => {
      const member = await chatMember(ORIGIN);
      await env.DB.prepare("UPDATE users SET language = 'de' WHERE id = ?").bind(member.userId).run();
      const note = reverse
        ? "Die Nachrichten zeigen keine Bitte um Geld."
        : "Du hast drei Mitglieder um Geld für ein Zugticket gebeten.";
      const { decision, key } = await decideAndAppeal(member, "restrict", reverse, note);
      const de = i18nFor("de").t;
      const [mail] = await mailsTo(member, "appeal_outcome");
      expect(mail!.text).toContain(de(`moderation.outcomes.appeal_${reverse ? "reversed" : "upheld"}`));
      expect(mail!.text).toContain(note);
      expect(mail!.text).toContain(
        de("moderation.page.other_remedies_body", { name: DISPUTE_BODY.name, url: DISPUTE_BODY.url }),
      );
      expect(mail!.html).toContain(DISPUTE_BODY.url);
      expect(mail!.text).toContain(`/decisions/${decision.id}?key=${key}`);
      // The page's data, opened with the mailed key.
      const { decision: statement } = await json<{ decision: Statement }>(
        await new Browser(ORIGIN).fetch(`/api/decision.php?id=${decision.id}&key=${key}`),
      );
      expect(statement.appeal).toMatchObject({ status: reverse ? "reversed" : "upheld", note });
      expect(statement.out_of_court).toEqual(DISPUTE_BODY);
      // The page itself, rendered by the server in the member's language.
      const visitor = new Browser(ORIGIN);
      visitor.cookies.set("locale", "de");
      const html = await (await visitor.fetch(`/decisions/${decision.id}?key=${key}`)).text();
      expect(html).toContain(note);
      expect(html).toContain(de("moderation.page.appeal_reasons"));
      expect(html).toContain(`href="${DISPUTE_BODY.url}"`);
      expect(html).toContain(DISPUTE_BODY.name);
    });

  it("an open appeal shows no note yet; without a body in the settings, certified bodies in general", async () => {
    await env.SETTINGS.put(companyKey("testco"), JSON.stringify(COMPANY));
    clearSiteCache();
    try {
      const member = await chatMember(ORIGIN);
      const first = await operator("moderator");
      const report = await reportAbout(await chatMember(ORIGIN), member);
      await asOperator(first, `/reports/${report}/decide`, {
        form: { outcome: "restrict", ground: "scam", facts: "Asked for money." },
      });
      const decision = await decisionOf(report);
      await member.browser.post("/api/appeal.php", { decision_id: decision.id, text: "Please look at it again." });
      const { decision: statement } = await json<{ decision: Statement }>(
        await member.browser.fetch(`/api/decision.php?id=${decision.id}`),
      );
      expect(statement.appeal).toMatchObject({ status: "open", note: null });
      expect(statement.out_of_court).toBeNull();
      const second = await operator("moderator");
      await asOperator(second, `/appeals/${await appealIdOf(decision.id)}/decide`, {
        form: { decision: "uphold", note: "The messages ask for money." },
      });
      const [mail] = await mailsTo(member, "appeal_outcome");
      expect(mail!.text).toContain(i18nFor("en").t("moderation.page.other_remedies"));
    } finally {
      await env.SETTINGS.put(companyKey("testco"), JSON.stringify({ ...COMPANY, dispute_body: DISPUTE_BODY }));
      clearSiteCache();
    }
  });

  it("a warning, which cannot be appealed, is mailed without a word on appealing", async () => {
    const member = await chatMember(ORIGIN);
    const report = await reportAbout(await chatMember(ORIGIN), member);
    await asOperator(await operator("moderator"), `/reports/${report}/decide`, {
      form: { outcome: "warn", ground: "spam", facts: "The same text to fifty members." },
    });
    expect(await mailsTo(member, "statement")).toEqual([]);
    const [mail] = await mailsTo(member, "notice");
    const en = i18nFor("en").t;
    expect(mail!.text).toContain(en("moderation.outcomes.warn"));
    // (The site is appeals.test, in the link and the signature: only the words count.)
    expect(mail!.text.replaceAll(DOMAIN, "")).not.toMatch(/appeal/i);
  });

  it("every new text exists in all 11 languages, none left in English", () => {
    const en = i18nFor("en").t;
    const values = { site: "S", outcome: "O", reason: "N", redress_part: "R", name: "B", url: "U" };
    const keys = [
      "moderation.page.appeal_reasons",
      "moderation.page.other_remedies_body",
      ...["appeal_receipt", "notice", "appeal_outcome"].flatMap((m) =>
        ["subject", "text", "button"].map((k) => `moderation.mail.${m}.${k}`),
      ),
    ];
    for (const language of LANGUAGES)
      for (const key of keys) {
        const text = i18nFor(language).t(key, values);
        expect(text, `${language} ${key}`).not.toBe(key);
        if (key.endsWith("appeal_outcome.text") || key.endsWith("other_remedies_body"))
          for (const placeholder of key.endsWith("text") ? ["N", "R", "O"] : ["B", "U"])
            expect(text, `${language} ${key}`).toContain(placeholder);
        if (language !== "en" && !key.endsWith(".button")) expect(text, `${language} ${key}`).not.toBe(en(key, values));
      }
  });
});

describe("the appeal's reviewer sees the evidence", { timeout: 60_000 }, () => {
  it("a refused photo: the photo itself", async () => {
    const member = await chatMember(ORIGIN);
    const refused = await photo(member, "pending", 0);
    const first = await operator("moderator");
    await asOperator(first, `/photos/${refused}/reject`, { form: { ground: "explicit_content", facts: "Nudity." } });
    const decision = (await env.DB.prepare("SELECT id FROM moderation_decisions WHERE photo_id = ?")
      .bind(refused)
      .first<{ id: number }>())!;
    await member.browser.post("/api/appeal.php", { decision_id: decision.id, text: "I am wearing a swimsuit there." });
    const appeal = await appealIdOf(decision.id);
    const reviewer = await operator("moderator");
    const page = await (await asOperator(reviewer, `/appeals/${appeal}`)).text();
    expect(page).toContain('data-evidence="photo"');
    expect(page).toContain(`src="/photos/file/${refused}?size=full"`);
    expect(page).toContain("I am wearing a swimsuit there.");
    expect(page).toContain("Nudity.");
    // The photo's file opens for the reviewer.
    expect((await asOperator(reviewer, `/photos/file/${refused}?size=full`)).status).toBe(200);
    // The list leads to it.
    expect(await (await asOperator(reviewer, "/appeals")).text()).toContain(`href="/appeals/${appeal}"`);
  });

  it("a report: its text, the messages the reporter saw with the one reported, and what was removed", async () => {
    const [reporter, reported] = [
      await chatMember(ORIGIN, { paid: true, credits: 200 }),
      await chatMember(ORIGIN, { paid: true, credits: 200 }),
    ];
    await env.DB.prepare("UPDATE profiles SET about_me = 'Send me gifts and I call you' WHERE id = ?")
      .bind(reported.id)
      .run();
    const page = await ChatSocket.open(reported, reporter.id);
    const first = clientId();
    page.sendText(first, "Hello, how are you today?");
    await page.ack(first);
    const bad = clientId();
    page.sendText(bad, "Lend me 300 euros for a plane ticket please");
    const messageId = (await page.ack(bad)).message.id;
    page.close();
    const report = await reportAbout(reporter, reported, messageId);
    const moderator = await operator("moderator");
    await asOperator(moderator, `/reports/${report}/decide`, {
      form: { outcome: "restrict", ground: "scam", facts: "Asked for money in a chat." },
    });
    const decision = await decisionOf(report);
    await reported.browser.post("/api/appeal.php", { decision_id: decision.id, text: "It was a joke between us." });
    const appeal = await appealIdOf(decision.id);
    const reviewer = await operator("moderator");
    const html = await (await asOperator(reviewer, `/appeals/${appeal}`)).text();
    expect(html).toContain('data-evidence="report"');
    expect(html).toContain("She asked me for money for her sick mother.");
    expect(html).toContain("Lend me 300 euros for a plane ticket please");
    expect(html).toContain("Hello, how are you today?");
    expect(html).toContain(`It names message ${messageId}`);

    // Remove the content: the reviewer sees the text and photos as they were before the removal.
    const { member, photos } = await memberWithContent();
    const removal = await reportAbout(await chatMember(ORIGIN), member);
    await asOperator(moderator, `/reports/${removal}/decide`, {
      form: { outcome: "remove_content", ground: "contact_details", facts: "A phone number." },
    });
    const removed = await decisionOf(removal);
    await member.browser.post("/api/appeal.php", { decision_id: removed.id, text: "There is no phone number." });
    const shown = await (await asOperator(reviewer, `/appeals/${await appealIdOf(removed.id)}`)).text();
    expect(shown).toContain('data-evidence="removed-content"');
    expect(shown).toContain("Hi! I love hiking");
    for (const id of [photos.main, photos.second, photos.waiting])
      expect(shown).toContain(`src="/photos/file/${id}?size=thumb"`);
  });

  it("for moderators only, as the other queues", async () => {
    const member = await chatMember(ORIGIN);
    const { appeal } = await decideAndAppeal(member, "restrict", false);
    for (const role of ["support", "finance"] as const)
      expect((await asOperator(await operator(role), `/appeals/${appeal}`)).status).toBe(403);
    expect((await asOperator(await operator("admin"), `/appeals/${appeal}`)).status).toBe(200);
    expect((await asOperator(await operator("moderator"), "/appeals/999999")).status).toBe(404);
  });
});

describe("the member's file in the console", { timeout: 30_000 }, () => {
  it("shows support the moderation decisions, and points only admins to the audit log they alone open", async () => {
    const member = await chatMember(ORIGIN);
    const report = await reportAbout(await chatMember(ORIGIN), member);
    await asOperator(await operator("moderator"), `/reports/${report}/decide`, {
      form: { outcome: "restrict", ground: "scam", facts: "Asked three members for money." },
    });
    const support = await operator("support");
    const file = await (await asOperator(support, `/members/${member.userId}`)).text();
    expect(file).toContain("Moderation decisions");
    expect(file).toContain("Asked three members for money.");
    expect(file).not.toContain('href="/audit?');
    expect(file).not.toContain("in the audit log");
    expect((await asOperator(support, `/audit?kind=member&target=${member.userId}`)).status).toBe(403);
    const admin = await (await asOperator(await operator("admin"), `/members/${member.userId}`)).text();
    expect(admin).toContain('href="/audit?');
  });

  it("an order refunded in part says so, with the amount, to support and finance", async () => {
    const member = await chatMember(ORIGIN);
    const order = (await env.DB.prepare(
      "INSERT INTO orders (user_id, site_domain, bundle_id, credits, amount_cents, currency, payment_method, country, status, credited_at, refunded_at, refunded_credits, refunded_cents) VALUES (?, ?, 1, 50, 995, 'EUR', 'ideal', 'NL', 'refunded', unixepoch(), unixepoch(), 15, 298) RETURNING id",
    )
      .bind(member.userId, DOMAIN)
      .first<{ id: number }>())!.id;
    const whole = (await env.DB.prepare(
      "INSERT INTO orders (user_id, site_domain, bundle_id, credits, amount_cents, currency, payment_method, country, status, credited_at, refunded_at, refunded_credits, refunded_cents) VALUES (?, ?, 1, 50, 995, 'EUR', 'ideal', 'NL', 'refunded', unixepoch(), unixepoch(), 50, 995) RETURNING id",
    )
      .bind(member.userId, DOMAIN)
      .first<{ id: number }>())!.id;
    const file = await (await asOperator(await operator("support"), `/members/${member.userId}`)).text();
    expect(file).toContain("partly refunded: 2.98 EUR of 9.95 EUR");
    expect(file.match(/partly refunded/g)).toHaveLength(1);
    const orders = await (await asOperator(await operator("finance"), `/orders?site=${DOMAIN}`)).text();
    const row = (id: number) =>
      orders.slice(orders.indexOf(`<td>${id}</td>`), orders.indexOf("</tr>", orders.indexOf(`<td>${id}</td>`)));
    expect(row(order)).toContain("partly refunded: 2.98 EUR of 9.95 EUR");
    expect(row(whole)).toContain("<td>refunded</td>");
  });
});
