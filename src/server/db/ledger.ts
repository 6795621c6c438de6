/**
 * The credit ledger: every change of a balance is a row here, written in the same batch as the
 * change, so a member's balance always equals the sum of their rows.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "./database";
import { creditLedger, users } from "./schema";

/** The sum of a member's ledger rows (what their balance must be). */
export async function ledgerSum(db: Database, userId: number): Promise<number> {
  const row = await db.select({ total: sql<number>`COALESCE(SUM(${creditLedger.delta}), 0)` }).from(creditLedger).where(eq(creditLedger.userId, userId)).get();
  return row?.total ?? 0;
}

/** A member's balance and premium flag. */
export async function balanceOf(db: Database, userId: number): Promise<{ credits: number; paid: boolean } | null> {
  const row = await db.select({ credits: users.credits, paid: users.paidUser }).from(users).where(eq(users.id, userId)).get();
  return row ?? null;
}

/**
 * A ledger row made by a SELECT of (NULL, user_id, delta, reason, ref, created_at), so it is written
 * only when the SELECT's condition holds: the statement to batch with the balance change it records.
 */
export function ledgerEntryWhere(db: Database, select: SQL) {
  return db.insert(creditLedger).select(select);
}
