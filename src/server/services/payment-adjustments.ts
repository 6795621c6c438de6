/**
 * Refunds and chargebacks as the payment's webhook learns of them (https://docs.mollie.com/overview/webhooks:
 * Mollie calls a payment's webhook when a refund reaches processing, refunded or failed and when a
 * chargeback is received) and as Mollie's next-gen webhook events tell the rest, a refund canceled
 * and a chargeback reversed (services/payment-events.ts, docs/decisions/0054). The provider's lists
 * are read back and compared with ours: a refund or chargeback made outside the app takes its share
 * of the order's credits, a refund that failed gives its credits back, a reversed chargeback gives
 * back and lifts the direct-debit block. Each change is once (db/payment-adjustments.ts).
 */
import { recallChatHolds } from "./premium";
import { balanceOf } from "../db/ledger";
import { directDebitStatusStatement, liftDirectDebitBlockStatement } from "../db/direct-debit";
import { undoRefundStatements, type OrderRow } from "../db/orders";
import {
  adjustmentsOf,
  askedInApp,
  adjustmentStatusStatement,
  giveBackStatements,
  orderChargebacksReversedStatement,
  orderChargedBackStatement,
  recordRefundAnswer,
  takeStatements,
  type AdjustmentRow,
} from "../db/payment-adjustments";
import type { Database } from "../db/database";
import type { PaymentProvider } from "../payments/provider";

/** What reconciling needs of a payment context (services/payments.ts PaymentContext). */
type PaymentContext = { db: Database; env: Pick<Env, "DB" | "CONVERSATIONS">; provider: PaymentProvider; now: number };

const ENDED = new Set(["failed", "canceled"]);

/** An order's credits in proportion to an amount of its price, never more than the member holds unheld. */
async function shareOf(ctx: PaymentContext, order: OrderRow, amount: number): Promise<number> {
  await recallChatHolds(ctx.env, order.userId);
  const unheld = (await balanceOf(ctx.db, order.userId))?.unheld ?? 0;
  const share =
    order.amountCents > 0 ? Math.round((order.credits * Math.min(amount, order.amountCents)) / order.amountCents) : 0;
  return Math.max(0, Math.min(unheld, share));
}

/** Bring the order's refunds in line with the provider's; true when anything changed. */
export async function reconcileRefunds(ctx: PaymentContext, order: OrderRow, paymentId: string): Promise<boolean> {
  const [refunds, known] = await Promise.all([ctx.provider.listRefunds(paymentId), adjustmentsOf(ctx.db, order.id)]);
  let changed = false;
  for (const refund of refunds) {
    const ours = known.find(
      (a) =>
        a.kind === "refund" &&
        (a.providerId === refund.id || (refund.refundKey !== null && a.idempotencyKey === refund.refundKey)),
    );
    if (ours) {
      if (ours.providerId === null && ours.idempotencyKey)
        await recordRefundAnswer(ctx.db, ours.idempotencyKey, refund, ctx.now);
      if (ENDED.has(refund.status) && ours.givenBackAt === null) {
        changed = (await giveBack(ctx, order, ours, refund.status)) || changed;
      } else if (refund.status !== ours.status && ours.givenBackAt === null) {
        await ctx.db.batch([adjustmentStatusStatement(ctx.db, ours.id, refund.status, ctx.now)]);
      }
      continue;
    }
    // Made in the provider's dashboard (the app's own carry their refund_key): its share of the credits goes with it.
    if (ENDED.has(refund.status) || refund.refundKey !== null) continue;
    const credits = await shareOf(ctx, order, refund.amount);
    const [, taken] = await ctx.db.batch([
      ...takeStatements(ctx.db, {
        orderId: order.id,
        userId: order.userId,
        kind: "refund",
        providerId: refund.id,
        status: refund.status,
        amountCents: refund.amount,
        credits,
        now: ctx.now,
      }),
    ]);
    if (taken.meta.changes > 0) {
      changed = true;
      console.info(
        JSON.stringify({ event: "refund_outside_app", order: order.id, refund: refund.id, credits_taken: credits }),
      );
    }
  }
  return changed;
}

async function giveBack(
  ctx: PaymentContext,
  order: OrderRow,
  adjustment: AdjustmentRow,
  status: string,
): Promise<boolean> {
  // A member's refund took its credits through the order; they come back the same way.
  const orderBack = askedInApp(adjustment.origin)
    ? undoRefundStatements(ctx.db, order, adjustment.credits, ctx.now)
    : [];
  const results = await ctx.db.batch([...giveBackStatements(ctx.db, adjustment, status, ctx.now), ...orderBack]);
  const changed = results.some((r) => r.meta.changes > 0);
  // Logged by the one delivery that gave the credits back, not by its repeats.
  if (changed)
    console.info(
      JSON.stringify({
        event: "refund_failed",
        order: order.id,
        refund: adjustment.providerId,
        status,
        credits: adjustment.credits,
      }),
    );
  return changed;
}

/** Bring the order's chargebacks in line with the provider's; true when anything changed. */
export async function reconcileChargebacks(ctx: PaymentContext, order: OrderRow, paymentId: string): Promise<boolean> {
  const [chargebacks, known] = await Promise.all([
    ctx.provider.listChargebacks(paymentId),
    adjustmentsOf(ctx.db, order.id),
  ]);
  let changed = false;
  for (const chargeback of chargebacks) {
    const ours = known.find((a) => a.kind === "chargeback" && a.providerId === chargeback.id);
    if (!chargeback.reversed) {
      if (ours !== undefined && ours.takenAt !== null) continue;
      // A partial chargeback takes back in proportion; the member's direct debit is blocked (SPEC §8).
      const credits = await shareOf(ctx, order, chargeback.amount);
      const [, taken] = await ctx.db.batch([
        ...takeStatements(ctx.db, {
          orderId: order.id,
          userId: order.userId,
          kind: "chargeback",
          providerId: chargeback.id,
          status: "received",
          amountCents: chargeback.amount,
          credits,
          now: ctx.now,
        }),
        orderChargedBackStatement(ctx.db, order.id, ctx.now),
        directDebitStatusStatement(ctx.db, order.userId, "blocked"),
      ]);
      changed = changed || taken.meta.changes > 0;
      console.info(
        JSON.stringify({ event: "chargeback", order: order.id, chargeback: chargeback.id, credits_taken: credits }),
      );
      continue;
    }
    if (!ours || ours.givenBackAt !== null) continue;
    // Reversed: the credits come back, and with no chargeback left standing the block is lifted.
    const stillStanding = known.some(
      (a) =>
        a.kind === "chargeback" &&
        a.id !== ours.id &&
        a.givenBackAt === null &&
        !chargebacks.find((c) => c.id === a.providerId)?.reversed,
    );
    const results = await ctx.db.batch([
      ...giveBackStatements(ctx.db, ours, "reversed", ctx.now),
      orderChargebacksReversedStatement(ctx.db, order.id, ctx.now),
      ...(stillStanding ? [] : [liftDirectDebitBlockStatement(ctx.db, order.userId)]),
    ]);
    changed = changed || results[0].meta.changes > 0;
    console.info(JSON.stringify({ event: "chargeback_reversed", order: order.id, chargeback: chargeback.id }));
  }
  return changed;
}
