/**
 * The console's dashboard (issue 24 point 6): a site's figures for each UTC day of a period, and the
 * DSA transparency figures (Regulation (EU) 2022/2065, Art. 15 and 24) for the period, as a table and
 * as CSV. Figures whose records do not exist in D1 are named as such rather than guessed.
 */
import type { Database } from "../db/database";
import {
  activationsByDay,
  appealsIn,
  chargedSendsByDay,
  decisionsMade,
  firstPurchasesByDay,
  likesByDay,
  oldestWaitingPhoto,
  reportsBySubject,
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

/** One figure of the DSA transparency report: its section, what it counts, and the count. */
export type DsaFigure = { section: DsaSection; item: string; value: number | null };
export type DsaSection =
  | "notices_by_category"
  | "decisions_by_kind"
  | "median_handling_hours"
  | "appeals"
  | "decisions_by_means";

/**
 * The DSA transparency figures of a period: notices (reports) by category, moderation decisions by
 * kind (docs/decisions/0035: photos, reports and appeals), the median time from a notice to its
 * decision, appeals (Art. 20 complaints) made and how they were decided, and decisions taken by
 * automated means or by people.
 */
export async function dsaFigures(db: Database, site: string | null, period: Period): Promise<DsaFigure[]> {
  const [bySubject, reportsHandled, decisions, appealRows] = await Promise.all([
    reportsBySubject(db, site, period),
    reportsDecided(db, site, period),
    decisionsMade(db, site, period),
    appealsIn(db, site, period),
  ]);
  const kinds = new Map<string, number>();
  for (const row of decisions) kinds.set(row.outcome, (kinds.get(row.outcome) ?? 0) + 1);
  const handling = median(reportsHandled.map((row) => row.handledAt - row.createdAt));
  const automated = decisions.filter((row) => row.automated).length;
  const made = (status?: string) =>
    appealRows.made
      .filter((row) => status === undefined || row.status === status)
      .reduce((total, row) => total + row.n, 0);
  const decided = (status: string) => appealRows.decided.find((row) => row.status === status)?.n ?? 0;
  return [
    ...bySubject
      .toSorted((a, b) => a.subject.localeCompare(b.subject))
      .map((row) => ({ section: "notices_by_category" as const, item: row.subject, value: row.n })),
    { section: "notices_by_category", item: "total", value: bySubject.reduce((total, row) => total + row.n, 0) },
    ...[...kinds]
      .toSorted(([a], [b]) => a.localeCompare(b))
      .map(([kind, n]) => ({ section: "decisions_by_kind" as const, item: kind, value: n })),
    { section: "decisions_by_kind", item: "total", value: decisions.length },
    {
      section: "median_handling_hours",
      item: "notice_to_decision",
      value: handling === null ? null : Math.round((handling / 3600) * 10) / 10,
    },
    { section: "appeals", item: "received", value: made() },
    { section: "appeals", item: "still_open", value: made("open") },
    { section: "appeals", item: "decision_upheld", value: decided("upheld") },
    { section: "appeals", item: "decision_reversed", value: decided("reversed") },
    { section: "decisions_by_means", item: "automated", value: automated },
    { section: "decisions_by_means", item: "human", value: decisions.length - automated },
  ];
}

/** The columns of the DSA figures' CSV, in order. */
export const DSA_CSV_COLUMNS = ["site", "period_start", "period_end", "section", "item", "value"] as const;

const csvField = (value: string | number | null) => {
  const text = value === null ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The DSA figures as CSV (RFC 4180: CRLF line ends, a header row). */
export function dsaCsv(site: string | null, period: Period, figures: DsaFigure[]): string {
  const rows = figures.map((figure) => [
    site ?? "all",
    dayText(period.from),
    dayText(period.to - DAY),
    figure.section,
    figure.item,
    figure.value,
  ]);
  return (
    [DSA_CSV_COLUMNS as readonly (string | number | null)[], ...rows]
      .map((row) => row.map(csvField).join(","))
      .join("\r\n") + "\r\n"
  );
}
