/**
 * The console's dashboard (issue 24 point 6): a site's figures for each UTC day of a period. The DSA
 * transparency report is services/transparency-report.ts (docs/decisions/0063).
 */
import type { Database } from "../db/database";
import {
  activationsByDay,
  chargedSendsByDay,
  decisionsMade,
  firstPurchasesByDay,
  likesByDay,
  oldestWaitingPhoto,
  reportsDecided,
  reportsOpenedByDay,
  revenueByDay,
  signupsByDay,
  type Period,
} from "../db/dashboard";
import { verificationFigures } from "./verification";

const DAY = 86_400;
/** The longest period one request reads (a quarter and a bit). */
export const MAX_DAYS = 93;

/** One UTC day's figures. Revenue is per currency, in minor units. */
export type DayFigures = {
  day: string;
  signups: number;
  activations: number;
  firstPurchases: number;
  revenue: Record<string, number>;
  /** Chat sends that were charged (free messages are counted only in the conversations' objects). */
  chargedSends: number;
  likes: number;
  reportsOpened: number;
  reportsClosed: number;
  /** Median seconds a photo, report or appeal decided that day had waited for its decision; null when none was decided. */
  medianDecisionSeconds: number | null;
  /** Verification selfies sent that day, and those decided that day with the median seconds they waited (issue 28). */
  verifications: { asked: number; approved: number; rejected: number; medianDecisionSeconds: number | null };
};

export type Dashboard = {
  site: string | null;
  from: string;
  to: string;
  days: DayFigures[];
  oldestWaitingPhotoSeconds: number | null;
};

/** The days of [from, to] (YYYY-MM-DD, UTC) as a period in seconds, or null when they are not a period of at most MAX_DAYS. */
export function periodOf(from: string, to: string): Period | null {
  const start = Date.parse(`${from}T00:00:00Z`) / 1000;
  const end = Date.parse(`${to}T00:00:00Z`) / 1000 + DAY;
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(from) ||
    !/^\d{4}-\d{2}-\d{2}$/.test(to) ||
    !Number.isFinite(start) ||
    !Number.isFinite(end)
  )
    return null;
  if (end <= start || end - start > MAX_DAYS * DAY) return null;
  return { from: start, to: end };
}

/** A UTC day as YYYY-MM-DD. */
export const dayText = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/** A site's figures (null: every site) for each day of the period; `now` for the age of the oldest waiting photo. */
export async function dashboard(db: Database, site: string | null, period: Period, now: number): Promise<Dashboard> {
  const [
    signups,
    activations,
    firstPurchases,
    revenue,
    sends,
    likeRows,
    opened,
    decided,
    decisions,
    oldest,
    verifications,
  ] = await Promise.all([
    signupsByDay(db, site, period),
    activationsByDay(db, site, period),
    firstPurchasesByDay(db, site, period),
    revenueByDay(db, site, period),
    chargedSendsByDay(db, site, period),
    likesByDay(db, site, period),
    reportsOpenedByDay(db, site, period),
    reportsDecided(db, site, period),
    decisionsMade(db, site, period),
    oldestWaitingPhoto(db, site),
    verificationFigures(db, period.from),
  ]);
  const countOn = (rows: { day: string; n: number }[], day: string) => rows.find((row) => row.day === day)?.n ?? 0;
  const days: DayFigures[] = [];
  for (let start = period.from; start < period.to; start += DAY) {
    const day = dayText(start);
    const closedThatDay = decided.filter((row) => dayText(row.handledAt) === day);
    const waitedThatDay = decisions.flatMap((row) =>
      row.waitingSince !== null && dayText(row.createdAt) === day ? [row.createdAt - row.waitingSince] : [],
    );
    days.push({
      day,
      signups: countOn(signups, day),
      activations: countOn(activations, day),
      firstPurchases: countOn(firstPurchases, day),
      revenue: Object.fromEntries(revenue.filter((row) => row.day === day).map((row) => [row.currency, row.cents])),
      chargedSends: countOn(sends, day),
      likes: countOn(likeRows, day),
      reportsOpened: countOn(opened, day),
      reportsClosed: closedThatDay.length,
      medianDecisionSeconds: median(waitedThatDay),
      verifications: verificationsOn(
        verifications.filter((row) => row.day === day && (site === null || row.site === site)),
      ),
    });
  }
  return {
    site,
    from: dayText(period.from),
    to: dayText(period.to - DAY),
    days,
    oldestWaitingPhotoSeconds: oldest === null ? null : Math.max(0, now - oldest),
  };
}

/** The verification figures of one day over the sites given; the median of one site's day when only one has decisions. */
function verificationsOn(rows: Awaited<ReturnType<typeof verificationFigures>>): DayFigures["verifications"] {
  const decided = rows.filter((row) => row.median_decision_seconds !== null);
  return {
    asked: rows.reduce((sum, row) => sum + row.asked, 0),
    approved: rows.reduce((sum, row) => sum + row.approved, 0),
    rejected: rows.reduce((sum, row) => sum + row.rejected, 0),
    // Medians of several sites do not add up; the median of their medians is the honest one-line summary.
    medianDecisionSeconds: median(decided.map((row) => row.median_decision_seconds!)),
  };
}
