export { clearSiteCache, listSites, loadSite } from "../services/site-settings";

/** The host a request was made to, without port, trailing dot or "www.". */
export function siteHost(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/\.$/, "").replace(/^www\./, "");
}
