/**
 * The audit log of operator actions (docs/decisions/0034): the insert that goes into the batch of the
 * action it records, and the console's reading of it. Rows are never changed or removed (triggers
 * of migration 0022).
 */
import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "./database";
import { auditLog } from "./schema";

/** Who acted: a console operator, or an operator command run outside the console (`operatorId` null). */
export type Actor = { operatorId: number | null; name: string };

/** What one action did, to what, and why. `before` and `after` are stored as JSON. */
export type AuditEntry = {
  action: string;
  target: { kind: string; id: string | number };
  before?: unknown;
  after?: unknown;
  reason?: string | null;
};

const asJson = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * The insert of one audit row. With `onlyIfChanged`, the row is written only when the statement run
 * just before it in the same batch changed a row (SQLite's changes()), so an action that lost a race
 * leaves no record of something that did not happen.
 */
export function auditEntryQuery(db: Database, actor: Actor, entry: AuditEntry, now: number, onlyIfChanged = false) {
  const row = {
    operatorId: actor.operatorId,
    actor: actor.name,
    action: entry.action,
    targetKind: entry.target.kind,
    targetId: String(entry.target.id),
    before: asJson(entry.before),
    after: asJson(entry.after),
    reason: entry.reason ?? null,
    createdAt: now,
  };
  if (!onlyIfChanged) return db.insert(auditLog).values(row);
  // Every column in the table's order (id left to SQLite): drizzle names them all for a select.
  return db.insert(auditLog).select(sql`
    SELECT NULL, ${row.operatorId}, ${row.actor}, ${row.action}, ${row.targetKind}, ${row.targetId}, ${row.before}, ${row.after}, ${row.reason}, ${now}
    WHERE changes() > 0`);
}

/** One statement of a D1 batch. */
export type Statement = BatchItem<"sqlite">;
/** The statements of one D1 batch (never empty). */
export type Batch = [Statement, ...Statement[]];

/**
 * The statements of an action followed by its audit row, for one batch. With `onlyIfChanged` the
 * audit row follows the first statement and is written only when it changed a row: the first
 * statement is the guarded one (an update that holds only while the target is still as the operator
 * saw it), and an action that lost a race to another operator leaves no record.
 */
export function withAudit(
  db: Database,
  actor: Actor,
  entry: AuditEntry,
  statements: readonly Statement[],
  now: number,
  onlyIfChanged = false,
): Batch {
  const audit = auditEntryQuery(db, actor, entry, now, onlyIfChanged);
  if (!onlyIfChanged) return [audit, ...statements];
  const [first, ...rest] = statements;
  if (!first) throw new Error("an action guarded by its first statement needs one");
  return [first, audit, ...rest];
}

export type AuditFilter = { operatorId?: number; targetKind?: string; targetId?: string; action?: string };

/** Audit rows, newest first, matching the filter, older than the row `beforeId` when paging. */
export function auditEntries(db: Database, filter: AuditFilter, page: { beforeId?: number; limit: number }) {
  const conditions: SQL[] = [];
  if (filter.operatorId !== undefined) conditions.push(eq(auditLog.operatorId, filter.operatorId));
  if (filter.targetKind !== undefined) conditions.push(eq(auditLog.targetKind, filter.targetKind));
  if (filter.targetId !== undefined) conditions.push(eq(auditLog.targetId, filter.targetId));
  if (filter.action !== undefined) conditions.push(eq(auditLog.action, filter.action));
  if (page.beforeId !== undefined) conditions.push(lt(auditLog.id, page.beforeId));
  return db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(page.limit);
}
