import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { DEVELOPMENT_VAPID } from "../../scripts/demo/vapid-keys";
import { databaseOf } from "../../src/server/db/database";
import { isAllowedPushEndpoint } from "../../src/server/push/endpoints";
import { WebPush } from "../../src/server/push/sender";
import { tellByPush } from "../../src/server/notices/push-notices";
import { purgeDeletedAccounts } from "../../src/server/services/accounts";
import type { MemberEvent, PushPayload } from "../../src/shared/member-events";
import { encodeBase64Url } from "../../src/shared/web-push";
import { ChatSocket, chatMember, clientId, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { Browser, json } from "../http";
import type { ReceivedPush } from "../push-stand-in";

const ORIGIN = "http://push.test";
const pushUrl = inject("pushUrl");
/** The origin of the stand-in's endpoints: https, as a browser subscribes; the Worker reaches it over http in tests. */
const pushOrigin = pushUrl.replace(/^http:/, "https:");
const webEnv = { ...env, PUSH_PROVIDER: "web" } as Env;
const hidden = { open: 1, visible: 0 };
const inView = { open: 1, visible: 1 };
const now = () => Math.floor(Date.now() / 1000);

// Every member here signs up (a password hash each): give a busy machine time.
vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await putSites(site("push.test", { name: "Testwave" }));
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The member's switches on /notifications, saved as the settings screen saves them. */
async function choose(member: Member, update: Record<string, unknown>) {
  expect((await member.browser.put("/api/notifications.php", update)).status).toBe(200);
}

const encode = encodeBase64Url;

/** What PushManager.subscribe gives a page: an endpoint and the browser's P-256 key and auth secret. */
async function browserSubscription(endpoint = `https://push.example.net/send/${crypto.randomUUID()}`) {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const p256dh = encode(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
  return { endpoint, expirationTime: null, keys: { p256dh, auth: encode(crypto.getRandomValues(new Uint8Array(16))) } };
}

/** A subscription of the push service stand-in: the browser's private key stays with the stand-in. */
async function standInSubscription(
  applicationServerKey = DEVELOPMENT_VAPID.publicKey,
): Promise<{ id: string; subscription: Awaited<ReturnType<typeof browserSubscription>> }> {
  const res = await fetch(`${pushUrl}/_stand-in/subscriptions`, {
    method: "POST",
    body: JSON.stringify({ applicationServerKey }),
  });
  return res.json();
}

const received = async (id: string): Promise<ReceivedPush[]> =>
  (await fetch(`${pushUrl}/_stand-in/received/${id}`)).json();
const answerWith = (id: string, status: number) =>
  fetch(`${pushUrl}/_stand-in/subscriptions/${id}/answer`, { method: "POST", body: JSON.stringify({ status }) });

async function subscriptionRows(userId: number) {
  const { results } = await env.DB.prepare(
    "SELECT endpoint, p256dh, auth, session_id, last_success_at FROM push_subscriptions WHERE user_id = ? ORDER BY id",
  )
    .bind(userId)
    .all<{
      endpoint: string;
      p256dh: string;
      auth: string;
      session_id: string;
      last_success_at: number | null;
    }>();
  return results;
}

async function pushesTo(member: Member): Promise<(PushPayload & { topic: string | null; urgency: string })[]> {
  const { results } = await env.DB.prepare(
    "SELECT payload, topic, urgency FROM outgoing_push WHERE user_id = ? ORDER BY id",
  )
    .bind(member.userId)
    .all<{ payload: string; topic: string | null; urgency: string }>();
  return results.map((r) => ({ ...(JSON.parse(r.payload) as PushPayload), topic: r.topic, urgency: r.urgency }));
}

const subscribe = (member: Member, subscription: unknown) =>
  member.browser.post("/api/user.php?push=1", { subscription });

/** The member logged in on another browser. */
async function anotherBrowserOf(member: Member): Promise<Browser> {
  const { email } = (await env.DB.prepare("SELECT email FROM users WHERE id = ?")
    .bind(member.userId)
    .first<{ email: string }>())!;
  const browser = new Browser(ORIGIN);
  browser.cookies.set("locale", "en");
  expect((await browser.post("/api/user.php", { email, password: "a good password" })).status).toBe(200);
  return browser;
}

function messageFrom(
  sender: Member,
  name: string,
  over: Partial<Extract<MemberEvent, { kind: "message" }>> = {},
): MemberEvent {
  return {
    kind: "message",
    conversation_id: 1,
    peer_id: sender.id,
    peer_name: name,
    message_kind: "text",
    preview: "Shall we meet at the harbour tonight?",
    first: false,
    unread: 1,
    created_at: now(),
    ...over,
  };
}

async function expectRefused(res: Response, status: number, error: string, message: string) {
  expect(res.status).toBe(status);
  const body = await json<{ error: string; message: string }>(res);
  expect(body.error).toBe(error);
  expect(body.message).toBe(message);
}

describe("POST /api/user.php?push=1", () => {
  it("stores this browser's subscription for the member and the login that sent it", async () => {
    const b = await chatMember(ORIGIN, { name: "Bea" });
    const subscription = await browserSubscription();
    const res = await subscribe(b, subscription);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const rows = await subscriptionRows(b.userId);
    expect(rows).toMatchObject([
      { endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth },
    ]);
    expect(rows[0]!.session_id).toBeTruthy();
    // Sent again (every page load of a subscribed browser may): still one row.
    expect((await subscribe(b, subscription)).status).toBe(200);
    expect(await subscriptionRows(b.userId)).toHaveLength(1);
  });

  it("refuses a visitor with authentication_required and stores nothing", async () => {
    const visitor = new Browser(ORIGIN);
    visitor.cookies.set("locale", "en");
    const before = await env.DB.prepare("SELECT count(*) AS n FROM push_subscriptions").first<{ n: number }>();
    await expectRefused(
      await visitor.post("/api/user.php?push=1", { subscription: await browserSubscription() }),
      403,
      "authentication_required",
      "Please log in again",
    );
    expect(await env.DB.prepare("SELECT count(*) AS n FROM push_subscriptions").first<{ n: number }>()).toEqual(before);
  });

  it("is no longer a login: e-mail and password with ?push=1 log nobody in", async () => {
    const c = await chatMember(ORIGIN, { name: "Cas" });
    const { email } = (await env.DB.prepare("SELECT email FROM users WHERE id = ?")
      .bind(c.userId)
      .first<{ email: string }>())!;
    const visitor = new Browser(ORIGIN);
    visitor.cookies.set("locale", "en");
    const res = await visitor.post("/api/user.php?push=1", { email, password: "a good password" });
    expect(res.status).toBe(403);
    expect([...visitor.cookies.keys()]).toEqual(["locale"]);
    // The plain call still logs in.
    await anotherBrowserOf(c);
    // And a member who sends login fields to ?push=1 is told the subscription is missing.
    await expectRefused(
      await c.browser.post("/api/user.php?push=1", { email, password: "a good password" }),
      400,
      "invalid_parameter",
      "This browser's subscription is incomplete. Turn notifications off and on again.",
    );
  });

  it("refuses bad subscriptions with a clear message in the member's language, storing nothing", async () => {
    const d = await chatMember(ORIGIN, { name: "Dirk" });
    const good = await browserSubscription();
    const notOnCurve = encode(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : 1)));
    const endpointText = "This browser's push address cannot be used. Turn notifications off and on again.";
    const keysText = "This browser's notification keys are not valid. Turn notifications off and on again.";
    const cases: [unknown, string, string][] = [
      [{ ...good, endpoint: "http://push.example.net/send/1" }, "subscription.endpoint", endpointText],
      [{ ...good, endpoint: "https://10.0.0.7/send/1" }, "subscription.endpoint", endpointText],
      [{ ...good, endpoint: "https://192.168.1.1/send/1" }, "subscription.endpoint", endpointText],
      [{ ...good, endpoint: "ftp://push.example.net/send/1" }, "subscription.endpoint", endpointText],
      [{ ...good, endpoint: "not a url" }, "subscription.endpoint", endpointText],
      [{ ...good, endpoint: 42 }, "subscription.endpoint", endpointText],
      [
        { ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(0, 40) } },
        "subscription.keys.p256dh",
        keysText,
      ],
      [{ ...good, keys: { ...good.keys, p256dh: notOnCurve } }, "subscription.keys.p256dh", keysText],
      [{ ...good, keys: { ...good.keys, p256dh: "not*base64url" } }, "subscription.keys.p256dh", keysText],
      [{ ...good, keys: { ...good.keys, auth: encode(new Uint8Array(15)) } }, "subscription.keys.auth", keysText],
      [{ endpoint: good.endpoint }, "subscription.keys", keysText],
      ["a string", "subscription", "This browser's subscription is incomplete. Turn notifications off and on again."],
      [
        { ...good, expirationTime: "soon" },
        "subscription.expirationTime",
        "This browser's subscription is incomplete. Turn notifications off and on again.",
      ],
      [
        { ...good, expirationTime: 1e300 },
        "subscription.expirationTime",
        "This browser's subscription is incomplete. Turn notifications off and on again.",
      ],
    ];
    for (const [subscription, field, message] of cases) {
      const res = await subscribe(d, subscription);
      expect(res.status, JSON.stringify(subscription)).toBe(400);
      const body = await json<{ error: string; message: string; field: string }>(res);
      expect(body, JSON.stringify(subscription)).toMatchObject({ error: "invalid_parameter", field, message });
    }
    const res = await d.browser.fetch("/api/user.php?push=1", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(await subscriptionRows(d.userId)).toEqual([]);

    // In Dutch for a Dutch member.
    d.browser.cookies.set("locale", "nl");
    const dutch = await json<{ message: string }>(
      await subscribe(d, { ...good, endpoint: "http://push.example.net/send/1" }),
    );
    expect(dutch.message).toBe("Het pushadres van deze browser is niet bruikbaar. Zet meldingen uit en weer aan.");
    expect(await subscriptionRows(d.userId)).toEqual([]);
  });

  it("keeps one subscription per browser: subscribing anew replaces the old one", async () => {
    const k = await chatMember(ORIGIN, { name: "Kees" });
    const [old, renewed] = [await browserSubscription(), await browserSubscription()];
    await subscribe(k, old);
    await subscribe(k, renewed);
    expect((await subscriptionRows(k.userId)).map((r) => r.endpoint)).toEqual([renewed.endpoint]);
  });

  it("moves a browser's endpoint to the member who logs in on it next", async () => {
    const e = await chatMember(ORIGIN, { name: "Eva" });
    const f = await chatMember(ORIGIN, { name: "Frits" });
    const subscription = await browserSubscription();
    await subscribe(e, subscription);
    expect(await subscriptionRows(e.userId)).toHaveLength(1);
    expect((await subscribe(f, subscription)).status).toBe(200);
    expect(await subscriptionRows(e.userId)).toEqual([]);
    expect(await subscriptionRows(f.userId)).toMatchObject([{ endpoint: subscription.endpoint }]);
  });

  it("forgets: the endpoint named, this login's browser, the browser that logs out, every browser of a deleted account", async () => {
    const g = await chatMember(ORIGIN, { name: "Gijs" });
    const [one, two] = [await browserSubscription(), await browserSubscription()];
    await subscribe(g, one);
    expect(
      await (await g.browser.post("/api/user.php?push=1", { subscription: null, endpoint: two.endpoint })).json(),
    ).toEqual({ ok: true });
    expect((await subscriptionRows(g.userId)).map((r) => r.endpoint)).toEqual([one.endpoint]);
    expect(
      await (await g.browser.post("/api/user.php?push=1", { subscription: null, endpoint: one.endpoint })).json(),
    ).toEqual({ ok: true });
    expect(await subscriptionRows(g.userId)).toEqual([]);
    await subscribe(g, two);
    expect((await g.browser.post("/api/user.php?push=1", { subscription: null })).status).toBe(200);
    expect(await subscriptionRows(g.userId)).toEqual([]);

    await subscribe(g, one);
    await g.browser.fetch("/api/logout.php");
    expect(await subscriptionRows(g.userId)).toEqual([]);

    const h = await chatMember(ORIGIN, { name: "Hanna" });
    await subscribe(h, one);
    expect((await h.browser.delete("/api/user.php", { password: "a good password" })).status).toBe(200);
    expect(await subscriptionRows(h.userId)).toEqual([]);
  });

  it("erasing an account erases its subscriptions", async () => {
    const j = await chatMember(ORIGIN, { name: "Joost" });
    await subscribe(j, await browserSubscription());
    await env.DB.prepare("UPDATE users SET status = 'pending_deletion', deletion_requested_at = ? WHERE id = ?")
      .bind(now() - 15 * 86_400, j.userId)
      .run();
    expect(
      await purgeDeletedAccounts(databaseOf(env.DB), env.PHOTOS, async (ids) => ids, now()),
    ).toBeGreaterThanOrEqual(1);
    expect(await subscriptionRows(j.userId)).toEqual([]);
  });

  it("lists the member's subscriptions in their data export, without keys", async () => {
    const i = await chatMember(ORIGIN, { name: "Ilse" });
    const subscription = await browserSubscription();
    await subscribe(i, subscription);
    const res = await i.browser.fetch("/api/my-data.php");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text).push_subscriptions).toMatchObject([{ push_service: "https://push.example.net" }]);
    expect(text).not.toContain(subscription.keys.p256dh);
    expect(text).not.toContain(subscription.keys.auth);
  });
});

