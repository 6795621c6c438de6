/**
 * Retention (docs/decisions/0032): the daily clock work deletes copies of sent mail, SMS and pushes
 * past their age, ended sessions with their push subscriptions, used or expired links and codes,
 * in bounded batches, and never a mail or SMS that was not sent.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { outboxRetentionDays, runRetention } from "../../src/server/services/retention";
import worker from "../../src/worker";
import { Browser, json } from "../http";
import { putSites, site } from "../fixtures";

const DAY = 86_400;
const NOW = 1_900_000_000;
const db = () => databaseOf(env.DB);
let serial = 0;

async function user(): Promise<number> {
  const n = ++serial;
  return (await env.DB.prepare(
    "INSERT INTO users (email, username, status, site_domain) VALUES (?, ?, 'active', 'nl.test') RETURNING id",
  )
    .bind(`kept${n}@example.invalid`, `kept${n}`)
    .first<{ id: number }>())!.id;
}

const mail = (to: string, createdAt: number, sentAt: number | null) =>
  env.DB.prepare(
    "INSERT INTO outgoing_mail (to_address, kind, subject, text, created_at, sent_at) VALUES (?, 'activation', 's', 't', ?, ?)",
  ).bind(to, createdAt, sentAt);
const mailsTo = async (prefix: string) =>
  (
    await env.DB.prepare("SELECT to_address AS a FROM outgoing_mail WHERE to_address LIKE ? ORDER BY id")
      .bind(`${prefix}%`)
      .all<{ a: string }>()
  ).results.map((r) => r.a);

describe("retention", () => {
  it("deletes sent mail, SMS and pushes older than the configured days, and never an unsent mail or SMS", async () => {
    const member = await user();
    const old = NOW - 31 * DAY;
    const recent = NOW - 29 * DAY;
    await env.DB.batch([
      mail("r1-old-sent@x.invalid", old, old),
      mail("r1-old-unsent@x.invalid", old, null),
      mail("r1-recent-sent@x.invalid", recent, recent),
      env.DB.prepare(
        "INSERT INTO outgoing_sms (to_number, text, created_at, sent_at) VALUES ('+31600000001', 'old sent', ?1, ?1), ('+31600000002', 'old unsent', ?1, NULL), ('+31600000003', 'recent', ?2, ?2)",
      ).bind(old, recent),
      env.DB.prepare(
        "INSERT INTO outgoing_push (user_id, endpoint, payload, urgency, created_at) VALUES (?1, 'https://push.example/old', '{}', 'normal', ?2), (?1, 'https://push.example/recent', '{}', 'normal', ?3)",
      ).bind(member, old, recent),
    ]);
    await runRetention(db(), NOW, { outboxDays: 30 });
    expect(await mailsTo("r1-")).toEqual(["r1-old-unsent@x.invalid", "r1-recent-sent@x.invalid"]);
    const sms = await env.DB.prepare(
      "SELECT text FROM outgoing_sms WHERE to_number LIKE '+3160000000%' ORDER BY id",
    ).all<{ text: string }>();
    expect(sms.results.map((r) => r.text)).toEqual(["old unsent", "recent"]);
    const pushes = await env.DB.prepare("SELECT endpoint FROM outgoing_push WHERE user_id = ?")
      .bind(member)
      .all<{ endpoint: string }>();
    expect(pushes.results.map((r) => r.endpoint)).toEqual(["https://push.example/recent"]);
  });

  it("deletes ended sessions a day after they ended, with the push subscriptions they stored, and keeps live ones", async () => {
    const member = await user();
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO sessions (id, user_id, created_at, expires_at, revoked_at, public_id) VALUES
          ('s-expired', ?1, ?2, ?3, NULL, 'p-expired'), ('s-revoked', ?1, ?2, ?4, ?3, 'p-revoked'),
          ('s-just-revoked', ?1, ?2, ?4, ?5, 'p-just-revoked'), ('s-live', ?1, ?2, ?4, NULL, 'p-live')`,
      ).bind(member, NOW - 40 * DAY, NOW - 2 * DAY, NOW + 10 * DAY, NOW - 3600),
      env.DB.prepare(
        `INSERT INTO push_subscriptions (user_id, session_id, endpoint, p256dh, auth) VALUES
          (?1, 's-revoked', 'https://push.example/gone', 'k', 'a'), (?1, 's-live', 'https://push.example/live', 'k', 'a')`,
      ).bind(member),
    ]);
    await runRetention(db(), NOW, { outboxDays: 30 });
    const left = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ? ORDER BY id")
      .bind(member)
      .all<{ id: string }>();
    expect(left.results.map((r) => r.id)).toEqual(["s-just-revoked", "s-live"]);
    const subscriptions = await env.DB.prepare("SELECT endpoint FROM push_subscriptions WHERE user_id = ?")
      .bind(member)
      .all<{ endpoint: string }>();
    expect(subscriptions.results.map((r) => r.endpoint)).toEqual(["https://push.example/live"]);
  });

  it("deletes used or expired links and SMS codes, and login counters whose window and block are over", async () => {
    const member = await user();
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO auth_tokens (token_hash, user_id, kind, created_at, expires_at, used_at) VALUES
          ('t-used', ?1, 'activation', ?2, ?4, ?3), ('t-expired', ?1, 'password_reset', ?2, ?3, NULL), ('t-live', ?1, 'activation', ?2, ?4, NULL)`,
      ).bind(member, NOW - 5 * DAY, NOW - 2 * DAY, NOW + DAY),
      env.DB.prepare(
        `INSERT INTO sms_codes (user_id, purpose, code_hash, expires_at, used_at, created_at) VALUES
          (?1, 'c-used', 'h', ?3, ?2, ?2), (?1, 'c-live', 'h', ?3, NULL, ?2)`,
      ).bind(member, NOW - 2 * DAY, NOW + 600),
      env.DB.prepare(
        `INSERT INTO login_attempts (key, failures, window_start, blocked_until) VALUES
          ('user:r-over', 3, ?1, NULL), ('user:r-blocked', 9, ?1, ?2), ('user:r-now', 1, ?3, NULL)`,
      ).bind(NOW - 2 * DAY, NOW + 600, NOW - 60),
    ]);
    await runRetention(db(), NOW, { outboxDays: 30 });
    const tokens = await env.DB.prepare("SELECT token_hash AS h FROM auth_tokens WHERE user_id = ?")
      .bind(member)
      .all<{ h: string }>();
    expect(tokens.results.map((r) => r.h)).toEqual(["t-live"]);
    const codes = await env.DB.prepare("SELECT purpose FROM sms_codes WHERE user_id = ?")
      .bind(member)
      .all<{ purpose: string }>();
    expect(codes.results.map((r) => r.purpose)).toEqual(["c-live"]);
    const counters = await env.DB.prepare("SELECT key FROM login_attempts WHERE key LIKE 'user:r-%' ORDER BY key").all<{
      key: string;
    }>();
    expect(counters.results.map((r) => r.key)).toEqual(["user:r-blocked", "user:r-now"]);
  });

  it("works in bounded batches: the rest waits for the next run", async () => {
    const old = NOW - 60 * DAY;
    await env.DB.batch([1, 2, 3, 4, 5].map((i) => mail(`r4-${i}@x.invalid`, old, old)));
    const first = await runRetention(db(), NOW, { outboxDays: 30, batch: 2, maxBatches: 1 });
    expect(first.deleted.mail).toBe(2);
    expect(first.more).toBe(true);
    expect(await mailsTo("r4-")).toEqual(["r4-3@x.invalid", "r4-4@x.invalid", "r4-5@x.invalid"]);
    const second = await runRetention(db(), NOW, { outboxDays: 30, batch: 2, maxBatches: 5 });
    expect(second.deleted.mail).toBe(3);
    expect(await mailsTo("r4-")).toEqual([]);
  });

  it("the daily cron runs it with the configured days", async () => {
    const now = Math.floor(Date.now() / 1000);
    await env.DB.batch([
      mail("r5-old@x.invalid", now - 31 * DAY, now - 31 * DAY),
      mail("r5-new@x.invalid", now - DAY, now - DAY),
    ]);
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "17 3 * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await mailsTo("r5-")).toEqual(["r5-new@x.invalid"]);
    expect(outboxRetentionDays(env)).toBe(30);
    expect(outboxRetentionDays({ OUTBOX_RETENTION_DAYS: "7" })).toBe(7);
    expect(outboxRetentionDays({ OUTBOX_RETENTION_DAYS: "none" })).toBe(30);
  });

  it("the privacy statement tells members how long the copies are kept", async () => {
    await putSites(site("retention.test"));
    const visitor = new Browser("http://retention.test");
    visitor.cookies.set("locale", "en");
    const page = await json<{ sections: { id: string; paragraphs: string[] }[] }>(
      await visitor.fetch("/api/legal.php?page=privacy"),
    );
    expect(page.sections.find((s) => s.id === "retention")!.paragraphs.join(" ")).toContain(
      "kept for 30 days and then deleted",
    );
  });
});
