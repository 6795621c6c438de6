/**
 * The credit ledger: every change of a balance is a row here, written in the same batch as the
 * change, so a member's balance always equals the sum of their rows.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "./database";
import { creditLedger, users } from "./schema";

/** The sum of a member's ledger rows (what their balance must be). */
export async function ledgerSum(db: Database, userId: number): Promise<number> {
  const row = await db
    .select({ total: sql<number>`COALESCE(SUM(${creditLedger.delta}), 0)` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .get();
  return row?.total ?? 0;
}

/**
 * A member's credits that no conversation holds for their next messages (docs/decisions/0021): what
 * any other spending (another conversation, a refund) may take.
 */
export const unheldCredits = (userId: number | SQL) =>
  sql`((SELECT credits FROM users WHERE id = ${userId}) - (SELECT COALESCE(SUM(credits), 0) FROM chat_credit_holds WHERE user_id = ${userId}))`;

/** A member's balance (held credits included: they are still theirs), what of it no conversation holds, and their premium flag. */
export async function balanceOf(
  db: Database,
  userId: number,
): Promise<{ credits: number; unheld: number; paid: boolean } | null> {
  const row = await db
    .select({ credits: users.credits, unheld: sql<number>`${unheldCredits(userId)}`, paid: users.paidUser })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  return row ?? null;
}

/**
 * A ledger row made by a SELECT of (NULL, user_id, delta, reason, ref, created_at), so it is written
 * only when the SELECT's condition holds: the statement to batch with the balance change it records.
 * The row's last columns (a rolled-up chat row's count and watermark, migration 0021) stay null.
 */
export function ledgerEntryWhere(db: Database, select: SQL) {
  return db.insert(creditLedger).select(sql`SELECT *, NULL, NULL FROM (${select})`);
}
