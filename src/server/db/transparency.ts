/**
 * The rows the DSA transparency report is made of (docs/decisions/0063): restricting decisions,
 * notices, complaints, out-of-court disputes and monthly active recipients of a period [from, to)
 * in unix seconds and a site (null: every site). A decision's site is its notice's, else its member's.
 */
import {
  and,
  count,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  notInArray,
  or,
  sql,
  type Column,
  type SQL,
} from "drizzle-orm";
import type { Database } from "./database";
import type { Period } from "./dashboard";
import {
  activeMonths,
  appeals,
  moderationDecisions,
  outOfCourtDisputes,
  photos,
  profiles,
  reports,
  users,
} from "./schema";

const within = (column: Column, period: Period) => and(gte(column, period.from), lt(column, period.to));

/** Outcomes that never restrict: approving a photo, dismissing a notice, a warning, deciding an appeal. */
const NOT_RESTRICTING = ["approve", "dismiss", "warn", "appeal_upheld", "appeal_reversed"];

const decisionSite = sql<string | null>`COALESCE(${reports.siteDomain}, ${users.siteDomain})`;
/** A decision's notice: the report it decided, or the one it was detached from. */
export const noticeOfDecision = eq(
  reports.id,
  sql`COALESCE(${moderationDecisions.reportId}, ${moderationDecisions.detachedReportId})`,
);

/** What the report and the statement both read of a decision and its notice. */
const decisionFacts = {
  id: moderationDecisions.id,
  createdAt: moderationDecisions.createdAt,
  outcome: moderationDecisions.outcome,
  ground: moderationDecisions.ground,
  measure: moderationDecisions.measure,
  initiative: moderationDecisions.initiative,
  automated: moderationDecisions.automated,
  detectionAutomated: moderationDecisions.detectionAutomated,
  basis: moderationDecisions.basis,
  reportId: sql<number | null>`COALESCE(${moderationDecisions.reportId}, ${moderationDecisions.detachedReportId})`,
  noticeCategory: reports.category,
  noticeSubject: reports.subject,
};
const onDecisionSite = (site: string | null): SQL | undefined =>
  site === null ? undefined : sql`COALESCE(${reports.siteDomain}, ${users.siteDomain}) = ${site}`;

/** A restricting decision of the site's (not a photo approved, not an appeal's decision), with its notice. */
export function restrictingDecisions() {
  const d = moderationDecisions;
  return and(
    eq(d.restricts, true),
    sql`${d.source} <> 'appeal'`,
    notInArray(d.outcome, NOT_RESTRICTING),
    or(sql`${d.measure} IS NULL`, notInArray(d.measure, ["warn", "none"])),
  );
}

/** The restricting decisions taken in the period, with what the report counts them by. */
export function restrictionsIn(db: Database, site: string | null, period: Period) {
  const d = moderationDecisions;
  return db
    .select({ ...decisionFacts, noticeAt: reports.createdAt })
    .from(d)
    .leftJoin(reports, noticeOfDecision)
    .leftJoin(users, eq(users.id, d.userId))
    .where(and(restrictingDecisions(), onDecisionSite(site), within(d.createdAt, period)))
    .all();
}

/** Notices (reports) filed in the period, and those decided in it. */
export function noticesIn(db: Database, site: string | null, period: Period) {
  return db
    .select({
      id: reports.id,
      subject: reports.subject,
      category: reports.category,
      basis: reports.basis,
      status: reports.status,
      createdAt: reports.createdAt,
      handledAt: reports.handledAt,
    })
    .from(reports)
    .where(
      and(
        site === null ? undefined : eq(reports.siteDomain, site),
        or(within(reports.createdAt, period), and(isNotNull(reports.handledAt), within(reports.handledAt, period))),
      ),
    )
    .all();
}

/** Complaints (appeals, Art. 20) made or decided in the period, with the basis of the decision they contest. */
export function complaintsIn(db: Database, site: string | null, period: Period) {
  const d = moderationDecisions;
  return db
    .select({
      status: appeals.status,
      createdAt: appeals.createdAt,
      decidedAt: appeals.decidedAt,
      basis: d.basis,
      ground: d.ground,
      automated: d.automated,
    })
    .from(appeals)
    .innerJoin(d, eq(d.id, appeals.decisionId))
    .leftJoin(reports, noticeOfDecision)
    .leftJoin(users, eq(users.id, d.userId))
    .where(
      and(
        onDecisionSite(site),
        or(within(appeals.createdAt, period), and(isNotNull(appeals.decidedAt), within(appeals.decidedAt, period))),
      ),
    )
    .all();
}

