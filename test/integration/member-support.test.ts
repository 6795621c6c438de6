/**
 * Member support's actions (issue 24 point 4) as the console runs them: each changes what the member
 * side would, once, and its record goes in the same batch; sessions it ends close their open pages at
 * once; credit corrections keep the balance the sum of the ledger, also when fired together; a
 * refund goes through the provider once however many operators press it.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import { app } from "../../src/server/app";
import { databaseOf } from "../../src/server/db/database";
import { ledgerSum } from "../../src/server/db/ledger";
import { findOrders } from "../../src/server/db/order-search";
import { mailerFor } from "../../src/server/mail/mailer";
import { MollieProvider } from "../../src/server/payments/mollie";
import type { AccountContext } from "../../src/server/services/accounts";
import * as support from "../../src/server/services/member-support";
import type { PaymentContext } from "../../src/server/services/payments";
import type { OrderCreated, OrderResponse } from "../../src/shared/payments-api";
import { chatMember, closedSoon, creditsOf, memberSocket, type Member } from "../chat";
import { COMPANY, putSites, site } from "../fixtures";
import { Browser } from "../http";
import { STAND_IN_KEY } from "../mollie-stand-in";
import { auditRecorder, auditRows } from "../support";

const ORIGIN = "http://support.test";
const SITE = site("support.test");
const db = databaseOf(env.DB);
const mollieUrl = inject("mollieUrl");
const standIn = mollieUrl.replace(/\/v2$/, "");
const mollieEnv = { ...env, PAYMENT_PROVIDER: "mollie", MOLLIE_API_URL: mollieUrl, MOLLIE_API_KEY: STAND_IN_KEY };

vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  await putSites(SITE);
});

const OPERATOR = { id: 0, email: "support@flirtwave.example" };
const now = () => Math.floor(Date.now() / 1000);
const context = (): support.SupportContext => ({ db, env, record: auditRecorder(db, OPERATOR, now()), now: now() });
const accounts = (): AccountContext => ({
  db,
  mailer: mailerFor(env, db),
  origin: ORIGIN,
  site: SITE,
  company: COMPANY,
});
const asMember = (m: Member, status = "active") => ({ userId: m.userId, profileId: m.id, status });

const PASSWORD = "a good password";
const logIn = (m: Member) => new Browser(ORIGIN).post("/api/user.php", { email: m.user.email, password: PASSWORD });

describe("finding a member", () => {
  it("by e-mail, the beginning of the username, profile id, order id and payment id", async () => {
    const m = await chatMember(ORIGIN, { name: "findme" });
    const username = (await env.DB.prepare("SELECT username FROM users WHERE id = ?")
      .bind(m.userId)
      .first<{ username: string }>())!.username;
    await env.DB.prepare(
      "INSERT INTO orders (id, user_id, site_domain, credits, amount_cents, currency, payment_method, country) VALUES (?, ?, 'support.test', 50, 995, 'EUR', 'ideal', 'NL')",
    )
      .bind(900_000 + m.userId, m.userId)
      .run();
    await env.DB.prepare(
      "INSERT INTO payments (order_id, provider, provider_payment_id, status, amount_cents, currency) VALUES (?, 'mollie:test', ?, 'paid', 995, 'EUR')",
    )
      .bind(900_000 + m.userId, `tr_find${m.userId}`)
      .run();
    const ids = async (q: string) => (await support.searchMembers(db, q)).map((hit) => hit.userId);
    expect(await ids(m.user.email.toUpperCase())).toEqual([m.userId]);
    expect(await ids(username.slice(0, -2))).toContain(m.userId);
    expect(await ids(String(m.id))).toContain(m.userId);
    expect(await ids(String(900_000 + m.userId))).toContain(m.userId);
    expect(await ids(`tr_find${m.userId}`)).toEqual([m.userId]);
    expect(await ids("nobody-at-all-here")).toEqual([]);
    // An underscore is a letter of a username here, not LIKE's wildcard.
    await env.DB.prepare("UPDATE users SET username = ?1, username_key = lower(?1) WHERE id = ?2")
      .bind(`Under_${m.userId}x`, m.userId)
      .run();
    expect(await ids(`under_${m.userId}`)).toEqual([m.userId]);
    expect(await ids(`underX${m.userId}`)).toEqual([]);
    expect(await ids("%")).toEqual([]);
  });

  it("the member's file: account, profile, orders, ledger, sessions, mails sent to them", async () => {
    const m = await chatMember(ORIGIN);
    for (const id of [1, 2]) {
      const order = await env.DB.prepare(
        "INSERT INTO orders (user_id, site_domain, credits, amount_cents, currency, payment_method, country) VALUES (?, 'support.test', 50, 995, 'EUR', 'ideal', 'NL') RETURNING id",
      )
        .bind(m.userId)
        .first<{ id: number }>();
      await env.DB.prepare(
        "INSERT INTO payments (order_id, provider, provider_payment_id, status, amount_cents, currency) VALUES (?, 'mollie:test', ?, 'open', 995, 'EUR')",
      )
        .bind(order!.id, `tr_file${m.userId}x${id}`)
        .run();
    }
    const file = (await support.memberFile(db, m.userId))!;
    // Each order with its own payment, the newest first.
    expect(file.orders.map((row) => row.paymentId)).toEqual([`tr_file${m.userId}x2`, `tr_file${m.userId}x1`]);
    const listed = await findOrders(db, { site: "support.test" });
    for (const row of listed)
      if (row.order.userId === m.userId) expect(row.paymentId).toMatch(new RegExp(`^tr_file${m.userId}x`));
    expect(new Set(listed.filter((row) => row.order.userId === m.userId).map((row) => row.paymentId)).size).toBe(2);
    expect(file.account).toMatchObject({ userId: m.userId, profileId: m.id, email: m.user.email, status: "active" });
    expect(file.sessions.length).toBeGreaterThan(0);
    expect(file.mails.map((mail) => mail.kind)).toContain("activation");
    expect(file.ledger.length).toBeGreaterThan(0);
    expect(await support.memberFile(db, 987_654_321)).toBeNull();
  });
});

describe("support's actions", () => {
  it("unlock a login lock: the locked member logs in again, and the unlocking is recorded", async () => {
    const m = await chatMember(ORIGIN);
    for (let i = 0; i < 5; i++)
      await new Browser(ORIGIN).post("/api/user.php", { email: m.user.email, password: "not the password" });
    expect((await logIn(m)).status).toBe(429);
    const file = (await support.memberFile(db, m.userId))!;
    expect(file.loginLock).not.toBeNull();
    expect(await support.unlockLogin(context(), asMember(m), file.loginLock, "member called, verified")).toBe(true);
    expect((await logIn(m)).status).toBe(200);
    expect(await auditRows("member", m.userId)).toEqual([
      expect.objectContaining({
        action: "member.unlock_login",
        reason: "member called, verified",
        actor: OPERATOR.email,
      }),
    ]);
    // Nothing left to unlock: nothing changes and nothing is recorded.
    expect(await support.unlockLogin(context(), asMember(m), null, "again")).toBe(false);
    expect(await auditRows("member", m.userId)).toHaveLength(1);
  });

  it("resend activation: a fresh link is mailed to an unconfirmed account, none to an active one", async () => {
    const m = await chatMember(ORIGIN, { status: "not_confirmed" });
    const mails = async () =>
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM outgoing_mail WHERE to_address = ? AND kind = 'activation'")
        .bind(m.user.email)
        .first<{ n: number }>())!.n;
    const before = await mails();
    expect(
      await support.resendActivationFor(context(), accounts(), asMember(m, "not_confirmed"), "did not get the mail"),
    ).toBe(true);
    expect(await mails()).toBe(before + 1);
    expect(await auditRows("member", m.userId)).toEqual([
      expect.objectContaining({ action: "member.resend_activation" }),
    ]);
    const active = await chatMember(ORIGIN);
    expect(await support.resendActivationFor(context(), accounts(), asMember(active), "asked")).toBe(false);
    expect(await auditRows("member", active.userId)).toEqual([]);
  });

  it("disable: the member's open page ends at once, the login is refused, the profile leaves search; enable brings it back", async () => {
    const m = await chatMember(ORIGIN);
    const socket = await memberSocket(m);
    expect(await support.disableMember(context(), asMember(m), "fraud")).toBe(true);
    expect(await closedSoon(socket.closed)).toBe(true);
    expect((await m.browser.fetch("/api/user.php")).status).toBe(403);
    expect((await logIn(m)).status).toBe(403);
    expect(await env.DB.prepare("SELECT searchable, status FROM profiles WHERE id = ?").bind(m.id).first()).toEqual({
      searchable: 0,
      status: "disabled",
    });
    expect(await support.disableMember(context(), asMember(m, "disabled"), "again")).toBe(false);
    expect(await support.enableMember(context(), asMember(m, "disabled"), "appeal upheld")).toBe(true);
    expect(await env.DB.prepare("SELECT searchable, status FROM profiles WHERE id = ?").bind(m.id).first()).toEqual({
      searchable: 1,
      status: "active",
    });
    expect((await logIn(m)).status).toBe(200);
    expect((await auditRows("member", m.userId)).map((row) => row.action)).toEqual(["member.enable", "member.disable"]);
  });

  it("log out everywhere: every session ends and its open page closes at once", async () => {
    const m = await chatMember(ORIGIN);
    const socket = await memberSocket(m);
    expect(await support.logOutEverywhere(context(), asMember(m), "phone stolen")).toBe(true);
    expect(await closedSoon(socket.closed)).toBe(true);
    expect((await m.browser.fetch("/api/user.php")).status).toBe(403);
    expect(await auditRows("member", m.userId)).toEqual([
      expect.objectContaining({ action: "member.log_out_everywhere", reason: "phone stolen" }),
    ]);
  });

  it("delete: pending deletion, logged out at once, the way back mailed", async () => {
    const m = await chatMember(ORIGIN);
    const socket = await memberSocket(m);
    expect(await support.deleteMember(context(), accounts(), asMember(m), "asked by mail")).toBe(true);
    expect(await closedSoon(socket.closed)).toBe(true);
    expect(
      (await env.DB.prepare("SELECT status FROM users WHERE id = ?").bind(m.userId).first<{ status: string }>())!
        .status,
    ).toBe("pending_deletion");
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM outgoing_mail WHERE to_address = ? AND kind = 'deletion'")
        .bind(m.user.email)
        .first<{ n: number }>())!.n,
    ).toBe(1);
    expect(await support.deleteMember(context(), accounts(), asMember(m, "pending_deletion"), "again")).toBe(false);
    expect(await auditRows("member", m.userId)).toEqual([expect.objectContaining({ action: "member.delete" })]);
  });
});

describe("credit corrections", () => {
  it("a correction is a ledger row naming the operator, with the balance, and its audit row", async () => {
    const m = await chatMember(ORIGIN, { credits: 0 });
    const base = await ledgerSum(db, m.userId);
    await env.DB.prepare("UPDATE users SET credits = ? WHERE id = ?").bind(base, m.userId).run();
    expect(await support.correctCredits(context(), asMember(m), 7, 25, "goodwill after an outage")).toBe(true);
    expect(await creditsOf(m)).toBe(base + 25);
    const row = await env.DB.prepare(
      "SELECT delta, reason, ref FROM credit_ledger WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    )
      .bind(m.userId)
      .first<{ delta: number; reason: string; ref: string }>();
    expect(row).toMatchObject({ delta: 25, reason: "correction", ref: expect.stringMatching(/^operator:7:/) });
    const [audit] = await auditRows("member", m.userId);
    expect(audit).toMatchObject({ action: "member.correct_credits", reason: "goodwill after an outage" });
    expect(JSON.parse(audit!.after!)).toMatchObject({ delta: 25, ledger_ref: row!.ref });
    expect(await ledgerSum(db, m.userId)).toBe(await creditsOf(m));
  });

  it("taking more than the member has changes nothing and records nothing", async () => {
    const m = await chatMember(ORIGIN);
    const before = await creditsOf(m);
    expect(await support.correctCredits(context(), asMember(m), 7, -(before + 1), "too much")).toBe(false);
    expect(await creditsOf(m)).toBe(before);
    expect(await auditRows("member", m.userId)).toEqual([]);
  });

  it("corrections fired together: the balance never goes below zero and stays the sum of the ledger", async () => {
    for (let round = 0; round < 3; round++) {
      const m = await chatMember(ORIGIN);
      await env.DB.prepare(
        "INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?1, 50 - (SELECT COALESCE(SUM(delta), 0) FROM credit_ledger WHERE user_id = ?1), 'bonus')",
      )
        .bind(m.userId)
        .run();
      await env.DB.prepare("UPDATE users SET credits = 50 WHERE id = ?").bind(m.userId).run();
      const results = await Promise.all(
        Array.from({ length: 12 }, () => support.correctCredits(context(), asMember(m), 7, -10, "chargeback by hand")),
      );
      expect(results.filter(Boolean)).toHaveLength(5);
      expect(await creditsOf(m)).toBe(0);
      expect(await ledgerSum(db, m.userId)).toBe(0);
      expect(await auditRows("member", m.userId)).toHaveLength(5);
    }
  });
});

type Init = { method?: string; json?: unknown };
async function call(m: Member | null, path: string, init: Init = {}): Promise<Response> {
  const headers = new Headers();
  if (m) headers.set("cookie", [...m.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
  if (init.method && init.method !== "GET") {
    headers.set("origin", ORIGIN);
    headers.set("x-request-type", "client");
  }
  let body: string | null = null;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(ORIGIN + path, { method: init.method ?? "GET", headers, body }),
    mollieEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/** An order the member paid at the Mollie stand-in, the webhook delivered: credited. */
