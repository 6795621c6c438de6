import { env } from "cloudflare:workers";
import nl from "../../locales/nl.json";
import { beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../src/shared/api";
import { databaseOf } from "../../src/server/db/database";
import { purgeDeletedAccounts } from "../../src/server/services/accounts";
import { chatErasureIn } from "../../src/server/services/chats";
import { birthDateForAge, loadProfiles, putSites, site } from "../fixtures";
import { Browser, fetchWorker, json } from "../http";
import { LANGUAGES } from "../../src/shared/locales";
import { composeMail } from "../../src/server/mail/templates";
import { i18nFor } from "../../src/server/translations";

const ORIGIN = "http://nl.test";
const eraseChats = chatErasureIn(env);
let counter = 0;

/** A fresh signup body with a unique address and name. */
function newMember(overrides: Record<string, unknown> = {}) {
  counter++;
  return {
    email: `member${counter}@example.com`,
    username: `member${counter}`,
    password: "a good password",
    date_of_birth: birthDateForAge(30),
    gender: "female",
    terms: true,
    ...overrides,
  };
}

async function signUp(browser = new Browser(ORIGIN), overrides: Record<string, unknown> = {}) {
  const body = newMember(overrides);
  const res = await browser.post("/api/signup.php", body);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  const { user } = await json<{ user: User }>(res);
  return { browser, body, user };
}

/** The link of the newest mail to an address, as the member would click it. */
async function mailedLink(to: string, kind: string): Promise<string> {
  const mail = await env.DB.prepare(
    "SELECT text FROM outgoing_mail WHERE to_address = ? AND kind = ? ORDER BY id DESC LIMIT 1",
  )
    .bind(to, kind)
    .first<{ text: string }>();
  const link = /(https?:\/\/\S+)/.exec(mail?.text ?? "")?.[1];
  if (!link) throw new Error(`no ${kind} mail to ${to}`);
  return link.replace(ORIGIN, "");
}
const tokenOf = (link: string) => new URL(link, ORIGIN).searchParams.get("token")!;

const userOf = (email: string) =>
  env.DB.prepare("SELECT * FROM users WHERE email = ?").bind(email).first<Record<string, unknown>>();

beforeAll(async () => {
  await putSites(
    site("nl.test"),
    site("tracked.test", { signups: "with_trafficsource" }),
    site("invite.test", { signups: "invite_only" }),
  );
  await loadProfiles([]);
});

describe("sign-up", () => {
  it("creates a not-confirmed member, logged in, with the signup credits once and the terms version", async () => {
    const { browser, body, user } = await signUp();
    expect(user).toMatchObject({
      status: "not_confirmed",
      credits: 10,
      paid_user: false,
      email: body.email,
      profile: { name: body.username },
    });
    const row = await userOf(body.email);
    expect(row).toMatchObject({ terms_version: "2024-03-01T12:00:00.000Z", site_domain: "nl.test", language: "nl" });
    expect(String(row!.password_hash)).toMatch(/^\$argon2id\$/);
    const ledger = await env.DB.prepare("SELECT delta, reason FROM credit_ledger WHERE user_id = ?")
      .bind(row!.id)
      .all();
    expect(ledger.results).toEqual([{ delta: 10, reason: "signup" }]);
    expect((await browser.fetch("/api/user.php")).status).toBe(200);
    await mailedLink(body.email, "activation");
  });

  it("stores the traffic source the visitor came with", async () => {
    const browser = new Browser(ORIGIN);
    await browser.fetch("/members?network=aff7&ref=r1&sub1=a&sub2=b&sub3=c");
    const { body } = await signUp(browser);
    expect(await userOf(body.email)).toMatchObject({ network: "aff7", ref: "r1", sub1: "a", sub2: "b", sub3: "c" });
  });

  it("sets the session cookie HttpOnly, Secure, SameSite=Lax for 30 days", async () => {
    const browser = new Browser(ORIGIN);
    const res = await browser.post("/api/signup.php", newMember());
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("session="))!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Max-Age=2592000");
    expect(cookie).toContain("Path=/");
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ["an invalid e-mail", { email: "not-an-email" }, "email", "Invalid email"],
    [
      "a username equal to the e-mail",
      { email: "same@example.com", username: "same@example.com" },
      "username",
      "Username may not be the same as your e-mail address",
    ],
    ["a username starting with @", { username: "@anna" }, "username", "Username may not start with @"],
    ["someone under 18", { date_of_birth: birthDateForAge(17) }, "date_of_birth", "Enter your date of birth (18+)"],
    ["a date that does not exist", { date_of_birth: "2000-02-30" }, "date_of_birth", "Invalid date of birth"],
    ["a date in another format", { date_of_birth: "30-01-2000" }, "date_of_birth", "Invalid date of birth"],
    ["a short password", { password: "short" }, "password", "Use at least 8 characters"],
    [
      "a Cyrillic look-alike username",
      { username: "Аnna" },
      "username",
      "Use 3 to 24 letters, digits, dots, dashes or underscores",
    ],
    [
      "an over-long username",
      { username: "a".repeat(60) },
      "username",
      "Use 3 to 24 letters, digits, dots, dashes or underscores",
    ],
    ["terms not accepted", { terms: false }, "terms", "Please accept the terms and the privacy statement"],
    ["no gender", { gender: "other" }, "gender", "Choose whether you are a man or a woman"],
    ["an empty e-mail", { email: "" }, "email", "Invalid email"],
    ["an over-long e-mail", { email: `${"a".repeat(300)}@example.com` }, "email", "Invalid value for email"],
    ["a number for a name", { username: 12345 }, "username", "Invalid value for username"],
  ];
  for (const [what, overrides, field, message] of invalid) {
    it(`refuses ${what} with the field's message, storing nothing`, async () => {
      const body = newMember(overrides);
      const before = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
      const res = await new Browser(ORIGIN).fetch("/api/signup.php", {
        method: "POST",
        json: body,
        headers: { cookie: "locale=en" },
      });
      expect(res.status).toBe(400);
      const error = await json<{ field: string; fields: Record<string, string> }>(res);
      expect(error.fields[field]).toBe(message);
      expect(await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>()).toEqual(before);
    });
  }

  it("names every faulty field at once, in the user's language", async () => {
    const res = await new Browser(ORIGIN).post(
      "/api/signup.php",
      newMember({ email: "x", date_of_birth: "2023-02-30", password: "1" }),
    );
    const { fields } = await json<{ fields: Record<string, string> }>(res);
    expect(Object.keys(fields).toSorted()).toEqual(["date_of_birth", "email", "password"]);
    expect(fields.email).not.toBe("Invalid email");
  });

  it("refuses an address that already has an account", async () => {
    const { body } = await signUp();
    const res = await new Browser(ORIGIN).fetch("/api/signup.php", {
      method: "POST",
      json: newMember({ email: body.email.toUpperCase() }),
      headers: { cookie: "locale=en" },
    });
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({
      field: "email",
      message: "An account with this e-mail address already exists",
    });
  });

  it("refuses a username taken in another case or width", async () => {
    const { body } = await signUp(undefined, { username: "Zoe.K" });
    for (const username of ["zoe.k", "ＺＯＥ.K"]) {
      const res = await new Browser(ORIGIN).post("/api/signup.php", newMember({ username }));
      expect(res.status, username).toBe(409);
      expect(await json(res)).toMatchObject({ field: "username" });
    }
    expect(body.username).toBe("Zoe.K");
  });

  it("refuses a body that is not JSON", async () => {
    const res = await new Browser(ORIGIN).fetch("/api/signup.php", {
      method: "POST",
      body: "email=a",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: "invalid_body" });
  });

  it("follows the site's signup mode", async () => {
    const invite = await new Browser("http://invite.test").post("/api/signup.php", newMember());
    expect(invite.status).toBe(403);
    expect(await json(invite)).toMatchObject({ error: "invite_only" });

    const tracked = new Browser("http://tracked.test");
    const closed = await tracked.post("/api/signup.php", newMember());
    expect(closed.status).toBe(403);
    expect(await json(closed)).toMatchObject({ error: "signup_closed" });
    await tracked.fetch("/?network=partner");
    expect((await tracked.post("/api/signup.php", newMember())).status).toBe(201);
  });
});

describe("activation", () => {
  it("activates once through the mailed link; the same link again says it is done already, not that it failed", async () => {
    const { body } = await signUp();
    const link = await mailedLink(body.email, "activation");
    const first = await fetchWorker(ORIGIN + link, { redirect: "manual" });
    expect(first.headers.get("location")).toBe("/activate/done");
    expect((await userOf(body.email))!.status).toBe("active");
    const again = await fetchWorker(ORIGIN + link, { redirect: "manual" });
    expect(again.headers.get("location")).toBe("/activate/done?already=1");
    const page = await (await fetchWorker(ORIGIN + "/activate/done?already=1")).text();
    expect(page).toContain(nl.activate.already_title);
    expect(page).not.toContain(nl.errors.activation_failed);
  });

  it("activates once when the link is clicked many times at once", async () => {
    for (let round = 0; round < 3; round++) {
      const { body } = await signUp();
      const link = await mailedLink(body.email, "activation");
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => fetchWorker(ORIGIN + link, { redirect: "manual" })),
      );
      const places = answers.map((a) => a.headers.get("location")).toSorted();
      expect(places).toEqual(["/activate/done", ...Array(7).fill("/activate/done?already=1")]);
    }
  });

  it("refuses an expired or made-up link", async () => {
    const { body } = await signUp();
    const link = await mailedLink(body.email, "activation");
    await env.DB.prepare(
      "UPDATE auth_tokens SET expires_at = unixepoch() - 1 WHERE kind = 'activation' AND user_id = (SELECT id FROM users WHERE email = ?)",
    )
      .bind(body.email)
      .run();
    expect((await fetchWorker(ORIGIN + link, { redirect: "manual" })).headers.get("location")).toBe("/activate/error");
    expect(
      (await fetchWorker(`${ORIGIN}/api/activate.php?token=made-up`, { redirect: "manual" })).headers.get("location"),
    ).toBe("/activate/error");
    expect((await userOf(body.email))!.status).toBe("not_confirmed");
  });

  it("mails the link again on request", async () => {
    const { browser, body } = await signUp();
    expect((await browser.post("/api/activation-mail.php")).status).toBe(200);
    const count = await env.DB.prepare(
      "SELECT count(*) AS n FROM outgoing_mail WHERE to_address = ? AND kind = 'activation'",
    )
      .bind(body.email)
      .first<{ n: number }>();
    expect(count!.n).toBe(2);
  });
});

