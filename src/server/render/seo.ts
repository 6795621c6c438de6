/**
 * What search engines and link previews read in a page's head (SPEC §3 index_title, description):
 * the meta description, Open Graph, the canonical address and the hreflang alternates of the same
 * page on every country site in each of its languages. Also the public pages for the sitemap and
 * the member-only paths robots.txt keeps out, both from THE route table.
 */
import { LANDERS, ROUTES, type RouteDef, type RouteMatch } from "../../shared/routes";
import type { ProfileResponse } from "../../shared/api";
import { languagesForCountry, type Language } from "../../shared/locales";
import type { SiteSettings } from "../../shared/settings";
import { resolveLocale } from "../edge/locale";

/** Routes anyone may see and search engines may index; every other route is for members or one-off steps. */
const PUBLIC_ROUTES = new Set([
  "index",
  "members",
  "members-id",
  "members-id-landing",
  "members-id-landing2-slug",
  "members-id-landing3-slug",
  "signup",
  "login",
  "complaints",
  "pricing",
  "landers-tinderswipe",
  "landers-lander-slug",
  "pages-ban",
  "pages-cookies",
  "pages-faq",
  "pages-imprint",
  "pages-privacy",
  "pages-return-policy",
  "pages-service",
  "pages-terms",
  "token",
]);

type Alternate = { hreflang: string; href: string };

export type HeadTags = {
  description: string;
  canonical: string;
  alternates: Alternate[];
  /** Pages that are not public (and error pages) ask not to be indexed. */
  noindex: boolean;
  og: { title: string; siteName: string; locale: string; url: string; image: string | null };
};

/** The language a site speaks when nobody asked for another. */
const siteLanguage = (site: SiteSettings): Language => resolveLocale(undefined, site.domain_language);

/** A site's own origin, with the scheme and port this request came in on (https in production, the dev port locally). */
function siteOrigin(site: SiteSettings, requestUrl: URL): string {
  return `${requestUrl.protocol}//${site.domain}${requestUrl.port ? `:${requestUrl.port}` : ""}`;
}

/** The address of a path on a site in one of its languages: the site's own language needs no ?lang=. */
function pageAddress(site: SiteSettings, path: string, language: Language, requestUrl: URL): string {
  return siteOrigin(site, requestUrl) + path + (language === siteLanguage(site) ? "" : `?lang=${language}`);
}

/** The same page on every site in each language its country offers (self included), as hreflang alternates. */
function alternatesOf(sites: SiteSettings[], path: string, requestUrl: URL): Alternate[] {
  return sites.flatMap((site) =>
    languagesForCountry(site.countries[0]!).map((language) => ({
      hreflang: `${language}-${site.countries[0]}`,
      href: pageAddress(site, path, language, requestUrl),
    })),
  );
}

const localised = (texts: Partial<Record<string, string>>, locale: Language) => texts[locale] ?? null;

type HeadInput = {
  site: SiteSettings;
  sites: SiteSettings[];
  locale: Language;
  url: URL;
  match: RouteMatch | null;
  failed: boolean;
  fallback: Record<string, unknown>;
  t: (key: string, values?: Record<string, unknown>) => string;
};

/** The head tags of one page. */
export function headTags({ site, sites, locale, url, match, failed, fallback, t }: HeadInput): HeadTags {
  const path = url.pathname;
  const title = localised(site.index_title, locale) ?? t("home.title", { site: site.name });
  // A profile page or member landing page previews with the member's main photo (public to everyone).
  const profile = Object.entries(fallback).find(([key]) => key.startsWith("/api/profile.php"))?.[1] as
    | ProfileResponse
    | undefined;
  // An invisible member's pages (the profile, its landing pages) are kept out of the index and give previews no photo.
  const hidden = profile?.noindex === true;
  const media = profile?.profile.main_image && !hidden ? site.cdn_prefix + profile.profile.main_image.match : null;
  // Open Graph wants an absolute address; the media prefix may already be one (a CDN).
  const image = media && !/^https?:\/\//.test(media) ? siteOrigin(site, url) + media : media;
  const canonical = pageAddress(site, path, locale, url);
  const indexable = !failed && match !== null && PUBLIC_ROUTES.has(match.route.name) && !hidden;
  return {
    description: localised(site.description, locale) ?? t("home.description"),
    canonical,
    alternates: indexable ? alternatesOf(sites, path, url) : [],
    noindex: !indexable,
    og: { title, siteName: site.name, locale: `${locale}_${site.countries[0]}`, url: canonical, image },
  };
}

/** robots.txt's form of a route's path: parameters are wildcards, an optional last one is left off. */
function robotsPath(def: RouteDef): string {
  return def.path.replace(/\/\{\w+\?\}$/, "").replace(/\{\w+\}/g, "*");
}

/** The paths robots.txt disallows: every route that is not public, the API and the development pages. */
function disallowedPaths(): string[] {
  const paths = ROUTES.filter((r) => !PUBLIC_ROUTES.has(r.name)).map(robotsPath);
  return [...new Set(["/api/", "/dev/", ...paths])];
}

/** robots.txt of a site: member-only pages stay out of search engines; the sitemap is named. */
export function robotsTxt(site: SiteSettings, requestUrl: URL): string {
  return [
    "User-agent: *",
    ...disallowedPaths().map((p) => `Disallow: ${p}`),
    "",
    `Sitemap: ${siteOrigin(site, requestUrl)}/sitemap.xml`,
    "",
  ].join("\n");
}

/**
 * The public pages of a site for sitemap.xml, each with its language alternates: the home page,
 * the search when visitors may use it, the landers and the static pages. Members' own pages are not
 * listed: being findable by search engines is not something a member asked for.
 */
function sitemapPaths(site: SiteSettings): string[] {
  return [
    "/",
    ...(site.logged_out_search === "none" ? [] : ["/members"]),
    "/signup",
    "/landers/tinderswipe",
    ...LANDERS.map((l) => `/landers/${l}`),
    ...ROUTES.filter((r) => r.name.startsWith("pages-")).map((r) => r.path),
  ];
}

const xml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** sitemap.xml of a site, with the hreflang alternates of each page (sitemaps.org and Google's xhtml:link). */
export function sitemapXml(site: SiteSettings, sites: SiteSettings[], requestUrl: URL): string {
  const urls = sitemapPaths(site).map((path) => {
    const links = alternatesOf(sites, path, requestUrl)
      .map((a) => `<xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${xml(a.href)}"/>`)
      .join("");
    return `<url><loc>${xml(pageAddress(site, path, siteLanguage(site), requestUrl))}</loc>${links}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
}
