/**
 * Operators add a country with this script: it validates a site's settings (and its company) against
 * the schemas the Worker reads them with (edge/site.ts checkSiteFile, which the console's
 * Sites screen uses too), then puts them into the SETTINGS KV namespace.
 *
 *   npm run site -- validate scripts/sites/example.nl.json                (the local stack's rules)
 *   npm run site -- validate my-site.json --env production                 (also production's rules)
 *   npm run site -- put scripts/sites/example.nl.json --local            (the local stack, .wrangler/state)
 *   npm run site -- put scripts/sites/example.nl.json --remote --env production [--reason TEXT]
 *
 * Putting writes the audit row the console's Sites screen writes, naming the command and who ran it.
 * The file holds { "site": SiteSettings, "company": CompanyInfo }; the company may be left out when
 * it is already in KV.
 */
import { readFileSync } from "node:fs";
import { checkSiteFile } from "../src/server/edge/site";
import { companyKey, siteKey } from "../src/shared/settings";
import { auditEntryQuery } from "../src/server/db/audit-log";
import { databaseOf } from "../src/server/db/database";
import { commandActor, fail, operatorArgs, runStatements, wrangler } from "./operator";

const { positionals, target, option, env, remote } = operatorArgs(["reason"]);
const [command, file] = positionals;
if (!file || (command !== "validate" && command !== "put"))
  fail("usage: site validate|put <file.json> [--reason TEXT] [--local|--remote] [--env NAME]");

// Production's rules (no development keys, no example partners) for a file meant for production:
// --env production, or anything put --remote.
const environment = env === "production" || remote ? "production" : "development";
let raw: unknown;
try {
  raw = JSON.parse(readFileSync(file, "utf8"));
} catch (error) {
  fail(`${file}: not readable as JSON: ${error instanceof Error ? error.message : String(error)}`);
}
const checked = checkSiteFile(raw, environment);
if ("problems" in checked) {
  for (const problem of checked.problems) console.error(problem);
  fail(
    `${file}: not valid for ${environment} (${checked.problems.length} ${checked.problems.length === 1 ? "problem" : "problems"})`,
  );
}
const { site, company } = checked.file;
if (company === undefined) console.info(`note: no company in ${file}; "${site.company_id}" must already be in KV`);
console.info(`${file}: valid settings for ${site.domain} in ${environment}`);
if (command === "validate") process.exit(0);

const where = target();
const put = (key: string, value: unknown) =>
  wrangler(["kv", "key", "put", "--binding", "SETTINGS", key, JSON.stringify(value), ...where], { inherit: true });
put(siteKey(site.domain), site);
if (company) put(companyKey(site.company_id), company);
// KV has no batch with D1: the record follows the settings, as the console's Sites screen writes it.
const entry = {
  action: "site.settings",
  target: { kind: "site", id: site.domain },
  after: { file, company: company ? site.company_id : null },
  reason: option("reason") ?? "put from the command line",
};
try {
  runStatements(where, [
    auditEntryQuery(databaseOf({} as D1Database), commandActor(), entry, Math.floor(Date.now() / 1000)),
  ]);
} catch (error) {
  // KV was written already; say plainly that the record is missing rather than fail after the put.
  console.warn(
    `note: the settings are put, but the audit row could not be written: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
  );
}
console.info(
  `${site.domain}: settings put; add the domain to wrangler.toml (routes) if it is new, then npm run deploy -- production`,
);
