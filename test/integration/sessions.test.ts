import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { deviceNames, deviceOf } from "../../src/shared/devices";
import type { SessionsResponse } from "../../src/shared/sessions";
import { databaseOf } from "../../src/server/db/database";
import { touchSession } from "../../src/server/db/sessions";
import { birthDateForAge, loadProfiles, putSites, site } from "../fixtures";
import { ChatSocket, chatMember, clientId, type Member } from "../chat";
import { Browser, json } from "../http";
import nl from "../../locales/nl.json" with { type: "json" };

const ORIGIN = "http://nl.test";
const PASSWORD = "a good password";
const CHROME_ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
let counter = 0;

/** A member signed up in one browser; more browsers log in with `logIn`. */
async function member() {
  counter++;
  const email = `sessions${counter}@example.com`;
  const signup = new Browser(ORIGIN);
  const res = await signup.fetch("/api/signup.php", {
    method: "POST",
    headers: { "user-agent": FIREFOX_WINDOWS },
    json: {
      email,
      username: `sessions${counter}`,
      password: PASSWORD,
      date_of_birth: birthDateForAge(30),
      gender: "female",
      terms: true,
    },
  });
  expect(res.status).toBe(201);
  return { email, signup };
}

async function logIn(email: string, userAgent: string) {
  const browser = new Browser(ORIGIN);
  const res = await browser.fetch("/api/user.php", {
    method: "POST",
    headers: { "user-agent": userAgent },
    json: { email, password: PASSWORD },
  });
  expect(res.status).toBe(200);
  return browser;
}

async function list(browser: Browser) {
  const res = await browser.fetch("/api/sessions.php");
  expect(res.status).toBe(200);
  return (await json<SessionsResponse>(res)).sessions;
}

const sessionRows = (email: string) =>
  env.DB.prepare(
    "SELECT s.* FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ? ORDER BY s.created_at, s.rowid",
  )
    .bind(email)
    .all<Record<string, unknown>>();

const loggedIn = async (browser: Browser) => (await browser.fetch("/api/user.php")).status === 200;

beforeAll(async () => {
  await putSites(site("nl.test"));
  await loadProfiles([]);
});

