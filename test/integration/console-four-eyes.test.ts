/**
 * Four eyes in the console (issue 39 point 10, docs/decisions/0060), through HTTP as Access passes
 * each operator: disabling or deleting an account from the Members screen, a refund above the site's
 * limit or asked by support, and a generous discount code wait for a second operator; the one who
 * asked cannot confirm; many confirmations at once take effect once; a request expires; destructive
 * forms need their ticked sentence; a re-enabled account keeps its e-mail confirmation as it was.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { ledgerSum } from "../../src/server/db/ledger";
import { expireRequestsStatements } from "../../src/server/db/operator-requests";
import { clearSiteCache } from "../../src/server/edge/site";
import { REQUEST_LIFETIME_SECONDS } from "../../src/server/console/second-operator";
import { chatMember, creditsOf, type Member } from "../chat";
import { asOperator, mollieConsole, operator, paidOrder, refundsAtStandIn } from "../console";
import { putSites, site } from "../fixtures";
import { auditRows } from "../support";

const SITE = "four-eyes.test";
const ORIGIN = `http://${SITE}`;
const db = databaseOf(env.DB);

vi.setConfig({ testTimeout: 60_000 });

let admin: string, supports: string[], finances: string[];
beforeAll(async () => {
  // A refund of more than 20.00 EUR on this site needs a second operator.
  await putSites(site(SITE, { second_operator_refund_above: { EUR: 2000 } }));
  clearSiteCache();
  admin = await operator("admin");
  supports = await Promise.all(Array.from({ length: 4 }, () => operator("support")));
  finances = await Promise.all(Array.from({ length: 4 }, () => operator("finance")));
});

type Request = { id: number; status: string; action: string; requested_by: number; expires_at: number };
const requestsAbout = async (kind: string, id: string | number) =>
  (
    await env.DB.prepare(
      "SELECT id, status, action, requested_by, expires_at FROM operator_requests WHERE target_kind = ? AND target_id = ? ORDER BY id",
    )
      .bind(kind, String(id))
      .all<Request>()
  ).results;
const statusOf = async (m: Member) =>
  (await env.DB.prepare("SELECT status FROM users WHERE id = ?").bind(m.userId).first<{ status: string }>())!.status;
/** A disabling carries its statement of reasons (docs/decisions/0061); a deletion here is the member's own wish. */
const ticked = (reason: string) => ({
  reason,
  confirmed: "yes",
  ground: "fake_profile",
  fact_template: "fake_profile.false_details",
  asked_by_member: "yes",
});
const codeOf = async (response: Response) => (await response.json<{ error: string }>()).error;

describe("disabling an account without a report", () => {
  it("never fires on one click: without the ticked sentence nothing is asked", async () => {
    const m = await chatMember(ORIGIN);
    const response = await asOperator(supports[0]!, `/members/${m.userId}/disable`, { form: { reason: "spam" } });
    expect(response.status).toBe(400);
    expect(await codeOf(response)).toBe("confirmation_needed");
    expect(await requestsAbout("member", m.userId)).toEqual([]);
    expect(await statusOf(m)).toBe("active");
  });

  it("waits for a second operator: the one who asked cannot confirm, of many confirmations at once one disables", async () => {
    for (let round = 0; round < 3; round++) {
      const m = await chatMember(ORIGIN);
      const [asker, ...others] = round % 2 ? [supports[1]!, ...supports.slice(2), admin] : [...supports];
      const asked = await asOperator(asker!, `/members/${m.userId}/disable`, { form: ticked("scam reports") });
      expect(asked.status, await asked.clone().text()).toBe(200);
      // Asked, not done: the member is still in, and the request waits.
      expect(await statusOf(m)).toBe("active");
      expect((await m.browser.fetch("/api/user.php")).status).toBe(200);
      const [request] = await requestsAbout("member", m.userId);
      expect(request).toMatchObject({ status: "waiting", action: "member.disable" });
      // The same request again is not a second one.
      expect((await asOperator(others[0]!, `/members/${m.userId}/disable`, { form: ticked("again") })).status).toBe(
        409,
      );
      // The page of waiting requests shows it to another operator, with Confirm and Decline.
      const page = await (await asOperator(others[0]!, "/requests")).text();
      expect(page).toContain("Waiting for a second operator");
      expect(page).toContain(`/requests/${request!.id}/confirm`);
      // The one who asked cannot confirm it.
      const own = await asOperator(asker!, `/requests/${request!.id}/confirm`, { form: ticked("me again") });
      expect(own.status).toBe(403);
      expect(await codeOf(own)).toBe("second_operator_required");
      expect(await statusOf(m)).toBe("active");
      // Many second operators at once: exactly one takes effect.
      const presses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          asOperator(others[i % others.length]!, `/requests/${request!.id}/confirm`, { form: ticked("checked it") }),
        ),
      );
      expect(presses.map((p) => p.status).toSorted()).toEqual([200, 409, 409, 409, 409, 409]);
      expect(await statusOf(m)).toBe("disabled");
      expect((await m.browser.fetch("/api/user.php")).status).toBe(403);
      expect((await auditRows("member", m.userId)).map((row) => row.action)).toEqual([
        "member.disable",
        "member.disable.confirmed",
        "member.disable.asked",
      ]);
      expect((await requestsAbout("member", m.userId))[0]!.status).toBe("confirmed");
    }
  });

  it("a decline ends the request with nothing done; deleting waits the same way", async () => {
    const m = await chatMember(ORIGIN);
    await asOperator(supports[0]!, `/members/${m.userId}/delete`, { form: ticked("asked by phone") });
    const [request] = await requestsAbout("member", m.userId);
    expect(request).toMatchObject({ status: "waiting", action: "member.delete" });
    expect(
      (await asOperator(supports[1]!, `/requests/${request!.id}/decline`, { form: { reason: "not the owner" } }))
        .status,
    ).toBe(200);
    expect((await asOperator(supports[2]!, `/requests/${request!.id}/confirm`, { form: ticked("late") })).status).toBe(
      409,
    );
    expect(await statusOf(m)).toBe("active");
    await asOperator(supports[0]!, `/members/${m.userId}/delete`, { form: ticked("asked in writing") });
    const second = (await requestsAbout("member", m.userId))[1]!;
    expect((await asOperator(supports[3]!, `/requests/${second.id}/confirm`, { form: ticked("seen it") })).status).toBe(
      200,
    );
    expect(await statusOf(m)).toBe("pending_deletion");
    expect((await auditRows("member", m.userId)).map((row) => row.action)).toEqual([
      "member.delete",
      "member.delete.confirmed",
      "member.delete.asked",
      "member.delete.declined",
      "member.delete.asked",
    ]);
  });
});

