/**
 * The console's operators and their roles (docs/decisions/0034). The statements of the operator
 * command are built here too (their SQL taken with `.toSQL()`), so the command and the console
 * write the same rows.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "./database";
import { operatorRoles, operators } from "./schema";

export const OPERATOR_ROLES = ["moderator", "support", "finance", "admin"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export function isOperatorRole(value: string): value is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(value);
}

/** An operator as the console knows them for one request. */
export type Operator = { id: number; email: string; roles: OperatorRole[] };

/** Addresses are compared as Access writes them, without case. */
export function operatorEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The active operator with this address (or id), with their roles; undefined when there is none or they are disabled. */
export async function activeOperator(
  db: Database,
  by: { email: string } | { id: number },
): Promise<Operator | undefined> {
  const rows = await db
    .select({ id: operators.id, email: operators.email, role: operatorRoles.role })
    .from(operators)
    .leftJoin(operatorRoles, eq(operatorRoles.operatorId, operators.id))
    .where(
      and(
        "email" in by ? eq(operators.email, operatorEmail(by.email)) : eq(operators.id, by.id),
        eq(operators.status, "active"),
      ),
    );
  const first = rows[0];
  if (!first) return undefined;
  return {
    id: first.id,
    email: first.email,
    roles: rows.flatMap((row) => (row.role !== null && isOperatorRole(row.role) ? [row.role] : [])),
  };
}

/** Every operator with their roles (comma-separated, sorted) and status, oldest first. */
export function listOperators(db: Database) {
  return db
    .select({
      id: operators.id,
      email: operators.email,
      status: operators.status,
      created_at: operators.createdAt,
      roles: sql<
        string | null
      >`(SELECT group_concat(role, ',') FROM (SELECT role FROM ${operatorRoles} WHERE operator_id = ${operators.id} ORDER BY role))`.as(
        "roles",
      ),
    })
    .from(operators)
    .orderBy(asc(operators.id));
}

/** An operator by id or address, whatever their status, with their roles sorted. */
export async function operatorRecord(
  db: Database,
  by: { id: number } | { email: string },
): Promise<{ id: number; email: string; status: string; roles: OperatorRole[] } | undefined> {
  const row = await db
    .select({ id: operators.id, email: operators.email, status: operators.status })
    .from(operators)
    .where("id" in by ? eq(operators.id, by.id) : eq(operators.email, operatorEmail(by.email)))
    .get();
  if (!row) return undefined;
  const roles = await db
    .select({ role: operatorRoles.role })
    .from(operatorRoles)
    .where(eq(operatorRoles.operatorId, row.id))
    .orderBy(asc(operatorRoles.role));
  return { ...row, roles: roles.map((r) => r.role).filter(isOperatorRole) };
}

/**
 * Add an operator, or take an existing one (active again) with these roles: the statements, to run
 * in one batch with the audit row that records them. The roles replace those they had.
 */
export function putOperatorQueries(db: Database, email: string, roles: readonly OperatorRole[], now: number) {
  const address = operatorEmail(email);
  const id = db.select({ id: operators.id }).from(operators).where(eq(operators.email, address));
  return [
    db
      .insert(operators)
      .values({ email: address, status: "active", createdAt: now })
      .onConflictDoUpdate({ target: operators.email, set: { status: "active" } }),
    db.delete(operatorRoles).where(eq(operatorRoles.operatorId, id)),
    ...roles.map((role) =>
      db.insert(operatorRoles).select(
        db
          .select({ operatorId: operators.id, role: sql<string>`${role}`.as("role") })
          .from(operators)
          .where(eq(operators.email, address)),
      ),
    ),
  ] as const;
}

/** Disable an operator: they can no longer use the console; their rows and audit entries stay. */
export function disableOperatorQuery(db: Database, id: number) {
  return db
    .update(operators)
    .set({ status: "disabled" })
    .where(and(eq(operators.id, id), eq(operators.status, "active")));
}
