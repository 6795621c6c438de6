/**
 * Money that went back after an order was paid (refunds and chargebacks) and the credits that go with
 * it. Each adjustment takes its credits once and gives them back once: the ledger row, the balance
 * and the mark (`taken_at`, `given_back_at`) are one batch, each statement conditional on the mark,
 * so any number of repeated or concurrent webhooks changes the balance once.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "./database";
import { ledgerEntryWhere, unheldCredits } from "./ledger";
import { orders, paymentAdjustments, users } from "./schema";

export type AdjustmentRow = typeof paymentAdjustments.$inferSelect;
export type AdjustmentKind = "refund" | "chargeback";

/** Ledger reasons: taking and giving back per kind. */
const REASONS: Record<AdjustmentKind, { take: string; giveBack: string }> = {
  refund: { take: "refund", giveBack: "refund_undone" },
  chargeback: { take: "reversal", giveBack: "reversal_undone" },
};

const ledgerRef = (kind: AdjustmentKind, providerId: string) => `${kind}:${providerId}`;

export async function adjustmentsOf(db: Database, orderId: number): Promise<AdjustmentRow[]> {
  return db.select().from(paymentAdjustments).where(eq(paymentAdjustments.orderId, orderId)).all();
}

/**
 * Who asked for a refund made through the app: the member (member), or an operator for them from the
 * console (support). Both take the credits through the order and are settled the same way; refunds
 * and chargebacks made at the provider's dashboard or by the bank are `provider`.
 */
export const ASKED_IN_APP = ["member", "support"] as const;
export type RefundOrigin = (typeof ASKED_IN_APP)[number];
const ASKED_IN_APP_SQL = sql.raw(`(${ASKED_IN_APP.map((origin) => `'${origin}'`).join(", ")})`);

/** Whether an adjustment is a refund asked through the app (by the member or by support). */
export function askedInApp(origin: string): boolean {
  return (ASKED_IN_APP as readonly string[]).includes(origin);
}

/**
 * The row of a member's refund request, in the batch that takes its credits (takeBackStatements):
 * written only when that batch took them, and only one open request per order.
 */
export function memberRefundStatement(
  db: Database,
  row: {
    /** member: asked by the member in the app; support: asked for them by an operator in the console. */
    origin: RefundOrigin;
    orderId: number;
    userId: number;
    idempotencyKey: string;
    amountCents: number;
    credits: number;
    description: string;
    now: number;
  },
) {
  // Columns in table order: id, order_id, user_id, kind, origin, provider_id, idempotency_key, status, amount_cents, credits, taken_at, given_back_at, created_at, updated_at, description.
  return db.insert(paymentAdjustments)
    .select(sql`SELECT NULL, ${row.orderId}, ${row.userId}, 'refund', ${row.origin}, NULL, ${row.idempotencyKey}, 'requested', ${row.amountCents}, ${row.credits}, ${row.now}, NULL, ${row.now}, ${row.now}, ${row.description}
    WHERE EXISTS (SELECT 1 FROM orders WHERE id = ${row.orderId} AND status = 'refunded' AND refunded_at = ${row.now})
      AND NOT EXISTS (SELECT 1 FROM payment_adjustments WHERE order_id = ${row.orderId} AND origin IN ${ASKED_IN_APP_SQL} AND given_back_at IS NULL)`);
}

/**
 * A member's refund requests that have had no answer since `before` (a lost answer, a 409 for a key
 * still being processed): the clock work settles them with the provider (services/refunds.ts).
 */
export async function unansweredMemberRefunds(db: Database, before: number, limit = 50): Promise<AdjustmentRow[]> {
  return db
    .select()
    .from(paymentAdjustments)
    .where(
      and(
        inArray(paymentAdjustments.origin, [...ASKED_IN_APP]),
        isNull(paymentAdjustments.providerId),
        isNull(paymentAdjustments.givenBackAt),
        sql`${paymentAdjustments.createdAt} <= ${before}`,
      ),
    )
    .orderBy(paymentAdjustments.createdAt)
    .limit(limit)
    .all();
}

/** The adjustment the provider knows by this id (re_…, chb_…), or null. */
export async function adjustmentByProviderId(db: Database, providerId: string): Promise<AdjustmentRow | null> {
  return (
    (await db.select().from(paymentAdjustments).where(eq(paymentAdjustments.providerId, providerId)).get()) ?? null
  );
}

/** A member's refund the provider refused, or that failed or was canceled: marked, so its credits are given back once (with undoRefundStatements). */
export function memberRefundFailedStatement(
  db: Database,
  idempotencyKey: string,
  status: "failed" | "canceled" | (string & {}),
  now: number,
) {
  return db
    .update(paymentAdjustments)
    .set({ status, givenBackAt: now, updatedAt: now })
    .where(and(eq(paymentAdjustments.idempotencyKey, idempotencyKey), isNull(paymentAdjustments.givenBackAt)));
}

