/** Direct debit: the member's authorised account and the one-time SMS codes that confirm it. */
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "./database";
import { directDebitAccounts, smsCodes } from "./schema";

type DirectDebitAccount = typeof directDebitAccounts.$inferSelect;
type SmsCodeRow = typeof smsCodes.$inferSelect;

export async function findDirectDebitAccount(db: Database, userId: number): Promise<DirectDebitAccount | null> {
  return (await db.select().from(directDebitAccounts).where(eq(directDebitAccounts.userId, userId)).get()) ?? null;
}

/** Store (or replace) the account a member is authorising, waiting for its SMS code; a blocked account stays blocked. */
export async function saveDirectDebitAccount(
  db: Database,
  userId: number,
  fields: Omit<typeof directDebitAccounts.$inferInsert, "userId" | "status" | "createdAt">,
): Promise<void> {
  await db
    .insert(directDebitAccounts)
    .values({ ...fields, userId, status: "pending" })
    .onConflictDoUpdate({
      target: directDebitAccounts.userId,
      set: { ...fields, status: "pending" },
      setWhere: sql`${directDebitAccounts.status} != 'blocked'`,
    })
    .run();
}

export function directDebitStatusStatement(db: Database, userId: number, status: "active" | "blocked") {
  const where =
    status === "active"
      ? and(eq(directDebitAccounts.userId, userId), sql`${directDebitAccounts.status} != 'blocked'`)
      : eq(directDebitAccounts.userId, userId);
  return db.update(directDebitAccounts).set({ status }).where(where);
}

/** Lift the block a chargeback set, once the bank reversed it (the account is usable again). */
export function liftDirectDebitBlockStatement(db: Database, userId: number) {
  return db
    .update(directDebitAccounts)
    .set({ status: "active" })
    .where(and(eq(directDebitAccounts.userId, userId), eq(directDebitAccounts.status, "blocked")));
}

export async function insertSmsCode(
  db: Database,
  code: { userId: number; purpose: string; codeHash: string; expiresAt: number; now: number },
): Promise<void> {
  await db
    .insert(smsCodes)
    .values({
      userId: code.userId,
      purpose: code.purpose,
      codeHash: code.codeHash,
      expiresAt: code.expiresAt,
      createdAt: code.now,
    })
    .run();
}

/** The member's latest code for a purpose that has not expired (used ones included: "Code already used"). */
export async function latestSmsCode(
  db: Database,
  userId: number,
  purpose: string,
  now: number,
): Promise<SmsCodeRow | null> {
  return (
    (await db
      .select()
      .from(smsCodes)
      .where(and(eq(smsCodes.userId, userId), eq(smsCodes.purpose, purpose), gt(smsCodes.expiresAt, now)))
      .orderBy(desc(smsCodes.id))
      .get()) ?? null
  );
}

/** Count a wrong try, while the code is still open and under the limit; whether it was counted. */
export async function countWrongTry(db: Database, id: number, limit: number): Promise<boolean> {
  const result = await db
    .update(smsCodes)
    .set({ attempts: sql`${smsCodes.attempts} + 1` })
    .where(and(eq(smsCodes.id, id), isNull(smsCodes.usedAt), lt(smsCodes.attempts, limit)))
    .run();
  return result.meta.changes > 0;
}

/** Use a code once: only if it is open, unexpired, under the try limit and matches. */
export function spendSmsCodeStatement(
  db: Database,
  code: { id: number; codeHash: string; limit: number; now: number },
) {
  return db
    .update(smsCodes)
    .set({ usedAt: code.now })
    .where(
      and(
        eq(smsCodes.id, code.id),
        eq(smsCodes.codeHash, code.codeHash),
        isNull(smsCodes.usedAt),
        lt(smsCodes.attempts, code.limit),
        gt(smsCodes.expiresAt, code.now),
      ),
    );
}

/** Codes sent to a member since a moment (the SMS rate limit). */
export async function smsCodesSince(db: Database, userId: number, since: number): Promise<number> {
  const row = await db
    .select({ n: sql<number>`COUNT(*)` })
    .from(smsCodes)
    .where(and(eq(smsCodes.userId, userId), gt(smsCodes.createdAt, since)))
    .get();
  return row?.n ?? 0;
}