describe("which endpoints the Worker posts to", () => {
  it("in production: https to a public host only", () => {
    for (const ok of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/abc",
      "https://web.push.apple.com/QGuQ",
    ]) {
      expect(isAllowedPushEndpoint(ok, false), ok).toBe(true);
    }
    for (const refused of [
      "http://fcm.googleapis.com/fcm/send/abc",
      "https://127.0.0.1:9000/push",
      "https://localhost/push",
      "https://push.localhost/push",
      "https://10.1.2.3/push",
      "https://172.20.0.1/push",
      "https://169.254.169.254/latest",
      "https://[::1]/push",
      "https://[fd00::1]/push",
      "https://intranet/push",
      "https://user:pw@fcm.googleapis.com/fcm/send/abc",
      `${pushOrigin}/push/x`,
    ]) {
      expect(isAllowedPushEndpoint(refused, false), refused).toBe(false);
    }
  });

  it("in development and tests: also the loopback stand-in, but no other private address", () => {
    expect(isAllowedPushEndpoint(`${pushOrigin}/push/x`, true)).toBe(true);
    // Push services are https (RFC 8030 §2), loopback too: the sender reaches the stand-in over http itself.
    expect(isAllowedPushEndpoint(`${pushUrl}/push/x`, true)).toBe(false);
    expect(isAllowedPushEndpoint("https://10.0.0.1/push", true)).toBe(false);
    expect(isAllowedPushEndpoint("http://127.evil.example/push", true)).toBe(false);
  });
});

