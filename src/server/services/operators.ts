/**
 * Operators and their roles, as the console's admin screen and the operator command change them:
 * the same statements and the same audit row either way (docs/decisions/0034).
 */
import { withAudit, type Actor, type Batch } from "../db/audit-log";
import type { Database } from "../db/database";
import { disableOperatorQuery, operatorEmail, putOperatorQueries, type OperatorRole } from "../db/operators";

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether a text is an address Access could vouch for. */
export function isOperatorAddress(email: string): boolean {
  return ADDRESS.test(operatorEmail(email));
}

type OperatorBefore = { email: string; status: string; roles: OperatorRole[] } | null;

/**
 * The statements that add an operator (or take one back, active again) with exactly these roles,
 * and its audit row. `before` is the operator as the actor saw them.
 */
export function putOperatorStatements(
  db: Database,
  actor: Actor,
  input: { email: string; roles: OperatorRole[]; reason: string },
  before: OperatorBefore,
  now: number,
): Batch {
  const email = operatorEmail(input.email);
  const roles = [...new Set(input.roles)].toSorted();
  return withAudit(
    db,
    actor,
    {
      action: before ? "operator.update" : "operator.add",
      target: { kind: "operator", id: email },
      before,
      after: { email, status: "active", roles },
      reason: input.reason,
    },
    putOperatorQueries(db, email, roles, now),
    now,
  );
}

/** The statements that disable an operator, and its audit row (written only if they were active). */
export function disableOperatorStatements(
  db: Database,
  actor: Actor,
  operator: { id: number; email: string; roles: OperatorRole[] },
  reason: string,
  now: number,
): Batch {
  return withAudit(
    db,
    actor,
    {
      action: "operator.disable",
      target: { kind: "operator", id: operator.email },
      before: { status: "active", roles: operator.roles },
      after: { status: "disabled" },
      reason,
    },
    [disableOperatorQuery(db, operator.id)],
    now,
    true,
  );
}
