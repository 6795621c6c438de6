/**
 * The one way a console action changes anything (docs/decisions/0034): its statements and its audit
 * row in one D1 batch, so there is never a change without its record nor a record without its change.
 */
import type { Context } from "hono";
import { withAudit, type Actor, type AuditEntry, type Statement } from "../db/audit-log";
import type { Operator } from "../db/operators";
import type { ConsoleEnv } from "./console-context";

/** The operator as the audit log names them. */
export function actorOf(operator: Operator): Actor {
  return { operatorId: operator.id, name: operator.email };
}

/**
 * Run an action and its audit row as one batch, for the operator of this request; answers whether
 * the first statement changed a row (for a guarded action: whether it took effect).
 */
export async function runAudited(
  c: Context<ConsoleEnv>,
  entry: AuditEntry,
  statements: readonly Statement[],
  options: { onlyIfChanged?: boolean; now?: number } = {},
): Promise<boolean> {
  const db = c.var.db;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const results = await db.batch(withAudit(db, actorOf(c.var.operator), entry, statements, now, options.onlyIfChanged));
  const first = results[0] as { meta?: { changes?: number } } | unknown[] | undefined;
  if (Array.isArray(first)) return first.length > 0;
  return (first?.meta?.changes ?? 0) > 0;
}
