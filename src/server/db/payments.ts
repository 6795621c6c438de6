/**
 * Payments at the provider as the app records them (unique per provider id; a status only moves
 * forward), the member's customer and mandate there, and the offline sandbox provider's own records.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "./database";
import { statusRankSql } from "./orders";
import { orders, paymentCustomers, payments, sandboxPayments } from "./schema";

type PaymentRow = typeof payments.$inferSelect;
export type SandboxPaymentRow = typeof sandboxPayments.$inferSelect;

export async function insertPayment(
  db: Database,
  payment: Omit<typeof payments.$inferInsert, "id" | "createdAt" | "updatedAt">,
  now: number,
): Promise<PaymentRow> {
  return (
    (await db
      .insert(payments)
      .values({ ...payment, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning()
      .get()) ?? (await findPayment(db, payment.provider, payment.providerPaymentId))!
  );
}

export async function findPayment(
  db: Database,
  provider: string,
  providerPaymentId: string,
): Promise<PaymentRow | null> {
  return (
    (await db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, providerPaymentId)))
      .get()) ?? null
  );
}

/** The latest payment of an order. */
export async function latestPaymentOf(db: Database, orderId: number): Promise<PaymentRow | null> {
  return (
    (await db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(desc(payments.id)).get()) ?? null
  );
}

/** The statement that moves a payment to `status` if that is forward; its row count says whether it moved. */
export function paymentStatusStatement(db: Database, paymentId: number, status: string, now: number) {
  return db
    .update(payments)
    .set({ status, updatedAt: now })
    .where(and(eq(payments.id, paymentId), sql`${statusRankSql(payments.status)} < ${statusRankSql(sql`${status}`)}`));
}

/** A status word the app does not know, kept on the payment for whoever looks (the order is not changed). */
export function providerStatusStatement(db: Database, paymentId: number, status: string, now: number) {
  return db
    .update(payments)
    .set({ providerStatus: status.slice(0, 32), updatedAt: now })
    .where(eq(payments.id, paymentId));
}

/** The method a payment was actually made with, on the payment and on its order: only where it is news. */
export function paidMethodStatements(
  db: Database,
  known: { orderId: number; orderMethod: string | null; paymentId: number; paymentMethod: string | null },
  method: string,
) {
  return [
    ...(known.paymentMethod === method
      ? []
      : [db.update(payments).set({ method }).where(eq(payments.id, known.paymentId))]),
    ...(known.orderMethod === method
      ? []
      : [db.update(orders).set({ paidMethod: method }).where(eq(orders.id, known.orderId))]),
  ];
}

/** The member's customer in one scope (a provider and its mode: mollie:test, mollie:live, sandbox). */
export async function findCustomer(db: Database, userId: number, provider: string) {
  return (
    (await db
      .select()
      .from(paymentCustomers)
      .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, provider)))
      .get()) ?? null
  );
}

export async function saveCustomer(db: Database, userId: number, provider: string, customerId: string): Promise<void> {
  await db.insert(paymentCustomers).values({ userId, provider, customerId }).onConflictDoNothing().run();
}

export async function saveMandate(
  db: Database,
  userId: number,
  provider: string,
  mandateId: string | null,
  method: string | null,
): Promise<void> {
  await db
    .update(paymentCustomers)
    .set({ mandateId, mandateMethod: method })
    .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, provider)))
    .run();
}

export async function insertSandboxPayment(
  db: Database,
  row: typeof sandboxPayments.$inferInsert,
): Promise<SandboxPaymentRow> {
  return (await db.insert(sandboxPayments).values(row).returning().get())!;
}

export async function findSandboxPayment(db: Database, id: string): Promise<SandboxPaymentRow | null> {
  return (await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id)).get()) ?? null;
}

/** What the tester chose on the sandbox checkout page; like the provider, a final status stays final (paid may still follow). */
export async function setSandboxStatus(db: Database, id: string, status: string): Promise<boolean> {
  const result = await db
    .update(sandboxPayments)
    .set({ status })
    .where(
      and(
        eq(sandboxPayments.id, id),
        sql`${statusRankSql(sandboxPayments.status)} <= ${statusRankSql(sql`${status}`)}`,
      ),
    )
    .run();
  return result.meta.changes > 0;
}

export async function addSandboxRefund(db: Database, id: string, cents: number): Promise<boolean> {
  const result = await db
    .update(sandboxPayments)
    .set({ refundedCents: sql`${sandboxPayments.refundedCents} + ${cents}` })
    .where(
      and(
        eq(sandboxPayments.id, id),
        eq(sandboxPayments.status, "paid"),
        sql`${sandboxPayments.refundedCents} + ${cents} <= ${sandboxPayments.amountCents}`,
      ),
    )
    .run();
  return result.meta.changes > 0;
}

/**
 * The sandbox mandate of a customer: the one its paid first payment left (mdt_<payment>); bank
 * buttons leave a direct-debit mandate, cards and PayPal their own (as at Mollie).
 */
export async function sandboxMandate(db: Database, customerId: string): Promise<{ id: string; method: string } | null> {
  const row = await db
    .select({ id: sandboxPayments.id, method: sandboxPayments.method })
    .from(sandboxPayments)
    .where(
      and(
        eq(sandboxPayments.customerId, customerId),
        eq(sandboxPayments.sequenceType, "first"),
        eq(sandboxPayments.status, "paid"),
      ),
    )
    .orderBy(desc(sandboxPayments.createdAt))
    .get();
  if (!row) return null;
  const method = row.method === "creditcard" || row.method === "paypal" ? row.method : "directdebit";
  return { id: `mdt_${row.id.slice(3)}`, method };
}
