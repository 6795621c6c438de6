import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { notificationChoicesOf, saveNotificationChoices } from "../../src/server/db/notification-choices";
import { HttpMailer } from "../../src/server/mail/mailer";
import { tellByMail, runMailClock } from "../../src/server/notices/mail-notices";
import type { MemberEvent, Presence } from "../../src/shared/member-events";
import { DEFAULT_NOTIFICATION_CHOICES, type EmailKind } from "../../src/shared/notifications";
import { putSites, site } from "../fixtures";
import { fetchWorker } from "../http";
import worker from "../../src/worker";

const DOMAIN = "mail.test";
const ORIGIN = `https://${DOMAIN}`;
const db = databaseOf(env.DB);
const HIDDEN: Presence = { open: 0, visible: 0 };
const DAY = 86_400;
/** The test's clock: events and the cron run at times the test sets, never by sleeping. */
const T0 = 1_900_000_000;

beforeAll(async () => {
  await putSites(site(DOMAIN, { name: "Mailwave" }));
});

let next = 7000;
type Row = { userId: number; profileId: number; email: string };

/** A member as rows (no signup needed): confirmed, English, on the test site, unless told otherwise. */
async function memberRow(
  options: { status?: string; language?: string; name?: string; signupDate?: number; regionId?: number | null } = {},
): Promise<Row> {
  const id = ++next;
  const email = `member${id}@example.com`;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO users (id, email, username, status, site_domain, language, signup_date) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).bind(
      id,
      email,
      `member${id}`,
      options.status ?? "active",
      DOMAIN,
      options.language ?? "en",
      options.signupDate ?? T0 - 30 * DAY,
    ),
    env.DB.prepare(
      "INSERT INTO profiles (id, user_id, name, country, gender, birth_date, region_id, created_at) VALUES (?, ?, ?, 'NL', 'female', '1990-01-01', ?, ?)",
    ).bind(id, id, options.name ?? `Member ${id}`, options.regionId ?? null, options.signupDate ?? T0 - 30 * DAY),
  ]);
  return { userId: id, profileId: id, email };
}

/** A conversation between two members with `unread` messages waiting for `to`, the last one at `at`. */
async function conversation(to: Row, from: Row, unread: number, at: number): Promise<number> {
  const id = ++next;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO conversations (id, profile_a, profile_b, started_by, last_message_at) VALUES (?, ?, ?, ?, ?)",
    ).bind(id, Math.min(to.profileId, from.profileId), Math.max(to.profileId, from.profileId), from.profileId, at),
    env.DB.prepare(
      "INSERT INTO conversation_members (conversation_id, profile_id, unread_count, last_message_at) VALUES (?, ?, ?, ?), (?, ?, 0, ?)",
    ).bind(id, to.profileId, unread, at, id, from.profileId, at),
  ]);
  return id;
}

type MailRow = { kind: string; subject: string; text: string; html: string; headers: string | null };
async function mailsTo(row: Row): Promise<MailRow[]> {
  return (
    await env.DB.prepare(
      "SELECT kind, subject, text, html, headers FROM outgoing_mail WHERE to_address = ? ORDER BY id",
    )
      .bind(row.email)
      .all<MailRow>()
  ).results;
}

const message = (conversationId: number, from: Row, unread: number, first = false): MemberEvent => ({
  kind: "message",
  conversation_id: conversationId,
  peer_id: from.profileId,
  peer_name: "Sanne",
  message_kind: "text",
  preview: "a secret text",
  first,
  unread,
  created_at: T0,
});
const likeEvent = (from: Row): MemberEvent => ({
  kind: "like",
  liker_id: from.profileId,
  liker_name: "Sanne",
  created_at: T0,
});
const matchEvent = (from: Row): MemberEvent => ({
  kind: "match",
  peer_id: from.profileId,
  peer_name: "Sanne",
  peer_photo: null,
  created_at: T0,
});

const choose = (row: Row, kind: EmailKind, on: boolean) =>
  saveNotificationChoices(db, row.userId, [{ kind: "email", name: kind, on }], T0);

/** The unsubscribe link of a mail, from its List-Unsubscribe header (the one-click URL first, then the mailto:). */
function unsubscribeLinkOf(mail: MailRow): string {
  const headers = JSON.parse(mail.headers!) as Record<string, string>;
  const link = /^<(https:\/\/[^>]+)>, <mailto:unsubscribe@flirtwave\.example\?subject=unsubscribe%20[^>]+>$/.exec(
    headers["List-Unsubscribe"]!,
  )?.[1];
  expect(link).toBeDefined();
  return link!;
}

