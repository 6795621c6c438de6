import type { Context } from "hono";
import { html, raw } from "hono/html";
import LOGO from "../../../public/icons/icon.svg?raw";
import type { AppEnv } from "../request-context";

/**
 * The page the service worker shows for a navigation when the network is gone (src/sw.ts stores it
 * at install and again when a page reports another language). Self-contained: inline style, the
 * site's logo inline, no script, no image file, so nothing else needs to be cached; it names the site
 * (which may be one of several installed); "Try again" reloads the address it stands in for.
 */
export async function offlinePage(c: Context<AppEnv>): Promise<Response> {
  const t = c.get("t");
  const locale = c.get("locale");
  const page = html`<!doctype html>
    <html lang="${locale}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#e8412c" />
        <title>${t("app_install.offline.title")} · ${c.get("site").name}</title>
        <style>
          body {
            margin: 0;
            min-height: 100vh;
            display: flex;
            align-items: center;
            justify-content: center;
            background: #fbf6f4;
            color: #2b1d1a;
            font:
              16px/1.5 system-ui,
              -apple-system,
              "Segoe UI",
              Roboto,
              sans-serif;
          }
          main {
            max-width: 22rem;
            padding: 1.5rem;
            text-align: center;
          }
          .brand {
            display: flex;
            flex-direction: column;
            align-items: center;
            gap: 0.5rem;
            margin: 0 0 1rem;
            font-weight: 700;
          }
          .brand svg {
            width: 4rem;
            height: 4rem;
          }
          h1 {
            font-size: 1.4rem;
            margin: 0 0 0.5rem;
          }
          p {
            margin: 0 0 1.5rem;
            color: #6b5a55;
          }
          a {
            display: inline-block;
            padding: 0.75rem 1.5rem;
            border-radius: 999px;
            background: #e8412c;
            color: #fff;
            text-decoration: none;
            font-weight: 600;
          }
        </style>
      </head>
      <body>
        <main>
          <div class="brand"><span aria-hidden="true">${raw(LOGO.trim())}</span>${c.get("site").name}</div>
          <h1>${t("app_install.offline.title")}</h1>
          <p>${t("app_install.offline.text", { site: c.get("site").name })}</p>
          <a href="">${t("app_install.offline.retry")}</a>
        </main>
      </body>
    </html>`;
  return c.html(await page, 200, { "content-language": locale, "cache-control": "no-store", vary: "cookie" });
}