/** Out-of-court disputes received or closed in the period. */
export function disputesIn(db: Database, site: string | null, period: Period) {
  const t = outOfCourtDisputes;
  return db
    .select({ receivedAt: t.receivedAt, closedAt: t.closedAt, outcome: t.outcome, implemented: t.implemented })
    .from(t)
    .where(
      and(
        site === null ? undefined : eq(t.siteDomain, site),
        or(within(t.receivedAt, period), and(isNotNull(t.closedAt), within(t.closedAt, period))),
      ),
    )
    .all();
}

/** The statement recording an out-of-court dispute the company was told of (for an audited batch). */
export function addDisputeStatement(db: Database, dispute: typeof outOfCourtDisputes.$inferInsert) {
  return db.insert(outOfCourtDisputes).values(dispute);
}

/** The statement closing a dispute with the body's outcome: holds only while it is still open. */
export function closeDisputeStatement(
  db: Database,
  id: number,
  closing: { outcome: string; closedAt: number; implemented: boolean },
) {
  return db
    .update(outOfCourtDisputes)
    .set(closing)
    .where(and(eq(outOfCourtDisputes.id, id), isNull(outOfCourtDisputes.outcome)));
}

/** Disputes still open (no outcome yet), oldest first, of a site or every site. */
export function openDisputes(db: Database, site: string | null) {
  const t = outOfCourtDisputes;
  return db
    .select()
    .from(t)
    .where(and(isNull(t.outcome), site === null ? undefined : eq(t.siteDomain, site)))
    .orderBy(t.receivedAt, t.id)
    .all();
}

/** One dispute, or undefined. */
export function disputeById(db: Database, id: number) {
  return db.select().from(outOfCourtDisputes).where(eq(outOfCourtDisputes.id, id)).get();
}

/** The site a decision belongs to (its notice's, else its member's), or undefined when there is no such decision. */
export function decisionSiteOf(db: Database, decisionId: number) {
  return db
    .select({ site: decisionSite })
    .from(moderationDecisions)
    .leftJoin(reports, noticeOfDecision)
    .leftJoin(users, eq(users.id, moderationDecisions.userId))
    .where(eq(moderationDecisions.id, decisionId))
    .get();
}

/** Members of the site active in each month (YYYY-MM) whose profile is in one of `countries`. */
export function activeByMonth(db: Database, site: string | null, months: string[], countries: readonly string[]) {
  return db
    .select({ month: activeMonths.month, n: count() })
    .from(activeMonths)
    .where(
      and(
        inArray(activeMonths.month, months),
        inArray(activeMonths.country, [...countries]),
        site === null ? undefined : eq(activeMonths.siteDomain, site),
      ),
    )
    .groupBy(activeMonths.month)
    .all();
}

/**
 * Count the member as active in the month (YYYY-MM) with their site and profile's country, once: a
 * second use in the month changes nothing ("WHERE": SQLite's upsert after INSERT ... SELECT needs one).
 */
export async function recordActiveMonth(db: Database, userId: number, month: string): Promise<void> {
  await db.run(sql`INSERT INTO ${activeMonths} (month, user_id, site_domain, country)
    SELECT ${month}, ${users.id}, ${users.siteDomain}, ${profiles.country} FROM ${users}
    JOIN ${profiles} ON ${profiles.userId} = ${users.id} WHERE ${users.id} = ${userId}
    ON CONFLICT DO NOTHING`);
}

/** A decision's facts the Transparency Database asks for: what, why, on which content, where and when. */
export function decisionForStatement(db: Database, decisionId: number) {
  const d = moderationDecisions;
  return db
    .select({
      ...decisionFacts,
      contentScope: d.contentScope,
      territorialScope: d.territorialScope,
      startsAt: d.startsAt,
      endsAt: d.endsAt,
      legalGround: d.legalGround,
      termsClause: d.termsClause,
      factTemplate: d.factTemplate,
      language: d.language,
      photoAt: photos.createdAt,
      memberSince: users.signupDate,
      site: decisionSite,
    })
    .from(d)
    .leftJoin(reports, noticeOfDecision)
    .leftJoin(photos, eq(photos.id, d.photoId))
    .leftJoin(users, eq(users.id, d.userId))
    .where(eq(d.id, decisionId))
    .get();
}
