import type { Context } from "hono";
import { App } from "../../app/App";
import { pageDataKeys, WELCOME_KEY } from "../../app/page/page-data";
import type { PageError, PageState } from "../../app/page/page-state";
import { matchRoute, type RouteMatch } from "../../shared/routes";
import { loadScreen } from "../../app/screens";
import { loadSource } from "../api/sources";
import { welcomeOffer } from "../api/discounts";
import { pageSettings, searchModeFor } from "../api/settings";
import type { AppEnv } from "../request-context";
import { AppError, refusalText } from "../errors";
import { i18nFor, textsFile } from "../translations";
import { getUserView } from "../services/users";
import { pageAssets } from "./assets";
import { Document } from "./document";
import { headTags } from "./seo";
import { inlineJson, streamPage } from "./stream";
import { listSites } from "../edge/site";

function pageError(c: Context<AppEnv>, error: AppError): PageError {
  return { status: error.status, message: error.status === 404 ? null : refusalText(c.get("t"), error) };
}

/** Render the page of the requested URL: its route, its data, or the 404 / error page. */
export async function renderRoute(c: Context<AppEnv>): Promise<Response> {
  const url = new URL(c.req.url);
  const match = matchRoute(url.pathname);
  if (!match) return renderPage(c, null, { status: 404, message: null });
  // Members search is the logged-in home (SPEC §2).
  if (match.route.name === "index" && c.get("session")) return c.redirect("/members", 302);

  const fallback: Record<string, unknown> = {};
  try {
    const member = c.get("session") !== null;
    // A visitor's chat page renders without the member's data: the screen asks them to log in.
    const keys = pageDataKeys(match, url.searchParams, member ? "all" : searchModeFor(c), member);
    const answers = await Promise.all(keys.map((k) => loadSource(c, k.key)));
    keys.forEach((k, i) => (fallback[k.fallbackKey] = k.infinite ? [answers[i]] : answers[i]));
  } catch (error) {
    if (error instanceof AppError) return renderPage(c, match, pageError(c, error));
    throw error;
  }
  return renderPage(c, match, null, fallback);
}

/** Stream the app for one page state; if even that fails, a last plain page says so. */
export async function renderPage(
  c: Context<AppEnv>,
  match: RouteMatch | null,
  error: PageError | null,
  fallback: Record<string, unknown> = {},
): Promise<Response> {
  const screen = match && !error ? match.route.screen : null;
  if (screen) await loadScreen(screen);
  const locale = c.get("locale");
  const country = c.get("site").countries[0]!;
  const texts = await textsFile(locale, country);
  const session = c.get("session");
  const user = session ? await getUserView(c.get("db"), session.userId) : null;
  const now = Math.floor(Date.now() / 1000);
  const page: PageState = {
    locale,
    texts: texts.path,
    settings: pageSettings(c),
    company: c.get("company"),
    user,
    fallback:
      user && !user.paid_user ? { ...fallback, [WELCOME_KEY]: welcomeOffer(c, session!.userId, user, now) } : fallback,
    error,
    rendered_at: now,
    development: c.env.ENVIRONMENT === "development",
  };
  const url = new URL(c.req.url);
  const assets = pageAssets(screen);
  const head = headTags({
    site: c.get("site"),
    sites: await listSites(c.env.SETTINGS),
    locale,
    url,
    match,
    failed: error !== null,
    fallback,
    t: c.get("t"),
  });
  // Through c.body, so cookies and headers set earlier in the request (locale, tracking) go out too.
  const render = async (state: PageState) => {
    const streamed = await streamPage(
      <Document lang={texts.tag} assets={assets} texts={texts.path} nonce={c.get("secureHeadersNonce")} head={head}>
        <App page={state} url={url.pathname + url.search + url.hash} i18n={i18nFor(locale, country)} />
      </Document>,
      {
        status: state.error?.status ?? 200,
        nonce: c.get("secureHeadersNonce"),
        entry: assets.entry,
        bootstrap: `window.__PAGE__=${inlineJson(state)}`,
        userAgent: c.req.header("user-agent"),
        requestId: c.get("requestId"),
        // Said in the header as well, for crawlers that read only the headers.
        ...(head.noindex ? { headers: { "x-robots-tag": "noindex" } } : {}),
      },
    );
    return c.body(streamed.body, streamed.status as 200, streamed.headers);
  };
  try {
    return await render(page);
  } catch (failure) {
    console.error(
      JSON.stringify({
        event: "render_failed",
        requestId: c.get("requestId"),
        message: failure instanceof Error ? failure.message : String(failure),
      }),
    );
    try {
      return await render({ ...page, fallback: {}, error: { status: 500, message: null } });
    } catch {
      const t = c.get("t");
      return c.html(
        `<!doctype html><meta charset="utf-8"><h1>${t("errors.error_page_failed")}</h1><a href="/">${t("errors.go_back_home")}</a>`,
        500,
      );
    }
  }
}
