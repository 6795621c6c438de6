import type { Context } from "hono";
import type { AppEnv } from "../request-context";

/** The web app manifest of the site asked for: its own name and language, so each country installs as itself. */
export function webManifest(c: Context<AppEnv>): Response {
  const site = c.get("site");
  return c.json(
    {
      name: site.name,
      short_name: site.name,
      lang: c.get("locale"),
      start_url: "/members",
      scope: "/",
      display: "standalone",
      background_color: "#fbf6f4",
      theme_color: "#e8412c",
      icons: [{ src: "/icons/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
    },
    200,
    { "content-type": "application/manifest+json", "cache-control": "public, max-age=3600", vary: "cookie" },
  );
}