describe("devices", () => {
  it("names common browsers and systems, and keeps nothing else of the User-Agent", () => {
    expect(deviceOf(CHROME_ANDROID)).toBe("chrome/android");
    expect(deviceOf(SAFARI_IPHONE)).toBe("safari/iphone");
    expect(deviceOf(FIREFOX_WINDOWS)).toBe("firefox/windows");
    expect(
      deviceOf(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      ),
    ).toBe("edge/macos");
    expect(
      deviceOf(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("chrome/iphone");
    expect(deviceOf(undefined)).toBe("other/other");
    expect(deviceOf("curl/8.5.0")).toBe("other/other");
    expect(deviceNames("safari/iphone")).toEqual({ browser: "Safari", system: "iPhone" });
    expect(deviceNames("<script>/x")).toEqual({ browser: null, system: null });
  });
});

describe("the sessions list", () => {
  it("lists the member's devices in their language, marks this one, and never shows a cookie's id, a User-Agent or an address", async () => {
    const { email } = await member();
    const phone = await logIn(email, CHROME_ANDROID);
    await logIn(email, SAFARI_IPHONE);
    const sessions = await list(phone);
    expect(sessions.map((s) => [s.device, s.current])).toEqual(
      expect.arrayContaining([
        ["Chrome op Android", true],
        ["Safari op iPhone", false],
        ["Firefox op Windows", false],
      ]),
    );
    expect(sessions).toHaveLength(3);
    // This device first, then the most recently used.
    expect(sessions.map((s) => s.device)).toEqual(["Chrome op Android", "Safari op iPhone", "Firefox op Windows"]);
    const rows = (await sessionRows(email)).results;
    for (const session of sessions) {
      expect(rows.map((r) => r.id)).not.toContain(session.id);
      expect(session.created_at).toBeGreaterThan(0);
      expect(session.last_used_at).toBeGreaterThanOrEqual(session.created_at);
    }
    expect(rows.map((r) => r.device)).toEqual(["firefox/windows", "chrome/android", "safari/iphone"]);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain("Mozilla");
    expect(stored).not.toContain("Pixel");
  });

  it("speaks the language of the page: an English page says 'on' and 'Unknown device'", async () => {
    const { email } = await member();
    const browser = await logIn(email, "curl/8.5.0");
    const res = await browser.fetch("/api/sessions.php", { headers: { cookie: "locale=en" } });
    const { sessions } = await json<SessionsResponse>(res);
    expect(sessions.map((s) => s.device).toSorted()).toEqual(["Firefox on Windows", "Unknown device"]);
  });

  it("shows the devices on the settings page itself", async () => {
    const { email } = await member();
    const phone = await logIn(email, CHROME_ANDROID);
    const html = await (await phone.fetch("/notifications")).text();
    expect(html).toContain("Ingelogde apparaten");
    expect(html).toContain("Chrome op Android");
    expect(html).toContain("Firefox op Windows");
    expect(html).toContain("Dit apparaat");
  });

  it("asks a visitor to log in", async () => {
    const res = await new Browser(ORIGIN).fetch("/api/sessions.php");
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({ error: "authentication_required" });
    const end = await new Browser(ORIGIN).delete("/api/sessions.php", { others: true });
    expect(end.status).toBe(403);
  });
});

describe("ending sessions", () => {
  it("logs out one other device: its cookie stops working, the others carry on", async () => {
    const { email, signup } = await member();
    const phone = await logIn(email, CHROME_ANDROID);
    const iphone = await logIn(email, SAFARI_IPHONE);
    const target = (await list(phone)).find((s) => s.device === "Safari op iPhone")!;
    const res = await phone.delete("/api/sessions.php", { id: target.id });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ ended: 1 });
    expect(await loggedIn(iphone)).toBe(false);
    expect(await loggedIn(phone)).toBe(true);
    expect(await loggedIn(signup)).toBe(true);
    expect((await list(phone)).map((s) => s.device).toSorted()).toEqual(["Chrome op Android", "Firefox op Windows"]);
    // Ending it again: it is gone.
    const again = await phone.delete("/api/sessions.php", { id: target.id });
    expect(again.status).toBe(404);
    expect(await json(again)).toMatchObject({ error: "not_found", message: "Dit apparaat is niet meer ingelogd." });
  });

  it("logs out everywhere else, keeping this device logged in", async () => {
    const { email, signup } = await member();
    const phone = await logIn(email, CHROME_ANDROID);
    const iphone = await logIn(email, SAFARI_IPHONE);
    const res = await phone.delete("/api/sessions.php", { others: true });
    expect(await json(res)).toEqual({ ended: 2 });
    expect(await loggedIn(signup)).toBe(false);
    expect(await loggedIn(iphone)).toBe(false);
    expect(await loggedIn(phone)).toBe(true);
    expect((await list(phone)).map((s) => [s.device, s.current])).toEqual([["Chrome op Android", true]]);
  });

  it("never shows or ends another member's session", async () => {
    const alice = await member();
    const bob = await member();
    const alicePhone = await logIn(alice.email, CHROME_ANDROID);
    const aliceIds = (await list(alicePhone)).map((s) => s.id);
    const bobSessions = await list(bob.signup);
    expect(bobSessions.map((s) => s.id).some((id) => aliceIds.includes(id))).toBe(false);
    for (const id of aliceIds) {
      const res = await bob.signup.delete("/api/sessions.php", { id });
      expect(res.status).toBe(404);
    }
    const others = await bob.signup.delete("/api/sessions.php", { others: true });
    expect(await json(others)).toEqual({ ended: 0 });
    expect(await loggedIn(alicePhone)).toBe(true);
    expect(await loggedIn(alice.signup)).toBe(true);
    expect((await list(alicePhone)).map((s) => s.id).toSorted()).toEqual(aliceIds.toSorted());
  });

  it("refuses to end this device's own session (logging out does that) and refuses bodies that do not fit, changing nothing", async () => {
    const { email, signup } = await member();
    const phone = await logIn(email, CHROME_ANDROID);
    const own = (await list(phone)).find((s) => s.current)!;
    const current = await phone.delete("/api/sessions.php", { id: own.id });
    expect(current.status).toBe(400);
    expect(await json(current)).toMatchObject({ error: "current_session", message: nl.sessions.current_refused });
    for (const body of [
      {},
      { id: 5 },
      { id: "short" },
      { others: false },
      { others: "yes" },
      { id: own.id, others: true },
      { constructor: { id: own.id } },
      [],
    ]) {
      const res = await phone.delete("/api/sessions.php", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await json(res)).message).toEqual(expect.any(String));
    }
    expect(await loggedIn(phone)).toBe(true);
    expect(await loggedIn(signup)).toBe(true);
    expect(await list(phone)).toHaveLength(2);
  });
});

