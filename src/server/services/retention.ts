/**
 * Retention (docs/decisions/0032): D1 is shared by every site and would fill up with copies of what
 * was sent and with ended logins. The daily clock work deletes them in bounded batches: sent mail,
 * SMS and push copies after OUTBOX_RETENTION_DAYS (30 by default), ended sessions, used or expired
 * links and SMS codes a day after they ended, handled reports after REPORT_RETENTION_DAYS,
 * verification selfies (their R2 objects) SELFIE_RETENTION_DAYS after their decision (docs/decisions/0040),
 * what a moderation decision kept to undo it (the removed text, the photos' statuses) once no
 * appeal can come and none is open (docs/decisions/0059), and who was active in a month after
 * ACTIVE_MONTHS_KEPT months (docs/decisions/0063).
 */
import { REPORT_RETENTION_DAYS } from "../../shared/reports";
import type { Database } from "../db/database";
import { forgetKeptContentQuery } from "../db/moderation";
import { deleteExpiredBatch, type RetainedKind } from "../db/retention";
import { deleteOldSelfies } from "./verification";

export const DEFAULT_OUTBOX_RETENTION_DAYS = 30;
/** How long an ended session, link or code stays (a day: a page that just used it still gets a clear answer). */
export const ENDED_RETENTION_SECONDS = 86_400;
const DAY = 86_400;

const KINDS: readonly RetainedKind[] = [
  "mail",
  "sms",
  "push",
  "sessions",
  "push_subscriptions",
  "auth_tokens",
  "sms_codes",
  "login_attempts",
  "reports",
  "active_months",
];
/** Kinds with objects in R2 as well as rows. */
type StoredKind = "selfies" | "kept_content";

/** The configured days sent mail, SMS and pushes are kept (the var OUTBOX_RETENTION_DAYS; 30 when unset or not a whole number of at least 1). */
export function outboxRetentionDays(env: { OUTBOX_RETENTION_DAYS?: string }): number {
  const days = Number(env.OUTBOX_RETENTION_DAYS);
  return Number.isInteger(days) && days >= 1 ? days : DEFAULT_OUTBOX_RETENTION_DAYS;
}

/** Months of active members kept besides the current one: the report of the last two calendar years reads them. */
export const ACTIVE_MONTHS_KEPT = 24;

/** The first month (YYYY-MM, UTC) whose active members the retention run keeps at `now`. */
export function firstKeptMonth(now: number): string {
  const date = new Date(now * 1000);
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - ACTIVE_MONTHS_KEPT);
  return date.toISOString().slice(0, 7);
}

/** `photos`: the bucket selfies are deleted from (they wait while it is not given). */
export type RetentionLimits = { outboxDays: number; batch?: number; maxBatches?: number; photos?: R2Bucket };

/**
 * Delete what is past its age at `now` (unix seconds), each kind in batches of `batch` rows, at most
 * `maxBatches` per kind in one run (the rest waits for the next day). Answers how many rows of each
 * kind went and whether any kind has more waiting.
 */
export async function runRetention(
  db: Database,
  now: number,
  limits: RetentionLimits,
): Promise<{ deleted: Record<RetainedKind | StoredKind, number>; more: boolean }> {
  const batch = limits.batch ?? 500;
  const maxBatches = limits.maxBatches ?? 20;
  const cutoffs = {
    outbox: now - limits.outboxDays * DAY,
    ended: now - ENDED_RETENTION_SECONDS,
    reports: now - REPORT_RETENTION_DAYS * DAY,
    now,
    months: firstKeptMonth(now),
  };
  const deleted = Object.fromEntries([...KINDS, "selfies", "kept_content"].map((k) => [k, 0])) as Record<
    RetainedKind | StoredKind,
    number
  >;
  let more = false;
  const run = async (kind: RetainedKind | StoredKind, once: () => Promise<number>) => {
    for (let i = 0; ; i++) {
      if (i === maxBatches) {
        more = true;
        break;
      }
      const n = await once();
      deleted[kind] += n;
      if (n < batch) break;
    }
  };
  // Sessions before their subscriptions: a subscription goes with the login that stored it.
  for (const kind of KINDS) await run(kind, () => deleteExpiredBatch(db, kind, cutoffs, batch));
  const photos = limits.photos;
  if (photos) await run("selfies", () => deleteOldSelfies(db, photos, now, batch));
  // Few rows (one per removing decision past its appeal time): one statement clears them all.
  deleted.kept_content = (await forgetKeptContentQuery(db, now)).meta.changes;
  return { deleted, more };
}
