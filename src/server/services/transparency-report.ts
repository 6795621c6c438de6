/**
 * The DSA transparency report (Regulation (EU) 2022/2065 Art. 15 and 24, docs/decisions/0063): the
 * figures of a period of up to a calendar year, in the sections and items of the quantitative
 * template of Implementing Regulation (EU) 2024/2835 (Annex I), as rows and as CSV. Only
 * restrictions count as measures (not a photo approved, not an appeal's decision); only notices about
 * content count as notices (not billing or account questions, which go to support).
 */
import type { Database } from "../db/database";
import type { Period } from "../db/dashboard";
import { activeByMonth, complaintsIn, disputesIn, noticesIn, restrictionsIn } from "../db/transparency";
import {
  DSA_CATEGORIES,
  DSA_CATEGORY_KEYS,
  EU_COUNTRIES,
  GROUND_CATEGORIES,
  MEASURE_RESTRICTIONS,
  NON_CONTENT_SUBJECTS,
  OUTCOME_MEASURES,
  RESTRICTION_TYPES,
  SUBJECT_CATEGORIES,
  dsaCategoryOf,
  type DsaCategory,
  type RestrictionType,
} from "../../shared/dsa";
import type { DecisionGround, Measure } from "../../shared/moderation";
import type { ReportSubject } from "../../shared/reports";
import { dayText, median } from "./dashboard";

const DAY = 86_400;
/** The longest period of one report: a calendar year (a leap year's 366 days). */
export const MAX_REPORT_DAYS = 366;

/** One line of the report: the template's section and item, what the item is broken down by, its value. */
export type ReportRow = {
  section: string;
  item: string;
  breakdown: string;
  value: number | string | null;
  note?: string;
};

export const SECTIONS = {
  identification: "1.1 Report identification",
  orders: "1.2 Art. 15(1)(a) Member State orders",
  notices: "1.3 Art. 15(1)(b) Notices submitted in accordance with Article 16",
  ownInitiative: "1.4 Art. 15(1)(c) Own-initiative content moderation",
  complaints: "1.5 Art. 15(1)(d), 24(1)(a), 24(1)(b) Complaints, out-of-court disputes and suspensions",
  automated: "1.6 Art. 15(1)(e) Use of automated means for content moderation",
  recipients: "Art. 24(2) Average monthly active recipients of the service in the Union",
} as const;

const TOTAL = "Total";
const LAW = "On the basis of the law";
const TERMS = "On the basis of terms and conditions";
const NOT_RECORDED = "The app records no such orders";
const NO_SUCH_MEASURE = "The app has no such measure";

/** Days [from, to] (YYYY-MM-DD, UTC) as a period of at most a calendar year, or null. */
export function reportPeriodOf(from: string, to: string): Period | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return null;
  const start = Date.parse(`${from}T00:00:00Z`) / 1000;
  const end = Date.parse(`${to}T00:00:00Z`) / 1000 + DAY;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start || end - start > MAX_REPORT_DAYS * DAY)
    return null;
  return { from: start, to: end };
}

/** The days of a reporting period the template names: a calendar year ("2026") or a half-year ("2026-H1"). */
export function namedPeriod(name: string): { from: string; to: string } | null {
  const match = /^(\d{4})(?:-H([12]))?$/.exec(name);
  if (!match) return null;
  const year = match[1]!;
  if (match[2] === "1") return { from: `${year}-01-01`, to: `${year}-06-30` };
  if (match[2] === "2") return { from: `${year}-07-01`, to: `${year}-12-31` };
  return { from: `${year}-01-01`, to: `${year}-12-31` };
}

const hours = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / 3600) * 10) / 10);
const days = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / DAY) * 10) / 10);

type Restriction = Awaited<ReturnType<typeof restrictionsIn>>[number];

/** How a restriction came about: an authority's order, a notice, or the platform's own initiative. */
export function initiativeOf(d: { initiative: string; reportId: number | null }) {
  if (d.initiative === "authority_order") return "order";
  if (d.initiative === "own_initiative" || d.reportId === null) return "own";
  return "notice";
}

/** What a decision did, from `measure`, or from its outcome for decisions stored before it. */
export const measureOf = (d: { measure: string | null; outcome: string }): Measure =>
  (d.measure as Measure | null) ?? OUTCOME_MEASURES[d.outcome] ?? "none";

