/** Discount codes: for now the personal retention code offered instead of deleting an account. */
import { and, eq, like } from "drizzle-orm";
import type { Database } from "./database";
import { discountCodes } from "./schema";

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
