/**
 * A country site's settings and company, read from KV (`site:<domain>`, `company:<id>`) and kept in
 * the isolate for a minute, so a busy edge or a busy conversation object reads KV about once a
 * minute per domain. Used by the edge middleware for every request and by the conversation objects.
 */
import * as v from "valibot";
import { CompanyInfo, SiteSettings, companyKey, siteKey } from "../../shared/settings";
import { siteRuleProblems, type SiteEnvironment } from "../../shared/site-rules";

type Site = { settings: SiteSettings; company: CompanyInfo | null };

const TTL_MS = 60_000;
const cache = new Map<string, { site: Site | null; expires: number }>();

/** The site of a domain, or null when there is none (unknown domains are cached as null too). */
export async function loadSite(kv: KVNamespace, domain: string, now = Date.now()): Promise<Site | null> {
  const hit = cache.get(domain);
  if (hit && hit.expires > now) return hit.site;
  const raw = await kv.get(siteKey(domain), "json");
  let site: Site | null = null;
  if (raw !== null) {
    const settings = v.parse(SiteSettings, raw);
    const companyRaw = await kv.get(companyKey(settings.company_id), "json");
    site = { settings, company: companyRaw === null ? null : v.parse(CompanyInfo, companyRaw) };
  }
  cache.set(domain, { site, expires: now + TTL_MS });
  return site;
}

let directory: { sites: SiteSettings[]; expires: number } | null = null;

/**
 * Every country site this Worker serves (for the hreflang alternates and the sitemap), read from
 * KV and cached in the isolate for a minute like each site.
 */
export async function listSites(kv: KVNamespace, now = Date.now()): Promise<SiteSettings[]> {
  if (directory && directory.expires > now) return directory.sites;
  const sites: SiteSettings[] = [];
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix: siteKey(""), ...(cursor ? { cursor } : {}) });
    for (const key of page.keys) {
      const site = await loadSite(kv, key.name.slice(siteKey("").length), now);
      if (site) sites.push(site.settings);
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  sites.sort((a, b) => a.domain.localeCompare(b.domain));
  directory = { sites, expires: now + TTL_MS };
  return sites;
}

/** Forget cached sites (after a test writes new settings). */
export function clearSiteCache(): void {
  cache.clear();
  directory = null;
}

/**
 * A site's settings as an operator gives them: `npm run site` reads this from a file, the console's
 * Sites screen from its form. The company may be left out when it is already in KV.
 */
export const SiteFile = v.strictObject({ site: SiteSettings, company: v.optional(CompanyInfo) });
export type SiteFile = v.InferOutput<typeof SiteFile>;

/**
 * Settings checked against the schemas the Worker reads them with, then against the launch rules
 * (shared/site-rules.ts: methods against currency and country, direct debit and Klarna against their
 * prerequisites, the address, the languages and, in production, development leftovers): the file,
 * or each problem as "path: message".
 */
export function checkSiteFile(
  raw: unknown,
  environment: SiteEnvironment = "development",
): { file: SiteFile } | { problems: string[] } {
  const result = v.safeParse(SiteFile, raw);
  if (!result.success)
    return { problems: result.issues.map((issue) => `${v.getDotPath(issue) ?? "(root)"}: ${issue.message}`) };
  const problems = siteRuleProblems(result.output, environment);
  return problems.length > 0 ? { problems } : { file: result.output };
}

/** The launch rules' environment of a Worker: production everywhere but the local stack. */
export const siteEnvironmentOf = (env: Pick<Env, "ENVIRONMENT">): SiteEnvironment =>
  env.ENVIRONMENT === "development" ? "development" : "production";

/** A site's settings and its company as KV holds them now (unparsed, so a bad stored value still shows). */
export async function storedSiteFile(
  kv: KVNamespace,
  domain: string,
): Promise<{ site: unknown; company?: unknown } | null> {
  const site = await kv.get<{ company_id?: unknown }>(siteKey(domain), "json");
  if (site === null) return null;
  const company = typeof site.company_id === "string" ? await kv.get(companyKey(site.company_id), "json") : null;
  return company === null ? { site } : { site, company };
}

/** Put checked settings into KV (the site, and its company when given); the isolate's cache forgets them. */
export async function putSiteFile(kv: KVNamespace, file: SiteFile): Promise<void> {
  await kv.put(siteKey(file.site.domain), JSON.stringify(file.site));
  if (file.company) await kv.put(companyKey(file.site.company_id), JSON.stringify(file.company));
  clearSiteCache();
}

export type SettingChange = { path: string; before: unknown; after: unknown };

/** What differs between two settings, leaf by leaf (an array is one leaf), in the order of the keys. */
export function settingsChanges(before: unknown, after: unknown, path = ""): SettingChange[] {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => settingsChanges(before[key], after[key], path ? `${path}.${key}` : key));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: path || "(root)", before, after }];
}

/** The host a request was made to, without port, trailing dot or "www.". */
export function siteHost(url: string): string {
  return new URL(url).hostname
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^www\./, "");
}
