import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { disabledNotificationsAlert, showActivationReminder } from "../../src/app/components/Alerts";
import type { User } from "../../src/shared/api";
import { DEFAULT_NOTIFICATION_CHOICES, type NotificationsAnswer } from "../../src/shared/notifications";
import { chatMember, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { Browser, json } from "../http";

const ORIGIN = "http://notifications.test";
const PATH = "/api/notifications.php";

// Members here sign up (a password hash each): give a busy machine time.
vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await putSites(site("notifications.test"));
});

async function answerOf(m: Member): Promise<NotificationsAnswer> {
  const res = await m.browser.fetch(PATH);
  expect(res.status).toBe(200);
  return json<NotificationsAnswer>(res);
}

const userOf = async (m: Member) => (await json<{ user: User }>(await m.browser.fetch("/api/user.php"))).user;
const put = (m: Member, body: unknown) => m.browser.fetch(PATH, { method: "PUT", json: body });
const stop = (m: Member, reason: string, kind = "", address: string | null = null) =>
  env.DB.prepare("INSERT INTO mail_stops (user_id, reason, kind, address, created_at) VALUES (?, ?, ?, ?, 1900000000)")
    .bind(m.userId, reason, kind, address)
    .run();

describe("GET and PUT /api/notifications.php", () => {
  it("refuses visitors with 403 authentication_required", async () => {
    const visitor = new Browser(ORIGIN);
    expect((await visitor.fetch(PATH)).status).toBe(403);
    const res = await visitor.fetch(PATH, { method: "PUT", json: { previews: true } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "authentication_required" });
  });

  it("answers the defaults until the member changes something, then keeps their change and nobody else's", async () => {
    const [anna, bo] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
    expect(await answerOf(anna)).toEqual({
      notifications: DEFAULT_NOTIFICATION_CHOICES,
      notifications_disabled: [],
      stops: [],
    });
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM notification_choices WHERE user_id = ?")
        .bind(anna.userId)
        .first(),
    ).toEqual({ n: 0 });

    const res = await put(anna, {
      email: { promotions: true, new_messages: false },
      push: { like: false },
      previews: true,
    });
    expect(res.status).toBe(200);
    const expected = {
      email: { ...DEFAULT_NOTIFICATION_CHOICES.email, promotions: true, new_messages: false },
      push: { ...DEFAULT_NOTIFICATION_CHOICES.push, like: false },
      previews: true,
    };
    expect((await json<NotificationsAnswer>(res)).notifications).toEqual(expected);
    expect((await answerOf(anna)).notifications).toEqual(expected);
    // A part changes only that part.
    await put(anna, { email: { news: true } });
    expect((await answerOf(anna)).notifications).toEqual({ ...expected, email: { ...expected.email, news: true } });
    expect((await answerOf(bo)).notifications).toEqual(DEFAULT_NOTIFICATION_CHOICES);
    // Two changes at the same moment (two tabs) both stay.
    await Promise.all([
      put(bo, { email: { news: true } }),
      put(bo, { push: { like: false } }),
      put(bo, { previews: true }),
    ]);
    expect((await answerOf(bo)).notifications).toEqual({
      ...DEFAULT_NOTIFICATION_CHOICES,
      email: { ...DEFAULT_NOTIFICATION_CHOICES.email, news: true },
      push: { ...DEFAULT_NOTIFICATION_CHOICES.push, like: false },
      previews: true,
    });
    // The member's copy of their data holds them too.
    const archive = await json<{ notifications: NotificationsAnswer }>(await anna.browser.fetch("/api/my-data.php"));
    expect(archive.notifications.notifications.email.news).toBe(true);
  });

  it("refuses bad input with 400 and changes nothing", async () => {
    const anna = await chatMember(ORIGIN);
    await put(anna, { email: { like: false } });
    const before = await answerOf(anna);
    for (const body of [
      { email: { like: "no" } },
      { email: { dating_tips: true } },
      { email: { constructor: true } },
      { push: { promotions: true } },
      { previews: 1 },
      { resume_mail: false },
      { everything: false },
      ["previews"],
      "previews",
    ]) {
      const res = await put(anna, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    const notJson = await anna.browser.fetch(PATH, {
      method: "PUT",
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect(await answerOf(anna)).toEqual(before);
  });

  it("refuses a change that does not come from the site's own pages", async () => {
    const anna = await chatMember(ORIGIN);
    const res = await anna.browser.fetch(PATH, {
      method: "PUT",
      json: { previews: true },
      headers: { origin: "https://elsewhere.example" },
    });
    expect(res.status).toBe(403);
    expect((await answerOf(anna)).notifications.previews).toBe(false);
  });
});

describe("notifications_disabled", () => {
  it("lists why mail stopped in the user answer, and turning the kind back on takes back its unsubscribe", async () => {
    const anna = await chatMember(ORIGIN);
    await put(anna, { email: { like: false, news: false } });
    await stop(anna, "unsubscribe", "like");
    await stop(anna, "unsubscribe", "news");
    expect((await userOf(anna)).notifications_disabled).toEqual(["unsubscribe"]);
    expect((await answerOf(anna)).stops).toEqual([
      { reason: "unsubscribe", kind: "like", since: 1900000000 },
      { reason: "unsubscribe", kind: "news", since: 1900000000 },
    ]);
    await put(anna, { email: { like: true } });
    expect((await answerOf(anna)).stops.map((s) => s.kind)).toEqual(["news"]);
    await put(anna, { email: { news: true } });
    expect((await userOf(anna)).notifications_disabled).toEqual([]);
  });

  it("keeps a bounce until the member asks to be mailed again or their address changes", async () => {
    const anna = await chatMember(ORIGIN);
    await stop(anna, "bounce", "", anna.user.email);
    expect((await userOf(anna)).notifications_disabled).toEqual(["bounce"]);
    // Switching kinds on and off does not take back a bounce: only the member's explicit request does.
    await put(anna, { email: { like: true } });
    expect((await answerOf(anna)).notifications_disabled).toEqual(["bounce"]);
    const res = await put(anna, { resume_mail: true });
    expect((await json<NotificationsAnswer>(res)).notifications_disabled).toEqual([]);
    // Asking for mail again is no change of choices.
    const fresh = await chatMember(ORIGIN);
    await put(fresh, { resume_mail: true });
    await put(fresh, {});
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM notification_choices WHERE user_id = ?")
        .bind(fresh.userId)
        .first(),
    ).toEqual({ n: 0 });

    const bo = await chatMember(ORIGIN);
    await stop(bo, "complaint", "", bo.user.email);
    expect((await userOf(bo)).notifications_disabled).toEqual(["complaint"]);
    await env.DB.prepare("UPDATE users SET email = ? WHERE id = ?").bind(`new-${bo.user.email}`, bo.userId).run();
    expect((await userOf(bo)).notifications_disabled).toEqual([]);
  });
});

describe("the disabled-notifications alert (SPEC §2)", () => {
  const member = { status: "not_confirmed", notifications_disabled: [] as string[] };

  it("shows while notifications_disabled is non-empty, until dismissed, not on settings or notifications, with the weightiest reason", () => {
    expect(disabledNotificationsAlert(member, "members", null)).toBeNull();
    expect(disabledNotificationsAlert({ notifications_disabled: ["unsubscribe"] }, "members", null)).toBe(
      "unsubscribe",
    );
    expect(disabledNotificationsAlert({ notifications_disabled: ["complaint", "unsubscribe"] }, "chats", null)).toBe(
      "complaint",
    );
    expect(disabledNotificationsAlert({ notifications_disabled: ["bounce", "complaint"] }, null, null)).toBe("bounce");
    expect(disabledNotificationsAlert({ notifications_disabled: ["bounce"] }, "members", "1900000000000")).toBeNull();
    for (const route of ["settings", "notifications"])
      expect(disabledNotificationsAlert({ notifications_disabled: ["bounce"] }, route, null), route).toBeNull();
    expect(disabledNotificationsAlert(null, "members", null)).toBeNull();
  });

  it("takes the place of the activation reminder: that one shows only while notifications_disabled is empty", () => {
    expect(showActivationReminder(member, "members")).toBe(true);
    expect(showActivationReminder({ ...member, notifications_disabled: ["bounce"] }, "members")).toBe(false);
    for (const route of ["signup", "settings", "notifications"])
      expect(showActivationReminder(member, route), route).toBe(false);
  });
});
