/**
 * Orders as the console's money screen finds them (issue 24 point 5): by site, status, payment method
 * and the day they were placed, newest first, with the latest payment's id and the refunds and
 * chargebacks of each.
 */
import { and, desc, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import type { Database } from "./database";
import { orders, paymentAdjustments } from "./schema";

/**
 * The provider's id of an order's latest payment, for a select over orders. Written with the tables
 * named, as the builder leaves columns of a select's own fields unqualified and the subquery would
 * read `id` as the payment's.
 */
export const latestPaymentIdOfOrder = sql<
  string | null
>`(SELECT p.provider_payment_id FROM payments AS p WHERE p.order_id = "orders"."id" ORDER BY p.id DESC LIMIT 1)`;

export type OrderFilter = { site?: string; status?: string; method?: string; from?: number; to?: number };

/** At most `limit` orders matching the filter, newest first. */
export function findOrders(db: Database, filter: OrderFilter, limit = 200) {
  return db
    .select({ order: orders, paymentId: latestPaymentIdOfOrder })
    .from(orders)
    .where(
      and(
        filter.site === undefined ? undefined : eq(orders.siteDomain, filter.site),
        filter.status === undefined ? undefined : eq(orders.status, filter.status),
        filter.method === undefined
          ? undefined
          : or(eq(orders.paymentMethod, filter.method), eq(orders.paidMethod, filter.method)),
        filter.from === undefined ? undefined : gte(orders.createdAt, filter.from),
        filter.to === undefined ? undefined : lt(orders.createdAt, filter.to),
      ),
    )
    .orderBy(desc(orders.id))
    .limit(limit)
    .all();
}

/** D1 binds at most 100 parameters to one query. */
const IDS_PER_QUERY = 90;

/** The refunds and chargebacks of these orders. */
export async function adjustmentsOfOrders(db: Database, orderIds: number[]) {
  const chunks = [];
  for (let i = 0; i < orderIds.length; i += IDS_PER_QUERY) chunks.push(orderIds.slice(i, i + IDS_PER_QUERY));
  const found = await Promise.all(
    chunks.map((ids) =>
      db
        .select()
        .from(paymentAdjustments)
        .where(inArray(paymentAdjustments.orderId, ids))
        .orderBy(paymentAdjustments.id)
        .all(),
    ),
  );
  return found.flat();
}