describe("the TTL of a push", () => {
  const vapid = { ...DEVELOPMENT_VAPID, subject: "mailto:support@example.com" };
  const message = (ttl: number) => ({
    payload: { kind: "message", title: "t", body: "b", tag: "x", url: "/", badge: 0 } as PushPayload,
    topic: null,
    urgency: "normal" as const,
    ttl,
  });
  const stored = (subscription: Awaited<ReturnType<typeof browserSubscription>>) => ({
    id: 1,
    endpoint: subscription.endpoint,
    p256dh: subscription.keys.p256dh,
    auth: subscription.keys.auth,
  });

  it("a push without one is refused by the push service (400); the app sends one on every push, in whole seconds", async () => {
    const { id, subscription } = await standInSubscription();
    // The same push with the TTL header taken out on its way.
    const withoutTtl = new WebPush(vapid, true, (input, init) => {
      const headers = new Headers(init?.headers);
      headers.delete("ttl");
      return fetch(input, { ...init, headers });
    });
    expect(await withoutTtl.send(1, stored(subscription), message(60), now())).toEqual({
      kind: "failed",
      reason: "push service answered 400",
    });
    const app = new WebPush(vapid, true);
    for (const ttl of [60, 90.7, 0, Number.NaN])
      expect(await app.send(1, stored(subscription), message(ttl), now())).toEqual({ kind: "sent" });
    expect((await received(id)).map((push) => [push.answered, push.headers.ttl])).toEqual([
      [400, null],
      [201, "60"],
      [201, "90"],
      [201, "0"],
      [201, "0"],
    ]);
  });
});

