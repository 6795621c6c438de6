/**
 * The audit log (admins): every operator action, newest first, filtered by operator and by target
 * (kind and id), fifty at a time.
 */
import { Hono } from "hono";
import { auditEntries, type AuditFilter } from "../../db/audit-log";
import { listOperators } from "../../db/operators";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { renderConsole, when } from "../console-page";

const PAGE = 50;

/** A query parameter as a filter value: trimmed, empty as absent. */
const given = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** A before or after as operators read it: one "field: value" line per field. */
function changeLines(text: string | null): string {
  if (text === null) return "";
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return JSON.stringify(value);
    return Object.entries(value)
      .map(
        ([field, one]) =>
          `${field}: ${Array.isArray(one) ? one.join(", ") : typeof one === "string" ? one : JSON.stringify(one)}`,
      )
      .join("\n");
  } catch {
    return text;
  }
}

const routes = new Hono<ConsoleEnv>().get("/", async (c) => {
  const query = c.req.query();
  const operatorId = Number(given(query.operator));
  const beforeId = Number(given(query.before));
  const filter: AuditFilter = {
    ...(Number.isSafeInteger(operatorId) && operatorId > 0 ? { operatorId } : {}),
    ...(given(query.kind) ? { targetKind: given(query.kind)! } : {}),
    ...(given(query.target) ? { targetId: given(query.target)! } : {}),
  };
  const [rows, operators] = await Promise.all([
    auditEntries(c.var.db, filter, {
      ...(Number.isSafeInteger(beforeId) && beforeId > 0 ? { beforeId } : {}),
      limit: PAGE,
    }),
    listOperators(c.var.db),
  ]);
  const next =
    rows.length === PAGE ? new URLSearchParams({ ...query, before: String(rows.at(-1)!.id) }).toString() : null;
  return renderConsole(
    c,
    "Audit log",
    <>
      <form method="get" action="/audit">
        <label className="inline">
          Operator{" "}
          <select name="operator" defaultValue={filter.operatorId ? String(filter.operatorId) : ""}>
            <option value="">anyone</option>
            {operators.map((operator) => (
              <option key={operator.id} value={operator.id}>
                {operator.email}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          Target kind{" "}
          <input name="kind" defaultValue={filter.targetKind ?? ""} size={12} placeholder="photo, report…" />
        </label>
        <label className="inline">
          Target id <input name="target" defaultValue={filter.targetId ?? ""} size={16} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <table style={{ marginTop: ".8rem" }}>
        <thead>
          <tr>
            <th>#</th>
            <th>When</th>
            <th>Who</th>
            <th>Action</th>
            <th>Target</th>
            <th>Before</th>
            <th>After</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{row.id}</td>
              <td>{when(row.createdAt)}</td>
              <td>{row.actor}</td>
              <td>{row.action}</td>
              <td>
                <a href={`/audit?${new URLSearchParams({ kind: row.targetKind, target: row.targetId }).toString()}`}>
                  {row.targetKind} {row.targetId}
                </a>
              </td>
              <td>
                <pre>{changeLines(row.before)}</pre>
              </td>
              <td>
                <pre>{changeLines(row.after)}</pre>
              </td>
              <td>{row.reason ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p className="notice">No actions match.</p>}
      {next && (
        <p>
          <a href={`/audit?${next}`}>Older actions</a>
        </p>
      )}
    </>,
  );
});

export const auditLogScreen: ConsoleScreen = { path: "/audit", label: "Audit log", role: "admin", routes };
