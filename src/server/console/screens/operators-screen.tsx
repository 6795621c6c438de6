/**
 * Operators and their roles (admins only): the list, adding an operator or changing their roles, and
 * disabling one, each with a reason in the audit log.
 */
import { Hono } from "hono";
import * as v from "valibot";
import { isOperatorRole, listOperators, operatorRecord, OPERATOR_ROLES, type OperatorRole } from "../../db/operators";
import { disableOperatorStatements, isOperatorAddress, putOperatorStatements } from "../../services/operators";
import { actorOf } from "../audited-action";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, idParam, readForm, Reason } from "../console-forms";
import { Checks, FormError, ReasonField, renderConsole, when } from "../console-page";
import { ConsoleRefusal } from "../console-refusal";

const PutOperator = v.object({
  email: v.pipe(v.string(), v.trim(), v.check(isOperatorAddress, "Give the operator's e-mail address.")),
  roles: v.pipe(
    v.union([v.string(), v.array(v.string())]),
    v.transform((value) => (Array.isArray(value) ? value : [value])),
    v.check((roles) => roles.length > 0 && roles.every(isOperatorRole), "Choose at least one role."),
    v.transform((roles) => roles as OperatorRole[]),
  ),
  reason: Reason,
});
const DisableOperator = v.object({ reason: Reason });

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const rows = await listOperators(c.var.db);
    return renderConsole(
      c,
      "Operators",
      <>
        <table>
          <thead>
            <tr>
              <th>E-mail</th>
              <th>Roles</th>
              <th>Status</th>
              <th>Since</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>{row.email}</td>
                <td>{(row.roles ?? "").replaceAll(",", ", ")}</td>
                <td>{row.status}</td>
                <td>{when(row.created_at)}</td>
                <td>
                  {row.status === "active" && row.id !== c.var.operator.id && (
                    <form method="post" action={`/operators/${row.id}/disable`}>
                      <input
                        name="reason"
                        placeholder="Reason"
                        required
                        minLength={3}
                        aria-label={`Reason to disable ${row.email}`}
                      />{" "}
                      <button type="submit">Disable</button>
                      <FormError />
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <form method="post" action="/operators">
          <fieldset>
            <legend>Add an operator, or change an operator's roles</legend>
            <label>
              E-mail (as Cloudflare Access knows them) <input name="email" type="email" required />
            </label>
            <Checks name="roles" values={OPERATOR_ROLES} />
            <ReasonField />
            <button type="submit">Save</button>
            <FormError />
          </fieldset>
        </form>
      </>,
    );
  })
  .post("/", async (c) => {
    const input = await readForm(c, PutOperator);
    const db = c.var.db;
    const before = await operatorRecord(db, { email: input.email });
    const now = Math.floor(Date.now() / 1000);
    await db.batch(
      putOperatorStatements(
        db,
        actorOf(c.var.operator),
        input,
        before ? { email: before.email, status: before.status, roles: before.roles } : null,
        now,
      ),
    );
    return actionDone(c, "/operators");
  })
  .post("/:id/disable", async (c) => {
    const id = idParam(c.req.param("id"));
    const { reason } = await readForm(c, DisableOperator);
    if (id === c.var.operator.id)
      throw new ConsoleRefusal(400, "own_account", "An operator cannot disable themselves.");
    const db = c.var.db;
    const operator = await operatorRecord(db, { id });
    if (!operator || operator.status !== "active")
      throw new ConsoleRefusal(404, "not_found", "There is no active operator with that id.");
    await db.batch(
      disableOperatorStatements(db, actorOf(c.var.operator), operator, reason, Math.floor(Date.now() / 1000)),
    );
    return actionDone(c, "/operators");
  });

export const operatorsScreen: ConsoleScreen = { path: "/operators", label: "Operators", role: "admin", routes };
