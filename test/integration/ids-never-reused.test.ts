/**
 * Ids are never reused (issue 37, docs/decisions/0048): after the newest photo (report, order ...)
 * is deleted the next one gets a new id, so a decision or record of the deleted one never names it,
 * and a decision left holding the id of a later photo or report (before migration 0026) does not
 * block deciding it.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { OwnPhoto, PhotoUploadResponse } from "../../src/shared/photos";
import type { ConversationRoom } from "../../src/server/chat/conversation-room";
import { discardUnrecorded, insertUnrecorded, type NewStoredMessage } from "../../src/server/db/conversation-store";
import { roomName } from "../../src/server/notices/object-names";
import { ChatSocket, chatMember, clientId, type Member } from "../chat";
import { asOperator, operator } from "../console";
import { putSites, site } from "../fixtures";
import { json } from "../http";
import { jpeg, picture } from "../images";

const DOMAIN = "ids.test";
const ORIGIN = `http://${DOMAIN}`;

beforeAll(async () => {
  await putSites(site(DOMAIN));
});

async function upload(m: Member): Promise<OwnPhoto> {
  const form = new FormData();
  form.append("photo", new File([await jpeg(picture(480, 600))], "photo.jpg", { type: "image/jpeg" }));
  const res = await m.browser.fetch("/api/photos.php", { method: "POST", body: form });
  const body = await json<PhotoUploadResponse & { message?: string }>(res);
  expect(res.status, body.message).toBe(201);
  return body.photo;
}

const photoStatus = async (id: number) =>
  (await env.DB.prepare("SELECT status FROM photos WHERE id = ?").bind(id).first<{ status: string }>())?.status;

type DecisionRow = {
  id: number;
  photo_id: number | null;
  detached_photo_id: number | null;
  report_id: number | null;
  detached_report_id: number | null;
  outcome: string;
  facts: string | null;
};
const decisionsOfUser = async (userId: number) =>
  (
    await env.DB.prepare(
      "SELECT id, photo_id, detached_photo_id, report_id, detached_report_id, outcome, facts FROM moderation_decisions WHERE user_id = ? ORDER BY id",
    )
      .bind(userId)
      .all<DecisionRow>()
  ).results;

describe("photo ids", () => {
  it("a photo uploaded after the newest was deleted gets a new id, and approving it works", async () => {
    const moderator = await operator("moderator");
    const m = await chatMember(ORIGIN);
    const a = await upload(m);
    const b = await upload(m);
    // B is decided (refused, with a statement of reasons), then the member deletes it: the newest photo.
    const refused = await asOperator(moderator, `/photos/${b.id}/reject`, {
      form: { ground: "explicit_content", facts: "Nudity in photo B." },
    });
    expect(refused.status).toBe(200);
    expect((await m.browser.delete("/api/photos.php", { photo_id: b.id })).status).toBe(200);
    expect(await photoStatus(b.id)).toBeUndefined();

    const c = await upload(m);
    expect(c.id).not.toBe(b.id);
    expect(c.id).toBeGreaterThan(b.id);
    expect(c.id).toBeGreaterThan(a.id);
    expect(await photoStatus(c.id)).toBe("pending");

    // Approving C is not refused as decided by someone else: C becomes public, its decision names C.
    const approved = await asOperator(moderator, `/photos/${c.id}/approve`, { form: {} });
    expect(approved.status).toBe(200);
    expect(await photoStatus(c.id)).toBe("active");
    const decisions = await decisionsOfUser(m.userId);
    expect(decisions).toMatchObject([
      { photo_id: b.id, detached_photo_id: null, outcome: "reject_photo", facts: "Nudity in photo B." },
      { photo_id: c.id, outcome: "approve" },
    ]);
    // The member's own photo list shows C approved, not waiting.
    const list = await json<{ photos: OwnPhoto[] }>(await m.browser.fetch("/api/photos.php"));
    expect(list.photos.find((p) => p.id === c.id)?.status).toBe("active");
  });

  it("a decision left holding the id of a later waiting photo is detached, and the photo can be decided", async () => {
    const moderator = await operator("moderator");
    const m = await chatMember(ORIGIN);
    const photo = await upload(m);
    // As a database from before migration 0026 could hold it: a decision of an earlier photo that had this id.
    const operatorId = (await env.DB.prepare("SELECT id FROM operators ORDER BY id LIMIT 1").first<{ id: number }>())!
      .id;
    await env.DB.prepare(
      "INSERT INTO moderation_decisions (user_id, profile_id, source, photo_id, outcome, ground, facts, restricts, language, operator_id, created_at) VALUES (?, ?, 'photo', ?, 'reject_photo', 'explicit_content', 'An earlier photo.', 1, 'en', ?, 1)",
    )
      .bind(m.userId, m.id, photo.id, operatorId)
      .run();

    const approved = await asOperator(moderator, `/photos/${photo.id}/approve`, { form: {} });
    expect(approved.status).toBe(200);
    expect(await photoStatus(photo.id)).toBe("active");
    // The old statement of reasons stays as the member read it, about the earlier photo, no longer this one.
    expect(await decisionsOfUser(m.userId)).toMatchObject([
      { photo_id: null, detached_photo_id: photo.id, outcome: "reject_photo", facts: "An earlier photo." },
      { photo_id: photo.id, detached_photo_id: null, outcome: "approve" },
    ]);
    // Decided now: a second decision is refused, and detaches nothing.
    const again = await asOperator(moderator, `/photos/${photo.id}/reject`, {
      form: { ground: "explicit_content", facts: "x" },
    });
    expect(again.status).toBe(409);
    expect((await decisionsOfUser(m.userId)).map((d) => d.photo_id)).toEqual([null, photo.id]);
  });

  it("of many moderators deciding a photo whose id a stale decision holds, exactly one decides it", async () => {
    const moderators = await Promise.all([operator("moderator"), operator("moderator"), operator("moderator")]);
    const m = await chatMember(ORIGIN);
    const photo = await upload(m);
    const operatorId = (await env.DB.prepare("SELECT id FROM operators ORDER BY id LIMIT 1").first<{ id: number }>())!
      .id;
    await env.DB.prepare(
      "INSERT INTO moderation_decisions (user_id, profile_id, source, photo_id, outcome, language, operator_id, created_at) VALUES (?, ?, 'photo', ?, 'approve', 'en', ?, 1)",
    )
      .bind(m.userId, m.id, photo.id, operatorId)
      .run();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => asOperator(moderators[i % 3]!, `/photos/${photo.id}/approve`, { form: {} })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(7);
    const decisions = await decisionsOfUser(m.userId);
    expect(decisions.filter((d) => d.photo_id === photo.id)).toHaveLength(1);
    expect(decisions.filter((d) => d.detached_photo_id === photo.id)).toHaveLength(1);
    const audit = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM audit_log WHERE target_kind = 'photo' AND target_id = ? AND action = 'photo.approve'",
    )
      .bind(String(photo.id))
      .first<{ n: number }>();
    expect(audit!.n).toBe(1);
  });
});

describe("report ids", () => {
  it("a decision left holding the id of a later open report is detached, and the report can be decided", async () => {
    const moderator = await operator("moderator");
    const reporter = await chatMember(ORIGIN);
    const reported = await chatMember(ORIGIN);
    const report = (await env.DB.prepare(
      "INSERT INTO reports (reporter_key, reporter_user_id, email, subject, description, target_key, profile_id, site_domain, language, client_address) VALUES (?, ?, 'r@example.com', 'harassment', 'Rude messages.', ?, ?, ?, 'en', '192.0.2.8') RETURNING id",
    )
      .bind(`user:${reporter.userId}`, reporter.userId, `profile:${reported.id}`, reported.id, DOMAIN)
      .first<{ id: number }>())!.id;
    const operatorId = (await env.DB.prepare("SELECT id FROM operators ORDER BY id LIMIT 1").first<{ id: number }>())!
      .id;
    await env.DB.prepare(
      "INSERT INTO moderation_decisions (user_id, profile_id, source, report_id, outcome, language, operator_id, created_at) VALUES (?, ?, 'report', ?, 'dismiss', 'en', ?, 1)",
    )
      .bind(reported.userId, reported.id, report, operatorId)
      .run();
    const decided = await asOperator(moderator, `/reports/${report}/decide`, {
      form: { outcome: "dismiss", facts: "" },
    });
    expect(decided.status).toBe(200);
    expect(await decisionsOfUser(reported.userId)).toMatchObject([
      { report_id: null, detached_report_id: report, outcome: "dismiss" },
      { report_id: report, detached_report_id: null, outcome: "dismiss" },
    ]);
  });
});

describe("other tables", () => {
  const NEVER_REUSED = [
    "users",
    "profiles",
    "photos",
    "chat_photos",
    "conversations",
    "orders",
    "discount_codes",
    "reports",
    "moderation_decisions",
    "appeals",
    "verifications",
    "operators",
  ];

  it("every table whose ids other rows or records name is AUTOINCREMENT", async () => {
    const rows = (
      await env.DB.prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name IN (${NEVER_REUSED.map(() => "?").join(", ")})`,
      )
        .bind(...NEVER_REUSED)
        .all<{ name: string; sql: string }>()
    ).results;
    expect(rows.map((r) => r.name).toSorted()).toEqual(NEVER_REUSED.toSorted());
    for (const row of rows) expect(row.sql, row.name).toMatch(/`id` integer PRIMARY KEY AUTOINCREMENT/);
  });

  it("a report filed after the newest report was deleted gets a new id", async () => {
    const file = async (n: number) =>
      (await env.DB.prepare(
        "INSERT INTO reports (reporter_key, email, subject, description, site_domain, language, client_address) VALUES (?, 'r@example.com', 'other', 'A report.', ?, 'en', '192.0.2.9') RETURNING id",
      )
        .bind(`email:ids${n}-${Math.random()}@example.com`, DOMAIN)
        .first<{ id: number }>())!.id;
    await file(1);
    const newest = await file(2);
    await env.DB.prepare("DELETE FROM reports WHERE id = ?").bind(newest).run();
    expect(await file(3)).toBeGreaterThan(newest);
  });

  it("a member signing up after the newest account was deleted gets a new user and profile id", async () => {
    const a = await chatMember(ORIGIN);
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(a.userId).run();
    const b = await chatMember(ORIGIN);
    expect(b.userId).toBeGreaterThan(a.userId);
    expect(b.id).toBeGreaterThan(a.id);
  });
});

describe("message ids in a conversation's object", () => {
  it("a message written after the newest one was given up gets a new id", async () => {
    const anna = await chatMember(ORIGIN, { paid: true, credits: 100 });
    const bram = await chatMember(ORIGIN, { paid: true, credits: 100 });
    const socket = await ChatSocket.open(anna, bram.id);
    const first = clientId();
    socket.sendText(first, "hello");
    await socket.ack(first);
    socket.close();
    const stub = env.CONVERSATIONS.getByName(roomName(anna.id, bram.id)) as DurableObjectStub<ConversationRoom>;
    const message = (body: string): NewStoredMessage => ({
      sender_id: anna.id,
      client_id: clientId(),
      kind: "text",
      body,
      gift: null,
      photo_id: null,
      photo_key: null,
      photo_thumb_key: null,
      photo_blur_key: null,
      photo_width: null,
      photo_height: null,
      credits_charged: 0,
      free: 0,
      created_at: 1,
    });
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const schema = sql.exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'messages'").one().sql;
      expect(schema).toMatch(/id INTEGER PRIMARY KEY AUTOINCREMENT/);
      const given = insertUnrecorded(sql, message("given up"))!;
      discardUnrecorded(sql, given.id);
      const next = insertUnrecorded(sql, message("next"))!;
      expect(next.id).toBeGreaterThan(given.id);
      discardUnrecorded(sql, next.id);
    });
  });
});

describe("migration 0026 on a database that holds rows", () => {
  /** The migration's statements, run again on the rows the tests made. */
  const rebuild = () => env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0026_"))!.queries;
  const count = async (table: string) =>
    (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

  it("keeps every row of the tables it rebuilds and of their children, and mends a stale decision", async () => {
    const moderator = await operator("moderator");
    const m = await chatMember(ORIGIN);
    const other = await chatMember(ORIGIN);
    const decided = await upload(m);
    expect((await asOperator(moderator, `/photos/${decided.id}/approve`, { form: {} })).status).toBe(200);
    const waiting = await upload(m);
    const operatorId = (await env.DB.prepare("SELECT id FROM operators ORDER BY id LIMIT 1").first<{ id: number }>())!
      .id;
    // A decision of an earlier photo that had the waiting photo's id, and one of a photo deleted since.
    const gone = waiting.id + 1000;
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO moderation_decisions (user_id, profile_id, source, photo_id, outcome, ground, facts, restricts, language, operator_id, created_at) VALUES (?, ?, 'photo', ?, 'reject_photo', 'explicit_content', 'Earlier.', 1, 'en', ?, 1)",
      ).bind(m.userId, m.id, waiting.id, operatorId),
      env.DB.prepare(
        "INSERT INTO moderation_decisions (user_id, profile_id, source, photo_id, outcome, language, operator_id, created_at) VALUES (?, ?, 'photo', ?, 'approve', 'en', ?, 1)",
      ).bind(m.userId, m.id, gone, operatorId),
      env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?, ?)").bind(m.id, other.id),
    ]);
    const tables = ["users", "profiles", "photos", "blocks", "sessions", "moderation_decisions", "audit_log"];
    const before = await Promise.all(tables.map(count));
    expect(before.every((n) => n > 0)).toBe(true);

    await env.DB.batch(rebuild().map((q) => env.DB.prepare(q)));
    // The migrations after it again, as a database that got 0026 in its turn gets them next: what they
    // add to the tables 0026 rebuilds (columns, indexes) comes back; what exists already stays.
    const additions = env.TEST_MIGRATIONS.filter((migration) => migration.name > "0026_")
      .flatMap((migration) => migration.queries)
      .filter((query) => /^(\s*--[^\n]*\n)*\s*(ALTER TABLE \S+ ADD COLUMN|CREATE (UNIQUE )?INDEX)/i.test(query));
    for (const query of additions)
      await env.DB.prepare(query)
        .run()
        .catch((error: Error) => {
          if (!/already exists|duplicate column|UNIQUE constraint/i.test(error.message)) throw error;
        });

    // Nothing cascaded: every row is there, children included.
    expect(await Promise.all(tables.map(count))).toEqual(before);
    const decisions = await decisionsOfUser(m.userId);
    expect(decisions).toMatchObject([
      { photo_id: decided.id, detached_photo_id: null, outcome: "approve" },
      { photo_id: null, detached_photo_id: waiting.id, facts: "Earlier." },
      { photo_id: gone, detached_photo_id: null },
    ]);
    // The waiting photo can be decided, and the next photo takes no id a decision still names.
    expect((await asOperator(moderator, `/photos/${waiting.id}/approve`, { form: {} })).status).toBe(200);
    expect(await photoStatus(waiting.id)).toBe("active");
    const next = await upload(m);
    expect(next.id).toBeGreaterThan(gone);
    // The member still signs in with the same session and sees their photos.
    const list = await json<{ photos: OwnPhoto[] }>(await m.browser.fetch("/api/photos.php"));
    expect(list.photos.map((p) => p.id)).toEqual([decided.id, waiting.id, next.id]);
  });
});