describe("web push to the push service stand-in", () => {
  it("posts aes128gcm the browser decrypts, signed with VAPID, in the member's language, discreet", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const bob = await chatMember(ORIGIN, { name: "Bob" });
    await env.DB.prepare("UPDATE users SET language = 'nl' WHERE id = ?").bind(bob.userId).run();
    // A new like for Bob, so the badge counts something.
    expect((await anna.browser.post("/api/like.php", { profile: { id: bob.id } })).status).toBe(200);
    const { id, subscription } = await standInSubscription();
    expect((await subscribe(bob, subscription)).status).toBe(200);

    await tellByPush(webEnv, bob.id, messageFrom(anna, "Anna"), hidden, now());

    const [push, ...more] = await received(id);
    expect(more).toEqual([]);
    expect(push!.answered).toBe(201);
    expect(push!.decryptError).toBeNull();
    expect(push!.vapid).toMatchObject({
      ok: true,
      aud: pushOrigin,
      sub: "mailto:support@example.com",
      k: DEVELOPMENT_VAPID.publicKey,
    });
    expect(push!.headers).toEqual({
      contentEncoding: "aes128gcm",
      ttl: "86400",
      urgency: "high",
      topic: `conversation-${anna.id}`,
    });
    expect(push!.payload).toEqual({
      kind: "message",
      title: "Nieuw bericht",
      body: "Anna heeft je een bericht gestuurd",
      tag: `conversation-${anna.id}`,
      url: `/members/${anna.id}/chat`,
      badge: 1,
    });
    expect(JSON.stringify(push!.payload)).not.toContain("harbour");
    expect((await subscriptionRows(bob.userId))[0]!.last_success_at).toBeGreaterThan(0);
  });

  it("deletes a subscription the push service answers 410 or 404 for, keeps it after a 500 and logs it", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const carl = await chatMember(ORIGIN, { name: "Carl" });
    const [gone, missing, failing] = [
      await standInSubscription(),
      await standInSubscription(),
      await standInSubscription(),
    ];
    // Three browsers of Carl's (one subscription each).
    for (const s of [gone, missing, failing])
      await subscribe({ ...carl, browser: await anotherBrowserOf(carl) }, s.subscription);
    expect(await subscriptionRows(carl.userId)).toHaveLength(3);
    await answerWith(gone.id, 410);
    await answerWith(missing.id, 404);
    await answerWith(failing.id, 500);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});

    await tellByPush(
      webEnv,
      carl.id,
      { kind: "like", liker_id: anna.id, liker_name: "Anna", created_at: now() },
      inView,
      now(),
    );

    for (const s of [gone, missing, failing])
      expect((await received(s.id)).map((r) => r.payload)).toMatchObject([{ kind: "like", body: "Anna likes you" }]);
    expect((await subscriptionRows(carl.userId)).map((r) => r.endpoint)).toEqual([failing.subscription.endpoint]);
    const logged = warn.mock.calls.map(([line]) => JSON.parse(String(line)) as { event: string; reason: string });
    expect(logged).toEqual([expect.objectContaining({ event: "push_failed", reason: "push service answered 500" })]);
  });

  it("pushes the service refuses for another key are logged as a key mismatch once per deployment, the subscriptions kept; without the VAPID secret nothing is sent", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const lena = await chatMember(ORIGIN, { name: "Lena" });
    const other = await standInSubscription(
      "BJ3ORD59KaV08jFzdUjFXPvSCMQd8-OXxDAI3YWCFy1FX3h1Wh9Ctnw3Fng5TUBIboclxaSxS3brypu3tJ58QZI",
    );
    await subscribe(lena, other.subscription);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await Promise.all(
      Array.from({ length: 4 }, () => tellByPush(webEnv, lena.id, messageFrom(anna, "Anna"), hidden, now())),
    );
    expect((await received(other.id)).map((r) => r.answered)).toEqual([403, 403, 403, 403]);
    expect(await subscriptionRows(lena.userId)).toHaveLength(1);
    expect(warn.mock.calls.map(([line]) => JSON.parse(String(line)) as unknown)).toEqual([
      { event: "push_key_mismatch", public_key: DEVELOPMENT_VAPID.publicKey, push_service: pushOrigin },
    ]);

    warn.mockClear();
    await tellByPush({ ...webEnv, VAPID_PRIVATE_KEY: "" }, lena.id, messageFrom(anna, "Anna"), hidden, now());
    expect(await received(other.id)).toHaveLength(4);
    expect(JSON.parse(String(warn.mock.calls[0]![0]))).toMatchObject({
      event: "push_not_configured",
      private_key: false,
    });
  });
});

