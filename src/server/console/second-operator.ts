/**
 * Four eyes (issue 39 point 10, docs/decisions/0060): a destructive or large money action asked by
 * one operator waits for a second operator, who confirms or declines it; the one who asked can never
 * confirm it, it takes effect once on confirmation however many confirm at once, and it expires
 * after REQUEST_LIFETIME_SECONDS. Every step is an audit row in the batch of the step itself:
 * `<action>.asked`, `.confirmed`, `.declined`, `.expired`, `.failed`, and the action's own row when
 * it is done.
 */
import type { Context } from "hono";
import type * as v from "valibot";
import { withAudit, type Statement } from "../db/audit-log";
import {
  confirmRequestStatement,
  declineRequestStatement,
  expireRequestsStatements,
  failRequestStatement,
  insertRequest,
  requestById,
  type OperatorRequest,
} from "../db/operator-requests";
import { findOrder } from "../db/orders";
import type { OperatorRole } from "../db/operators";
import { AppError } from "../errors";
import { addDiscountCodeStatement, type NewDiscountCode } from "../services/discounts";
import * as support from "../services/member-support";
import type { ConsoleStatement } from "../services/console-decisions";
import { actorOf, runAudited } from "./audited-action";
import type { ConsoleEnv } from "./console-context";
import { when } from "./console-page";
import { ConsoleRefusal, hasRole } from "./console-refusal";
import { memberAccounts, orderPayments, supportContext } from "./support-context";

/** How long a request waits for its second operator: a day. */
export const REQUEST_LIFETIME_SECONDS = 24 * 60 * 60;

/** The percentage above which a new code needs a second operator, unless SECOND_OPERATOR_DISCOUNT_ABOVE says otherwise. */
export const DEFAULT_DISCOUNT_ABOVE = 50;

/** The actions that can wait for a second operator, and the role the one who confirms needs. */
export const REQUEST_ROLES = {
  "member.disable": "support",
  "member.delete": "support",
  "order.refund": "finance",
  "discount.add": "finance",
} as const satisfies Record<string, OperatorRole>;
export type RequestAction = keyof typeof REQUEST_ROLES;

type NewCode = v.InferOutput<typeof NewDiscountCode>;

/** What the action runs with when confirmed. */
type Details = {
  userId?: number;
  profileId?: number | null;
  orderId?: number;
  code?: NewCode;
  /** The statement of reasons of a disabling or deletion (decision 0061). */
  statement?: ConsoleStatement;
};

const nowOf = () => Math.floor(Date.now() / 1000);

/** The percentage above which a new code needs a second operator (the var SECOND_OPERATOR_DISCOUNT_ABOVE, 0 to 100). */
export function discountLimit(env: { SECOND_OPERATOR_DISCOUNT_ABOVE?: string }): number {
  const value = Number(env.SECOND_OPERATOR_DISCOUNT_ABOVE);
  return env.SECOND_OPERATOR_DISCOUNT_ABOVE?.trim() && Number.isInteger(value) && value >= 0 && value <= 100
    ? value
    : DEFAULT_DISCOUNT_ABOVE;
}

/** Why a new code needs a second operator (over the percentage, no last day, unlimited uses), or null. */
export function codeNeedsSecondOperator(code: NewCode, limit: number): string | null {
  const why = [
    code.percentage > limit ? `more than ${limit}% off` : null,
    code.expiresAt === undefined ? "no last day" : null,
    code.validity === "unlimited" ? "unlimited uses" : null,
  ].filter((reason) => reason !== null);
  return why.length ? why.join(", ") : null;
}

/** Every waiting request past its time is expired, with its audit row. */
export async function expireRequests(c: Context<ConsoleEnv>, now: number): Promise<void> {
  await c.var.db.batch(expireRequestsStatements(c.var.db, now));
}

/**
 * Ask for an action a second operator must confirm: the request (who, what, why, when) and its
 * audit row in one batch. A request for the same action and target that is waiting already is a 409.
 */
export async function askSecondOperator(
  c: Context<ConsoleEnv>,
  ask: {
    action: RequestAction;
    target: { kind: string; id: string | number };
    summary: string;
    details: Details;
    reason: string;
  },
  now = nowOf(),
  lifetime = REQUEST_LIFETIME_SECONDS,
): Promise<void> {
  const db = c.var.db;
  await expireRequests(c, now);
  const insert = insertRequest(db, {
    action: ask.action,
    targetKind: ask.target.kind,
    targetId: String(ask.target.id),
    role: REQUEST_ROLES[ask.action],
    summary: ask.summary,
    details: JSON.stringify(ask.details),
    reason: ask.reason,
    requestedBy: c.var.operator.id,
    requestedAt: now,
    expiresAt: now + lifetime,
  });
  const entry = {
    action: `${ask.action}.asked`,
    target: ask.target,
    after: { status: "waiting", summary: ask.summary, expires_at: now + lifetime },
    reason: ask.reason,
  };
  const [rows] = await db.batch(withAudit(db, actorOf(c.var.operator), entry, [insert], now, true));
  if ((rows as unknown[]).length === 0)
    throw new ConsoleRefusal(
      409,
      "request_waiting",
      "This is waiting for a second operator already (see Waiting requests); nothing new was asked.",
    );
}

/** The request's target as its audit rows name it. */
const targetOf = (request: OperatorRequest) => ({ kind: request.targetKind, id: request.targetId });

