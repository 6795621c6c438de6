/**
 * The moderation queues and decisions (docs/decisions/0035): photos waiting, open reports, appeals,
 * the decisions themselves and what they change on an account. Each change is guarded by the state
 * the operator saw, so two operators deciding the same thing at once decide it once.
 */
import { and, asc, Column, desc, eq, getTableColumns, inArray, is, isNull, ne, SQL, sql } from "drizzle-orm";
import type { Database } from "./database";
import { refreshSearchableQuery } from "./profiles";
import { appeals, moderationDecisions, operators, photos, profiles, reports, users } from "./schema";

type NewDecision = Omit<typeof moderationDecisions.$inferInsert, "id">;
export type Decision = typeof moderationDecisions.$inferSelect;

/** Photos waiting for approval, oldest first, with their member. */
export function waitingPhotos(db: Database, limit = 50, offset = 0) {
  return db
    .select({
      id: photos.id,
      profileId: photos.profileId,
      userId: profiles.userId,
      name: profiles.name,
      width: photos.width,
      height: photos.height,
      createdAt: photos.createdAt,
    })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .where(eq(photos.status, "pending"))
    .orderBy(asc(photos.createdAt), asc(photos.id))
    .limit(limit)
    .offset(offset);
}

/** How many photos wait, counted as waitingPhotos lists them. */
export async function countWaitingPhotos(db: Database): Promise<number> {
  const row = await db
    .select({ count: sql<number>`count(*)` })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .where(eq(photos.status, "pending"))
    .get();
  return row?.count ?? 0;
}

/** A photo with its R2 keys (the console shows any photo to its operators). */
export function photoById(db: Database, id: number) {
  return db.select().from(photos).where(eq(photos.id, id)).get();
}

/** Every photo of a profile, in the member's order. */
export function photosOfProfile(db: Database, profileId: number) {
  return db
    .select({ id: photos.id, status: photos.status, createdAt: photos.createdAt })
    .from(photos)
    .where(eq(photos.profileId, profileId))
    .orderBy(asc(photos.position), asc(photos.id));
}

/** What a moderator reads of a member beside a photo or a report. */
export function memberForModeration(db: Database, profileId: number) {
  return db
    .select({
      profileId: profiles.id,
      userId: users.id,
      name: profiles.name,
      username: users.username,
      email: users.email,
      gender: profiles.gender,
      birthDate: profiles.birthDate,
      country: profiles.country,
      city: profiles.city,
      aboutMe: profiles.aboutMe,
      profileStatus: profiles.status,
      accountStatus: users.status,
      restrictedAt: users.restrictedAt,
      language: users.language,
      siteDomain: users.siteDomain,
      signupDate: users.signupDate,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, profileId))
    .get();
}

/** A waiting photo becomes public or refused; only while it is still waiting. */
export function settlePhotoQuery(db: Database, photoId: number, status: "active" | "rejected") {
  return db
    .update(photos)
    .set({ status })
    .where(and(eq(photos.id, photoId), eq(photos.status, "pending")));
}

/** Open reports, oldest first, a page at a time (countOpenReports says how many there are). */
export function openReports(db: Database, limit: number, offset = 0) {
  return db
    .select({
      id: reports.id,
      subject: reports.subject,
      profileId: reports.profileId,
      messageId: reports.messageId,
      siteDomain: reports.siteDomain,
      createdAt: reports.createdAt,
      profileName: profiles.name,
    })
    .from(reports)
    .leftJoin(profiles, eq(profiles.id, reports.profileId))
    .where(and(eq(reports.queue, "moderation"), eq(reports.status, "open")))
    .orderBy(asc(reports.createdAt), asc(reports.id))
    .limit(limit)
    .offset(offset);
}

export async function countOpenReports(db: Database): Promise<number> {
  const row = await db
    .select({ count: sql<number>`count(*)` })
    .from(reports)
    .where(and(eq(reports.queue, "moderation"), eq(reports.status, "open")))
    .get();
  return row?.count ?? 0;
}

export function reportById(db: Database, id: number) {
  return db.select().from(reports).where(eq(reports.id, id)).get();
}

/** The reporter's profile, when a member filed the report. */
export function reporterProfile(db: Database, userId: number) {
  return db.select({ id: profiles.id, name: profiles.name }).from(profiles).where(eq(profiles.userId, userId)).get();
}

/** Every report about a profile but one, newest first. */
export function otherReportsAbout(db: Database, profileId: number, exceptId: number) {
  return db
    .select({
      id: reports.id,
      subject: reports.subject,
      status: reports.status,
      note: reports.operatorNote,
      createdAt: reports.createdAt,
      description: reports.description,
    })
    .from(reports)
    .where(and(eq(reports.profileId, profileId), ne(reports.id, exceptId)))
    .orderBy(desc(reports.id))
    .limit(50);
}

