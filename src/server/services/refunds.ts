/**
 * Refunds (SPEC §1: unused credits can be returned within the site's refund_days): whether an
 * order may still be refunded and why not, and the refund itself, whose credits are taken back in
 * the same batch as the request is recorded, asked of the provider with the request's key.
 */
import { recallChatHolds } from "./premium";
import type { BatchItem } from "drizzle-orm/batch";
import { balanceOf } from "../db/ledger";
import {
  findOrder,
  findOwnOrder,
  latestPaidOrder,
  takeBackStatements,
  undoRefundStatements,
  type OrderRow,
} from "../db/orders";
import { latestPaymentOf } from "../db/payments";
import {
  memberRefundFailedStatement,
  memberRefundStatement,
  type RefundOrigin,
  recordRefundAnswer,
  unansweredMemberRefunds,
} from "../db/payment-adjustments";
import { databaseOf, type Database } from "../db/database";
import { forgetProviderEvents } from "../db/provider-events";
import { paymentProviderFor } from "../payments";
import { AppError } from "../errors";
import { PaymentProviderError, type PaymentProvider, type Refund } from "../payments/provider";
import { providerUnavailable, type PaymentContext } from "./payments";

const DAY = 86_400;

type Statement = BatchItem<"sqlite">;

/** The last moment (unix seconds) the credits of an order may be returned, or null before it is credited. */
export function refundUntil(order: Pick<OrderRow, "creditedAt">, refundDays: number): number | null {
  return order.creditedAt === null ? null : order.creditedAt + refundDays * DAY;
}

/**
 * Why an order's credits cannot be returned now, or null when they can (SPEC §1): only the latest
 * purchase, paid by a method that can be refunded, within refund_days of being credited, once.
 */
export function refundRefusal(
  order: OrderRow,
  latestPaidId: number | null,
  refundDays: number,
  now: number,
): AppError | null {
  if (order.status === "refunded" || order.status === "reversed")
    return new AppError({ status: 409, code: "already_refunded", key: "payments.errors.already_refunded" });
  if (order.creditedAt === null || order.paymentMethod === "directdebit")
    return new AppError({ status: 409, code: "not_refundable", key: "payments.errors.not_refundable" });
  if (latestPaidId !== order.id)
    return new AppError({ status: 409, code: "refund_latest_only", key: "payments.errors.refund_latest_only" });
  if (now > refundUntil(order, refundDays)!)
    return new AppError({
      status: 409,
      code: "refund_too_late",
      key: "payments.errors.refund_too_late",
      values: { count: refundDays },
    });
  return null;
}

/**
 * What a caller adds to the batch that takes a refund's credits (an operator's audit row): it keeps
 * the statements in their order, the first one first (its result says whether the credits were taken).
 */
export type BatchRecord = (statements: [Statement, ...Statement[]]) => [Statement, ...Statement[]];

/**
 * Return the unused credits of the member's latest purchase (SPEC §1: within refund_days): the
 * credits and the ledger row in one step, then the refund at the provider of the matching part of
 * the price. The credits come back only when the provider refused the request or says the refund
 * failed or was canceled; with no answer (a timeout, a 5xx, a 409 for the key still being worked on)
 * the request stays pending, credits taken, until the provider's webhooks or the clock work settle
 * it (docs/decisions/0054). An operator's refund (the console) is this same call, its audit row added
 * to the batch by `record`.
 */
