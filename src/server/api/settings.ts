import type { Context } from "hono";
import { languagesForCountry } from "../../shared/locales";
import { LOCALISED_SETTINGS, type LoggedOutSearchMode, type PublicSettings } from "../../shared/settings";
import type { AppEnv } from "../request-context";
import { siteHost } from "../edge/site";
import { invalidParameter } from "../errors";

/** The country search and prices start from: the visitor's own when the site serves it, else the site's. */
export function selectedCountry(c: Context<AppEnv>): string {
  const site = c.get("site");
  const country = c.get("country");
  return country && site.countries.includes(country) ? country : site.countries[0]!;
}

/** The logged_out_search mode for this visitor: a visitor with a traffic source gets its own mode. */
export function searchModeFor(c: Context<AppEnv>): LoggedOutSearchMode {
  const site = c.get("site");
  return c.get("trafficSource") ? site.logged_out_search_trafficsource : site.logged_out_search;
}

/**
 * GET /api/settings.php (SPEC §7): the site's settings plus what the edge resolved. The client
 * passes its own host as `domain`; a different domain is refused rather than leaking another site.
 */
export function publicSettings(c: Context<AppEnv>, params: URLSearchParams = new URLSearchParams()): PublicSettings {
  const domain = params.get("domain");
  if (domain !== null && domain.toLowerCase().replace(/^www\./, "") !== siteHost(c.req.url)) {
    throw invalidParameter("domain");
  }
  const site = c.get("site");
  const selected = selectedCountry(c);
  return {
    ...site,
    geoip_country: c.get("country"),
    geoip_selected_country: selected,
    locale: c.get("locale"),
    languages: languagesForCountry(site.countries[0]!),
    logged_out_search_mode: searchModeFor(c),
  };
}

/**
 * The settings a page carries for its app: publicSettings with each text per language cut down to the
 * page's own language, the only one the app reads (a change of language loads the page again). The
 * other ten languages' texts were about 4 KB of every page's inline data.
 */
export function pageSettings(c: Context<AppEnv>): PublicSettings {
  const settings = publicSettings(c);
  const locale = settings.locale as keyof PublicSettings[(typeof LOCALISED_SETTINGS)[number]];
  const own = Object.fromEntries(
    LOCALISED_SETTINGS.map((key) => [
      key,
      settings[key][locale] === undefined ? {} : { [locale]: settings[key][locale] },
    ]),
  );
  return { ...settings, ...own };
}