describe("chat sockets of ended sessions", () => {
  /** The same member logged in on another browser too. */
  async function elsewhere(chatter: Member): Promise<Member> {
    const browser = new Browser(ORIGIN);
    const res = await browser.fetch("/api/user.php", {
      method: "POST",
      headers: { "user-agent": SAFARI_IPHONE },
      json: { email: chatter.user.email, password: PASSWORD },
    });
    expect(res.status).toBe(200);
    return { ...chatter, browser };
  }

  const closedSoon = async (socket: ChatSocket) => {
    for (let i = 0; i < 100 && !socket.closed; i++) await new Promise((r) => setTimeout(r, 20));
    return socket.closed;
  };

  it("close when the member logs that device out, in every conversation; this device's stay open and the other cannot reconnect", async () => {
    const anna = await chatMember(ORIGIN, { paid: true, credits: 100 });
    const [bram, carl] = [await chatMember(ORIGIN), await chatMember(ORIGIN)];
    const annaPhone = await elsewhere(anna);
    const here: ChatSocket[] = [];
    const there: ChatSocket[] = [];
    for (const peer of [bram, carl]) {
      const socket = await ChatSocket.open(anna, peer.id);
      const id = clientId();
      socket.sendText(id, "Hoi!");
      await socket.next((f) => f.type === "ack" && f.client_id === id);
      here.push(socket);
      there.push(await ChatSocket.open(annaPhone, peer.id));
    }
    const phoneSession = (await list(anna.browser)).find((s) => !s.current)!;
    expect((await anna.browser.delete("/api/sessions.php", { id: phoneSession.id })).status).toBe(200);
    for (const socket of there) expect(await closedSoon(socket)).toBe(true);
    expect(here.map((socket) => socket.closed)).toEqual([false, false]);
    await expect(ChatSocket.open(annaPhone, bram.id)).rejects.toThrow(/403/);
    // This device still writes.
    const id = clientId();
    here[0]!.sendText(id, "Nog steeds hier");
    expect(await here[0]!.next((f) => f.type === "ack" && f.client_id === id)).toBeTruthy();
    for (const socket of here) socket.ws.close();
  });

  it("close for every other device when the member logs out everywhere else", async () => {
    const anna = await chatMember(ORIGIN, { paid: true, credits: 100 });
    const bram = await chatMember(ORIGIN);
    const [phone1, phone2] = [await elsewhere(anna), await elsewhere(anna)];
    const mine = await ChatSocket.open(anna, bram.id);
    const id = clientId();
    mine.sendText(id, "Hoi!");
    await mine.next((f) => f.type === "ack" && f.client_id === id);
    const theirs = [await ChatSocket.open(phone1, bram.id), await ChatSocket.open(phone2, bram.id)];
    // Bram's own socket in the same conversation is not Anna's to close.
    const bramSocket = await ChatSocket.open(bram, anna.id);
    expect(await json(await anna.browser.delete("/api/sessions.php", { others: true }))).toEqual({ ended: 2 });
    for (const socket of theirs) expect(await closedSoon(socket)).toBe(true);
    expect(mine.closed).toBe(false);
    expect(bramSocket.closed).toBe(false);
    mine.ws.close();
    bramSocket.ws.close();
  });
});