/** The law (illegal content) or the terms: the decision's basis, else its ground. */
export const basisOf = (d: { basis: string | null; ground: string | null }) =>
  d.basis === "illegal" || (d.basis === null && d.ground === "illegal") ? "illegal" : "terms";

/** The category of a decision: its notice's, else its ground's. */
export function decisionCategory(d: {
  noticeCategory: string | null;
  noticeSubject: string | null;
  ground: string | null;
}): DsaCategory {
  return (
    dsaCategoryOf(d.noticeCategory) ??
    (d.noticeSubject ? SUBJECT_CATEGORIES[d.noticeSubject as ReportSubject] : undefined) ??
    GROUND_CATEGORIES[(d.ground ?? "other") as DecisionGround] ??
    "OTHER_VIOLATION_TC"
  );
}

const noticeCategory = (n: { category: string | null; subject: string }): DsaCategory =>
  dsaCategoryOf(n.category) ?? SUBJECT_CATEGORIES[n.subject as ReportSubject] ?? "NOT_SPECIFIED_NOTICE";

/** Rows of one item counted by category: every category of the template, then the total. */
function byCategory(section: string, item: string, categories: DsaCategory[]): ReportRow[] {
  return [
    ...DSA_CATEGORY_KEYS.map((key) => ({
      section,
      item,
      breakdown: DSA_CATEGORIES[key],
      value: categories.filter((c) => c === key).length,
    })),
    { section, item, breakdown: TOTAL, value: categories.length },
  ];
}

function byRestriction(section: string, item: string, decisions: Restriction[]): ReportRow[] {
  const types = decisions.map((d) => MEASURE_RESTRICTIONS[measureOf(d)]);
  return (Object.keys(RESTRICTION_TYPES) as RestrictionType[]).map((key) => ({
    section,
    item,
    breakdown: RESTRICTION_TYPES[key],
    value: types.filter((t) => t === key).length,
  }));
}

function byBasis(section: string, item: string, decisions: Restriction[]): ReportRow[] {
  const law = decisions.filter((d) => basisOf(d) === "illegal").length;
  return [
    { section, item, breakdown: LAW, value: law },
    { section, item, breakdown: TERMS, value: decisions.length - law },
  ];
}

/** The calendar months (YYYY-MM) a period touches. */
export function monthsOf(period: Period): string[] {
  const months: string[] = [];
  for (let at = period.from; at < period.to; at += DAY) {
    const month = dayText(at).slice(0, 7);
    if (months.at(-1) !== month) months.push(month);
  }
  return months;
}

function ordersRows(orders: Restriction[]): ReportRow[] {
  const s = SECTIONS.orders;
  const waited = orders.flatMap((d) => (d.noticeAt === null ? [] : [d.createdAt - d.noticeAt]));
  return [
    ...byCategory(s, "Orders to act against illegal content (Art. 9)", orders.map(decisionCategory)),
    {
      section: s,
      item: "Median time to give effect to an order (hours)",
      breakdown: TOTAL,
      value: hours(median(waited)),
    },
    { section: s, item: "Orders to provide information (Art. 10)", breakdown: TOTAL, value: null, note: NOT_RECORDED },
  ];
}

function noticeRows(notices: Awaited<ReturnType<typeof noticesIn>>, actions: Restriction[], period: Period) {
  const s = SECTIONS.notices;
  const received = notices.filter((n) => n.createdAt >= period.from && n.createdAt < period.to);
  const decided = notices.filter((n) => n.handledAt !== null && n.handledAt >= period.from && n.handledAt < period.to);
  const illegal = received.filter((n) => n.basis === "illegal").length;
  const terms = received.filter((n) => n.basis === "terms").length;
  return [
    ...byCategory(s, "Notices received", received.map(noticeCategory)),
    { section: s, item: "Notices received by basis", breakdown: "Alleged illegal content", value: illegal },
    {
      section: s,
      item: "Notices received by basis",
      breakdown: "Incompatible with terms and conditions",
      value: terms,
    },
    {
      section: s,
      item: "Notices received by basis",
      breakdown: "Basis not given",
      value: received.length - illegal - terms,
    },
    { section: s, item: "Notices submitted by trusted flaggers", breakdown: TOTAL, value: 0 },
    ...byBasis(s, "Actions taken on notices", actions),
    ...byRestriction(s, "Actions taken on notices by type of restriction", actions),
    { section: s, item: "Actions taken on notices", breakdown: TOTAL, value: actions.length },
    {
      section: s,
      item: "Actions on notices taken by automated means",
      breakdown: TOTAL,
      value: actions.filter((d) => d.automated).length,
    },
    {
      section: s,
      item: "Median time to take action (hours)",
      breakdown: TOTAL,
      value: hours(median(actions.flatMap((d) => (d.noticeAt === null ? [] : [d.createdAt - d.noticeAt])))),
    },
    { section: s, item: "Notices decided", breakdown: TOTAL, value: decided.length },
    {
      section: s,
      item: "Notices decided without action",
      breakdown: TOTAL,
      value: decided.filter((n) => n.status === "rejected").length,
    },
    {
      section: s,
      item: "Median time to decide a notice (hours)",
      breakdown: TOTAL,
      value: hours(median(decided.map((n) => n.handledAt! - n.createdAt))),
    },
  ];
}

