/**
 * What the console's support, money and dashboard tests share: a recorder that writes each action's
 * audit row as the console does (db/audit-log.ts withAudit, guarded by the first statement), and the
 * audit rows of a target, newest first.
 */
import { env } from "cloudflare:workers";
import { withAudit } from "../src/server/db/audit-log";
import type { Database } from "../src/server/db/database";
import type { Recorder } from "../src/server/services/member-support";

export function auditRecorder(db: Database, operator: { id: number; email: string }, now: number): Recorder {
  return (entry, statements) =>
    withAudit(db, { operatorId: operator.id || null, name: operator.email }, entry, statements, now, true);
}

export type AuditRow = {
  action: string;
  actor: string;
  reason: string | null;
  before: string | null;
  after: string | null;
  operator_id: number | null;
};

export async function auditRows(kind: string, id: string | number): Promise<AuditRow[]> {
  const rows = await env.DB.prepare(
    "SELECT action, actor, reason, before, after, operator_id FROM audit_log WHERE target_kind = ? AND target_id = ? ORDER BY id DESC",
  )
    .bind(kind, String(id))
    .all<AuditRow>();
  return rows.results;
}
