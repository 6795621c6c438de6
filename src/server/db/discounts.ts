/**
 * Discount codes (SPEC §3): codes operators add for everyone or one country, personal codes such as
 * the retention offer, and the record of once-per-member codes a member has used (written when the
 * order is paid, in the crediting batch).
 */
import { and, asc, eq, inArray, isNull, like, or, sql } from "drizzle-orm";
import type { Database } from "./database";
import { discountCodes, discountUses, orders } from "./schema";

export type DiscountCodeRow = typeof discountCodes.$inferSelect;

/** The member's active retention code (STAY-...), if they were given one. */
export async function activeRetentionCode(db: Database, userId: number): Promise<{ code: string; percentage: number } | undefined> {
  return db
    .select({ code: discountCodes.code, percentage: discountCodes.percentage })
    .from(discountCodes)
    .where(and(eq(discountCodes.userId, userId), like(discountCodes.code, "STAY-%"), eq(discountCodes.status, "active")))
    .get();
}

export async function insertRetentionCode(db: Database, code: { code: string; percentage: number; userId: number; expiresAt: number }): Promise<void> {
  await db.insert(discountCodes).values({ ...code, status: "active", validity: "once_per_user" });
}

/** The rows of a code (upper case) the member may see: codes for everyone and their own personal ones. */
export async function codesNamed(db: Database, code: string, userId: number): Promise<DiscountCodeRow[]> {
  return db
    .select()
    .from(discountCodes)
    .where(and(sql`upper(${discountCodes.code}) = ${code}`, or(isNull(discountCodes.userId), eq(discountCodes.userId, userId))))
    .orderBy(asc(discountCodes.id))
    .all();
}

/** Orders that still hold a once-per-member code: not yet final, started after `since`. */
const IN_FLIGHT = ["open", "pending", "authorized"];

/** Whether the member used the code (a paid order), holds it with an order still under way, or neither (null). */
export async function codeTaken(db: Database, userId: number, code: string, inFlightSince: number): Promise<"used" | "held" | null> {
  const [used, pending] = await db.batch([
    db.select({ id: discountUses.id }).from(discountUses).where(and(eq(discountUses.userId, userId), eq(discountUses.code, code))).limit(1),
    db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.discountCode, code), inArray(orders.status, IN_FLIGHT), sql`${orders.createdAt} >= ${inFlightSince}`))
      .limit(1),
  ]);
  return used.length > 0 ? "used" : pending.length > 0 ? "held" : null;
}

/**
 * Part of the crediting batch: mark the order's once-per-member code used. Conditional on the order
 * not being credited yet; the unique index on (member, code) keeps a second paid order from using it
 * again (DO NOTHING: the money is in, the credits are still added; the service logs the overlap).
 */
export function discountUseStatement(db: Database, orderId: number, now: number) {
  return db
    .insert(discountUses)
    .select(
      sql`SELECT NULL, o.user_id, o.discount_code, o.id, ${now} FROM orders o
    WHERE o.id = ${orderId} AND o.credited_at IS NULL AND o.discount_code IS NOT NULL
      AND (o.discount_code_id IS NULL OR EXISTS (SELECT 1 FROM discount_codes d WHERE d.id = o.discount_code_id AND d.validity = 'once_per_user'))`,
    )
    .onConflictDoNothing();
}

/** Operators: add a code. */
export async function insertDiscountCode(db: Database, code: Omit<typeof discountCodes.$inferInsert, "id">): Promise<DiscountCodeRow> {
  return (await db.insert(discountCodes).values(code).returning().get())!;
}

/** Operators: end a code (every row of it for everyone); answers how many rows ended. */
export async function endDiscountCode(db: Database, code: string): Promise<number> {
  const ended = await db.update(discountCodes).set({ status: "inactive" }).where(and(sql`upper(${discountCodes.code}) = ${code}`, isNull(discountCodes.userId), eq(discountCodes.status, "active"))).returning({ id: discountCodes.id });
  return ended.length;
}

/** Operators: the codes for everyone. */
export async function listDiscountCodes(db: Database): Promise<DiscountCodeRow[]> {
  return db.select().from(discountCodes).where(isNull(discountCodes.userId)).orderBy(asc(discountCodes.id)).all();
}