function ownInitiativeRows(own: Restriction[]): ReportRow[] {
  const s = SECTIONS.ownInitiative;
  const detected = own.filter((d) => d.detectionAutomated).length;
  return [
    ...byCategory(s, "Own-initiative measures", own.map(decisionCategory)),
    ...byRestriction(s, "Own-initiative measures by type of restriction", own),
    ...byBasis(s, "Own-initiative measures by basis", own),
    { section: s, item: "Own-initiative measures by detection method", breakdown: "Automated means", value: detected },
    {
      section: s,
      item: "Own-initiative measures by detection method",
      breakdown: "Not automated",
      value: own.length - detected,
    },
  ];
}

type Complaint = Awaited<ReturnType<typeof complaintsIn>>[number];
type Dispute = Awaited<ReturnType<typeof disputesIn>>[number];

function complaintRows(complaints: Complaint[], disputes: Dispute[], suspensions: Restriction[], period: Period) {
  const s = SECTIONS.complaints;
  const inPeriod = (at: number | null) => at !== null && at >= period.from && at < period.to;
  const made = complaints.filter((c) => inPeriod(c.createdAt));
  const decided = complaints.filter((c) => c.status !== "open" && inPeriod(c.decidedAt));
  const againstLaw = made.filter((c) => basisOf(c) === "illegal").length;
  const received = disputes.filter((d) => inPeriod(d.receivedAt));
  const closed = disputes.filter((d) => d.outcome !== null && inPeriod(d.closedAt));
  const closedAs = (outcome: string) => closed.filter((d) => d.outcome === outcome).length;
  const item = (name: string, value: number | null, breakdown = TOTAL, note?: string): ReportRow => ({
    section: s,
    item: name,
    breakdown,
    value,
    ...(note ? { note } : {}),
  });
  return [
    item("Complaints received (Art. 20)", made.length),
    item("Complaints received by basis", againstLaw, "Against a decision on the basis of the law"),
    item(
      "Complaints received by basis",
      made.length - againstLaw,
      "Against a decision on the basis of terms and conditions",
    ),
    item("Complaints decided", decided.filter((c) => c.status === "upheld").length, "Initial decision upheld"),
    item("Complaints decided", decided.filter((c) => c.status === "reversed").length, "Initial decision reversed"),
    item("Complaints decided", decided.length),
    item(
      "Complaints still open at the end of the period",
      made.filter((c) => c.decidedAt === null || c.decidedAt >= period.to).length,
    ),
    item("Median time to decide a complaint (hours)", hours(median(decided.map((c) => c.decidedAt! - c.createdAt)))),
    item("Disputes submitted to out-of-court settlement bodies (Art. 21)", received.length),
    item("Out-of-court disputes closed", closedAs("complainant"), "In favour of the recipient"),
    item("Out-of-court disputes closed", closedAs("provider"), "In favour of the provider"),
    item("Out-of-court disputes closed", closedAs("settled"), "Settled"),
    item("Out-of-court disputes closed", closedAs("withdrawn"), "Withdrawn"),
    item("Out-of-court disputes closed", closed.length),
    item(
      "Median time to close an out-of-court dispute (days)",
      days(median(closed.map((d) => d.closedAt! - d.receivedAt))),
    ),
    item("Out-of-court decisions implemented", closed.filter((d) => d.implemented).length),
    item("Suspensions (Art. 23)", suspensions.length, "For the frequent provision of manifestly illegal content"),
    item("Suspensions (Art. 23)", 0, "For frequent manifestly unfounded notices", NO_SUCH_MEASURE),
    item("Suspensions (Art. 23)", 0, "For frequent manifestly unfounded complaints", NO_SUCH_MEASURE),
  ];
}

