/**
 * Member support (issue 24 point 4): find a member, see what support needs of them, and act, each
 * action with a reason. Every action is the member side's own statements (the same disabling, session
 * ending, deletion, activation mail and refund the member's calls use) run in one D1 batch with the
 * operator's audit row, which `record` adds; sessions that end have their open pages closed at once
 * through the member's channel, as the member's own calls do (docs/decisions/0025).
 */
import type { BatchItem } from "drizzle-orm/batch";
import { accountById } from "../db/accounts";
import type { Database } from "../db/database";
import { balanceOf, ledgerSum } from "../db/ledger";
import {
  creditCorrectionStatements,
  enableAccountStatements,
  findMembers,
  memberAccount,
  memberRecords,
  unlockLoginStatement,
  type MemberHit,
} from "../db/member-support";
import { findOrder } from "../db/orders";
import { refreshSearchable } from "../db/profiles";
import { disableAccountQueries } from "../db/reports";
import { revokeMemberSessions, sessionsRevokedSince } from "../db/sessions";
import { accountDeletion, activationResend, type AccountContext } from "./accounts";
import { conversationRooms, memberChangedInChats } from "./chats";
import { tellProfileChanged } from "../notices/tell";
import { usernameKey } from "./account-rules";
import { type PaymentContext } from "./payments";
import { closeSessionSockets } from "./sessions";
import { normaliseEmail } from "../../shared/account-fields";
import { refundOrder } from "./refunds";
import { consoleDecision, type ConsoleStatement } from "./console-decisions";
import type { Moderator } from "./moderation";

type Statement = BatchItem<"sqlite">;
type Batch = [Statement, ...Statement[]];

/** What an action tells the audit log: what it did, to which member or order, before and after. */
export type SupportEntry = {
  action: string;
  target: { kind: string; id: string | number };
  before?: unknown;
  after?: unknown;
  reason: string;
};

/**
 * Makes an action's batch: its statements in their order with the audit row written only when the
 * first statement changed a row (the console's withAudit, guarded), so an action that changed nothing
 * leaves no record, and the first result still says whether it did.
 */
export type Recorder = (entry: SupportEntry, statements: Batch) => Batch;

export type SupportContext = {
  db: Database;
  /** The members' channels (ending sessions closes their open pages) and the conversations' objects. */
  env: Env;
  record: Recorder;
  /** Unix seconds. */
  now: number;
  /** The operator as a moderator: a disabling or deletion writes its statement of reasons as theirs (decision 0061). */
  moderator?: Moderator;
};

/**
 * Members a support query names. A query with "@" is an e-mail address; a number is a profile id or
 * an order id; anything else is a payment id at the provider or the beginning of a username.
 */
export async function searchMembers(db: Database, text: string): Promise<MemberHit[]> {
  const query = text.trim();
  if (query === "") return [];
  if (query.includes("@")) return findMembers(db, { email: normaliseEmail(query) });
  if (/^\d{1,15}$/.test(query)) return findMembers(db, { profileId: Number(query), orderId: Number(query) });
  return findMembers(db, { paymentId: query, usernamePrefix: usernameKey(query) });
}

/** Everything support sees of one member, or null when there is no such account. */
export async function memberFile(db: Database, userId: number) {
  const account = await memberAccount(db, userId);
  if (!account) return null;
  const [records, balance, ledgerTotal] = await Promise.all([
    memberRecords(db, userId, account.profileId, account.email),
    balanceOf(db, userId),
    ledgerSum(db, userId),
  ]);
  return { account, balance, ledgerTotal, ...records };
}

export type MemberFile = NonNullable<Awaited<ReturnType<typeof memberFile>>>;

/** Close the open pages of the sessions ended from `since` on (after the batch that ended them). */
async function endOpenPages(
  ctx: SupportContext,
  userId: number,
  profileId: number | null,
  since: number,
): Promise<void> {
  if (profileId === null) return;
  await closeSessionSockets(ctx.env.MEMBERS, profileId, await sessionsRevokedSince(ctx.db, userId, since));
}

