import * as v from "valibot";
import { CompanyInfo, SiteSettings, companyKey, siteKey } from "../../shared/settings";

type Site = { settings: SiteSettings; company: CompanyInfo | null };

const TTL_MS = 60_000;
const cache = new Map<string, { site: Site | null; expires: number }>();

/** The host a request was made to, without port, trailing dot or "www.". */
export function siteHost(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/\.$/, "").replace(/^www\./, "");
}

/**
 * The site of a domain, read from KV and cached in the isolate for a minute so a busy edge
 * reads KV about once a minute per domain. Unknown domains are cached as null too.
 */
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