describe("pushes every browser takes", () => {
  const LONG = "Shall we meet at the harbour tonight? ".repeat(120) + "😊".repeat(40);
  const answer = (id: string, set: Record<string, unknown>) =>
    fetch(`${pushUrl}/_stand-in/subscriptions/${id}/answer`, { method: "POST", body: JSON.stringify(set) });
  const failuresOf = async (userId: number) =>
    (await env.DB.prepare("SELECT failures, retry_after FROM push_subscriptions WHERE user_id = ?")
      .bind(userId)
      .first<{ failures: number; retry_after: number | null }>())!;

  async function previewing(name: string) {
    const member = await chatMember(ORIGIN, { name });
    await choose(member, { previews: true });
    const standIn = await standInSubscription();
    expect((await subscribe(member, standIn.subscription)).status).toBe(200);
    return { member, standIn };
  }

  it("keeps every encrypted push within 3,000 bytes: a long preview is shortened, the rest of the payload whole", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const { member, standIn } = await previewing("Mia");
    await tellByPush(webEnv, member.id, messageFrom(anna, "Anna", { preview: LONG }), hidden, now());
    await tellByPush(webEnv, member.id, messageFrom(anna, "Anna", { preview: "Hi" }), hidden, now());
    const [long, short] = await received(standIn.id);
    for (const push of [long!, short!]) {
      expect(push.answered).toBe(201);
      expect(push.decryptError).toBeNull();
      // Padded to the whole budget, so a push's size does not tell how long the message was.
      expect(push.bytes).toBe(3000);
    }
    const payload = long!.payload as PushPayload;
    expect(payload).toMatchObject({
      kind: "message",
      title: "Message from Anna",
      tag: `conversation-${anna.id}`,
      url: `/members/${anna.id}/chat`,
    });
    expect(payload.body.endsWith("…")).toBe(true);
    expect(LONG.startsWith(payload.body.slice(0, -1))).toBe(true);
    expect((short!.payload as PushPayload).body).toBe("Hi");
  });

  it("a push the service refuses as too large (413) goes once more, smaller; refused again, the subscription is kept and the failure counted", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const { member, standIn } = await previewing("Noor");
    // Like Mozilla's relay to Firefox on Android, but tighter: 3,000 bytes are too many, 1,024 are not.
    await answer(standIn.id, { status: 201, maxBytes: 2048 });
    await tellByPush(webEnv, member.id, messageFrom(anna, "Anna", { preview: LONG }), hidden, now());
    const [refused, retried, ...more] = await received(standIn.id);
    expect(more).toEqual([]);
    expect([refused!.answered, retried!.answered]).toEqual([413, 201]);
    expect(retried!.bytes).toBeLessThanOrEqual(1024);
    expect(retried!.payload).toMatchObject({
      kind: "message",
      title: "Message from Anna",
      tag: `conversation-${anna.id}`,
    });
    expect((await subscriptionRows(member.userId))[0]!.last_success_at).toBeGreaterThan(0);

    await answer(standIn.id, { status: 201, maxBytes: 200 });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await tellByPush(webEnv, member.id, messageFrom(anna, "Anna", { preview: LONG }), hidden, now());
    expect((await received(standIn.id)).slice(2).map((r) => r.answered)).toEqual([413, 413]);
    expect(await subscriptionRows(member.userId)).toHaveLength(1);
    expect((await failuresOf(member.userId)).failures).toBe(1);
    expect(JSON.parse(String(warn.mock.calls[0]![0]))).toMatchObject({
      event: "push_failed",
      reason: "push service answered 413 twice",
    });
  });

  it("after a 429 nothing goes to that push service until its Retry-After has passed; no request waits for it", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const { member, standIn } = await previewing("Olga");
    const t0 = now();
    await answer(standIn.id, { status: 429, retryAfter: "120" });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await tellByPush(webEnv, member.id, messageFrom(anna, "Anna"), hidden, t0);
    expect((await received(standIn.id)).map((r) => r.answered)).toEqual([429]);
    expect((await failuresOf(member.userId)).retry_after).toBe(t0 + 120);

    await answer(standIn.id, { status: 201 });
    await tellByPush(webEnv, member.id, messageFrom(anna, "Anna"), hidden, t0 + 119);
    expect(await received(standIn.id)).toHaveLength(1);
    await tellByPush(webEnv, member.id, messageFrom(anna, "Anna"), hidden, t0 + 120);
    expect((await received(standIn.id)).map((r) => r.answered)).toEqual([429, 201]);
  });
});

