import type { Context } from "hono";
import type { AppEnv } from "../request-context";

/** The site's theme: the top bar's colour and the page background (styles.css), also the splash screen's. */
const THEME_COLOR = "#e8412c";
const BACKGROUND_COLOR = "#fbf6f4";

/**
 * The web app manifest of the site asked for: its own name, language and description, so each
 * country installs as itself. PNG icons (192, 512 and a maskable one) are what Chromium needs to
 * offer the install; they are drawn by scripts/app-icons.ts.
 */
export function webManifest(c: Context<AppEnv>): Response {
  const site = c.get("site");
  const locale = c.get("locale");
  return c.json(
    {
      id: "/",
      name: site.name,
      short_name: site.name,
      description: site.description[locale] ?? c.get("t")("home.description"),
      lang: locale,
      start_url: "/members",
      scope: "/",
      display: "standalone",
      background_color: BACKGROUND_COLOR,
      theme_color: THEME_COLOR,
      icons: [
        { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
        { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
        { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        { src: "/icons/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
      ],
    },
    200,
    { "content-type": "application/manifest+json", "cache-control": "public, max-age=3600", vary: "cookie" },
  );
}
