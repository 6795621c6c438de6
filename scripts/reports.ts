/**
 * Complaints and reports for operators (SPEC §2 /complaints, the Report action of a profile and a
 * chat). Lists, reads and closes reports, and disables an account (SPEC §3 status `disabled`: the
 * profile disappears from search and everywhere, its sessions end).
 *
 *   npm run reports -- list [open|resolved|rejected|all] [--local | --remote --env production]
 *   npm run reports -- show 12 [--local | --remote ...]
 *   npm run reports -- resolve 12 [--note "profile removed"] [--local | --remote ...]
 *   npm run reports -- reject 12 [--note "no rule broken"] [--local | --remote ...]
 *   npm run reports -- disable <profile id> [--report 12] [--local | --remote ...]
 *
 * The queries are those of src/server/db/reports.ts, taken as SQL text and run with wrangler.
 */
import { databaseOf } from "../src/server/db/database";
import { closeReportQuery, disableAccountQueries, listReportsQuery, reportQuery, type ReportStatus } from "../src/server/db/reports";
import { fail, inlineSql, operatorArgs, wrangler } from "./operator";

const USAGE = "usage: reports list [open|resolved|rejected|all] | show <id> | resolve <id> | reject <id> [--note TEXT] | disable <profile id> [--report <id>]  (--local | --remote) [--env NAME]";
const { positionals, target, option } = operatorArgs(["note", "report"]);
const [command, argument] = positionals;
const where = target();
// Only builds SQL text: the queries never run on this object.
const db = databaseOf({} as D1Database);
const now = Math.floor(Date.now() / 1000);

type Query = { toSQL(): { sql: string; params: unknown[] } };
function run(queries: readonly Query[]): Record<string, unknown>[] {
  const text = queries.map((q) => inlineSql(q.toSQL())).join(";\n");
  const answers = JSON.parse(wrangler(["d1", "execute", "DB", ...where, "--json", "--command", text])) as { results: Record<string, unknown>[] }[];
  return answers.flatMap((a) => a.results);
}

function positiveId(value: string | undefined, what: string): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1) fail(`give the ${what} id\n${USAGE}`);
  return id;
}

function close(id: number, status: Exclude<ReportStatus, "open">) {
  const changed = run([closeReportQuery(db, id, status, option("note") ?? null, now)]);
  console.info(changed.length ? `report ${id} ${status}` : `report ${id} is not open (or does not exist): nothing changed`);
}

switch (command) {
  case "list": {
    const status = (argument ?? "open") as ReportStatus | "all";
    if (!["open", "resolved", "rejected", "all"].includes(status)) fail(USAGE);
    const rows = run([listReportsQuery(db, status)]);
    if (rows.length === 0) console.info(`No ${status === "all" ? "" : `${status} `}reports.`);
    else {
      console.info(Object.keys(rows[0]!).join("\t"));
      for (const row of rows) console.info(Object.values(row).join("\t"));
    }
    break;
  }
  case "show": {
    const [row] = run([reportQuery(db, positiveId(argument, "report"))]);
    if (!row) fail(`no report ${argument}`);
    for (const [key, value] of Object.entries(row)) console.info(`${key}: ${value ?? ""}`);
    break;
  }
  case "resolve":
  case "reject":
    close(positiveId(argument, "report"), command === "resolve" ? "resolved" : "rejected");
    break;
  case "disable": {
    const profileId = positiveId(argument, "profile");
    run(disableAccountQueries(db, profileId, now));
    console.info(`profile ${profileId}: account disabled, removed from search, sessions ended`);
    const report = option("report");
    if (report !== undefined) close(positiveId(report, "report"), "resolved");
    break;
  }
  default:
    fail(USAGE);
}