describe("notification mail for events", () => {
  it("mails a new conversation in the member's language from their site, without the message's text, with a one-click unsubscribe", async () => {
    const [anna, sanne] = [await memberRow({ language: "nl", name: "Anna" }), await memberRow()];
    const id = await conversation(anna, sanne, 1, T0);
    await tellByMail(env, anna.profileId, message(id, sanne, 1, true), HIDDEN, T0);
    const [mail, ...more] = await mailsTo(anna);
    expect(more).toEqual([]);
    expect(mail!.kind).toBe("new_conversation");
    expect(mail!.subject).toBe("Sanne is een gesprek met je begonnen");
    expect(mail!.text).toContain("Hoi Anna");
    expect(mail!.text).toContain(`${ORIGIN}/chats/${id}`);
    expect(mail!.text).toContain("Mailwave");
    expect(mail!.text).not.toContain("a secret text");
    const headers = JSON.parse(mail!.headers!) as Record<string, string>;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const link = unsubscribeLinkOf(mail!);
    expect(link.startsWith(`${ORIGIN}/api/unsubscribe.php?token=`)).toBe(true);
    // The same link is in the body, visible, with the way to all the choices.
    expect(mail!.text).toContain(link);
    expect(mail!.html).toContain(link.replace(/&/g, "&#38;"));
    expect(mail!.text).toContain(`${ORIGIN}/notifications`);
    // The development outbox shows the headers, with the links on the local origin.
    const outbox = await (
      await fetchWorker(`http://${DOMAIN}:8787/dev/outbox?to=${encodeURIComponent(anna.email)}`)
    ).text();
    expect(outbox).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(outbox).toContain(`<a href="http://${DOMAIN}:8787/api/unsubscribe.php?token=`);
  });

  it("sends each kind only when the member chose it: new conversations, new messages, likes and matches", async () => {
    const cases: { kind: EmailKind; mail: string; event: (from: Row, conversationId: number) => MemberEvent }[] = [
      { kind: "new_conversations", mail: "new_conversation", event: (from, c) => message(c, from, 1, true) },
      { kind: "new_messages", mail: "new_message", event: (from, c) => message(c, from, 1) },
      { kind: "like", mail: "like", event: (from) => likeEvent(from) },
      { kind: "like", mail: "match", event: (from) => matchEvent(from) },
    ];
    for (const { kind, mail, event } of cases) {
      const [off, on, from] = [await memberRow(), await memberRow(), await memberRow()];
      await choose(off, kind, false);
      await tellByMail(env, off.profileId, event(from, await conversation(off, from, 1, T0)), HIDDEN, T0);
      await tellByMail(env, on.profileId, event(from, await conversation(on, from, 1, T0)), HIDDEN, T0);
      expect(await mailsTo(off), `${mail} while ${kind} is off`).toEqual([]);
      expect(
        (await mailsTo(on)).map((m) => m.kind),
        `${mail} while ${kind} is on`,
      ).toEqual([mail]);
    }
  });

  it("mails once per conversation while it stays unread, and again after the member read it", async () => {
    const [anna, sanne] = [await memberRow(), await memberRow()];
    const id = await conversation(anna, sanne, 1, T0);
    await tellByMail(env, anna.profileId, message(id, sanne, 1), HIDDEN, T0);
    await tellByMail(env, anna.profileId, message(id, sanne, 2), HIDDEN, T0 + 60);
    await tellByMail(env, anna.profileId, message(id, sanne, 3), HIDDEN, T0 + 120);
    expect(await mailsTo(anna)).toHaveLength(1);

    await tellByMail(
      env,
      anna.profileId,
      { kind: "read", conversation_id: id, peer_id: sanne.profileId, unread: 0 },
      HIDDEN,
      T0 + 180,
    );
    await tellByMail(env, anna.profileId, message(id, sanne, 1), HIDDEN, T0 + 240);
    await tellByMail(env, anna.profileId, message(id, sanne, 2), HIDDEN, T0 + 300);
    expect(await mailsTo(anna)).toHaveLength(2);

    // Another conversation is mailed on its own.
    const other = await memberRow();
    await tellByMail(env, anna.profileId, message(await conversation(anna, other, 1, T0), other, 1), HIDDEN, T0 + 360);
    expect(await mailsTo(anna)).toHaveLength(3);
  });

  it("mails again when the only unread message is the new one, even if the read never reached the mail", async () => {
    const [anna, sanne] = [await memberRow(), await memberRow()];
    const id = await conversation(anna, sanne, 1, T0);
    await tellByMail(env, anna.profileId, message(id, sanne, 1), HIDDEN, T0);
    await tellByMail(env, anna.profileId, message(id, sanne, 1), HIDDEN, T0 + 600);
    expect(await mailsTo(anna)).toHaveLength(2);
  });

  it("sends nothing about a message while a page of the member is in view; a hidden page does not count", async () => {
    const [anna, sanne] = [await memberRow(), await memberRow()];
    const id = await conversation(anna, sanne, 1, T0);
    await tellByMail(env, anna.profileId, message(id, sanne, 1), { open: 2, visible: 1 }, T0);
    expect(await mailsTo(anna)).toEqual([]);
    await tellByMail(env, anna.profileId, message(id, sanne, 2), { open: 1, visible: 0 }, T0 + 60);
    expect(await mailsTo(anna)).toHaveLength(1);
  });

  it("never mails an account that is not confirmed, pending deletion or disabled", async () => {
    for (const status of ["not_confirmed", "pending_deletion", "disabled"]) {
      const [member, from] = [await memberRow({ status }), await memberRow()];
      await tellByMail(env, member.profileId, likeEvent(from), HIDDEN, T0);
      await tellByMail(
        env,
        member.profileId,
        message(await conversation(member, from, 1, T0), from, 1, true),
        HIDDEN,
        T0,
      );
      expect(await mailsTo(member), status).toEqual([]);
    }
  });

  it("ignores balance changes", async () => {
    const anna = await memberRow();
    await tellByMail(env, anna.profileId, { kind: "credits", credits: 5, paid_user: true }, HIDDEN, T0);
    expect(await mailsTo(anna)).toEqual([]);
  });

  it("passes the unsubscribe headers to the mail provider; the record keeps neither them nor the body (docs/scale.md)", async () => {
    const sent: unknown[] = [];
    const provider = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      sent.push(JSON.parse(String(init!.body)));
      return Response.json({ id: "msg-9" });
    }) as typeof fetch;
    const headers = {
      "List-Unsubscribe": "<https://mail.test/api/unsubscribe.php?token=x>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    };
    await new HttpMailer(db, "https://provider.example/send", "k", "no-reply@example.com", provider).send({
      to: "headers@example.com",
      kind: "like",
      subject: "s",
      text: "t",
      html: "h",
      headers,
    });
    expect(sent).toEqual([
      { from: "no-reply@example.com", to: "headers@example.com", subject: "s", text: "t", html: "h", headers },
    ]);
    const row = await env.DB.prepare(
      "SELECT kind, headers, text, html, provider_id FROM outgoing_mail WHERE to_address = 'headers@example.com'",
    ).first();
    expect(row).toEqual({ kind: "like", headers: null, text: "", html: null, provider_id: "msg-9" });
  });
});