describe("login", () => {
  it("logs in with the right password and answers the user", async () => {
    const { body } = await signUp();
    const browser = new Browser(ORIGIN);
    const res = await browser.post("/api/user.php", { email: body.email.toUpperCase(), password: body.password });
    expect(res.status).toBe(200);
    expect((await json<{ user: User }>(res)).user.email).toBe(body.email);
    expect((await browser.fetch("/api/user.php")).status).toBe(200);
  });

  it("says only that login failed, for a wrong password and for an unknown address", async () => {
    const { body } = await signUp();
    for (const attempt of [
      { email: body.email, password: "wrong password" },
      { email: "nobody@example.com", password: "whatever1" },
    ]) {
      const res = await new Browser(ORIGIN).fetch("/api/user.php", {
        method: "POST",
        json: attempt,
        headers: { cookie: "locale=en" },
      });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error: "login_failed", message: "Login failed, please try again" });
      expect(res.headers.getSetCookie().some((c) => c.startsWith("session="))).toBe(false);
    }
  });

  it("blocks the account after 5 failures, even for the right password, until the block expires", async () => {
    const { body } = await signUp();
    const attempt = (password: string) =>
      new Browser(ORIGIN).fetch("/api/user.php", {
        method: "POST",
        json: { email: body.email, password },
        headers: { cookie: "locale=en", "cf-connecting-ip": `10.0.0.${counter}` },
      });
    for (let i = 0; i < 4; i++) expect((await attempt("wrong password")).status).toBe(400);
    const fifth = await attempt("wrong password");
    expect(fifth.status).toBe(429);
    expect(await json(fifth)).toMatchObject({
      error: "account_blocked",
      message: "Too many incorrect attempts, account blocked for 15 min.",
    });
    expect((await attempt(body.password)).status).toBe(429);
    // The block ends: move it into the past.
    await env.DB.prepare(
      "UPDATE login_attempts SET blocked_until = unixepoch() - 1, window_start = unixepoch() - 3600 WHERE key = 'user:' || (SELECT id FROM users WHERE email = ?)",
    )
      .bind(body.email)
      .run();
    expect((await attempt(body.password)).status).toBe(200);
  });

  it("refuses an address that fails too often, before any account is tried", async () => {
    const address = "192.0.2.77";
    const attempt = (email: string) =>
      new Browser(ORIGIN).fetch("/api/user.php", {
        method: "POST",
        json: { email, password: "nope nope" },
        headers: { "cf-connecting-ip": address, cookie: "locale=en" },
      });
    for (let i = 0; i < 30; i++) await attempt(`victim${i}@example.com`);
    const { body } = await signUp();
    const res = await new Browser(ORIGIN).fetch("/api/user.php", {
      method: "POST",
      json: { email: body.email, password: body.password },
      headers: { "cf-connecting-ip": address, cookie: "locale=en" },
    });
    expect(res.status).toBe(429);
    expect(await json(res)).toMatchObject({ error: "address_throttled" });
    // The member's own account was not locked by it.
    expect(
      (await new Browser(ORIGIN).post("/api/user.php", { email: body.email, password: body.password })).status,
    ).toBe(200);
  }, 30_000); // thirty logins, each with a password hash: slow on a busy two-core machine
});

