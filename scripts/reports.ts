/**
 * Complaints and reports from the command line (SPEC §2 /complaints, the Report action of a profile
 * and a chat), through the console (scripts/console-client.ts, docs/decisions/0035): the same
 * decisions, audit rows, statements of reasons and mails as its Reports screen; disabling ends the
 * member's sessions and open pages at once.
 *
 *   npm run reports -- list --local --as you@example.com
 *   npm run reports -- show 12 --local --as ...
 *   npm run reports -- decide 12 --outcome dismiss|warn|remove_content|restrict|disable --ground scam --note "the facts" --local --as ...
 *   npm run reports -- reject 12 [--note TEXT]        (the same as decide --outcome dismiss)
 *   npm run reports -- disable 12 --ground G --note T (decide --outcome disable)
 *   (--remote --console https://<console host> with CF_ACCESS_TOKEN for production)
 */
import { DECISION_GROUNDS, REPORT_OUTCOMES } from "../src/shared/moderation";
import { consoleClient } from "./console-client";
import { fail } from "./operator";

const USAGE = `usage: reports list | show <id> | decide <id> --outcome ${REPORT_OUTCOMES.join("|")} [--ground ${DECISION_GROUNDS.join("|")}] [--note TEXT] | reject <id> | disable <id>  (--local --as <operator> | --remote --console URL)`;
const { client, positionals, option } = await consoleClient(["outcome", "ground", "note"]);
const [command, argument] = positionals;

function reportId(): number {
  const id = Number(argument);
  if (!Number.isInteger(id) || id < 1) fail(`give the report id\n${USAGE}`);
  return id;
}

async function decide(outcome: string) {
  if (!(REPORT_OUTCOMES as readonly string[]).includes(outcome))
    fail(`give --outcome, one of ${REPORT_OUTCOMES.join(", ")}`);
  const id = reportId();
  try {
    await client.post(`/reports/${id}/decide`, {
      outcome,
      ground: option("ground") ?? "",
      facts: option("note") ?? "",
    });
    console.info(`report ${id}: ${outcome}`);
  } catch (error) {
    fail(`report ${id}: ${(error as Error).message}`);
  }
}

switch (command) {
  case "list": {
    const { reports } = await client.get<{ reports: Record<string, unknown>[] }>("/reports");
    if (reports.length === 0) console.info("No open reports.");
    else {
      console.info(Object.keys(reports[0]!).join("\t"));
      for (const row of reports) console.info(Object.values(row).join("\t"));
    }
    break;
  }
  case "show": {
    const answer = await client.get<{
      report: Record<string, unknown>;
      member: Record<string, unknown> | null;
      earlier: unknown[];
    }>(`/reports/${reportId()}`);
    for (const [key, value] of Object.entries(answer.report)) console.info(`${key}: ${value ?? ""}`);
    if (answer.member)
      for (const [key, value] of Object.entries(answer.member)) console.info(`member.${key}: ${value ?? ""}`);
    console.info(`earlier reports about the member: ${answer.earlier.length}`);
    break;
  }
  case "decide":
    await decide(option("outcome") ?? "");
    break;
  case "reject":
    await decide("dismiss");
    break;
  case "disable":
    await decide("disable");
    break;
  default:
    fail(USAGE);
}