/**
 * The member's standing changed (disabled, enabled, deleted): their chats decide the next send on
 * fresh facts, as after the member's own deletion, and, when what others see of the profile changed,
 * open pages showing it load it again (as a moderation decision does, docs/decisions/0035).
 */
async function standingChanged(ctx: SupportContext, profileId: number | null, pagesToo: boolean): Promise<void> {
  if (profileId === null) return;
  await memberChangedInChats(ctx.db, conversationRooms(ctx.env.CONVERSATIONS), profileId);
  if (pagesToo) await tellProfileChanged(ctx.env, ctx.db, profileId);
}

const changed = (results: readonly unknown[]) =>
  ((results[0] as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0) > 0;

type Member = { userId: number; profileId: number | null; status: string };

/** Lift the account's login lock (its failed logins forgotten). False when there was none. */
export async function unlockLogin(
  ctx: SupportContext,
  member: Member,
  lock: unknown,
  reason: string,
): Promise<boolean> {
  const entry = {
    action: "member.unlock_login",
    target: { kind: "member", id: member.userId },
    before: lock,
    after: null,
    reason,
  };
  return changed(await ctx.db.batch(ctx.record(entry, [unlockLoginStatement(ctx.db, member.userId)])));
}

/** Mail a fresh activation link to an account not confirmed yet (the member's own resend, with its daily limit). False when the account needs none. */
export async function resendActivationFor(
  ctx: SupportContext,
  accounts: AccountContext,
  member: Member,
  reason: string,
): Promise<boolean> {
  const resend = await activationResend(accounts, member.userId);
  if (!resend) return false;
  await ctx.db.batch(
    ctx.record({ action: "member.resend_activation", target: { kind: "member", id: member.userId }, reason }, [
      resend.statement,
    ]),
  );
  await resend.send();
  return true;
}

/** Disable the account (SPEC §3): hidden everywhere, every session ended and its open pages closed at once. False when it was disabled already. */
export async function disableMember(
  ctx: SupportContext,
  member: Member & { profileId: number },
  reason: string,
  statement?: ConsoleStatement,
): Promise<boolean> {
  const decision = await statementFor(ctx, member.profileId, "disable", statement);
  const entry = {
    action: "member.disable",
    target: { kind: "member", id: member.userId },
    before: { status: member.status },
    after: { status: "disabled" },
    reason,
  };
  const [first, ...rest] = disableAccountQueries(ctx.db, member.profileId, ctx.now);
  // The decision's insert reads the account's status before the rest of the disabling changes the profile.
  const batch: Batch = [first, ...(decision ? [decision.insert] : []), ...rest];
  const results = await ctx.db.batch(ctx.record(entry, batch));
  if (!changed(results)) return false;
  await endOpenPages(ctx, member.userId, member.profileId, ctx.now);
  await standingChanged(ctx, member.profileId, true);
  await decision?.tell();
  return true;
}

/** Enable a disabled account again; its profile is back in search unless the member is invisible. */
export async function enableMember(ctx: SupportContext, member: Member, reason: string): Promise<boolean> {
  const entry = {
    action: "member.enable",
    target: { kind: "member", id: member.userId },
    before: { status: member.status },
    after: { status: "active" },
    reason,
  };
  const done = changed(await ctx.db.batch(ctx.record(entry, [...enableAccountStatements(ctx.db, member.userId)])));
  if (!done) return false;
  await refreshSearchable(ctx.db, member.userId);
  await standingChanged(ctx, member.profileId, true);
  return true;
}

/** End every session of the member and close their open pages. False when none was live. */
export async function logOutEverywhere(ctx: SupportContext, member: Member, reason: string): Promise<boolean> {
  const entry = { action: "member.log_out_everywhere", target: { kind: "member", id: member.userId }, reason };
  const done = changed(await ctx.db.batch(ctx.record(entry, [revokeMemberSessions(ctx.db, member.userId, ctx.now)])));
  await endOpenPages(ctx, member.userId, member.profileId, ctx.now);
  return done;
}

/**
 * Correct a member's credits by `delta` (positive or negative): the ledger row, whose ref names the
 * operator, and the balance in one batch with the audit row, so the balance stays the sum of the
 * ledger. A correction that would take credits the member does not have (or that a conversation
 * holds) changes nothing and answers false.
 */
export async function correctCredits(
  ctx: SupportContext,
  member: Member,
  operatorId: number,
  delta: number,
  reason: string,
): Promise<boolean> {
  const before = await balanceOf(ctx.db, member.userId);
  const ref = `operator:${operatorId}:${crypto.randomUUID()}`;
  const entry = {
    action: "member.correct_credits",
    target: { kind: "member", id: member.userId },
    before: { credits: before?.credits ?? 0 },
    after: { credits: (before?.credits ?? 0) + delta, delta, ledger_ref: ref },
    reason,
  };
  return changed(
    await ctx.db.batch(
      ctx.record(entry, [...creditCorrectionStatements(ctx.db, { userId: member.userId, delta, ref, now: ctx.now })]),
    ),
  );
}

/**
 * Refund an order through the payment provider: the member's own refund (services/payments.ts
 * refundOrder, its rules and its once-only take of the credits), with the audit row in the batch that
 * takes the credits. Refusals are the member side's (already refunded, spent, too late ...).
 */
export async function refundForMember(ctx: SupportContext, payments: PaymentContext, orderId: number, reason: string) {
  const order = await findOrder(ctx.db, orderId);
  if (!order) return null;
  const entry = {
    action: "order.refund",
    target: { kind: "order", id: orderId },
    before: { status: order.status, credits: order.credits, amount_cents: order.amountCents, currency: order.currency },
    after: { status: "refunded" },
    reason,
  };
  return refundOrder(payments, order.userId, orderId, (statements) => ctx.record(entry, statements), "support");
}

/**
 * Delete the account as the member's own deletion does: pending for 14 days, hidden, every session
 * ended and its pages closed, the way back mailed. False when it was pending deletion already.
 */
export async function deleteMember(
  ctx: SupportContext,
  accounts: AccountContext,
  member: Member,
  reason: string,
  statement?: ConsoleStatement,
): Promise<boolean> {
  const account = await accountById(ctx.db, member.userId);
  if (!account || account.status === "pending_deletion") return false;
  const decision = member.profileId === null ? null : await statementFor(ctx, member.profileId, "delete", statement);
  const deletion = await accountDeletion(accounts, account);
  const entry = {
    action: "member.delete",
    target: { kind: "member", id: member.userId },
    before: { status: account.status },
    after: { status: "pending_deletion" },
    reason,
  };
  const [first, ...rest] = deletion.statements;
  const batch: Batch = [first!, ...(decision ? [decision.insert] : []), ...rest];
  if (!changed(await ctx.db.batch(ctx.record(entry, batch)))) return false;
  await endOpenPages(ctx, member.userId, member.profileId, ctx.now);
  await standingChanged(ctx, member.profileId, false);
  // A deletion as a measure is not the member's to undo by the reactivation link: they are sent the
  // statement of reasons, and its appeal is the way back (docs/decisions/0061).
  if (decision) await decision.tell();
  else await deletion.send();
  return true;
}

/** The statement of reasons of a disabling or deletion by an operator (every one has one, decision 0061). */
async function statementFor(
  ctx: SupportContext,
  profileId: number,
  outcome: "disable" | "delete",
  statement: ConsoleStatement | undefined,
) {
  if (!ctx.moderator || !statement) return null;
  return consoleDecision({ ...ctx.moderator, now: ctx.now }, profileId, outcome, statement);
}