describe("sessions end", () => {
  it("at logout", async () => {
    const { browser } = await signUp();
    const cookie = browser.cookies.get("session")!;
    expect((await browser.fetch("/api/logout.php")).status).toBe(200);
    const replay = await fetchWorker(`${ORIGIN}/api/user.php`, { headers: { cookie: `session=${cookie}` } });
    expect(replay.status).toBe(403);
    expect(await json(replay)).toMatchObject({ error: "authentication_required" });
  });

  it("everywhere at a password change, and the changing browser stays logged in", async () => {
    const { browser, body } = await signUp();
    const other = new Browser(ORIGIN);
    await other.post("/api/user.php", { email: body.email, password: body.password });
    const res = await browser.post("/api/password.php", {
      old_password: body.password,
      password: "a new password",
      password_repeat: "a new password",
    });
    expect(res.status).toBe(200);
    expect((await other.fetch("/api/user.php")).status).toBe(403);
    expect((await browser.fetch("/api/user.php")).status).toBe(200);
    expect(
      (await new Browser(ORIGIN).post("/api/user.php", { email: body.email, password: "a new password" })).status,
    ).toBe(200);
  });

  it("refuses a password change with a wrong old password or different repeats", async () => {
    const { browser, body } = await signUp();
    const res = await browser.fetch("/api/password.php", {
      method: "POST",
      json: { old_password: "wrong one!", password: "a new password", password_repeat: "another one" },
      headers: { cookie: "locale=en" },
    });
    expect(res.status).toBe(400);
    expect((await json<{ fields: Record<string, string> }>(res)).fields).toEqual({
      old_password: "Please check your old password",
      password_repeat: "The entered passwords are not the same",
    });
    expect(
      (await new Browser(ORIGIN).post("/api/user.php", { email: body.email, password: body.password })).status,
    ).toBe(200);
  });

  it("rejects a cookie signed with another key or algorithm", async () => {
    const forged = "eyJhbGciOiJub25lIn0.eyJzaWQiOiJ4Iiwic3ViIjoiMSJ9.";
    expect((await fetchWorker(`${ORIGIN}/api/user.php`, { headers: { cookie: `session=${forged}` } })).status).toBe(
      403,
    );
  });
});

