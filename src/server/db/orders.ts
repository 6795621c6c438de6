/**
 * Orders: a member's purchase of a bundle, its credits and what happened to them (credited once,
 * refunded, reversed). The statements that change a balance come with their ledger row and run in
 * one batch; each is conditional on the order's state, so a repeated or concurrent call is a no-op.
 */
import { and, desc, eq, getTableColumns, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "./database";
import { discountUseStatement, holdOrderStatement, takeHoldStatements, type DiscountHold } from "./discounts";
import { ledgerEntryWhere, unheldCredits } from "./ledger";
import { orders, payments, users } from "./schema";

export type OrderRow = typeof orders.$inferSelect;
type NewOrder = Omit<typeof orders.$inferInsert, "id" | "status" | "createdAt" | "updatedAt">;

/** SQL rank of a status: a status may only be replaced by one of a higher rank (see shared/payments.ts). */
export const statusRankSql = (column: unknown) =>
  sql`(CASE ${column} WHEN 'paid' THEN 4 WHEN 'failed' THEN 3 WHEN 'canceled' THEN 3 WHEN 'expired' THEN 3 WHEN 'authorized' THEN 2 WHEN 'pending' THEN 1 ELSE 0 END)`;

export async function insertOrder(db: Database, order: NewOrder, now: number): Promise<OrderRow> {
  return (await db
    .insert(orders)
    .values({ ...order, createdAt: now, updatedAt: now })
    .returning()
    .get())!;
}

/**
 * Insert an order with a once-per-member discount: the order and its discount's hold are one batch,
 * and the order is inserted only if this attempt took the hold, so of any number of racing orders
 * with the same discount one is made (null for the others).
 */
export async function insertOrderHolding(
  db: Database,
  order: NewOrder,
  now: number,
  hold: DiscountHold,
): Promise<OrderRow | null> {
  const token = crypto.randomUUID();
  const row: Record<string, unknown> = {
    status: "open",
    refundedCredits: 0,
    refundedCents: 0,
    ...order,
    createdAt: now,
    updatedAt: now,
  };
  // An insert's select names every column in the schema's order; the id (and what the order does not set) is NULL.
  const values = sql.join(
    Object.keys(getTableColumns(orders)).map((key) => sql`${row[key] ?? null}`),
    sql`, `,
  );
  const [, , inserted] = await db.batch([
    ...takeHoldStatements(db, order.userId, hold, token, now),
    // Selected from the hold this attempt took: no hold, no order.
    db
      .insert(orders)
      .select(sql`SELECT ${values} FROM discount_holds WHERE token = ${token}`)
      .returning(),
    holdOrderStatement(db, order.userId, token),
  ]);
  return inserted[0] ?? null;
}

/** One of the member's own orders; another member's order is simply not found. */
export async function findOwnOrder(db: Database, userId: number, orderId: number): Promise<OrderRow | null> {
  return (
    (await db
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
      .get()) ?? null
  );
}

export async function findOrder(db: Database, orderId: number): Promise<OrderRow | null> {
  return (await db.select().from(orders).where(eq(orders.id, orderId)).get()) ?? null;
}

/** The member's orders, newest first, each with its latest payment. */
export async function listOrders(db: Database, userId: number, limit = 100) {
  const latest = sql`(SELECT MAX(id) FROM payments WHERE order_id = ${orders.id})`;
  const rows = await db
    .select({
      order: orders,
      payment: { providerPaymentId: payments.providerPaymentId, sequenceType: payments.sequenceType },
    })
    .from(orders)
    .leftJoin(payments, sql`${payments.id} = ${latest}`)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit)
    .all();
  return rows;
}

/** The member's latest order that was paid for (what repeat order and refunds start from). */
/**
 * Whether this credited order is the member's first one to be credited: the purchase that made them
 * premium (any purchase does, SPEC §3). Orders credited in the same second are told apart by id.
 */