describe("a request not confirmed in time", () => {
  it("expires at its time (now given), with its audit row; it cannot be confirmed after", async () => {
    const m = await chatMember(ORIGIN);
    await asOperator(supports[0]!, `/members/${m.userId}/disable`, { form: ticked("fake profile") });
    const [request] = await requestsAbout("member", m.userId);
    expect(request!.expires_at - (await requestedAt(request!.id))).toBe(REQUEST_LIFETIME_SECONDS);
    await db.batch(expireRequestsStatements(db, request!.expires_at - 1));
    expect((await requestsAbout("member", m.userId))[0]!.status).toBe("waiting");
    await db.batch(expireRequestsStatements(db, request!.expires_at));
    await db.batch(expireRequestsStatements(db, request!.expires_at + 5));
    expect((await requestsAbout("member", m.userId))[0]!.status).toBe("expired");
    const late = await asOperator(supports[1]!, `/requests/${request!.id}/confirm`, { form: ticked("late") });
    expect(late.status).toBe(409);
    expect(await statusOf(m)).toBe("active");
    expect((await auditRows("member", m.userId)).map((row) => [row.action, row.actor])).toEqual([
      ["member.disable.expired", "console"],
      ["member.disable.asked", supports[0]],
    ]);
  });
});

async function requestedAt(id: number): Promise<number> {
  return (await env.DB.prepare("SELECT requested_at FROM operator_requests WHERE id = ?")
    .bind(id)
    .first<{ requested_at: number }>())!.requested_at;
}

describe("refunds need finance", () => {
  it("support cannot refund alone: its refund is a request finance confirms, support cannot confirm it", async () => {
    const m = await chatMember(ORIGIN);
    const { orderId, paymentId } = await paidOrder(m, SITE, 995);
    const asked = await asOperator(supports[0]!, `/members/${m.userId}/orders/${orderId}/refund`, {
      form: ticked("member asked"),
      workerEnv: mollieConsole,
    });
    expect(asked.status, await asked.clone().text()).toBe(200);
    expect(await refundsAtStandIn(paymentId)).toBe(0);
    expect(await creditsOf(m)).toBe(50);
    const [request] = await requestsAbout("order", orderId);
    expect(request).toMatchObject({ status: "waiting", action: "order.refund" });
    const bySupport = await asOperator(supports[1]!, `/requests/${request!.id}/confirm`, {
      form: ticked("fine"),
      workerEnv: mollieConsole,
    });
    expect(bySupport.status).toBe(403);
    expect(await codeOf(bySupport)).toBe("role_required");
    const presses = await Promise.all(
      finances.map((finance) =>
        asOperator(finance, `/requests/${request!.id}/confirm`, { form: ticked("checked"), workerEnv: mollieConsole }),
      ),
    );
    expect(presses.map((p) => p.status).toSorted()).toEqual([200, 409, 409, 409]);
    expect(await refundsAtStandIn(paymentId)).toBe(1);
    expect(await creditsOf(m)).toBe(0);
    expect(await ledgerSum(db, m.userId)).toBe(0);
    expect((await auditRows("order", orderId)).map((row) => row.action)).toEqual([
      "order.refund",
      "order.refund.confirmed",
      "order.refund.asked",
    ]);
  });

  it("finance refunds at once up to the site's limit; above it a second finance operator confirms", async () => {
    const small = await chatMember(ORIGIN);
    const below = await paidOrder(small, SITE, 1995);
    const direct = await asOperator(finances[0]!, `/orders/${below.orderId}/refund`, {
      form: ticked("member asked"),
      workerEnv: mollieConsole,
    });
    expect(direct.status, await direct.clone().text()).toBe(200);
    expect(await refundsAtStandIn(below.paymentId)).toBe(1);
    expect(await requestsAbout("order", below.orderId)).toEqual([]);

    const large = await chatMember(ORIGIN);
    const above = await paidOrder(large, SITE, 4995);
    await asOperator(finances[0]!, `/orders/${above.orderId}/refund`, {
      form: ticked("member asked"),
      workerEnv: mollieConsole,
    });
    expect(await refundsAtStandIn(above.paymentId)).toBe(0);
    const [request] = await requestsAbout("order", above.orderId);
    const own = await asOperator(finances[0]!, `/requests/${request!.id}/confirm`, {
      form: ticked("mine"),
      workerEnv: mollieConsole,
    });
    expect(own.status).toBe(403);
    expect(
      (
        await asOperator(finances[1]!, `/requests/${request!.id}/confirm`, {
          form: ticked("checked"),
          workerEnv: mollieConsole,
        })
      ).status,
    ).toBe(200);
    expect(await refundsAtStandIn(above.paymentId)).toBe(1);
    expect(await creditsOf(large)).toBe(0);
  });
});