describe("cross-site requests", () => {
  it("are refused without the header or with a foreign Origin, changing nothing", async () => {
    const { browser, body } = await signUp();
    const session = `session=${browser.cookies.get("session")}`;
    const attempts: { headers: Record<string, string> }[] = [
      { headers: { origin: ORIGIN, cookie: session, "content-type": "application/json" } },
      {
        headers: {
          origin: "http://evil.example",
          "x-request-type": "client",
          cookie: session,
          "content-type": "application/json",
        },
      },
      { headers: { "x-request-type": "client", cookie: session, "content-type": "application/json" } },
    ];
    for (const attempt of attempts) {
      const res = await fetchWorker(`${ORIGIN}/api/user.php`, {
        method: "PUT",
        body: JSON.stringify({ invisible: true }),
        ...attempt,
      });
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({ error: "csrf" });
    }
    expect((await userOf(body.email))!.invisible).toBe(0);
  });
});

describe("password reset", () => {
  it("mails a link that sets a new password once and ends every session", async () => {
    const { browser, body } = await signUp();
    expect((await new Browser(ORIGIN).post("/api/password-reset.php", { email: body.email })).status).toBe(200);
    const token = tokenOf(await mailedLink(body.email, "reset"));
    const reset = await new Browser(ORIGIN).put("/api/password-reset.php", {
      token,
      password: "reset password",
      password_repeat: "reset password",
    });
    expect(reset.status).toBe(200);
    expect((await browser.fetch("/api/user.php")).status).toBe(403);
    expect(
      (await new Browser(ORIGIN).post("/api/user.php", { email: body.email, password: "reset password" })).status,
    ).toBe(200);
    const again = await new Browser(ORIGIN).put("/api/password-reset.php", {
      token,
      password: "third password",
      password_repeat: "third password",
    });
    expect(again.status).toBe(400);
    expect(await json(again)).toMatchObject({ field: "token" });
    expect(
      (await new Browser(ORIGIN).post("/api/user.php", { email: body.email, password: "reset password" })).status,
    ).toBe(200);
  });

  it("says on the link's own page, before anything is typed, that a used or expired link no longer works", async () => {
    const { body } = await signUp();
    await new Browser(ORIGIN).post("/api/password-reset.php", { email: body.email });
    const link = await mailedLink(body.email, "reset");
    const token = tokenOf(link);
    const live = async () =>
      (await json<{ live: boolean }>(await new Browser(ORIGIN).fetch(`/api/password-reset.php?token=${token}`))).live;
    expect(await live()).toBe(true);
    const fresh = await (await new Browser(ORIGIN).fetch(link)).text();
    expect(fresh).toContain('type="password"');
    expect(fresh).not.toContain(nl.errors.link_expired);

    const reset = { token, password: "reset password", password_repeat: "reset password" };
    expect((await new Browser(ORIGIN).put("/api/password-reset.php", reset)).status).toBe(200);
    expect(await live()).toBe(false);
    const used = await (await new Browser(ORIGIN).fetch(link)).text();
    expect(used).toContain(nl.errors.link_expired);
    expect(used).toContain(nl.reset.request_new);
    expect(used).not.toContain('type="password"');
    expect(
      (await json<{ live: boolean }>(await new Browser(ORIGIN).fetch("/api/password-reset.php?token=made-up"))).live,
    ).toBe(false);
  });

  it("refuses an expired link and different repeats", async () => {
    const { body } = await signUp();
    await new Browser(ORIGIN).post("/api/password-reset.php", { email: body.email });
    const token = tokenOf(await mailedLink(body.email, "reset"));
    const differ = await new Browser(ORIGIN).fetch("/api/password-reset.php", {
      method: "PUT",
      json: { token, password: "reset password", password_repeat: "other password" },
      headers: { cookie: "locale=en" },
    });
    expect((await json<{ fields: Record<string, string> }>(differ)).fields.password_repeat).toBe(
      "The entered passwords are not the same",
    );
    await env.DB.prepare("UPDATE auth_tokens SET expires_at = unixepoch() - 1 WHERE kind = 'password_reset'").run();
    const expired = await new Browser(ORIGIN).fetch("/api/password-reset.php", {
      method: "PUT",
      json: { token, password: "reset password", password_repeat: "reset password" },
      headers: { cookie: "locale=en" },
    });
    expect(await json(expired)).toMatchObject({
      field: "token",
      message: "Link expired or invalid, request a new email",
    });
    expect(
      (await new Browser(ORIGIN).post("/api/user.php", { email: body.email, password: body.password })).status,
    ).toBe(200);
  });

  it("says when the address is unknown, and stops after 3 mails a day", async () => {
    const unknown = await new Browser(ORIGIN).fetch("/api/password-reset.php", {
      method: "POST",
      json: { email: "nobody@example.com" },
      headers: { cookie: "locale=en" },
    });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ message: "E-mail address not found" });
    const { body } = await signUp();
    for (let i = 0; i < 3; i++)
      expect((await new Browser(ORIGIN).post("/api/password-reset.php", { email: body.email })).status).toBe(200);
    const fourth = await new Browser(ORIGIN).fetch("/api/password-reset.php", {
      method: "POST",
      json: { email: body.email },
      headers: { cookie: "locale=en" },
    });
    expect(fourth.status).toBe(429);
    expect(await json(fourth)).toMatchObject({
      message: "Too many password reset emails sent, please try again tomorrow",
    });
  });
});