/** The decisions about a member, newest first, with who took them. */
export function decisionsAbout(db: Database, userId: number) {
  return db
    .select({
      id: moderationDecisions.id,
      outcome: moderationDecisions.outcome,
      ground: moderationDecisions.ground,
      facts: moderationDecisions.facts,
      createdAt: moderationDecisions.createdAt,
      operator: operators.email,
      source: moderationDecisions.source,
      factTemplate: moderationDecisions.factTemplate,
      endsAt: moderationDecisions.endsAt,
      liftedAt: moderationDecisions.liftedAt,
      appealStatus: appeals.status,
    })
    .from(moderationDecisions)
    .leftJoin(operators, eq(operators.id, moderationDecisions.operatorId))
    .leftJoin(appeals, eq(appeals.decisionId, moderationDecisions.id))
    .where(eq(moderationDecisions.userId, userId))
    .orderBy(desc(moderationDecisions.id))
    .limit(50);
}

/** Insert a decision; `kept` (SQL reading the rows before the batch's effects) fills its kept_content. */
export function insertDecisionQuery(db: Database, decision: NewDecision, kept?: SQL) {
  return db.insert(moderationDecisions).values(kept ? { ...decision, keptContent: kept } : decision);
}

/**
 * What "remove the content" takes away, read in the decision's own insert (before the removal in the
 * same batch): the profile's text, its main photo and each shown or waiting photo with its status.
 * JSON of KeptContent (services/moderation.ts).
 */
export function keptProfileContentSql(profileId: number): SQL {
  return sql`(SELECT json_object('aboutMe', ${profiles.aboutMe}, 'mainPhotoId', ${profiles.mainPhotoId}, 'photos',
    json((SELECT json_group_array(json_object('id', ${photos.id}, 'status', ${photos.status})) FROM ${photos}
          WHERE ${photos.profileId} = ${profileId} AND ${photos.status} IN ('active', 'pending'))))
    FROM ${profiles} WHERE ${profiles.id} = ${profileId})`;
}

/** What "disable" changes: the account's and the profile's status before it, as KeptContent JSON. */
export function keptAccountStatusSql(profileId: number): SQL {
  return sql`(SELECT json_object('account', json_object('status', ${users.status}, 'profileStatus', ${profiles.status}))
    FROM ${profiles} INNER JOIN ${users} ON ${users.id} = ${profiles.userId} WHERE ${profiles.id} = ${profileId})`;
}

/** Keep a removed chat message with its decision (it is gone from the conversation), for a reversal and the reviewer. */
export function keepRemovedMessageQuery(db: Database, decisionId: number, message: unknown) {
  return db
    .update(moderationDecisions)
    .set({ keptContent: JSON.stringify({ message }) })
    .where(eq(moderationDecisions.id, decisionId));
}

/**
 * Give a profile back what "remove the content" took (an appeal reversed it): each photo its status
 * before (a photo the member deleted since stays deleted), the main photo, and the text unless the
 * member wrote a new one since.
 */
export function restoreProfileContentQueries(
  db: Database,
  profile: { profileId: number; userId: number },
  kept: { aboutMe: string | null; mainPhotoId: number | null; photos: { id: number; status: string }[] },
) {
  const ids = (status: string) => kept.photos.filter((p) => p.status === status).map((p) => p.id);
  const back = (status: "active" | "pending", list: number[]) =>
    db
      .update(photos)
      .set({ status })
      .where(
        and(
          inArray(photos.id, list.length ? list : [-1]),
          eq(photos.profileId, profile.profileId),
          eq(photos.status, "rejected"),
        ),
      );
  return [
    back("active", ids("active")),
    back("pending", ids("pending")),
    db
      .update(profiles)
      .set({
        aboutMe: sql`CASE WHEN ${profiles.aboutMe} IS NULL OR ${profiles.aboutMe} = '' THEN ${kept.aboutMe} ELSE ${profiles.aboutMe} END`,
        mainPhotoId: sql`CASE WHEN EXISTS (SELECT 1 FROM ${photos} WHERE ${photos.id} = ${kept.mainPhotoId ?? -1} AND ${photos.profileId} = ${profile.profileId} AND ${photos.status} != 'rejected') THEN ${kept.mainPhotoId} ELSE ${profiles.mainPhotoId} END`,
      })
      .where(eq(profiles.id, profile.profileId)),
    refreshSearchableQuery(db, profile.userId),
  ] as const;
}