describe("chat sockets after a password change", () => {
  it("close for every session the old password had; this browser reconnects with its new session", async () => {
    const anna = await chatMember(ORIGIN, { paid: true, credits: 100 });
    const bram = await chatMember(ORIGIN);
    const phone = new Browser(ORIGIN);
    expect((await phone.post("/api/user.php", { email: anna.user.email, password: PASSWORD })).status).toBe(200);
    const mine = await ChatSocket.open(anna, bram.id);
    const id = clientId();
    mine.sendText(id, "Hoi!");
    await mine.next((f) => f.type === "ack" && f.client_id === id);
    const theirs = await ChatSocket.open({ ...anna, browser: phone }, bram.id);
    const res = await anna.browser.post("/api/password.php", {
      old_password: PASSWORD,
      password: "another good password",
      password_repeat: "another good password",
    });
    expect(res.status).toBe(200);
    for (const socket of [theirs, mine]) {
      for (let i = 0; i < 100 && !socket.closed; i++) await new Promise((r) => setTimeout(r, 20));
      expect(socket.closed).toBe(true);
    }
    await expect(ChatSocket.open({ ...anna, browser: phone }, bram.id)).rejects.toThrow(/403/);
    const again = await ChatSocket.open(anna, bram.id);
    expect(again.closed).toBe(false);
    again.ws.close();
  });
});

describe("last used", () => {
  it("is written when a request uses a session not used for ten minutes, and not on every page view", async () => {
    const { email, signup } = await member();
    const [row] = (await sessionRows(email)).results;
    const old = Math.floor(Date.now() / 1000) - 3600;
    await env.DB.prepare("UPDATE sessions SET last_used_at = ? WHERE id = ?").bind(old, row!.id).run();
    expect((await list(signup))[0]!.last_used_at).toBeGreaterThan(old + 3000);

    const recent = Math.floor(Date.now() / 1000) - 60;
    await env.DB.prepare("UPDATE sessions SET last_used_at = ? WHERE id = ?").bind(recent, row!.id).run();
    await signup.fetch("/members");
    expect((await list(signup))[0]!.last_used_at).toBe(recent);
  });

  it("touchSession writes at most once per interval", async () => {
    const { email } = await member();
    const [row] = (await sessionRows(email)).results;
    const db = databaseOf(env.DB);
    const start = Number(row!.last_used_at);
    await touchSession(db, String(row!.id), start + 599, 600);
    expect((await sessionRows(email)).results[0]!.last_used_at).toBe(start);
    await touchSession(db, String(row!.id), start + 600, 600);
    expect((await sessionRows(email)).results[0]!.last_used_at).toBe(start + 600);
  });
});

/** As moderation disables an account: the account and its profile, which leaves search. */
const disable = (email: string) =>
  env.DB.batch([
    env.DB.prepare("UPDATE users SET status = 'disabled' WHERE email = ?").bind(email),
    env.DB.prepare(
      "UPDATE profiles SET status = 'disabled', searchable = 0 WHERE user_id = (SELECT id FROM users WHERE email = ?)",
    ).bind(email),
  ]);

describe("a disabled member logging in", () => {
  const attempt = (email: string, password: string, locale = "nl") =>
    new Browser(ORIGIN).fetch("/api/user.php", {
      method: "POST",
      json: { email, password },
      headers: { cookie: `locale=${locale}`, "cf-connecting-ip": `10.1.0.${counter}` },
    });

  it("is told the account is disabled, in their language, only after the right password; no session starts", async () => {
    const { email } = await member();
    await disable(email);
    const right = await attempt(email, PASSWORD);
    expect(right.status).toBe(403);
    expect(await json(right)).toMatchObject({ error: "account_disabled", message: nl.sessions.account_disabled });
    expect(right.headers.getSetCookie().some((c) => c.startsWith("session="))).toBe(false);
    const english = await attempt(email, PASSWORD, "en");
    expect(await json(english)).toMatchObject({
      error: "account_disabled",
      message: expect.stringContaining("This account has been disabled"),
    });
    // Only the session of the signup (which disabling would have ended) exists: no login started one.
    expect((await sessionRows(email)).results).toHaveLength(1);
  });

  it("tells someone without the password only that the login failed, as for any account", async () => {
    const { email } = await member();
    await disable(email);
    const wrong = await attempt(email, "not the password", "en");
    expect(wrong.status).toBe(400);
    expect(await json(wrong)).toEqual({ error: "login_failed", message: "Login failed, please try again" });
    const unknown = await attempt("nobody-here@example.com", "not the password", "en");
    expect(await json(unknown)).toEqual({ error: "login_failed", message: "Login failed, please try again" });
  });
});
