/**
 * What member support reads and writes (issue 24 point 4): finding a member by what a member or a
 * payment slip names, everything the console shows of one member, and the statements of the support
 * actions that have no member-side twin (a credit correction, enabling an account again). Writes are
 * statements, so the console runs each with its audit row in one batch.
 */
import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Database } from "./database";
import { ledgerEntryWhere, unheldCredits } from "./ledger";
import { latestPaymentIdOfOrder } from "./order-search";
import { statusBeforeDisabling } from "./reports";
import {
  creditLedger,
  loginAttempts,
  orders,
  outgoingMail,
  paymentAdjustments,
  payments,
  photos,
  profiles,
  reports,
  sessions,
  users,
} from "./schema";

/** A member as a search result lists them. */
export type MemberHit = {
  userId: number;
  profileId: number | null;
  email: string;
  username: string;
  status: string;
  siteDomain: string;
  signupDate: number;
};

const hitColumns = {
  userId: users.id,
  profileId: profiles.id,
  email: users.email,
  username: users.username,
  status: users.status,
  siteDomain: users.siteDomain,
  signupDate: users.signupDate,
};

/**
 * Members a support query names: an e-mail address (exact), a username (exact, or its beginning), a
 * profile or order id, or a payment id at the provider (tr_…, the sandbox's own). At most 50.
 */
