/**
 * Complaints and reports, and what an operator does about them: every query of the reports table
 * and of disabling an account (the moderation queues' own reads are in db/moderation.ts).
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { accountIsLive } from "./accounts";
import type { Database } from "./database";
import { photos, profiles, reports, users } from "./schema";
import { revokeMemberSessions } from "./sessions";

export type ReportStatus = "open" | "resolved" | "rejected";
type NewReport = Pick<
  typeof reports.$inferInsert,
  | "reporterKey"
  | "reporterUserId"
  | "email"
  | "subject"
  | "description"
  | "targetKey"
  | "profileId"
  | "messageId"
  | "siteDomain"
  | "language"
  | "clientAddress"
  | "reporterName"
  | "goodFaith"
  | "category"
  | "basis"
  | "law"
  | "location"
  | "photoId"
  | "queue"
>;

const HOUR = 60 * 60;

/** Whether a profile can be reported: it exists and is shown (active profile of a live account). */
export async function isReportableProfile(db: Database, profileId: number): Promise<boolean> {
  const row = await db
    .select({ id: profiles.id })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(profiles.id, profileId), eq(profiles.status, "active"), accountIsLive()))
    .get();
  return row !== undefined;
}

/** Whether a photo can be reported as one of a profile's: it is that profile's and public. */
export async function isReportablePhoto(db: Database, photoId: number, profileId: number): Promise<boolean> {
  const row = await db
    .select({ id: photos.id })
    .from(photos)
    .where(and(eq(photos.id, photoId), eq(photos.profileId, profileId), eq(photos.status, "active")))
    .get();
  return row !== undefined;
}

/** Whether this reporter already reported this thing (whatever became of that report). */
export async function hasReported(db: Database, reporterKey: string, targetKey: string): Promise<boolean> {
  const row = await db
    .select({ id: reports.id })
    .from(reports)
    .where(and(eq(reports.reporterKey, reporterKey), eq(reports.targetKey, targetKey)))
    .get();
  return row !== undefined;
}

/**
 * Store a report unless its reporter or its network address filed their hourly number already,
 * or the reporter reported the same thing before. One statement, so two reports sent at once
 * cannot both slip under a limit. Answers the new id, or null when nothing was stored.
 */
export async function insertReport(
  db: Database,
  report: NewReport,
  limits: { perReporter: number; perAddress: number },
  now: number,
): Promise<number | null> {
  const since = now - HOUR;
  const row = await db.get<{ id: number } | undefined>(sql`
    INSERT INTO ${reports} (reporter_key, reporter_user_id, email, subject, description, target_key, profile_id, message_id, site_domain, language, client_address, status, created_at,
                            reporter_name, good_faith, category, basis, law, location, photo_id, queue)
    SELECT ${report.reporterKey}, ${report.reporterUserId ?? null}, ${report.email}, ${report.subject}, ${report.description}, ${report.targetKey ?? null},
           ${report.profileId ?? null}, ${report.messageId ?? null}, ${report.siteDomain}, ${report.language}, ${report.clientAddress}, 'open', ${now},
           ${report.reporterName ?? null}, ${report.goodFaith ? 1 : 0}, ${report.category ?? null}, ${report.basis ?? null}, ${report.law ?? null},
           ${report.location ?? null}, ${report.photoId ?? null}, ${report.queue ?? "moderation"}
    WHERE (SELECT count(*) FROM ${reports} WHERE reporter_key = ${report.reporterKey} AND created_at > ${since}) < ${limits.perReporter}
      AND (SELECT count(*) FROM ${reports} WHERE client_address = ${report.clientAddress} AND created_at > ${since}) < ${limits.perAddress}
    ON CONFLICT (reporter_key, target_key) DO NOTHING
    RETURNING id`);
  return row?.id ?? null;
}

/** The reports a member filed, for their data export (without the network address or operator notes). */
export function reportsFiledBy(db: Database, userId: number) {
  return db
    .select({
      id: reports.id,
      subject: reports.subject,
      description: reports.description,
      profile_id: reports.profileId,
      message_id: reports.messageId,
      status: reports.status,
      created_at: reports.createdAt,
    })
    .from(reports)
    .where(eq(reports.reporterUserId, userId))
    .orderBy(reports.id);
}

/** Close an open report as resolved or rejected, with the operator's note; a closed one stays as it is. */
export function closeReportQuery(
  db: Database,
  id: number,
  status: Exclude<ReportStatus, "open">,
  note: string | null,
  now: number,
) {
  return db
    .update(reports)
    .set({ status, operatorNote: note, handledAt: now })
    .where(and(eq(reports.id, id), eq(reports.status, "open")))
    .returning({ id: reports.id });
}

/**
 * Disable the account of a profile (SPEC §3 status `disabled`): the account and its profile are
 * disabled, the profile leaves search, and every session of the account ends. Run them together
 * (`db.batch`): the account is either disabled whole or not at all.
 */
export function disableAccountQueries(db: Database, profileId: number, now: number) {
  const owner = db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.id, profileId));
  return [
    // First and guarded: it changes a row only for an account not disabled yet (the console's audit row follows it).
    db
      .update(users)
      // The status it had is kept (SQLite reads the row as it was), so enabling gives it back.
      .set({ status: "disabled", statusBeforeDisabled: sql`${users.status}` })
      .where(and(inArray(users.id, owner), ne(users.status, "disabled"))),
    db.update(profiles).set({ status: "disabled", searchable: 0 }).where(eq(profiles.id, profileId)),
    revokeMemberSessions(db, owner, now),
  ] as const;
}

/**
 * An account enabled again gets the status it had when it was disabled (migration 0036): one that
 * never confirmed its e-mail address is not_confirmed again, not active. An account disabled before
 * the status was kept is active, as enabling made it before.
 */
export const statusBeforeDisabling = {
  status: sql<string>`COALESCE(${users.statusBeforeDisabled}, 'active')`,
  statusBeforeDisabled: null,
};

/** Disable the account of a profile now (see disableAccountQueries). */
export async function disableAccount(db: Database, profileId: number, now: number): Promise<void> {
  await db.batch(disableAccountQueries(db, profileId, now));
}