describe("settings", () => {
  it("changes the e-mail address through a link sent to the new one, once", async () => {
    const { browser, body } = await signUp();
    const res = await browser.post("/api/mail-change.php", {
      email: "New.Address@example.com",
      password: body.password,
    });
    expect(res.status).toBe(200);
    const token = tokenOf(await mailedLink("new.address@example.com", "mail_change"));
    const confirm = await new Browser(ORIGIN).put("/api/mail-change.php", { token });
    expect(confirm.status).toBe(200);
    expect((await json<{ user: User }>(confirm)).user.email).toBe("new.address@example.com");
    expect((await new Browser(ORIGIN).put("/api/mail-change.php", { token })).status).toBe(400);
  });

  it("refuses an invalid, unchanged or taken new address, and a wrong password", async () => {
    const { browser, body } = await signUp();
    const { body: other } = await signUp();
    const cases: [Record<string, string>, string, string][] = [
      [{ email: "nope", password: body.password }, "email", "Invalid email"],
      [{ email: body.email, password: body.password }, "email", "This is already your e-mail address"],
      [{ email: other.email, password: body.password }, "email", "An account with this e-mail address already exists"],
      [{ email: "fine@example.com", password: "wrong password" }, "password", "Please check your old password"],
    ];
    for (const [payload, field, message] of cases) {
      const res = await browser.fetch("/api/mail-change.php", {
        method: "POST",
        json: payload,
        headers: { cookie: "locale=en" },
      });
      expect(res.status).toBe(400);
      expect((await json<{ fields: Record<string, string> }>(res)).fields[field]).toBe(message);
    }
  });

  it("goes invisible: hidden from search", async () => {
    const { browser, user } = await signUp();
    const res = await browser.put("/api/user.php", { invisible: true });
    expect((await json<{ user: User }>(res)).user.invisible).toBe(true);
    const profile = await env.DB.prepare("SELECT searchable FROM profiles WHERE id = ?")
      .bind(user.profile.id)
      .first<{ searchable: number }>();
    expect(profile!.searchable).toBe(0);
    await browser.put("/api/user.php", { invisible: false });
    expect(
      (await env.DB.prepare("SELECT searchable FROM profiles WHERE id = ?")
        .bind(user.profile.id)
        .first<{ searchable: number }>())!.searchable,
    ).toBe(1);
  });

  it("changes the language of the account and the cookie", async () => {
    const { browser, body } = await signUp();
    const res = await browser.put("/api/user.php", { language: "de" });
    expect(res.headers.getSetCookie().some((c) => c.startsWith("locale=de"))).toBe(true);
    expect((await userOf(body.email))!.language).toBe("de");
    expect((await browser.put("/api/user.php", { language: "xx" })).status).toBe(400);
  });

  it("needs a member", async () => {
    for (const [method, path] of [
      ["PUT", "/api/user.php"],
      ["POST", "/api/password.php"],
      ["POST", "/api/mail-change.php"],
      ["DELETE", "/api/user.php"],
      ["GET", "/api/my-data.php"],
      ["POST", "/api/retention.php"],
    ] as const) {
      const res = await new Browser(ORIGIN).fetch(path, { method, json: method === "GET" ? undefined : {} });
      expect([403, 400], `${method} ${path}`).toContain(res.status);
      if (res.status === 403) expect(await json(res)).toMatchObject({ error: "authentication_required" });
    }
    const res = await new Browser(ORIGIN).fetch("/api/my-data.php");
    expect(res.status).toBe(403);
  });

  it("downloads everything held about the member, without secrets", async () => {
    const { browser, body } = await signUp();
    const res = await browser.fetch("/api/my-data.php");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename=".+-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const archive = await json<Record<string, Record<string, unknown>>>(res);
    expect(archive.account).toMatchObject({ email: body.email, username: body.username });
    expect(archive.profile).toMatchObject({ name: body.username, gender: "female" });
    expect(archive.credits).toEqual([expect.objectContaining({ delta: 10, reason: "signup" })]);
    const text = JSON.stringify(archive);
    expect(text).not.toContain("argon2");
    expect(text).not.toContain(browser.cookies.get("session")!.split(".")[1]!);
  });
});