export async function madeMemberPremium(db: Database, order: OrderRow): Promise<boolean> {
  if (order.creditedAt === null) return false;
  const earlier = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, order.userId),
        ne(orders.id, order.id),
        isNotNull(orders.creditedAt),
        sql`(${orders.creditedAt} < ${order.creditedAt} OR (${orders.creditedAt} = ${order.creditedAt} AND ${orders.id} < ${order.id}))`,
      ),
    )
    .limit(1)
    .get();
  return earlier === undefined;
}

export async function latestPaidOrder(db: Database, userId: number): Promise<OrderRow | null> {
  return (
    (await db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), isNotNull(orders.creditedAt)))
      .orderBy(desc(orders.creditedAt), desc(orders.id))
      .get()) ?? null
  );
}

/** The member's latest order of any status (repeat last order). */
export async function latestOrder(db: Database, userId: number): Promise<OrderRow | null> {
  return (await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.id)).get()) ?? null;
}

/**
 * Statements that credit an order once: the ledger row, the balance and premium (paid_user), and the
 * mark that it was credited, all conditional on the order not being credited yet. Run them in one
 * batch; the first result says whether this call was the one that credited.
 */
export function creditStatements(db: Database, orderId: number, now: number) {
  const uncredited = sql`(SELECT ${orders.credits} FROM ${orders} WHERE ${orders.id} = ${orderId} AND ${orders.creditedAt} IS NULL)`;
  const owner = sql`(SELECT ${orders.userId} FROM ${orders} WHERE ${orders.id} = ${orderId} AND ${orders.creditedAt} IS NULL)`;
  return [
    ledgerEntryWhere(
      db,
      sql`SELECT NULL, user_id, credits, 'purchase', 'order:' || id, ${now} FROM orders WHERE id = ${orderId} AND credited_at IS NULL`,
    ),
    // Second, after the ledger row: callers read the ledger row's result at index 1 of their batch.
    discountUseStatement(db, orderId, now),
    db
      .update(users)
      .set({ credits: sql`${users.credits} + ${uncredited}`, paidUser: true })
      .where(sql`${users.id} = ${owner}`),
    db
      .update(orders)
      .set({ creditedAt: now })
      .where(and(eq(orders.id, orderId), isNull(orders.creditedAt))),
  ] as const;
}

/** Statements that record a payment status on its order (only forward), crediting it when paid (see creditStatements). */
export function orderStatusStatements(db: Database, orderId: number, status: string, now: number) {
  const setStatus = db
    .update(orders)
    .set({ status, updatedAt: now })
    .where(
      and(
        eq(orders.id, orderId),
        sql`${orders.status} NOT IN ('refunded', 'reversed')`,
        sql`${statusRankSql(orders.status)} < ${statusRankSql(sql`${status}`)}`,
      ),
    );
  if (status !== "paid") return [setStatus] as const;
  return [...creditStatements(db, orderId, now), setStatus] as const;
}

/**
 * Take back `credits` of a credited order for a refund or a reversal: the ledger row (only while the
 * order is still paid, no row of this kind exists for it yet, and the credits are still there), then
 * the balance and the order's new status, both only when that ledger row was written. Run in one
 * batch (one transaction): the first result says whether it happened, and when it did not, nothing
 * changed.
 */
