/**
 * Operators add a country with this script: it validates a site's settings (and its company) against
 * the schemas the Worker reads them with (services/site-settings.ts checkSiteFile, which the console's
 * Sites screen uses too), then puts them into the SETTINGS KV namespace.
 *
 *   npm run site -- validate scripts/sites/example.nl.json
 *   npm run site -- put scripts/sites/example.nl.json --local            (the local stack, .wrangler/state)
 *   npm run site -- put scripts/sites/example.nl.json --remote --env production
 *
 * The file holds { "site": SiteSettings, "company": CompanyInfo }; the company may be left out when
 * it is already in KV.
 */
import { readFileSync } from "node:fs";
import { checkSiteFile } from "../src/server/services/site-settings";
import { companyKey, siteKey } from "../src/shared/settings";
import { fail, operatorArgs, wrangler } from "./operator";

const { positionals, target } = operatorArgs();
const [command, file] = positionals;
if (!file || (command !== "validate" && command !== "put")) fail("usage: site validate|put <file.json> [--local|--remote] [--env NAME]");

const checked = checkSiteFile(JSON.parse(readFileSync(file, "utf8")));
if ("problems" in checked) {
  for (const problem of checked.problems) console.error(problem);
  fail(`${file}: not valid`);
}
const { site, company } = checked.file;
if (company === undefined) console.info(`note: no company in ${file}; "${site.company_id}" must already be in KV`);
console.info(`${file}: valid settings for ${site.domain}`);
if (command === "validate") process.exit(0);

const where = target();
const put = (key: string, value: unknown) => wrangler(["kv", "key", "put", "--binding", "SETTINGS", key, JSON.stringify(value), ...where], { inherit: true });
put(siteKey(site.domain), site);
if (company) put(companyKey(site.company_id), company);
console.info(`${site.domain}: settings put; add the domain to wrangler.toml (routes) if it is new, then deploy`);