describe("deletion", () => {
  it("is mailed without 'ignore this e-mail': the mail says how to stop it, in every language", async () => {
    const { browser, body } = await signUp();
    expect((await browser.delete("/api/user.php", { password: body.password })).status).toBe(200);
    const mail = await env.DB.prepare(
      "SELECT text, html FROM outgoing_mail WHERE to_address = ? AND kind = 'deletion' ORDER BY id DESC LIMIT 1",
    )
      .bind(body.email)
      .first<{ text: string; html: string }>();
    expect(mail!.text).toContain(nl.mail.deletion.not_asked);
    expect(mail!.text).not.toContain(nl.mail.ignore);
    // The way it names is the mail's own link: the account is kept.
    expect((await new Browser(ORIGIN).fetch(await mailedLink(body.email, "deletion"))).status).toBe(302);
    expect((await userOf(body.email))!.status).not.toBe("pending_deletion");
    for (const language of LANGUAGES) {
      const { t } = i18nFor(language, "NL");
      const to = { address: "a@example.com", name: "A" };
      const deletion = composeMail(t, "deletion", to, { name: "Site", company: null }, "https://site.test/x", {
        count: 14,
      });
      expect(deletion.text, language).toContain(t("mail.deletion.not_asked"));
      expect(deletion.text, language).not.toContain(t("mail.ignore"));
      // A mail whose silence changes nothing (a reset nobody asked for) may still say so.
      expect(
        composeMail(t, "reset", to, { name: "Site", company: null }, "https://site.test/x", { count: 2 }).text,
        language,
      ).toContain(t("mail.ignore"));
    }
  });

  it("is pending for 14 days: logged out, hidden, login refused with a fresh link, and the link brings it back", async () => {
    const { browser, body, user } = await signUp();
    const refused = await browser.delete("/api/user.php", { password: "wrong password" });
    expect(refused.status).toBe(400);
    expect((await browser.delete("/api/user.php", { password: body.password })).status).toBe(200);
    expect((await userOf(body.email))!.status).toBe("pending_deletion");
    expect((await browser.fetch("/api/user.php")).status).toBe(403);
    expect(
      (await env.DB.prepare("SELECT searchable FROM profiles WHERE id = ?")
        .bind(user.profile.id)
        .first<{ searchable: number }>())!.searchable,
    ).toBe(0);

    // Nobody finds the profile meanwhile, not even by its id.
    expect((await new Browser(ORIGIN).fetch(`/api/profile.php?id=${user.profile.id}`)).status).toBe(404);
    expect((await new Browser(ORIGIN).fetch(`/members/${user.profile.id}`)).status).toBe(404);

    const login = await new Browser(ORIGIN).fetch("/api/user.php", {
      method: "POST",
      json: { email: body.email, password: body.password },
      headers: { cookie: "locale=en" },
    });
    expect(login.status).toBe(403);
    expect(await json(login)).toMatchObject({ error: "pending_deletion" });

    const link = await mailedLink(body.email, "deletion");
    const back = new Browser(ORIGIN);
    const res = await back.fetch(link);
    expect(res.headers.get("location")).toBe("/members");
    expect((await back.fetch("/api/user.php")).status).toBe(200);
    expect((await userOf(body.email))!.status).toBe("not_confirmed");
    expect(
      (await env.DB.prepare("SELECT searchable FROM profiles WHERE id = ?")
        .bind(user.profile.id)
        .first<{ searchable: number }>())!.searchable,
    ).toBe(1);
    expect((await new Browser(ORIGIN).fetch(`/api/profile.php?id=${user.profile.id}`)).status).toBe(200);
    expect((await new Browser(ORIGIN).fetch(link)).headers.get("location")).toBe("/activate/error");
  });

  it("offers the company's retention discount instead, once", async () => {
    const { browser } = await signUp();
    const first = await json<{ discount: { code: string; percentage: number } }>(
      await browser.post("/api/retention.php"),
    );
    expect(first.discount.percentage).toBe(50);
    expect(first.discount.code).toMatch(/^STAY-[A-Z0-9]+$/);
    const second = await json<{ discount: { code: string } }>(await browser.post("/api/retention.php"));
    expect(second.discount.code).toBe(first.discount.code);
  });

  it("is erased after 14 days, profile and chat photos in R2 included", async () => {
    const { browser, body, user } = await signUp();
    await env.DB.prepare(
      "INSERT INTO photos (profile_id, key, thumb_key, blur_key, status, width, height) VALUES (?, 'p/erase.jpg', 't/erase.jpg', 'b/erase.jpg', 'active', 1, 1)",
    )
      .bind(user.profile.id)
      .run();
    await env.DB.prepare(
      "INSERT INTO chat_photos (profile_id, key, thumb_key, blur_key, width, height) VALUES (?, 'c/erase.jpg', 'ct/erase.jpg', 'cb/erase.jpg', 1, 1)",
    )
      .bind(user.profile.id)
      .run();
    const keys = ["p/erase.jpg", "t/erase.jpg", "b/erase.jpg", "c/erase.jpg", "ct/erase.jpg", "cb/erase.jpg"];
    for (const key of keys) await env.PHOTOS.put(key, "x");
    await browser.delete("/api/user.php", { password: body.password });
    const now = Math.floor(Date.now() / 1000);
    expect(await purgeDeletedAccounts(databaseOf(env.DB), env.PHOTOS, eraseChats, now + 13 * 86400)).toBe(0);
    expect(await purgeDeletedAccounts(databaseOf(env.DB), env.PHOTOS, eraseChats, now + 14 * 86400 + 1)).toBe(1);
    expect(await userOf(body.email)).toBeNull();
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM profiles WHERE id = ?").bind(user.profile.id).first(),
    ).toEqual({ n: 0 });
    for (const key of keys) expect(await env.PHOTOS.head(key)).toBeNull();
  });
});
