/**
 * The console's figures (issue 24 point 6): counts per site and UTC day over the tables that record
 * each event, and the rows of reports the DSA transparency figures are made of. Every query takes a
 * period [from, to) in unix seconds and a site, or null for every site.
 */
import {
  and,
  count,
  eq,
  gte,
  isNotNull,
  like,
  lt,
  min,
  sql,
  sum,
  type Column,
  type SQL,
  type SQLWrapper,
} from "drizzle-orm";
import type { Database } from "./database";
import { alias } from "drizzle-orm/sqlite-core";
import { appeals, creditLedger, likes, moderationDecisions, orders, photos, profiles, reports, users } from "./schema";

export type Period = { from: number; to: number };

const dayOf = (column: SQLWrapper) => sql<string>`date(${column}, 'unixepoch')`;
const within = (column: Column, period: Period) => and(gte(column, period.from), lt(column, period.to));
const onSite = (column: Column, site: string | null): SQL | undefined => (site === null ? undefined : eq(column, site));

type DayCount = { day: string; n: number };

/** Members who signed up, by day. */
export function signupsByDay(db: Database, site: string | null, period: Period): Promise<DayCount[]> {
  const day = dayOf(users.signupDate);
  return db
    .select({ day, n: count() })
    .from(users)
    .where(and(onSite(users.siteDomain, site), within(users.signupDate, period)))
    .groupBy(day)
    .all();
}

/** Members who confirmed their address (used their activation link), by day. */
export function activationsByDay(db: Database, site: string | null, period: Period): Promise<DayCount[]> {
  const day = dayOf(users.confirmedAt);
  return db
    .select({ day, n: count() })
    .from(users)
    .where(and(onSite(users.siteDomain, site), within(users.confirmedAt, period)))
    .groupBy(day)
    .all();
}

/** Orders that were their member's first credited one, by the day they were credited. */
export function firstPurchasesByDay(db: Database, site: string | null, period: Period): Promise<DayCount[]> {
  const day = dayOf(orders.creditedAt);
  const earlier = sql`EXISTS (SELECT 1 FROM orders AS p WHERE p.user_id = ${orders.userId} AND p.credited_at IS NOT NULL AND (p.credited_at < ${orders.creditedAt} OR (p.credited_at = ${orders.creditedAt} AND p.id < ${orders.id})))`;
  return db
    .select({ day, n: count() })
    .from(orders)
    .where(and(onSite(orders.siteDomain, site), within(orders.creditedAt, period), sql`NOT ${earlier}`))
    .groupBy(day)
    .all();
}

/** Money taken by credited orders, by day and currency (minor units, VAT included), and what of it went back since. */
export function revenueByDay(db: Database, site: string | null, period: Period) {
  const day = dayOf(orders.creditedAt);
  return db
    .select({
      day,
      currency: orders.currency,
      cents: sql<number>`${sum(orders.amountCents)}`.mapWith(Number),
      refundedCents: sql<number>`${sum(orders.refundedCents)}`.mapWith(Number),
    })
    .from(orders)
    .where(and(onSite(orders.siteDomain, site), within(orders.creditedAt, period)))
    .groupBy(day, orders.currency)
    .all();
}

/**
 * Chat sends that were charged (messages, photos and gifts: one ledger row each), by day. Free
 * messages live only in the conversations' objects (docs/decisions/0015), so D1 does not count them.
 */
export function chargedSendsByDay(db: Database, site: string | null, period: Period): Promise<DayCount[]> {
  const day = dayOf(creditLedger.createdAt);
  return db
    .select({ day, n: count() })
    .from(creditLedger)
    .innerJoin(users, eq(users.id, creditLedger.userId))
    .where(
      and(like(creditLedger.ref, "chat:%"), onSite(users.siteDomain, site), within(creditLedger.createdAt, period)),
    )
    .groupBy(day)
    .all();
}

/** Likes given by members of the site, by day. */
export function likesByDay(db: Database, site: string | null, period: Period): Promise<DayCount[]> {
  const day = dayOf(likes.createdAt);
  return db
    .select({ day, n: count() })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likerId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(onSite(users.siteDomain, site), within(likes.createdAt, period)))
    .groupBy(day)
    .all();
}

/** Reports filed, by day. */
export function reportsOpenedByDay(db: Database, site: string | null, period: Period): Promise<DayCount[]> {
  const day = dayOf(reports.createdAt);
  return db
    .select({ day, n: count() })
    .from(reports)
    .where(and(onSite(reports.siteDomain, site), within(reports.createdAt, period)))
    .groupBy(day)
    .all();
}

/** Reports decided in the period: when filed, when decided, what about, how decided. */
export function reportsDecided(db: Database, site: string | null, period: Period) {
  return db
    .select({
      createdAt: reports.createdAt,
      handledAt: sql<number>`${reports.handledAt}`.mapWith(Number),
      subject: reports.subject,
      status: reports.status,
    })
    .from(reports)
    .where(and(onSite(reports.siteDomain, site), isNotNull(reports.handledAt), within(reports.handledAt, period)))
    .all();
}

/** When the photo waiting longest for approval was uploaded, or null when none waits. */
export async function oldestWaitingPhoto(db: Database, site: string | null): Promise<number | null> {
  const row = await db
    .select({ at: min(photos.createdAt) })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(photos.status, "pending"), onSite(users.siteDomain, site)))
    .get();
  return row?.at ?? null;
}

/**
 * Moderation decisions made in the period (docs/decisions/0035): their outcome, whether automated,
 * and since when the thing decided had waited (the report filed, the photo uploaded, the appeal made).
 * A decision's site is its report's, else its member's.
 */
export function decisionsMade(db: Database, site: string | null, period: Period) {
  const decided = moderationDecisions;
  const appealed = alias(appeals, "appealed");
  const siteOfDecision = sql`COALESCE(${reports.siteDomain}, ${users.siteDomain})`;
  return db
    .select({
      createdAt: decided.createdAt,
      outcome: decided.outcome,
      source: decided.source,
      automated: decided.automated,
      waitingSince: sql<number | null>`COALESCE(${reports.createdAt}, ${photos.createdAt}, ${appealed.createdAt})`,
    })
    .from(decided)
    .leftJoin(reports, eq(reports.id, decided.reportId))
    .leftJoin(photos, eq(photos.id, decided.photoId))
    .leftJoin(appealed, eq(appealed.id, decided.appealId))
    .leftJoin(users, eq(users.id, decided.userId))
    .where(and(site === null ? undefined : sql`${siteOfDecision} = ${site}`, within(decided.createdAt, period)))
    .all();
}
