/**
 * Every console action that restricts a member writes a decision whose statement of reasons holds
 * every element of DSA Art. 17(3) (docs/decisions/0061). The console's POST routes are each declared
 * restricting or not: a new route fails here until it is placed in one list, and each restricting
 * one is taken and its decision read back.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { chatMember, type Member } from "../chat";
import { asOperator, operator } from "../console";
import { putSites, site } from "../fixtures";
import { json } from "../http";

const DOMAIN = "restricting.test";
const ORIGIN = `http://${DOMAIN}`;

/** The console's writes that restrict a member (a disabling or deletion is done when a second operator confirms it). */
const RESTRICTING = [
  "/photos/:id/reject",
  "/reports/:id/decide",
  "/members/:id/restrict",
  "/members/:id/disable",
  "/members/:id/delete",
] as const;

/** The console's other writes, and why none of them restricts a member. */
const NOT_RESTRICTING: Record<string, string> = {
  "/login": "an operator signs in",
  "/logout": "an operator signs out",
  "/photos/:id/approve": "makes a photo public",
  "/verifications/:id/approve": "grants the badge",
  "/verifications/:id/reject": "refuses a badge; the member's account and content stay as they were",
  "/appeals/:id/decide": "answers an appeal; a reversal lifts, an upheld decision keeps its own statement",
  "/members/:id/credits": "corrects a balance, with its ledger row",
  "/members/:id/unlock": "lifts a lock after failed logins",
  "/members/:id/resend-activation": "mails a new activation link",
  "/members/:id/enable": "enables a disabled account again",
  "/members/:id/log-out": "ends the member's sessions at their request; they sign in again at once",
  "/members/:id/decisions/:decision/lift": "lifts a measure",
  "/members/:id/orders/:order/refund": "refunds an order",
  "/orders/:id/refund": "refunds an order",
  "/requests/:id/confirm": "confirms a waiting request: its action is the restricting route that asked for it",
  "/requests/:id/decline": "declines a waiting request",
  "/questions/:id/answer": "answers a question for support",
  "/discounts": "makes a discount code",
  "/discounts/:code/end": "ends a discount code",
  "/operators": "adds an operator",
  "/operators/:id/disable": "disables an operator",
  "/sites/:domain/draft": "checks a site's settings",
  "/sites/:domain/save": "saves a site's settings",
  "/transparency/disputes": "records an out-of-court dispute",
  "/transparency/disputes/:id/close": "closes an out-of-court dispute",
};

beforeAll(async () => {
  await putSites(site(DOMAIN));
});

const STATEMENT = { ground: "fake_profile", fact_template: "fake_profile.false_details", facts: "Checked by hand." };

async function decisionOf(userId: number) {
  return (await env.DB.prepare(
    "SELECT outcome, restricts, appeal_until, measure, initiative, detection_automated, content_scope, territorial_scope, starts_at, basis, legal_ground, terms_clause, fact_template, facts FROM moderation_decisions WHERE user_id = ? ORDER BY id DESC LIMIT 1",
  )
    .bind(userId)
    .first<Record<string, unknown>>())!;
}

/** Every element a restricting decision's statement must hold. */
function expectEveryElement(decision: Record<string, unknown>) {
  expect(decision.restricts).toBe(1);
  expect(decision.appeal_until).not.toBeNull();
  for (const column of ["measure", "initiative", "content_scope", "territorial_scope", "starts_at", "basis"])
    expect(decision[column], column).not.toBeNull();
  expect(decision.detection_automated === 0 || decision.detection_automated === 1).toBe(true);
  expect(JSON.parse(String(decision.territorial_scope))).not.toEqual([]);
  expect(decision.basis === "illegal" ? decision.legal_ground : decision.terms_clause).toBeTruthy();
  expect(decision.fact_template ?? decision.facts).toBeTruthy();
}

async function confirmWaiting(userId: number) {
  const request = await env.DB.prepare(
    "SELECT id FROM operator_requests WHERE target_kind = 'member' AND target_id = ? AND status = 'waiting'",
  )
    .bind(String(userId))
    .first<{ id: number }>();
  const second = await operator("support", "moderator");
  const confirmed = await asOperator(second, `/requests/${request!.id}/confirm`, {
    form: { reason: "checked it", confirmed: "yes" },
  });
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
}

async function waitingPhoto(member: Member): Promise<number> {
  const n = `${member.id}-${Math.random().toString(16).slice(2, 10)}`;
  const row = await env.DB.prepare(
    "INSERT INTO photos (profile_id, key, thumb_key, blur_key, status, width, height) VALUES (?, ?, ?, ?, 'pending', 480, 600) RETURNING id",
  )
    .bind(member.id, `p/${n}.jpg`, `t/${n}.jpg`, `b/${n}.jpg`)
    .first<{ id: number }>();
  return row!.id;
}

const TAKE: Record<(typeof RESTRICTING)[number], (member: Member) => Promise<void>> = {
  "/photos/:id/reject": async (member) => {
    const photo = await waitingPhoto(member);
    const answer = await asOperator(await operator("moderator"), `/photos/${photo}/reject`, {
      form: { ground: "explicit_content", facts: "The photo shows nudity." },
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
  },
  "/reports/:id/decide": async (member) => {
    const reporter = await chatMember(ORIGIN);
    const filed = await reporter.browser.post("/api/report.php", {
      subject: "scam",
      description: "Asked me for money for a ticket.",
      category: "scams_and_fraud",
      good_faith: true,
      profile_id: member.id,
    });
    const { report } = await json<{ report: { id: number } }>(filed);
    const answer = await asOperator(await operator("moderator"), `/reports/${report.id}/decide`, {
      form: { outcome: "restrict", ground: "scam", facts: "Asked two members for money." },
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
  },
  "/members/:id/restrict": async (member) => {
    const answer = await asOperator(await operator("support", "moderator"), `/members/${member.userId}/restrict`, {
      form: { measure: "restrict_chat", period: "day", reason: "scam messages", ...STATEMENT },
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
  },
  "/members/:id/disable": async (member) => {
    const asked = await asOperator(await operator("support", "moderator"), `/members/${member.userId}/disable`, {
      form: { reason: "scam reports", confirmed: "yes", ...STATEMENT },
    });
    expect(asked.status, await asked.clone().text()).toBe(200);
    await confirmWaiting(member.userId);
  },
  "/members/:id/delete": async (member) => {
    const asked = await asOperator(await operator("support", "moderator"), `/members/${member.userId}/delete`, {
      form: { reason: "fake profile", confirmed: "yes", ...STATEMENT },
    });
    expect(asked.status, await asked.clone().text()).toBe(200);
    await confirmWaiting(member.userId);
  },
};

describe("the console's restricting actions", () => {
  it("are declared: every console write is restricting or says why not", async () => {
    const { consoleApp } = await import("../../src/server/console/console-app");
    const writes = [
      ...new Set(consoleApp.routes.filter((r) => r.method === "POST").map((r) => r.path.replace(/\/\*$/, ""))),
    ].map((path) => (path.length > 1 ? path.replace(/\/$/, "") : path));
    const declared = [...RESTRICTING, ...Object.keys(NOT_RESTRICTING)];
    expect(writes.filter((path) => !declared.includes(path))).toEqual([]);
  });

  for (const route of RESTRICTING) {
    it(`${route} writes a decision with every element of its statement of reasons`, async () => {
      const member = await chatMember(ORIGIN);
      await TAKE[route](member);
      expectEveryElement(await decisionOf(member.userId));
    });
  }
});