/** Forget what decisions kept to undo them once no appeal can come and none is open (retention). */
export function forgetKeptContentQuery(db: Database, now: number) {
  return db
    .update(moderationDecisions)
    .set({ keptContent: null })
    .where(
      and(
        sql`${moderationDecisions.keptContent} IS NOT NULL`,
        sql`(${moderationDecisions.appealUntil} IS NULL OR ${moderationDecisions.appealUntil} < ${now})`,
        sql`NOT EXISTS (SELECT 1 FROM ${appeals} WHERE ${appeals.decisionId} = ${moderationDecisions.id} AND ${appeals.status} = 'open')`,
      ),
    );
}

/**
 * A decision that still holds the id of a waiting photo or an open report is about an earlier one
 * that had the id (before ids were never reused, migration 0026): a waiting photo or an open report
 * has no decision of its own, since deciding it settles it in the same batch. Run first in the
 * deciding batch, this detaches such a decision (its id kept in `detached_*_id`) so it cannot block
 * the new one; once the photo or report is decided it matches nothing, so two moderators deciding
 * at once still decide once.
 */
export function detachStaleDecisionQuery(db: Database, by: { photoId: number } | { reportId: number }) {
  return "photoId" in by
    ? db
        .update(moderationDecisions)
        .set({ detachedPhotoId: sql`${moderationDecisions.photoId}`, photoId: null })
        .where(
          and(
            eq(moderationDecisions.photoId, by.photoId),
            sql`EXISTS (SELECT 1 FROM ${photos} WHERE ${photos.id} = ${by.photoId} AND ${photos.status} = 'pending')`,
          ),
        )
    : db
        .update(moderationDecisions)
        .set({ detachedReportId: sql`${moderationDecisions.reportId}`, reportId: null })
        .where(
          and(
            eq(moderationDecisions.reportId, by.reportId),
            sql`EXISTS (SELECT 1 FROM ${reports} WHERE ${reports.id} = ${by.reportId} AND ${reports.status} = 'open')`,
          ),
        );
}

/** The decision of a photo or report just decided (to find its id after the batch). */
export function decisionFor(db: Database, by: { photoId: number } | { reportId: number } | { appealId: number }) {
  const where =
    "photoId" in by
      ? eq(moderationDecisions.photoId, by.photoId)
      : "reportId" in by
        ? eq(moderationDecisions.reportId, by.reportId)
        : eq(moderationDecisions.appealId, by.appealId);
  return db.select().from(moderationDecisions).where(where).orderBy(desc(moderationDecisions.id)).get();
}

export function decisionById(db: Database, id: number) {
  return db.select().from(moderationDecisions).where(eq(moderationDecisions.id, id)).get();
}

/** Hide a member from search and lists while a decision restricts them. */
export function restrictQueries(db: Database, userId: number, now: number) {
  return [
    db
      .update(users)
      .set({ restrictedAt: now })
      .where(and(eq(users.id, userId), isNull(users.restrictedAt))),
    refreshSearchableQuery(db, userId),
  ] as const;
}

/** Lift a restriction (an appeal reversed it). */
export function liftRestrictionQueries(db: Database, userId: number) {
  return [
    db.update(users).set({ restrictedAt: null }).where(eq(users.id, userId)),
    refreshSearchableQuery(db, userId),
  ] as const;
}

/** Remove what a profile shows of its own: the text about the member and every photo. */
export function removeProfileContentQueries(db: Database, profileId: number) {
  return [
    db.update(profiles).set({ aboutMe: null, mainPhotoId: null }).where(eq(profiles.id, profileId)),
    db
      .update(photos)
      .set({ status: "rejected" })
      .where(and(eq(photos.profileId, profileId), inArray(photos.status, ["active", "pending"]))),
  ] as const;
}

/**
 * Give back a disabled account (an appeal reversed the disabling, an operator enabled it): the account
 * status it had before (users.status_before_disabled, written by every disabling; else what the
 * decision kept, `before`; else active), so an account still to be confirmed stays so; the profile's
 * status as the decision kept it, or active once the account is; and in search as its other states allow.
 */
export function enableAccountQueries(db: Database, userId: number, before?: { status: string; profileStatus: string }) {
  const kept = before && before.status !== "disabled" ? before.status : "active";
  const profileStatus = before && before.profileStatus !== "disabled" ? before.profileStatus : "active";
  return [
    db
      .update(users)
      .set({ status: sql<string>`COALESCE(${users.statusBeforeDisabled}, ${kept})`, statusBeforeDisabled: null })
      .where(and(eq(users.id, userId), eq(users.status, "disabled"))),
    db
      .update(profiles)
      .set({ status: profileStatus })
      .where(
        and(
          eq(profiles.userId, userId),
          sql`EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND status IN ('active', 'not_confirmed'))`,
        ),
      ),
    refreshSearchableQuery(db, userId),
  ] as const;
}