export async function findMembers(
  db: Database,
  query: { email?: string; usernamePrefix?: string; profileId?: number; orderId?: number; paymentId?: string },
): Promise<MemberHit[]> {
  const owners = [];
  if (query.email !== undefined) owners.push(eq(users.email, query.email));
  if (query.usernamePrefix !== undefined) {
    // The typed text is matched as it is: LIKE's wildcards in it are escaped.
    const pattern = `${query.usernamePrefix.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
    owners.push(sql`${users.usernameKey} LIKE ${pattern} ESCAPE '\\'`);
  }
  if (query.profileId !== undefined) owners.push(eq(profiles.id, query.profileId));
  if (query.orderId !== undefined)
    owners.push(inArray(users.id, db.select({ id: orders.userId }).from(orders).where(eq(orders.id, query.orderId))));
  if (query.paymentId !== undefined) {
    const paid = db
      .select({ id: orders.userId })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(eq(payments.providerPaymentId, query.paymentId));
    owners.push(inArray(users.id, paid));
  }
  if (owners.length === 0) return [];
  return db
    .select(hitColumns)
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(or(...owners))
    .orderBy(desc(users.id))
    .limit(50)
    .all();
}

/** The member's account and profile as support sees them (no password hash). */
export async function memberAccount(db: Database, userId: number) {
  return db
    .select({
      ...hitColumns,
      credits: users.credits,
      paidUser: users.paidUser,
      language: users.language,
      invisible: users.invisible,
      lastActiveAt: users.lastActiveAt,
      deletionRequestedAt: users.deletionRequestedAt,
      restrictedAt: users.restrictedAt,
      termsVersion: users.termsVersion,
      name: profiles.name,
      country: profiles.country,
      gender: profiles.gender,
      birthDate: profiles.birthDate,
      city: profiles.city,
      aboutMe: profiles.aboutMe,
      profileStatus: profiles.status,
      searchable: profiles.searchable,
      fictional: profiles.fictional,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .get();
}

export type MemberAccount = NonNullable<Awaited<ReturnType<typeof memberAccount>>>;

/** Everything else support sees of a member, newest first, each list bounded. */
export async function memberRecords(db: Database, userId: number, profileId: number | null, email: string) {
  const [photoRows, orderRows, ledgerRows, sessionRows, reportRows, mailRows, lock, adjustments] = await Promise.all([
    profileId === null
      ? []
      : db.select().from(photos).where(eq(photos.profileId, profileId)).orderBy(photos.position).all(),
    db
      .select({ order: orders, paymentId: latestPaymentIdOfOrder })
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(desc(orders.id))
      .limit(100)
      .all(),
    db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(desc(creditLedger.id))
      .limit(200)
      .all(),
    db
      .select({
        publicId: sessions.publicId,
        device: sessions.device,
        createdAt: sessions.createdAt,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
        lastUsedAt: sessions.lastUsedAt,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.createdAt))
      .limit(50)
      .all(),
    db
      .select({
        id: reports.id,
        reporterUserId: reports.reporterUserId,
        subject: reports.subject,
        description: reports.description,
        profileId: reports.profileId,
        messageId: reports.messageId,
        status: reports.status,
        createdAt: reports.createdAt,
        handledAt: reports.handledAt,
      })
      .from(reports)
      .where(or(eq(reports.reporterUserId, userId), profileId === null ? sql`0` : eq(reports.profileId, profileId)))
      .orderBy(desc(reports.id))
      .limit(100)
      .all(),
    db
      .select({
        id: outgoingMail.id,
        kind: outgoingMail.kind,
        subject: outgoingMail.subject,
        createdAt: outgoingMail.createdAt,
        sentAt: outgoingMail.sentAt,
        providerId: outgoingMail.providerId,
      })
      .from(outgoingMail)
      .where(eq(outgoingMail.toAddress, email))
      .orderBy(desc(outgoingMail.id))
      .limit(50)
      .all(),
    db
      .select()
      .from(loginAttempts)
      .where(eq(loginAttempts.key, `user:${userId}`))
      .get(),
    db
      .select()
      .from(paymentAdjustments)
      .where(eq(paymentAdjustments.userId, userId))
      .orderBy(desc(paymentAdjustments.id))
      .limit(100)
      .all(),
  ]);
  return {
    photos: photoRows,
    orders: orderRows,
    ledger: ledgerRows,
    sessions: sessionRows,
    reports: reportRows,
    mails: mailRows,
    loginLock: lock ?? null,
    adjustments,
  };
}

/** Forget the account's failed logins, which lifts its lock (auth/throttle.ts keys it "user:<id>"). */
export function unlockLoginStatement(db: Database, userId: number) {
  return db.delete(loginAttempts).where(eq(loginAttempts.key, `user:${userId}`));
}

/**
 * A credit correction by an operator: the ledger row (its ref names the operator and the correction,
 * so it is written once), then the balance, only when that row was written. A correction that takes
 * credits takes only what no conversation holds, never below zero. Run in one batch: the first
 * result says whether it happened.
 */
export function creditCorrectionStatements(
  db: Database,
  correction: { userId: number; delta: number; ref: string; now: number },
) {
  const { userId, delta, ref, now } = correction;
  const enough =
    delta < 0 ? sql`${unheldCredits(userId)} >= ${-delta}` : sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId})`;
  return [
    ledgerEntryWhere(
      db,
      sql`SELECT NULL, ${userId}, ${delta}, 'correction', ${ref}, ${now} WHERE ${enough} AND NOT EXISTS (SELECT 1 FROM credit_ledger WHERE reason = 'correction' AND ref = ${ref})`,
    ),
    db
      .update(users)
      .set({ credits: sql`${users.credits} + ${delta}` })
      .where(
        and(
          eq(users.id, userId),
          sql`EXISTS (SELECT 1 FROM credit_ledger WHERE reason = 'correction' AND ref = ${ref})`,
        ),
      ),
  ] as const;
}

/**
 * Enable a disabled account again: the account is active, its profile active and searchable again
 * unless the member chose to be invisible. Only a disabled account changes (the first statement is
 * the guard); the profile follows only an account that is active.
 */
export function enableAccountStatements(db: Database, userId: number) {
  return [
    db
      .update(users)
      .set(statusBeforeDisabling)
      .where(and(eq(users.id, userId), eq(users.status, "disabled"))),
    db
      .update(profiles)
      .set({
        status: "active",
        searchable: sql`CASE WHEN (SELECT invisible FROM users WHERE id = ${userId}) THEN 0 ELSE 1 END`,
      })
      .where(
        and(
          eq(profiles.userId, userId),
          eq(profiles.status, "disabled"),
          sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND status IN ('active', 'not_confirmed'))`,
        ),
      ),
  ] as const;
}
