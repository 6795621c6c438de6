/**
 * Discount codes (SPEC §3): codes operators add for everyone or one country, personal codes such as
 * the retention offer, the holds of once-per-member codes by orders being paid (taken in the batch
 * that inserts the order), and the record of the ones a member has used (written in the crediting batch).
 */
import { and, asc, eq, isNull, like, or, sql } from "drizzle-orm";
import type { Database } from "./database";
import { discountCodes, discountHolds, discountUses } from "./schema";

export type DiscountCodeRow = typeof discountCodes.$inferSelect;

/** The member's active retention code (STAY-...), if they were given one. */
export async function activeRetentionCode(
  db: Database,
  userId: number,
): Promise<{ code: string; percentage: number } | undefined> {
  return db
    .select({ code: discountCodes.code, percentage: discountCodes.percentage })
    .from(discountCodes)
    .where(
      and(eq(discountCodes.userId, userId), like(discountCodes.code, "STAY-%"), eq(discountCodes.status, "active")),
    )
    .get();
}

export async function insertRetentionCode(
  db: Database,
  code: { code: string; percentage: number; userId: number; expiresAt: number },
): Promise<void> {
  await db.insert(discountCodes).values({ ...code, status: "active", validity: "once_per_user" });
}

/** The rows of a code (upper case) the member may see: codes for everyone and their own personal ones. */
export async function codesNamed(db: Database, code: string, userId: number): Promise<DiscountCodeRow[]> {
  return db
    .select()
    .from(discountCodes)
    .where(
      and(
        sql`upper(${discountCodes.code}) = ${code}`,
        or(isNull(discountCodes.userId), eq(discountCodes.userId, userId)),
      ),
    )
    .orderBy(asc(discountCodes.id))
    .all();
}

/** A hold lapses at its end, or as soon as its order failed, was canceled or expired. */
const lapsed = (now: number) =>
  sql`(${discountHolds.heldUntil} <= ${now} OR ${discountHolds.orderId} IN (SELECT id FROM orders WHERE status IN ('failed', 'canceled', 'expired')))`;

/** Whether the member used a once-per-member discount (a paid order), holds it with an order still being paid, or neither (null). */
export async function discountTaken(
  db: Database,
  userId: number,
  key: string,
  now: number,
): Promise<"used" | "held" | null> {
  const [used, held] = await db.batch([
    db
      .select({ id: discountUses.id })
      .from(discountUses)
      .where(and(eq(discountUses.userId, userId), eq(discountUses.code, key)))
      .limit(1),
    db
      .select({ id: discountHolds.id })
      .from(discountHolds)
      .where(and(eq(discountHolds.userId, userId), eq(discountHolds.onceKey, key), sql`NOT ${lapsed(now)}`))
      .limit(1),
  ]);
  return used.length > 0 ? "used" : held.length > 0 ? "held" : null;
}

/** A once-per-member discount an order is about to take: its key, until when it is held, and whether only a member who never paid may take it. */
export type DiscountHold = { key: string; until: number; firstPurchaseOnly: boolean };

/**
 * The statements of an order's batch that take its discount's hold: a lapsed hold of the member on
 * the key is let go, then the new one is taken unless the discount was used (or, for a first-purchase
 * offer, the member has paid), or another order holds it (the unique index on member and key; DO
 * NOTHING). The order's insert follows, selected from the hold with `token`, and then `holdOrderStatement`.
 */
export function takeHoldStatements(db: Database, userId: number, hold: DiscountHold, token: string, now: number) {
  const neverPaid = hold.firstPurchaseOnly ? sql`AND (SELECT paid_user FROM users WHERE id = ${userId}) = 0` : sql``;
  return [
    db
      .delete(discountHolds)
      .where(and(eq(discountHolds.userId, userId), eq(discountHolds.onceKey, hold.key), lapsed(now))),
    db
      .insert(discountHolds)
      .select(
        sql`SELECT NULL, ${userId}, ${hold.key}, ${token}, NULL, ${hold.until}
            WHERE NOT EXISTS (SELECT 1 FROM discount_uses WHERE user_id = ${userId} AND code = ${hold.key}) ${neverPaid}`,
      )
      .onConflictDoNothing(),
  ] as const;
}

/** The last statement of the batch: the hold names the order it was taken for (the member's newest). */
export function holdOrderStatement(db: Database, userId: number, token: string) {
  return db
    .update(discountHolds)
    .set({ orderId: sql`(SELECT MAX(id) FROM orders WHERE user_id = ${userId})` })
    .where(eq(discountHolds.token, token));
}

/**
 * Part of the crediting batch: mark the order's once-per-member discount used. Conditional on the
 * order not being credited yet; the unique index on (member, key) keeps a second paid order from
 * using it again (DO NOTHING: the money is in, the credits are still added).
 */
export function discountUseStatement(db: Database, orderId: number, now: number) {
  return db
    .insert(discountUses)
    .select(
      sql`SELECT NULL, o.user_id, o.discount_key, o.id, ${now} FROM orders o WHERE o.id = ${orderId} AND o.credited_at IS NULL AND o.discount_key IS NOT NULL`,
    )
    .onConflictDoNothing();
}

/** Operators: add a code (the statement; it answers the new row). */
export function insertDiscountCode(db: Database, code: Omit<typeof discountCodes.$inferInsert, "id">) {
  return db.insert(discountCodes).values(code).returning();
}

/** Operators: end a code, every row of it for everyone (the statement; it answers the ids ended). */
export function endDiscountCode(db: Database, code: string) {
  return db
    .update(discountCodes)
    .set({ status: "inactive" })
    .where(
      and(
        sql`upper(${discountCodes.code}) = ${code}`,
        isNull(discountCodes.userId),
        eq(discountCodes.status, "active"),
      ),
    )
    .returning({ id: discountCodes.id });
}

/** Operators: the codes for everyone. */
export async function listDiscountCodes(db: Database): Promise<DiscountCodeRow[]> {
  return db.select().from(discountCodes).where(isNull(discountCodes.userId)).orderBy(asc(discountCodes.id)).all();
}