async function paidOrder(m: Member): Promise<{ id: number; paymentId: string }> {
  const res = await call(m, "/api/order.php", { method: "POST", json: { bundle_id: 1, method: "ideal" } });
  expect(res.status, await res.clone().text()).toBe(201);
  const { order } = await res.json<OrderCreated>();
  const { order: view } = await (await call(m, `/api/order.php?id=${order.id}`)).json<OrderResponse>();
  await fetch(`${standIn}/_stand-in/payments/${view.payment_id}/status`, {
    method: "POST",
    body: JSON.stringify({ status: "paid" }),
  });
  const form = new URLSearchParams({ id: view.payment_id! });
  const ctx = createExecutionContext();
  expect(
    (await app.fetch(new Request(`${ORIGIN}/api/payment-webhook.php`, { method: "POST", body: form }), mollieEnv, ctx))
      .status,
  ).toBe(200);
  await waitOnExecutionContext(ctx);
  return { id: order.id, paymentId: view.payment_id! };
}

const refundRequests = async (paymentId: string) => {
  const all = await (await fetch(`${standIn}/_stand-in/requests`)).json<{ method: string; path: string }[]>();
  return all.filter((r) => r.method === "POST" && r.path === `/v2/payments/${paymentId}/refunds`).length;
};

describe("a refund from the console", () => {
  const payments = (): PaymentContext => ({
    db,
    env,
    provider: new MollieProvider(STAND_IN_KEY, mollieUrl),
    site: SITE,
    origin: ORIGIN,
    now: now(),
  });

  it("goes through the provider once, however many operators press it at once; the ledger and balance agree", async () => {
    for (let round = 0; round < 3; round++) {
      const m = await chatMember(ORIGIN);
      await env.DB.prepare(
        "INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?1, (SELECT credits FROM users WHERE id = ?1) - (SELECT COALESCE(SUM(delta), 0) FROM credit_ledger WHERE user_id = ?1), 'bonus')",
      )
        .bind(m.userId)
        .run();
      const paid = await paidOrder(m);
      const before = await creditsOf(m);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, () =>
          support.refundForMember(context(), payments(), paid.id, "member asked by phone"),
        ),
      );
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      for (const o of outcomes) if (o.status === "rejected") expect(o.reason).toMatchObject({ status: 409 });
      expect(await refundRequests(paid.paymentId)).toBe(1);
      expect(await creditsOf(m)).toBe(before - 50);
      expect(await ledgerSum(db, m.userId)).toBe(await creditsOf(m));
      expect(await auditRows("order", paid.id)).toEqual([
        expect.objectContaining({ action: "order.refund", reason: "member asked by phone" }),
      ]);
      // The refund is recorded as support's, not as the member's own request.
      const asked = await env.DB.prepare("SELECT origin FROM payment_adjustments WHERE order_id = ?1")
        .bind(paid.id)
        .all<{ origin: string }>();
      expect(asked.results).toEqual([{ origin: "support" }]);
    }
  });

  it("an order that cannot be refunded is refused with the member side's reason, and nothing is recorded", async () => {
    const m = await chatMember(ORIGIN);
    await env.DB.prepare(
      "INSERT INTO orders (id, user_id, site_domain, credits, amount_cents, currency, payment_method, country) VALUES (?, ?, 'support.test', 50, 995, 'EUR', 'ideal', 'NL')",
    )
      .bind(800_000 + m.userId, m.userId)
      .run();
    await expect(support.refundForMember(context(), payments(), 800_000 + m.userId, "try")).rejects.toMatchObject({
      status: 409,
      code: "not_refundable",
    });
    expect(await support.refundForMember(context(), payments(), 999_999_999, "none")).toBeNull();
    expect(await auditRows("order", 800_000 + m.userId)).toEqual([]);
  });
});
