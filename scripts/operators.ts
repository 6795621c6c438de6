/**
 * The console's operators from the command line, for the first admin (who then adds the others in
 * the console) and for when nobody can reach the console (docs/decisions/0034). The statements and
 * the audit row are those the console writes (src/server/services/operators.ts), as SQL text run
 * with wrangler; the audit log names the command and who ran it.
 *
 *   npm run operator -- add-admin you@example.com [--reason TEXT] (--local | --remote [--env production])
 *   npm run operator -- add someone@example.com --roles moderator,support [--reason TEXT] (--local | --remote ...)
 *   npm run operator -- disable someone@example.com [--reason TEXT] (--local | --remote ...)
 *   npm run operator -- list (--local | --remote ...)
 */
import { userInfo } from "node:os";
import type { Actor } from "../src/server/db/audit-log";
import { databaseOf } from "../src/server/db/database";
import {
  isOperatorRole,
  listOperators,
  operatorEmail,
  OPERATOR_ROLES,
  type OperatorRole,
} from "../src/server/db/operators";
import { disableOperatorStatements, isOperatorAddress, putOperatorStatements } from "../src/server/services/operators";
import { fail, operatorArgs, runStatements } from "./operator";

const USAGE = `usage: operator add-admin <email> | add <email> --roles ${OPERATOR_ROLES.join(",")} | disable <email> | list  [--reason TEXT] (--local | --remote) [--env NAME]`;
const { positionals, target, option } = operatorArgs(["roles", "reason"]);
const [command, address] = positionals;
const where = target();
// Only builds SQL text: the queries never run on this object.
const db = databaseOf({} as D1Database);
const now = Math.floor(Date.now() / 1000);
const actor: Actor = { operatorId: null, name: `command:${userInfo().username}` };

type Row = { id: number; email: string; status: string; roles: string | null };
/** Statements as one wrangler call (D1 runs a command's statements as one batch). */
const run = (queries: readonly object[]) => runStatements(where, queries);
const operators = () => run([listOperators(db)]) as Row[];
const rolesOf = (row: Row) => (row.roles ?? "").split(",").filter(isOperatorRole);

function emailArgument(): string {
  if (!address || !isOperatorAddress(address)) fail(`give the operator's e-mail address\n${USAGE}`);
  return operatorEmail(address);
}

function put(roles: OperatorRole[]) {
  const email = emailArgument();
  const existing = operators().find((row) => row.email === email);
  const before = existing ? { email, status: existing.status, roles: rolesOf(existing) } : null;
  run(
    putOperatorStatements(
      db,
      actor,
      { email, roles, reason: option("reason") ?? "set from the command line" },
      before,
      now,
    ),
  );
  console.info(`${email}: ${existing ? "updated" : "added"}, roles ${roles.join(", ")}`);
}

switch (command) {
  case "add-admin":
    put(["admin"]);
    break;
  case "add": {
    const roles = (option("roles") ?? "")
      .split(",")
      .map((role) => role.trim())
      .filter(Boolean);
    if (roles.length === 0 || !roles.every(isOperatorRole))
      fail(`give --roles, a comma-separated list of ${OPERATOR_ROLES.join(", ")}`);
    put(roles as OperatorRole[]);
    break;
  }
  case "disable": {
    const email = emailArgument();
    const existing = operators().find((row) => row.email === email && row.status === "active");
    if (!existing) fail(`${email} is not an active operator`);
    run(
      disableOperatorStatements(
        db,
        actor,
        { id: existing.id, email, roles: rolesOf(existing) },
        option("reason") ?? "disabled from the command line",
        now,
      ),
    );
    console.info(`${email}: disabled`);
    break;
  }
  case "list": {
    const rows = operators();
    if (rows.length === 0) console.info("No operators yet: npm run operator -- add-admin <address> --local");
    for (const row of rows) console.info([row.id, row.email, row.status, row.roles ?? ""].join("\t"));
    break;
  }
  default:
    fail(USAGE);
}