describe("the unsubscribe link", () => {
  async function mailedMember() {
    const [anna, sanne] = [await memberRow(), await memberRow()];
    await tellByMail(env, anna.profileId, likeEvent(sanne), HIDDEN, T0);
    const [mail] = await mailsTo(anna);
    return { anna, link: unsubscribeLinkOf(mail!) };
  }
  const stopsOf = async (row: Row) =>
    (await env.DB.prepare("SELECT reason, kind FROM mail_stops WHERE user_id = ?").bind(row.userId).all()).results;

  it("shows a confirmation page without login and changes nothing on GET", async () => {
    const { anna, link } = await mailedMember();
    const res = await fetchWorker(link);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("Likes and matches");
    expect(page).toMatch(/<form method="post" action="\/api\/unsubscribe\.php\?token=/);
    expect((await notificationChoicesOf(db, anna.userId)).email.like).toBe(true);
    expect(await stopsOf(anna)).toEqual([]);
  });

  it("unsubscribes at once on the one-click POST, without login or the site's headers", async () => {
    const { anna, link } = await mailedMember();
    const res = await fetchWorker(link, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const choices = await notificationChoicesOf(db, anna.userId);
    expect(choices.email).toEqual({ ...DEFAULT_NOTIFICATION_CHOICES.email, like: false });
    expect(await stopsOf(anna)).toEqual([{ reason: "unsubscribe", kind: "like" }]);
    // Twice is the same as once.
    expect((await fetchWorker(link, { method: "POST" })).status).toBe(200);
    expect(await stopsOf(anna)).toEqual([{ reason: "unsubscribe", kind: "like" }]);
    // And no more like mails.
    await tellByMail(env, anna.profileId, likeEvent(await memberRow()), HIDDEN, T0 + 60);
    expect(await mailsTo(anna)).toHaveLength(1);
  });

  it("answers the confirmation page's button with a page in the member's language", async () => {
    const [piet, sanne] = [await memberRow({ language: "nl" }), await memberRow()];
    await tellByMail(env, piet.profileId, likeEvent(sanne), HIDDEN, T0);
    const link = unsubscribeLinkOf((await mailsTo(piet))[0]!);
    const res = await fetchWorker(link, { method: "POST", headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("je ontvangt geen e-mails meer over");
  });

  it("refuses a forged or altered link and changes nothing", async () => {
    const { anna, link } = await mailedMember();
    const token = new URL(link).searchParams.get("token")!;
    const [user, kind, signature] = token.split(".");
    const other = await memberRow();
    const forged = [
      `${user}.news.${signature}`,
      `${other.userId}.${kind}.${signature}`,
      `${user}.${kind}.${signature!.slice(0, -2)}AA`,
      `${user}.${kind}`,
      "",
      `${user}.constructor.${signature}`,
    ];
    for (const bad of forged) {
      const url = `${ORIGIN}/api/unsubscribe.php?token=${encodeURIComponent(bad)}`;
      expect((await fetchWorker(url)).status, bad).toBe(400);
      const res = await fetchWorker(url, { method: "POST" });
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_link" });
    }
    expect(await stopsOf(anna)).toEqual([]);
    expect(await stopsOf(other)).toEqual([]);
    expect(await notificationChoicesOf(db, anna.userId)).toEqual(DEFAULT_NOTIFICATION_CHOICES);
  });
});

/** A call as the mail provider signs it (Standard Webhooks), with the test's secret unless told otherwise. */
async function signedWebhook(body: string, options: { secret?: string; timestamp?: number; id?: string } = {}) {
  const secret = options.secret ?? env.MAIL_WEBHOOK_SECRET;
  const id = options.id ?? `msg_${Math.random().toString(36).slice(2)}`;
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const key = await crypto.subtle.importKey(
    "raw",
    Uint8Array.from(atob(secret.slice(6)), (c) => c.charCodeAt(0)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = btoa(
    String.fromCharCode(
      ...new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`))),
    ),
  );
  return {
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${signature}`,
    "content-type": "application/json",
  };
}

const webhook = (body: string, headers: Record<string, string>) =>
  fetchWorker(`${ORIGIN}/api/mail-webhook.php`, { method: "POST", headers, body });

describe("the mail provider's bounce and complaint webhook", () => {
  const stopsOf = async (row: Row) =>
    (await env.DB.prepare("SELECT reason, kind, address FROM mail_stops WHERE user_id = ?").bind(row.userId).all())
      .results;

  it("changes nothing for an unsigned, forged or stale call", async () => {
    const anna = await memberRow();
    const body = JSON.stringify({ type: "email.bounced", data: { to: [anna.email] } });
    expect((await webhook(body, { "content-type": "application/json" })).status).toBe(401);
    const wrongSecret = await signedWebhook(body, { secret: `whsec_${btoa("not the provider's secret at all")}` });
    expect((await webhook(body, wrongSecret)).status).toBe(401);
    const otherBody = await signedWebhook(
      JSON.stringify({ type: "email.bounced", data: { to: ["someone@example.com"] } }),
    );
    expect((await webhook(body, otherBody)).status).toBe(401);
    const stale = await signedWebhook(body, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect((await webhook(body, stale)).status).toBe(401);
    expect(await stopsOf(anna)).toEqual([]);
  });

  it("stops mail to the account after a signed bounce, once however often it is told, and shows why", async () => {
    const [anna, sanne] = [await memberRow(), await memberRow()];
    const body = JSON.stringify({
      type: "email.bounced",
      data: { to: [anna.email.toUpperCase()], bounce: { type: "Permanent" } },
    });
    for (let i = 0; i < 2; i++) {
      const res = await webhook(body, await signedWebhook(body, { id: "msg_same" }));
      expect(res.status).toBe(200);
    }
    expect(await stopsOf(anna)).toEqual([{ reason: "bounce", kind: "", address: anna.email }]);
    await tellByMail(env, anna.profileId, likeEvent(sanne), HIDDEN, T0);
    expect(await mailsTo(anna)).toEqual([]);

    // A new, confirmed address starts clean.
    const moved = `moved${anna.userId}@example.com`;
    await env.DB.prepare("UPDATE users SET email = ? WHERE id = ?").bind(moved, anna.userId).run();
    await tellByMail(env, anna.profileId, likeEvent(sanne), HIDDEN, T0 + 60);
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM outgoing_mail WHERE to_address = ?")
        .bind(moved)
        .first<{ n: number }>())!.n,
    ).toBe(1);
  });

  it("stops mail after a complaint, and ignores a soft bounce and other events", async () => {
    const [anna, bo, sanne] = [await memberRow(), await memberRow(), await memberRow()];
    const complaint = JSON.stringify({ type: "email.complained", data: { to: anna.email } });
    expect((await webhook(complaint, await signedWebhook(complaint))).status).toBe(200);
    const soft = JSON.stringify({ type: "email.bounced", data: { to: [bo.email], bounce: { type: "Transient" } } });
    expect((await webhook(soft, await signedWebhook(soft))).status).toBe(200);
    const delivered = JSON.stringify({ type: "email.delivered", data: { to: [bo.email] } });
    expect((await webhook(delivered, await signedWebhook(delivered))).status).toBe(200);
    expect(await stopsOf(anna)).toEqual([{ reason: "complaint", kind: "", address: anna.email }]);
    expect(await stopsOf(bo)).toEqual([]);
    await tellByMail(env, anna.profileId, likeEvent(sanne), HIDDEN, T0);
    await tellByMail(env, bo.profileId, likeEvent(sanne), HIDDEN, T0);
    expect(await mailsTo(anna)).toEqual([]);
    expect(await mailsTo(bo)).toHaveLength(1);
  });

  it("answers a signed call with a body that is not a report with 400", async () => {
    for (const body of [
      "not json",
      JSON.stringify({ data: { to: 5 } }),
      JSON.stringify({ type: "email.bounced", data: { to: ["not an address"] } }),
    ]) {
      expect((await webhook(body, await signedWebhook(body))).status, body).toBe(400);
    }
  });
});

describe("the mail clock", () => {
  const kindsTo = async (row: Row) => (await mailsTo(row)).map((m) => m.kind);

  it("reminds of messages unread for a day, once for those messages, and at most every three days", async () => {
    const [anna, sanne, piet] = [await memberRow(), await memberRow(), await memberRow()];
    // Only the reminders here: the weekly update (which counts unread messages too) is the next test's.
    await choose(anna, "weekly_updates", false);
    const start = T0 + 100 * DAY;
    const id = await conversation(anna, sanne, 2, start - 2 * 3600);
    // Two hours unread: not yet.
    await runMailClock(env, start);
    expect(await kindsTo(anna)).toEqual([]);
    await runMailClock(env, start + DAY);
    expect(await kindsTo(anna)).toEqual(["unread_reminder"]);
    expect((await mailsTo(anna))[0]!.subject).toBe("2 unread messages are waiting for you");
    // The same messages are not reminded of again.
    await runMailClock(env, start + 5 * DAY);
    expect(await kindsTo(anna)).toEqual(["unread_reminder"]);
    // A newer unread message, a day old, one day after the reminder: wait for the three days.
    await env.DB.prepare(
      "UPDATE conversation_members SET unread_count = 3, last_message_at = ? WHERE conversation_id = ? AND profile_id = ?",
    )
      .bind(start + 5 * DAY, id, anna.profileId)
      .run();
    await runMailClock(env, start + 6 * DAY);
    expect(await kindsTo(anna)).toEqual(["unread_reminder", "unread_reminder"]);
    await env.DB.prepare(
      "UPDATE conversation_members SET unread_count = 4, last_message_at = ? WHERE conversation_id = ? AND profile_id = ?",
    )
      .bind(start + 6 * DAY + 60, id, anna.profileId)
      .run();
    await runMailClock(env, start + 8 * DAY);
    expect(await kindsTo(anna)).toEqual(["unread_reminder", "unread_reminder"]);
    await runMailClock(env, start + 9 * DAY + 120);
    expect(await kindsTo(anna)).toEqual(["unread_reminder", "unread_reminder", "unread_reminder"]);
    // Nothing for a member who turned reminders off.
    await choose(piet, "unread_message_reminders", false);
    await conversation(piet, sanne, 1, start);
    await runMailClock(env, start + 2 * DAY);
    expect(await kindsTo(piet)).toEqual([]);
  });

  it("sends the weekly update once a week to members who chose it, when there is something to tell", async () => {
    const start = T0 + 200 * DAY;
    const [anna, bo, quiet] = [await memberRow({ regionId: null }), await memberRow(), await memberRow()];
    await choose(bo, "weekly_updates", false);
    const liker = await memberRow();
    await env.DB.prepare("INSERT INTO likes (liker_id, liked_id, created_at) VALUES (?, ?, ?), (?, ?, ?)")
      .bind(liker.profileId, anna.profileId, start - DAY, liker.profileId, bo.profileId, start - DAY)
      .run();
    // Everyone else made here joined long before the week: only the like is news, and only for anna and bo.
    await env.DB.prepare("UPDATE profiles SET created_at = ? WHERE created_at > ?")
      .bind(T0 - 60 * DAY, start - 8 * DAY)
      .run();
    await runMailClock(env, start);
    const [update] = await mailsTo(anna);
    expect(update!.kind).toBe("weekly_update");
    expect(update!.text).toContain("1 new like · 0 unread messages · 0 new members near you");
    expect(await kindsTo(bo)).toEqual([]);
    expect(await kindsTo(quiet)).toEqual([]);
    // Not again within the week, again after it when there is news.
    await runMailClock(env, start + 3 * DAY);
    expect(await kindsTo(anna)).toEqual(["weekly_update"]);
    await env.DB.prepare("INSERT INTO likes (liker_id, liked_id, created_at) VALUES (?, ?, ?)")
      .bind((await memberRow()).profileId, anna.profileId, start + 5 * DAY)
      .run();
    await runMailClock(env, start + 7 * DAY);
    expect(await kindsTo(anna)).toEqual(["weekly_update", "weekly_update"]);
  });

  it("reminds an unconfirmed member once, a day after signup, with an activation link that works", async () => {
    const start = T0 + 300 * DAY;
    const [fresh, waiting, old] = [
      await memberRow({ status: "not_confirmed", signupDate: start - 3600 }),
      await memberRow({ status: "not_confirmed", signupDate: start - 2 * DAY }),
      await memberRow({ status: "not_confirmed", signupDate: start - 10 * DAY }),
    ];
    await runMailClock(env, start);
    await runMailClock(env, start + 3600);
    expect(await kindsTo(fresh)).toEqual([]);
    expect(await kindsTo(waiting)).toEqual(["activation_reminder"]);
    expect(await kindsTo(old)).toEqual([]);
    const [mail] = await mailsTo(waiting);
    const link = /(https:\/\/mail\.test\/api\/activate\.php\?token=[A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    // The token's lifetime runs from the test's clock, so use it at that time: the service takes now.
    const row = await env.DB.prepare("SELECT expires_at FROM auth_tokens WHERE user_id = ? AND kind = 'activation'")
      .bind(waiting.userId)
      .first<{ expires_at: number }>();
    expect(row!.expires_at).toBe(start + 7 * DAY);
    await env.DB.prepare(
      "UPDATE auth_tokens SET expires_at = unixepoch() + 3600, created_at = unixepoch() WHERE user_id = ?",
    )
      .bind(waiting.userId)
      .run();
    const res = await fetchWorker(link, { redirect: "manual" });
    expect(res.headers.get("location")).toBe("/activate/done");
    expect(JSON.parse(mail!.headers!)["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });

  it("runs on the hourly cron trigger", async () => {
    const [anna, sanne] = [await memberRow(), await memberRow()];
    await choose(anna, "weekly_updates", false);
    await conversation(anna, sanne, 1, Math.floor(Date.now() / 1000) - 2 * DAY);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "41 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await kindsTo(anna)).toEqual(["unread_reminder"]);
  });
});