/** A photo refused by a decision comes back (an appeal reversed it). */
export function restorePhotoQuery(db: Database, photoId: number) {
  return db
    .update(photos)
    .set({ status: "active" })
    .where(and(eq(photos.id, photoId), eq(photos.status, "rejected")));
}

/**
 * File an appeal: stored only for the member the decision concerns, of a decision that restricts,
 * before its deadline, and once per decision (unique index). Answers the new id, or null.
 */
export async function insertAppeal(
  db: Database,
  appeal: { decisionId: number; userId: number; text: string },
  now: number,
): Promise<number | null> {
  const row = await db.get<{ id: number } | undefined>(sql`
    INSERT INTO ${appeals} (decision_id, user_id, text, status, created_at)
    SELECT id, ${appeal.userId}, ${appeal.text}, 'open', ${now} FROM ${moderationDecisions}
    WHERE id = ${appeal.decisionId} AND user_id = ${appeal.userId} AND restricts = 1 AND appeal_until >= ${now}
    ON CONFLICT (decision_id) DO NOTHING
    RETURNING id`);
  return row?.id ?? null;
}

export function appealOf(db: Database, decisionId: number) {
  return db.select().from(appeals).where(eq(appeals.decisionId, decisionId)).get();
}

export function appealById(db: Database, id: number) {
  return db.select().from(appeals).where(eq(appeals.id, id)).get();
}

/** Open appeals, oldest first, with the decision they contest, a page at a time. */
export function openAppeals(db: Database, limit: number, offset = 0) {
  return db
    .select({
      id: appeals.id,
      text: appeals.text,
      createdAt: appeals.createdAt,
      decisionId: moderationDecisions.id,
      outcome: moderationDecisions.outcome,
      ground: moderationDecisions.ground,
      facts: moderationDecisions.facts,
      decidedBy: operators.email,
      operatorId: moderationDecisions.operatorId,
      profileId: moderationDecisions.profileId,
    })
    .from(appeals)
    .innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId))
    .leftJoin(operators, eq(operators.id, moderationDecisions.operatorId))
    .where(eq(appeals.status, "open"))
    .orderBy(asc(appeals.createdAt), asc(appeals.id))
    .limit(limit)
    .offset(offset);
}

/** How many appeals are open, counted as openAppeals lists them. */
export async function countOpenAppeals(db: Database): Promise<number> {
  const row = await db
    .select({ count: sql<number>`count(*)` })
    .from(appeals)
    .innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId))
    .where(eq(appeals.status, "open"))
    .get();
  return row?.count ?? 0;
}

/**
 * Decide an open appeal: only by an operator other than the one who took the decision appealed
 * (DSA Art. 20(6): not solely the same person), and once.
 */
export function decideAppealQuery(
  db: Database,
  appealId: number,
  operatorId: number,
  status: "upheld" | "reversed",
  note: string,
  now: number,
) {
  return db
    .update(appeals)
    .set({ status, decidedBy: operatorId, decidedAt: now, note })
    .where(
      and(
        eq(appeals.id, appealId),
        eq(appeals.status, "open"),
        sql`(SELECT operator_id FROM ${moderationDecisions} WHERE id = ${appeals.decisionId}) <> ${operatorId}`,
      ),
    );
}

/**
 * Insert a decision only when the statement before it in the batch changed a row (the guarded
 * action's audit row, decision 0034's pattern): an action that lost a race leaves no decision.
 */
export function insertDecisionIfChangedQuery(db: Database, decision: NewDecision, kept?: SQL) {
  const columns = getTableColumns(moderationDecisions) as Record<string, Column>;
  const entries = Object.entries(kept ? { ...decision, keptContent: kept } : decision).filter(
    ([, value]) => value !== undefined,
  );
  const names = sql.join(
    entries.map(([key]) => sql.identifier(columns[key]!.name)),
    sql`, `,
  );
  const values = sql.join(
    entries.map(([key, value]) => (is(value, SQL) ? value : sql`${columns[key]!.mapToDriverValue(value)}`)),
    sql`, `,
  );
  const raw = db.run(sql`INSERT INTO ${moderationDecisions} (${names}) SELECT ${values} WHERE changes() > 0`);
  // drizzle's batch binds a raw query's parameters to its `stmt`, which a raw query does not have:
  // give it the prepared statement, so the insert can stand in the action's own batch.
  return Object.assign(raw, { stmt: db.$client.prepare(raw.getQuery().sql) });
}