async function waitingRequest(c: Context<ConsoleEnv>, id: number, now: number): Promise<OperatorRequest> {
  const request = await requestById(c.var.db, id);
  if (!request) throw new ConsoleRefusal(404, "not_found", "There is no such request.");
  if (request.status === "waiting" && request.expiresAt <= now) {
    await expireRequests(c, now);
    throw new ConsoleRefusal(
      409,
      "request_expired",
      `This request expired at ${when(request.expiresAt)} without a second operator; nothing was done. Ask again if it is still needed.`,
    );
  }
  if (request.status !== "waiting")
    throw new ConsoleRefusal(409, "request_decided", `This request is ${request.status} already; nothing was done.`);
  if (!hasRole(c.var.operator, request.role as OperatorRole))
    throw new ConsoleRefusal(403, "role_required", `Confirming this needs the ${request.role} role.`);
  return request;
}

/**
 * Confirm a request as its second operator: the claim (guarded: waiting, not expired, not the one who
 * asked) with its audit row in one batch, and only for the operator whose claim changed the row, the
 * action itself. An action that cannot be done any more leaves the request failed, with its reason.
 */
export async function confirmRequest(
  c: Context<ConsoleEnv>,
  id: number,
  reason: string,
  now = nowOf(),
): Promise<OperatorRequest> {
  const db = c.var.db;
  const request = await waitingRequest(c, id, now);
  if (request.requestedBy === c.var.operator.id)
    throw new ConsoleRefusal(
      403,
      "second_operator_required",
      "You asked for this yourself: another operator must confirm it.",
    );
  await decide(c, request, "confirmed", confirmRequestStatement(db, request.id, c.var.operator.id, now), reason, now);
  const failure = await runAction(c, request, now).catch((error: unknown) => {
    if (error instanceof ConsoleRefusal) return error.message;
    if (error instanceof AppError) return c.var.t(error.key, error.values);
    throw error;
  });
  if (failure !== null) {
    await runAudited(
      c,
      {
        action: `${request.action}.failed`,
        target: targetOf(request),
        after: { request: request.id },
        reason: failure,
      },
      [failRequestStatement(db, request.id, failure)],
      { onlyIfChanged: true, now },
    );
    throw new ConsoleRefusal(409, "request_failed", `Confirmed, but it could not be done: ${failure}`);
  }
  return request;
}

/** Decline a waiting request (the one who asked may decline it too: it is withdrawn), with a reason. */
export async function declineRequest(c: Context<ConsoleEnv>, id: number, reason: string, now = nowOf()): Promise<void> {
  const request = await waitingRequest(c, id, now);
  await decide(
    c,
    request,
    "declined",
    declineRequestStatement(c.var.db, request.id, c.var.operator.id, reason, now),
    reason,
    now,
  );
}

/**
 * A waiting request decided by this operator: the guarded statement and its audit row in one batch;
 * an operator who lost the race to another is told, and leaves no row.
 */
async function decide(
  c: Context<ConsoleEnv>,
  request: OperatorRequest,
  status: "confirmed" | "declined",
  statement: Statement,
  reason: string,
  now: number,
): Promise<void> {
  const decided = await runAudited(
    c,
    {
      action: `${request.action}.${status}`,
      target: targetOf(request),
      before: { status: "waiting", request: request.id },
      after: { status, request: request.id },
      reason,
    },
    [statement],
    { onlyIfChanged: true, now },
  );
  if (!decided)
    throw new ConsoleRefusal(409, "request_decided", "Another operator decided this request first; nothing was done.");
}

/** The action of a confirmed request, by the same services as when it needs no second operator; null when done, else why not. */
async function runAction(c: Context<ConsoleEnv>, request: OperatorRequest, now: number): Promise<string | null> {
  const details = JSON.parse(request.details) as Details;
  const reason = `${request.reason} (request #${request.id}, confirmed by a second operator)`;
  const ctx = supportContext(c, now);
  switch (request.action as RequestAction) {
    case "member.disable": {
      const file = await support.memberFile(c.var.db, details.userId!);
      if (!file || file.account.profileId === null) return "There is no such member any more.";
      const member = { userId: file.account.userId, profileId: file.account.profileId, status: file.account.status };
      return (await support.disableMember(ctx, member, reason, details.statement))
        ? null
        : "The account is disabled already.";
    }
    case "member.delete": {
      const file = await support.memberFile(c.var.db, details.userId!);
      if (!file) return "There is no such member any more.";
      const member = { userId: file.account.userId, profileId: file.account.profileId, status: file.account.status };
      const accounts = await memberAccounts(c, file.account.siteDomain, now);
      return (await support.deleteMember(ctx, accounts, member, reason, details.statement))
        ? null
        : "The account is pending deletion already.";
    }
    case "order.refund": {
      const order = await findOrder(c.var.db, details.orderId!);
      if (!order) return "There is no such order.";
      const payments = await orderPayments(c, order.siteDomain, now);
      return (await support.refundForMember(ctx, payments, order.id, reason)) ? null : "There is no such order.";
    }
    case "discount.add": {
      const code = details.code!;
      await runAudited(
        c,
        { action: "discount.add", target: { kind: "discount", id: code.code }, after: code, reason },
        [addDiscountCodeStatement(c.var.db, code)],
        { now },
      );
      return null;
    }
    default:
      return `The console does not know the action ${request.action}.`;
  }
}
