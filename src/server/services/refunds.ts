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
import { memberRefundFailedStatement, memberRefundStatement, recordRefundAnswer } from "../db/payment-adjustments";
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
 * the price. If the provider refuses, the credits are given back. An operator's refund (the console)
 * is this same call, its audit row added to the batch by `record`.
 */
export async function refundOrder(
  ctx: PaymentContext,
  userId: number,
  orderId: number,
  record: BatchRecord = (statements) => statements,
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
  // The credits are taken when the refund is asked for (with the request's own row, the attempt's key in it).
  const [taken] = await ctx.db.batch(
    record([
      ...takeBackStatements(ctx.db, order, { credits: unused, cents, reason: "refund", now: ctx.now }),
      memberRefundStatement(ctx.db, {
        orderId: order.id,
        userId,
        idempotencyKey: key,
        amountCents: cents,
        credits: unused,
        now: ctx.now,
      }),
    ]),
  );
  // Refused (the credits were spent meanwhile, or another take-back came first): the batch changed nothing.
  if (taken.meta.changes === 0) throw await refundRefusedWhy(ctx, order, unused);
  ctx.balanceChanged?.(userId);
  const request = {
    amount: cents,
    currency: order.currency,
    description: `${ctx.site.name} refund #${order.id}`,
    idempotencyKey: key,
    refundKey: key,
  };
  const outcome = await askForRefund(ctx, payment.providerPaymentId, request);
  if (outcome.refund) {
    await recordRefundAnswer(ctx.db, key, outcome.refund, ctx.now);
  } else if (outcome.refused) {
    // Nothing happened at the provider: the credits come back at once.
    await ctx.db.batch([
      memberRefundFailedStatement(ctx.db, key, ctx.now),
      ...undoRefundStatements(ctx.db, order, unused, ctx.now),
    ]);
    ctx.balanceChanged?.(userId);
    throw providerUnavailable(outcome.refused);
  }
  // With no answer at all the request stays open, credits taken: the payment's webhook tells how it ended.
  return (await findOwnOrder(ctx.db, userId, order.id))!;
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

/**
 * Ask the provider for a refund and find out what happened when no answer came: a request that
 * timed out may have been made, so the payment's refunds are looked up for this request's key, and
 * asked again with the same Idempotency-Key (the provider makes it once) before anything is assumed.
 */
async function askForRefund(
  ctx: PaymentContext,
  paymentId: string,
  request: Parameters<PaymentProvider["refund"]>[1],
): Promise<{ refund?: Refund; refused?: unknown }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return { refund: await ctx.provider.refund(paymentId, request) };
    } catch (error) {
      if (!(error instanceof PaymentProviderError) || error.refused) return { refused: error };
      console.error(
        JSON.stringify({ event: "refund_unanswered", payment: paymentId, attempt, message: error.message }),
      );
    }
    try {
      const found = (await ctx.provider.listRefunds(paymentId)).find((r) => r.refundKey === request.refundKey);
      if (found) return { refund: found };
    } catch {
      return {};
    }
  }
  return {};
}