export async function refundOrder(
  ctx: PaymentContext,
  userId: number,
  orderId: number,
  record: BatchRecord = (statements) => statements,
  origin: RefundOrigin = "member",
): Promise<OrderRow> {
  const order = await findOwnOrder(ctx.db, userId, orderId);
  if (!order) throw new AppError({ status: 404, code: "order_not_found", key: "payments.errors.order_not_found" });
  const refusal = refundRefusal(
    order,
    (await latestPaidOrder(ctx.db, userId))?.id ?? null,
    ctx.site.refund_days,
    ctx.now,
  );
  if (refusal) throw refusal;
  await recallChatHolds(ctx.env, userId);
  const balance = (await balanceOf(ctx.db, userId))?.unheld ?? 0;
  const unused = Math.min(balance, order.credits);
  if (unused <= 0) throw new AppError({ status: 409, code: "credits_spent", key: "payments.errors.credits_spent" });
  const cents = Math.floor((order.amountCents * unused) / order.credits);
  const payment = await latestPaymentOf(ctx.db, order.id);
  if (!payment) throw new AppError({ status: 409, code: "not_refundable", key: "payments.errors.not_refundable" });
  const key = crypto.randomUUID();
  const description = `${ctx.site.name} refund #${order.id}`;
  // The credits are taken when the refund is asked for (with the request's own row, the attempt's key in it).
  const [taken] = await ctx.db.batch(
    record([
      ...takeBackStatements(ctx.db, order, { credits: unused, cents, reason: "refund", now: ctx.now }),
      memberRefundStatement(ctx.db, {
        origin,
        orderId: order.id,
        userId,
        idempotencyKey: key,
        amountCents: cents,
        credits: unused,
        description,
        now: ctx.now,
      }),
    ]),
  );
  // Refused (the credits were spent meanwhile, or another take-back came first): the batch changed nothing.
  if (taken.meta.changes === 0) throw await refundRefusedWhy(ctx, order, unused);
  ctx.balanceChanged?.(userId);
  const request = { amount: cents, currency: order.currency, description, idempotencyKey: key, refundKey: key };
  const outcome = await askForRefund(ctx, payment.providerPaymentId, request);
  if (await settleRefundRequest(ctx, order, { key, credits: unused }, outcome)) ctx.balanceChanged?.(userId);
  if (outcome.refused) throw providerUnavailable(outcome.refused);
  return (await findOwnOrder(ctx.db, userId, order.id))!;
}

/** What settling a member's refund request needs: the database, the provider, the clock. */
type RefundContext = { db: Database; provider: PaymentProvider; now: number };

/** A refund's statuses that mean the money did not go back (https://docs.mollie.com/reference/get-refund). */
const NOT_REFUNDED = new Set(["failed", "canceled"]);

/**
 * Record what became of a member's refund request; true when its credits came back. Refused by the
 * provider (nothing happened there), or made and already failed or canceled: the credits come back,
 * once (the request's mark and the order's status guard the batch). Made: its id and status are kept.
 * No answer: nothing changes, the request stays pending.
 */
async function settleRefundRequest(
  ctx: RefundContext,
  order: Pick<OrderRow, "id" | "userId">,
  request: { key: string; credits: number },
  outcome: RefundOutcome,
): Promise<boolean> {
  if (outcome.refund) await recordRefundAnswer(ctx.db, request.key, outcome.refund, ctx.now);
  const endedAs = outcome.refused
    ? "failed"
    : outcome.refund && NOT_REFUNDED.has(outcome.refund.status)
      ? outcome.refund.status
      : null;
  if (endedAs === null) {
    if (!outcome.refund)
      console.warn(JSON.stringify({ event: "refund_pending", order: order.id, credits: request.credits }));
    return false;
  }
  const results = await ctx.db.batch([
    memberRefundFailedStatement(ctx.db, request.key, endedAs, ctx.now),
    ...undoRefundStatements(ctx.db, order, request.credits, ctx.now),
  ]);
  return results[0].meta.changes > 0;
}

/** How long a member's refund request may go unanswered before the clock work asks the provider about it. */
export const REFUND_SETTLE_AFTER_SECONDS = 10 * 60;

/**
 * The clock work's part of refunds: each member's refund request still without an answer a while
 * after it was made is looked up in the payment's refunds by its key and, when the provider has no
 * such refund, asked again with the same Idempotency-Key and parameters (Mollie makes it once:
 * https://docs.mollie.com/reference/api-idempotency, "inspect the API (using its 'list' endpoints)").
 * What the provider answers settles it as in refundOrder; no answer leaves it for the next round.
 */