/** What the provider answered about a member's refund request: its id and status. */
export async function recordRefundAnswer(
  db: Database,
  idempotencyKey: string,
  refund: { id: string; status: string },
  now: number,
): Promise<void> {
  await db
    .update(paymentAdjustments)
    .set({ providerId: refund.id, status: refund.status, updatedAt: now })
    .where(and(eq(paymentAdjustments.idempotencyKey, idempotencyKey), isNull(paymentAdjustments.givenBackAt)))
    .run();
}

/** A new status of a known adjustment (a refund moving on, a chargeback reversed). */
export function adjustmentStatusStatement(db: Database, id: number, status: string, now: number) {
  return db.update(paymentAdjustments).set({ status, updatedAt: now }).where(eq(paymentAdjustments.id, id));
}

/**
 * A refund or chargeback made outside the app, recorded once and its credits taken once: `credits`
 * (the caller's proportional share, never more than the member holds unheld) come off the balance
 * with a ledger row. When the balance no longer holds them, nothing is taken and a later webhook
 * tries again.
 */
export function takeStatements(
  db: Database,
  take: {
    orderId: number;
    userId: number;
    kind: AdjustmentKind;
    providerId: string;
    status: string;
    amountCents: number;
    credits: number;
    now: number;
  },
) {
  const ref = ledgerRef(take.kind, take.providerId);
  const row = and(eq(paymentAdjustments.kind, take.kind), eq(paymentAdjustments.providerId, take.providerId));
  const untaken = sql`EXISTS (SELECT 1 FROM payment_adjustments WHERE kind = ${take.kind} AND provider_id = ${take.providerId} AND taken_at IS NULL AND given_back_at IS NULL)`;
  const written = sql`EXISTS (SELECT 1 FROM credit_ledger WHERE reason = ${REASONS[take.kind].take} AND ref = ${ref})`;
  return [
    db
      .insert(paymentAdjustments)
      .values({
        orderId: take.orderId,
        userId: take.userId,
        kind: take.kind,
        origin: "provider",
        providerId: take.providerId,
        status: take.status,
        amountCents: take.amountCents,
        credits: 0,
        createdAt: take.now,
        updatedAt: take.now,
      })
      .onConflictDoNothing(),
    ledgerEntryWhere(
      db,
      sql`SELECT NULL, ${take.userId}, ${-take.credits}, ${REASONS[take.kind].take}, ${ref}, ${take.now}
          WHERE ${take.credits} > 0 AND ${untaken} AND NOT ${written} AND ${unheldCredits(take.userId)} >= ${take.credits}`,
    ),
    db
      .update(users)
      .set({ credits: sql`${users.credits} - ${take.credits}` })
      .where(and(eq(users.id, take.userId), untaken, written)),
    db
      .update(paymentAdjustments)
      .set({ credits: take.credits, takenAt: take.now, updatedAt: take.now })
      .where(and(row, isNull(paymentAdjustments.takenAt), written)),
  ] as const;
}

/**
 * Give back the credits an adjustment took (a refund that failed, a chargeback reversed), once. A
 * member's own refund took its credits through the order (ref order:<id>), so it gives them back
 * the same way (undoRefundStatements) and only its mark is set here.
 */
export function giveBackStatements(
  db: Database,
  adjustment: Pick<AdjustmentRow, "id" | "kind" | "providerId" | "userId" | "origin">,
  status: string,
  now: number,
) {
  const kind = adjustment.kind as AdjustmentKind;
  const open = sql`EXISTS (SELECT 1 FROM payment_adjustments WHERE id = ${adjustment.id} AND taken_at IS NOT NULL AND given_back_at IS NULL)`;
  const mark = db
    .update(paymentAdjustments)
    .set({ status, givenBackAt: now, updatedAt: now })
    .where(and(eq(paymentAdjustments.id, adjustment.id), isNull(paymentAdjustments.givenBackAt)));
  if (askedInApp(adjustment.origin) || adjustment.providerId === null) return [mark] as const;
  const credits = sql`(SELECT credits FROM payment_adjustments WHERE id = ${adjustment.id})`;
  return [
    ledgerEntryWhere(
      db,
      sql`SELECT NULL, user_id, credits, ${REASONS[kind].giveBack}, ${ledgerRef(kind, adjustment.providerId)}, ${now} FROM payment_adjustments WHERE id = ${adjustment.id} AND credits > 0 AND ${open}`,
    ),
    db
      .update(users)
      .set({ credits: sql`${users.credits} + ${credits}` })
      .where(and(eq(users.id, adjustment.userId), open)),
    mark,
  ] as const;
}

/** An order the bank took (part of) the money back for: shown as reversed while a chargeback stands. */
export function orderChargedBackStatement(db: Database, orderId: number, now: number) {
  return db
    .update(orders)
    .set({ status: "reversed", updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, "paid")));
}

/** After the last standing chargeback of an order was reversed, the order is paid again. */
export function orderChargebacksReversedStatement(db: Database, orderId: number, now: number) {
  return db
    .update(orders)
    .set({ status: "paid", updatedAt: now })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.status, "reversed"),
        isNull(orders.refundedAt),
        sql`NOT EXISTS (SELECT 1 FROM payment_adjustments WHERE order_id = ${orderId} AND kind = 'chargeback' AND given_back_at IS NULL)`,
      ),
    );
}
