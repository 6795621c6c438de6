/**
 * Operators add a country with this script: it validates a site's settings (and its company) against
 * the schemas the Worker reads them with, then puts them into the SETTINGS KV namespace.
 *
 *   npm run site -- validate scripts/sites/example.nl.json
 *   npm run site -- put scripts/sites/example.nl.json --local            (the local stack, .wrangler/state)
 *   npm run site -- put scripts/sites/example.nl.json --remote --env production
 *
 * The file holds { "site": SiteSettings, "company": CompanyInfo }; the company may be left out when
 * it is already in KV.
 */
import { readFileSync } from "node:fs";
import * as v from "valibot";
import { CompanyInfo, SiteSettings, companyKey, siteKey } from "../src/shared/settings";
import { fail, operatorArgs, wrangler } from "./operator";

const SiteFile = v.strictObject({ site: SiteSettings, company: v.optional(CompanyInfo) });

const { positionals, target } = operatorArgs();
const [command, file] = positionals;
if (!file || (command !== "validate" && command !== "put")) fail("usage: site validate|put <file.json> [--local|--remote] [--env NAME]");

const result = v.safeParse(SiteFile, JSON.parse(readFileSync(file, "utf8")));
if (!result.success) {
  for (const issue of result.issues) console.error(`${v.getDotPath(issue) ?? "(root)"}: ${issue.message}`);
  fail(`${file}: not valid`);
}
const { site, company } = result.output;
if (company === undefined) console.info(`note: no company in ${file}; "${site.company_id}" must already be in KV`);
console.info(`${file}: valid settings for ${site.domain}`);
if (command === "validate") process.exit(0);

const where = target();
const put = (key: string, value: unknown) => wrangler(["kv", "key", "put", "--binding", "SETTINGS", key, JSON.stringify(value), ...where], { inherit: true });
put(siteKey(site.domain), site);
if (company) put(companyKey(site.company_id), company);
console.info(`${site.domain}: settings put; add the domain to wrangler.toml (routes) if it is new, then deploy`);