export async function settleUnansweredRefunds(
  ctx: RefundContext,
): Promise<{ answered: number; givenBack: number; pending: number }> {
  const counts = { answered: 0, givenBack: 0, pending: 0 };
  for (const request of await unansweredMemberRefunds(ctx.db, ctx.now - REFUND_SETTLE_AFTER_SECONDS)) {
    const order = await findOrder(ctx.db, request.orderId);
    const payment = order ? await latestPaymentOf(ctx.db, order.id) : null;
    if (!order || !payment || !request.idempotencyKey) continue;
    const outcome = await askForRefund(
      ctx,
      payment.providerPaymentId,
      {
        amount: request.amountCents,
        currency: order.currency,
        description: request.description ?? `refund #${order.id}`,
        idempotencyKey: request.idempotencyKey,
        refundKey: request.idempotencyKey,
      },
      true,
    );
    const back = await settleRefundRequest(
      ctx,
      order,
      { key: request.idempotencyKey, credits: request.credits },
      outcome,
    );
    if (back) counts.givenBack++;
    else if (outcome.refund) counts.answered++;
    else counts.pending++;
  }
  return counts;
}

/**
 * Why a refund's batch changed nothing: another take-back of the order came first, the credits were
 * spent meanwhile, or (the credits still there) a refund the provider refused before was given back.
 */
async function refundRefusedWhy(ctx: PaymentContext, order: OrderRow, credits: number): Promise<AppError> {
  const now = await findOrder(ctx.db, order.id);
  if (now && (now.status === "refunded" || now.status === "reversed"))
    return new AppError({ status: 409, code: "already_refunded", key: "payments.errors.already_refunded" });
  const left = (await balanceOf(ctx.db, order.userId))?.unheld ?? 0;
  if (left >= credits)
    return new AppError({ status: 409, code: "not_refundable", key: "payments.errors.not_refundable" });
  return new AppError({ status: 409, code: "credits_spent", key: "payments.errors.credits_spent" });
}

/** Handled provider events are kept this long, well past Mollie's day of retries (docs.mollie.com/reference/webhooks-new). */
const PROVIDER_EVENT_DAYS = 30;

/**
 * The hourly clock work of payments: unanswered refund requests settled with the provider, and
 * handled provider events past their days forgotten.
 */
export async function runRefundClock(
  env: Env,
  now: number,
): Promise<{ answered: number; givenBack: number; pending: number; eventsForgotten: number }> {
  const db = databaseOf(env.DB);
  const eventsForgotten = await forgetProviderEvents(db, now - PROVIDER_EVENT_DAYS * DAY);
  // The offline sandbox keeps no refunds of its own to ask about.
  if (env.PAYMENT_PROVIDER !== "mollie") return { answered: 0, givenBack: 0, pending: 0, eventsForgotten };
  const settled = await settleUnansweredRefunds({ db, provider: paymentProviderFor(env, db, ""), now });
  return { ...settled, eventsForgotten };
}

type RefundOutcome = { refund?: Refund; refused?: PaymentProviderError };

/**
 * Ask the provider for a refund and find out what happened when no answer came. The adapter already
 * repeats the call with the same Idempotency-Key (payments/mollie.ts), so Mollie makes it at most
 * once; a call that still got no answer (a timeout, a 5xx, a 409 for the key still being processed)
 * may yet be made (https://docs.mollie.com/reference/api-idempotency), so the payment's refunds are
 * looked up for this request's key before anything is assumed. Only a refusal (a 4xx other than 409
 * and 429) means nothing happened; otherwise the refund stays pending for the clock work and the
 * webhooks. `lookFirst` looks before the call too (the clock work: a key older than Mollie's hour
 * would make a new refund), and waits while the list is out of reach.
 */
async function askForRefund(
  ctx: { provider: PaymentProvider },
  paymentId: string,
  request: Parameters<PaymentProvider["refund"]>[1],
  lookFirst = false,
): Promise<RefundOutcome> {
  const madeAlready = async () =>
    (await ctx.provider.listRefunds(paymentId)).find((r) => r.refundKey === request.refundKey);
  if (lookFirst) {
    try {
      const found = await madeAlready();
      if (found) return { refund: found };
    } catch {
      return {};
    }
  }
  try {
    return { refund: await ctx.provider.refund(paymentId, request) };
  } catch (error) {
    if (error instanceof PaymentProviderError && error.refused) return { refused: error };
    console.error(
      JSON.stringify({
        event: "refund_unanswered",
        payment: paymentId,
        status: error instanceof PaymentProviderError ? error.status : null,
        message: error instanceof Error ? error.message : String(error),
      }),
    );
  }
  try {
    const found = await madeAlready();
    if (found) return { refund: found };
  } catch {
    // The list is out of reach too: the refund stays pending.
  }
  return {};
}