export function takeBackStatements(
  db: Database,
  order: Pick<OrderRow, "id" | "userId">,
  take: { credits: number; cents: number; reason: "refund" | "reversal"; now: number },
) {
  const status = take.reason === "refund" ? "refunded" : "reversed";
  const ref = "order:" + order.id;
  const stillPaid = sql`EXISTS (SELECT 1 FROM orders WHERE id = ${order.id} AND status NOT IN ('refunded', 'reversed') AND credited_at IS NOT NULL AND refunded_at IS NULL)`;
  const rowOf = (reason: string) => sql`EXISTS (SELECT 1 FROM credit_ledger WHERE reason = ${reason} AND ref = ${ref})`;
  // The row this batch wrote: one of its kind for the order, written while the order was still paid,
  // and (for a refund) not one a refused refund left behind and gave back.
  const written =
    take.reason === "refund" ? sql`${rowOf("refund")} AND NOT ${rowOf("refund_undone")}` : rowOf(take.reason);
  return [
    ledgerEntryWhere(
      db,
      sql`SELECT NULL, ${order.userId}, ${-take.credits}, ${take.reason}, ${ref}, ${take.now}
          WHERE ${stillPaid} AND NOT ${rowOf(take.reason)} AND ${unheldCredits(order.userId)} >= ${take.credits}`,
    ),
    db
      .update(users)
      .set({ credits: sql`${users.credits} - ${take.credits}` })
      .where(and(eq(users.id, order.userId), written, stillPaid)),
    db
      .update(orders)
      .set({
        status,
        refundedAt: take.now,
        refundedCredits: take.credits,
        refundedCents: take.cents,
        updatedAt: take.now,
      })
      .where(
        and(
          eq(orders.id, order.id),
          written,
          sql`${orders.status} NOT IN ('refunded', 'reversed')`,
          isNotNull(orders.creditedAt),
          isNull(orders.refundedAt),
        ),
      ),
    // Premium is what buying credits gives (SPEC §1): once every order that gave it is refunded in
    // full, the member is premium no more. A part refund or a bank's reversal leaves it as it was.
    db
      .update(users)
      .set({ paidUser: false })
      .where(and(eq(users.id, order.userId), written, sql`NOT ${stillPremiumOrder(order.userId)}`)),
  ] as const;
}

/** Whether a member has an order that still makes them premium: credited, and not refunded in full. */
const stillPremiumOrder = (userId: number) =>
  sql`EXISTS (SELECT 1 FROM orders WHERE user_id = ${userId} AND credited_at IS NOT NULL
      AND (status != 'refunded' OR refunded_cents < amount_cents))`;

/** Give back credits taken for a refund the provider then refused: the reverse rows, once. */
export function undoRefundStatements(
  db: Database,
  order: Pick<OrderRow, "id" | "userId">,
  credits: number,
  now: number,
) {
  return [
    ledgerEntryWhere(
      db,
      sql`SELECT NULL, ${order.userId}, ${credits}, 'refund_undone', ${"order:" + order.id}, ${now} WHERE EXISTS (SELECT 1 FROM orders WHERE id = ${order.id} AND status = 'refunded')`,
    ),
    db
      .update(users)
      .set({ credits: sql`${users.credits} + ${credits}` })
      .where(
        and(
          eq(users.id, order.userId),
          sql`EXISTS (SELECT 1 FROM orders WHERE id = ${order.id} AND status = 'refunded')`,
        ),
      ),
    db
      .update(orders)
      .set({ status: "paid", refundedAt: null, refundedCredits: 0, refundedCents: 0, updatedAt: now })
      .where(and(eq(orders.id, order.id), eq(orders.status, "refunded"))),
    // The order paid again: premium as it gives.
    db
      .update(users)
      .set({ paidUser: true })
      .where(and(eq(users.id, order.userId), stillPremiumOrder(order.userId))),
  ] as const;
}

/** Credits granted by direct debit whose money has not arrived: what the outstanding limit counts. */
export async function outstandingDirectDebitCredits(db: Database, userId: number): Promise<number> {
  const row = await db
    .select({ total: sql<number>`COALESCE(SUM(${orders.credits}), 0)` })
    .from(orders)
    .innerJoin(payments, eq(payments.orderId, orders.id))
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.paymentMethod, "directdebit"),
        isNotNull(orders.creditedAt),
        inArray(payments.status, ["open", "pending", "authorized"]),
        ne(orders.status, "reversed"),
      ),
    )
    .get();
  return row?.total ?? 0;
}

/**
 * Orders whose create went unanswered: still open or pending, not credited, with no payment recorded,
 * made between `from` and `to` (unix seconds). Oldest first; the partial index of migration 0029
 * keeps this to the few orders that are not settled.
 */
export async function unansweredOrders(db: Database, from: number, to: number, limit = 200): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.status, ["open", "pending"]),
        isNull(orders.creditedAt),
        sql`${orders.createdAt} BETWEEN ${from} AND ${to}`,
        sql`NOT EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.orderId} = ${orders.id})`,
      ),
    )
    .orderBy(orders.createdAt)
    .limit(limit)
    .all();
}