describe("tellByPush: what is pushed", () => {
  async function subscribed(name: string) {
    const member = await chatMember(ORIGIN, { name });
    await subscribe(member, await browserSubscription());
    return member;
  }

  it("a message only while no page of the member is in view, once", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const dana = await subscribed("Dana");
    await tellByPush(env, dana.id, messageFrom(anna, "Anna"), inView, now());
    expect(await pushesTo(dana)).toEqual([]);
    await tellByPush(env, dana.id, messageFrom(anna, "Anna"), hidden, now());
    expect(await pushesTo(dana)).toMatchObject([
      {
        kind: "message",
        title: "New message",
        body: "Anna sent you a message",
        tag: `conversation-${anna.id}`,
        url: `/members/${anna.id}/chat`,
        topic: `conversation-${anna.id}`,
        urgency: "high",
      },
    ]);
    const outbox = await (await new Browser(ORIGIN).fetch("/dev/outbox")).text();
    expect(outbox).toContain(`<article class="push" data-user="${dana.userId}">`);
    expect(outbox).toContain("Anna sent you a message");
  });

  it("through the conversation: one push for a quick run of messages, and a push again once the member has read them", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna", paid: true, credits: 1000 });
    const dana = await subscribed("Dana");
    const annaPage = await ChatSocket.open(anna, dana.id);
    const say = async (body: string) => {
      const id = clientId();
      annaPage.sendText(id, body);
      return (await annaPage.ack(id)).message.id;
    };
    await say("Hi Dana");
    await say("Are you there?");
    const last = await say("Coffee tomorrow?");
    await vi.waitFor(async () => expect(await pushesTo(dana)).toHaveLength(1));
    // Dana reads the conversation; the next message is news again.
    const danaPage = await ChatSocket.open(dana, anna.id);
    danaPage.send({ type: "read", message_id: last });
    await danaPage.next((f) => f.type === "unread" && f.count === 0);
    await say("See you at ten");
    await vi.waitFor(async () => expect(await pushesTo(dana)).toHaveLength(2));
    expect((await pushesTo(dana)).map((p) => p.title)).toEqual(["New conversation", "New message"]);
    annaPage.close();
    danaPage.close();
  });

  it("a new conversation, a photo and a gift say so; likes and matches always; reads and credits never", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const emma = await subscribed("Emma");
    await tellByPush(env, emma.id, messageFrom(anna, "Anna", { first: true }), hidden, now());
    await tellByPush(env, emma.id, messageFrom(anna, "Anna", { message_kind: "image", preview: null }), hidden, now());
    await tellByPush(env, emma.id, messageFrom(anna, "Anna", { message_kind: "gift", preview: null }), hidden, now());
    await tellByPush(
      env,
      emma.id,
      { kind: "like", liker_id: anna.id, liker_name: "Anna", created_at: now() },
      inView,
      now(),
    );
    await tellByPush(
      env,
      emma.id,
      { kind: "match", peer_id: anna.id, peer_name: "Anna", peer_photo: null, created_at: now() },
      inView,
      now(),
    );
    await tellByPush(env, emma.id, { kind: "read", conversation_id: 1, peer_id: anna.id, unread: 0 }, hidden, now());
    await tellByPush(env, emma.id, { kind: "credits", credits: 5, paid_user: true }, hidden, now());
    expect(
      (await pushesTo(emma)).map(({ kind, title, body, url, urgency }) => ({ kind, title, body, url, urgency })),
    ).toEqual([
      {
        kind: "message",
        title: "New conversation",
        body: "Anna started a conversation with you",
        url: `/members/${anna.id}/chat`,
        urgency: "high",
      },
      {
        kind: "message",
        title: "New message",
        body: "Anna sent you a photo",
        url: `/members/${anna.id}/chat`,
        urgency: "high",
      },
      {
        kind: "message",
        title: "New message",
        body: "Anna sent you a gift",
        url: `/members/${anna.id}/chat`,
        urgency: "high",
      },
      { kind: "like", title: "New like", body: "Anna likes you", url: "/likes", urgency: "normal" },
      {
        kind: "match",
        title: "It's a match!",
        body: "You and Anna like each other",
        url: `/members/${anna.id}`,
        urgency: "normal",
      },
    ]);
  });

  it("respects the member's push choices per kind (a match goes under like)", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const finn = await subscribed("Finn");
    await choose(finn, { push: { new_messages: false, like: false } });
    await tellByPush(env, finn.id, messageFrom(anna, "Anna"), hidden, now());
    await tellByPush(
      env,
      finn.id,
      { kind: "like", liker_id: anna.id, liker_name: "Anna", created_at: now() },
      hidden,
      now(),
    );
    await tellByPush(
      env,
      finn.id,
      { kind: "match", peer_id: anna.id, peer_name: "Anna", peer_photo: null, created_at: now() },
      hidden,
      now(),
    );
    expect(await pushesTo(finn)).toEqual([]);
    await tellByPush(env, finn.id, messageFrom(anna, "Anna", { first: true }), hidden, now());
    expect((await pushesTo(finn)).map((p) => p.title)).toEqual(["New conversation"]);
  });

  it("shows the text of a message only with previews on", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const gina = await subscribed("Gina");
    await tellByPush(env, gina.id, messageFrom(anna, "Anna"), hidden, now());
    await choose(gina, { previews: true });
    await tellByPush(env, gina.id, messageFrom(anna, "Anna"), hidden, now());
    const [discreet, preview] = await pushesTo(gina);
    expect(JSON.stringify(discreet)).not.toContain("harbour");
    expect(preview).toMatchObject({ title: "Message from Anna", body: "Shall we meet at the harbour tonight?" });
  });

  it("nothing to an account that is not live, nor to a browser whose login ended", async () => {
    const anna = await chatMember(ORIGIN, { name: "Anna" });
    const hugo = await subscribed("Hugo");
    await env.DB.prepare("UPDATE users SET status = 'disabled' WHERE id = ?").bind(hugo.userId).run();
    await tellByPush(env, hugo.id, messageFrom(anna, "Anna"), hidden, now());
    expect(await pushesTo(hugo)).toEqual([]);

    const iris = await subscribed("Iris");
    await env.DB.prepare("UPDATE sessions SET revoked_at = ? WHERE user_id = ?").bind(now(), iris.userId).run();
    await tellByPush(env, iris.id, messageFrom(anna, "Anna"), hidden, now());
    expect(await pushesTo(iris)).toEqual([]);
  });
});