describe("discount codes", () => {
  it("a code over the percentage, without a last day or with unlimited uses waits; a modest one is added at once", async () => {
    const tag = Math.random().toString(36).slice(2, 7).toUpperCase();
    const modest = await asOperator(finances[0]!, "/discounts", {
      form: { code: `MODEST${tag}`, percentage: "20", expiresAt: "2099-12-31", reason: "spring" },
    });
    expect(modest.status, await modest.clone().text()).toBe(200);
    expect((await auditRows("discount", `MODEST${tag}`)).map((row) => row.action)).toEqual(["discount.add"]);
    const countOf = async (code: string) =>
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM discount_codes WHERE code = ?")
        .bind(code)
        .first<{ n: number }>())!.n;
    for (const [name, form] of [
      [`HALF${tag}`, { percentage: "60", expiresAt: "2099-12-31" }],
      [`ENDLESS${tag}`, { percentage: "10" }],
      [`OPEN${tag}`, { percentage: "10", expiresAt: "2099-12-31", validity: "unlimited" }],
    ] as const) {
      const asked = await asOperator(finances[0]!, "/discounts", { form: { code: name, ...form, reason: "promo" } });
      expect(asked.status, await asked.clone().text()).toBe(200);
      expect(await countOf(name)).toBe(0);
      const [request] = await requestsAbout("discount", name);
      expect(request).toMatchObject({ status: "waiting", action: "discount.add" });
      expect(
        (await asOperator(finances[0]!, `/requests/${request!.id}/confirm`, { form: ticked("mine") })).status,
      ).toBe(403);
      const confirmed = await asOperator(finances[2]!, `/requests/${request!.id}/confirm`, {
        form: ticked("looks right"),
      });
      expect(confirmed.status, await confirmed.clone().text()).toBe(200);
      expect(await countOf(name)).toBe(1);
    }
  });

  it("ending a code needs its ticked sentence", async () => {
    const code = `END${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
    await asOperator(finances[0]!, "/discounts", {
      form: { code, percentage: "10", expiresAt: "2099-12-31", reason: "spring" },
    });
    expect((await asOperator(finances[0]!, `/discounts/${code}/end`, { form: { reason: "over" } })).status).toBe(400);
    expect((await asOperator(finances[0]!, `/discounts/${code}/end`, { form: ticked("over") })).status).toBe(200);
  });
});

describe("enabling a disabled account", () => {
  it("keeps its e-mail confirmation as it was: an unconfirmed account is unconfirmed again, a confirmed one active", async () => {
    for (const status of ["not_confirmed", "active"] as const) {
      const m = await chatMember(ORIGIN, { status });
      await asOperator(supports[0]!, `/members/${m.userId}/disable`, { form: ticked("fake profile") });
      const [request] = await requestsAbout("member", m.userId);
      await asOperator(supports[1]!, `/requests/${request!.id}/confirm`, { form: ticked("seen") });
      expect(await statusOf(m)).toBe("disabled");
      const enabled = await asOperator(supports[2]!, `/members/${m.userId}/enable`, { form: { reason: "appeal" } });
      expect(enabled.status, await enabled.clone().text()).toBe(200);
      expect(await statusOf(m)).toBe(status);
      const profile = await env.DB.prepare("SELECT status FROM profiles WHERE user_id = ?")
        .bind(m.userId)
        .first<{ status: string }>();
      expect(profile!.status).toBe("active");
    }
  });
});
