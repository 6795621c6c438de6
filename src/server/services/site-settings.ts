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