function automatedRows(decisions: Restriction[], complaints: Complaint[], period: Period): ReportRow[] {
  const s = SECTIONS.automated;
  const automated = decisions.filter((d) => d.automated).length;
  const reversed = complaints.filter(
    (c) =>
      c.automated &&
      c.status === "reversed" &&
      c.decidedAt !== null &&
      c.decidedAt >= period.from &&
      c.decidedAt < period.to,
  ).length;
  return [
    { section: s, item: "Measures decided by automated means", breakdown: "Fully automated", value: automated },
    {
      section: s,
      item: "Measures decided by automated means",
      breakdown: "Not automated",
      value: decisions.length - automated,
    },
    {
      section: s,
      item: "Measures on content detected by automated means",
      breakdown: TOTAL,
      value: decisions.filter((d) => d.detectionAutomated).length,
    },
    { section: s, item: "Automated decisions reversed on complaint", breakdown: TOTAL, value: reversed },
  ];
}

async function recipientRows(db: Database, site: string | null, period: Period): Promise<ReportRow[]> {
  const s = SECTIONS.recipients;
  const months = monthsOf(period);
  const counted = await activeByMonth(db, site, months, EU_COUNTRIES);
  const perMonth = months.map((month) => counted.find((row) => row.month === month)?.n ?? 0);
  const note = "Members whose session was used in the month, with a profile in an EU member state";
  return [
    ...months.map((month, i) => ({
      section: s,
      item: "Monthly active recipients",
      breakdown: month,
      value: perMonth[i]!,
      note,
    })),
    {
      section: s,
      item: "Average monthly active recipients",
      breakdown: TOTAL,
      value: Math.round(perMonth.reduce((a, b) => a + b, 0) / Math.max(1, months.length)),
      note,
    },
  ];
}

/** Who reports, for 1.1: the provider (the sites' companies) and the service (the sites). */
export type ReportIdentity = { provider: string; service: string };

/** The report of a site (null: every site) for a period. */
export async function transparencyReport(
  db: Database,
  site: string | null,
  period: Period,
  identity: ReportIdentity,
): Promise<ReportRow[]> {
  const [decisions, notices, complaints, disputes, recipients] = await Promise.all([
    restrictionsIn(db, site, period),
    noticesIn(db, site, period),
    complaintsIn(db, site, period),
    disputesIn(db, site, period),
    recipientRows(db, site, period),
  ]);
  const s = SECTIONS.identification;
  const contentNotices = notices.filter((n) => !NON_CONTENT_SUBJECTS.includes(n.subject));
  const nonContentReports = new Set(notices.filter((n) => NON_CONTENT_SUBJECTS.includes(n.subject)).map((n) => n.id));
  const measures = decisions.filter((d) => d.reportId === null || !nonContentReports.has(d.reportId));
  const suspensions = measures.filter((d) => measureOf(d) === "suspend" && basisOf(d) === "illegal");
  return [
    { section: s, item: "Name of the service provider", breakdown: "", value: identity.provider },
    { section: s, item: "Name of the service", breakdown: "", value: identity.service },
    { section: s, item: "Start of the reporting period", breakdown: "", value: dayText(period.from) },
    { section: s, item: "End of the reporting period", breakdown: "", value: dayText(period.to - DAY) },
    ...ordersRows(measures.filter((d) => initiativeOf(d) === "order")),
    ...noticeRows(
      contentNotices,
      measures.filter((d) => initiativeOf(d) === "notice"),
      period,
    ),
    ...ownInitiativeRows(measures.filter((d) => initiativeOf(d) === "own")),
    ...complaintRows(complaints, disputes, suspensions, period),
    ...automatedRows(measures, complaints, period),
    ...recipients,
  ];
}

/** The columns of the report's CSV, in order. */
export const REPORT_CSV_COLUMNS = ["section", "item", "breakdown", "value", "note"] as const;

const csvField = (value: string | number | null | undefined) => {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The report as CSV (RFC 4180: CRLF line ends, a header row), one line per item and breakdown. */
export function reportCsv(rows: ReportRow[]): string {
  return (
    [
      REPORT_CSV_COLUMNS.join(","),
      ...rows.map((r) => [r.section, r.item, r.breakdown, r.value, r.note].map(csvField).join(",")),
    ].join("\r\n") + "\r\n"
  );
}
