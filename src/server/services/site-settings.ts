/**
 * A country site's settings and company, read from KV (`site:<domain>`, `company:<id>`) and kept in
 * the isolate for a minute, so a busy edge or a busy conversation object reads KV about once a
 * minute per domain. Used by the edge middleware for every request and by the conversation objects.
 */
import * as v from "valibot";
import { CompanyInfo, SiteSettings, companyKey, siteKey } from "../../shared/settings";

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
