import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import { honoPath, ROUTES } from "../shared/routes";
import { isLanguage } from "../shared/locales";
import { accountRoutes } from "./api/account";
import { chatRoutes } from "./api/chats";
import { likeRoutes } from "./api/likes";
import { memberChannelRoutes } from "./api/member-socket";
import { mailLinkRoutes, notificationRoutes } from "./api/notifications";
import { providerReportRoutes } from "./api/provider-reports";
import { showOutbox } from "./api/outbox";
import { webManifest } from "./api/manifest";
import { offlinePage } from "./render/offline-page";
import { serveTexts } from "./render/texts";
import { serveMedia } from "./api/media";
import { MOLLIE_EVENTS_PATH, mollieEventsWebhook, paymentRoutes, paymentWebhook, sandboxRoutes } from "./api/payments";
import { sessionRoutes } from "./api/sessions";
import { photoRoutes } from "./api/photos";
import { verificationRoutes } from "./api/verification";
import { reportRoutes } from "./api/reports";
import { decisionRoutes } from "./api/decisions";
import { loadSource, SOURCES } from "./api/sources";
import type { AppEnv } from "./request-context";
import { consoleApp, isOperatorHost } from "./console/console-app";
import { d1Session } from "./edge/d1-session";
import { resolveCountry } from "./edge/geo";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, resolveLocale } from "./edge/locale";
import { requireSameOrigin } from "./auth/csrf";
import { securityHeaders } from "./edge/security";
import { session } from "./edge/signed-in-member";
import { listSites, loadSite, siteHost } from "./edge/site";
import { resolveTracking } from "./edge/tracking";
import { AppError, errorBody } from "./errors";
import { i18nFor } from "./translations";
import { renderPage, renderRoute } from "./render/page";
import { robotsTxt, sitemapXml } from "./render/seo";

const isApi = (c: Context<AppEnv>) => c.req.path.startsWith("/api/");

/** A same-site path to come back to after setting the language; anything else goes home. */
function safeReturnPath(value: string | undefined): string {
  return value && /^\/(?!\/)[^\\\s]*$/.test(value) ? value : "/";
}

function createApp() {
  const app = new Hono<AppEnv>();

  // The operators' console has a host of its own and an app of its own, with nothing of the member
  // sites' middleware (site, locale, member session) in between (docs/decisions/0034).
  app.use(async (c, next) => {
    if (isOperatorHost(c.env, c.req.url)) return consoleApp.fetch(c.req.raw, c.env, c.executionCtx);
    await next();
  });

  // The benchmark's baseline: a bare route in front of all middleware, answered only in development.
  app.get("/__plain", (c, next) => (c.env.ENVIRONMENT === "development" ? c.text("ok") : next()));

  // Middleware order: request id -> security headers -> site -> country -> locale -> db -> session -> routes.
  app.use(requestId());
  app.use(securityHeaders());
  app.use(async (c, next) => {
    const site = await loadSite(c.env.SETTINGS, siteHost(c.req.url));
    if (!site) {
      const locale = resolveLocale(getCookie(c, LOCALE_COOKIE), "en");
      const t = i18nFor(locale).t;
      if (isApi(c)) return c.json({ error: "unknown_site", message: t("errors.unknown_site") }, 404);
      return c.html(
        `<!doctype html><html lang="${locale}"><meta charset="utf-8"><title>${t("errors.unknown_site")}</title><h1>${t("errors.unknown_site")}</h1></html>`,
        404,
      );
    }
    c.set("site", site.settings);
    c.set("company", site.company);
    await next();
  });
  app.use(async (c, next) => {
    c.set(
      "country",
      resolveCountry({
        environment: c.env.ENVIRONMENT,
        cfCountry: c.req.raw.cf?.country,
        override: c.req.header("x-dev-country") ?? c.req.query("dev_country"),
        devCountry: c.env.DEV_COUNTRY,
        siteCountry: c.get("site").countries[0]!,
      }),
    );
    await next();
  });
  app.use(async (c, next) => {
    const locale = resolveLocale(
      getCookie(c, LOCALE_COOKIE),
      c.get("site").domain_language,
      isApi(c) ? undefined : c.req.query("lang"),
    );
    c.set("locale", locale);
    c.set("t", i18nFor(locale, c.get("site").countries[0]).t);
    c.set("trafficSource", resolveTracking(c));
    await next();
  });
  app.use(d1Session);
  // Photos, the manifest, the offline page and the pages' texts need no member: answered before the session lookup, so a page of
  // thumbnails costs no session query per image.
  app.get("/media/*", serveMedia);
  app.get("/manifest.webmanifest", webManifest);
  app.get("/offline.html", offlinePage);
  app.get("/texts/:file", serveTexts);
  app.use(session);
  // The payment provider calls the webhook; it is not one of the site's pages.
  app.post("/api/payment-webhook.php", paymentWebhook);
  // Mollie's signed next-gen webhook: refunds and chargebacks, their cancellation and reversal.
  app.post(MOLLIE_EVENTS_PATH, mollieEventsWebhook);
  // A notification mail's unsubscribe link (no login, one-click POST) and the mail provider's webhook.
  app.route("/", mailLinkRoutes);
  // SES's bounces and complaints through SNS, Sinch's SMS delivery reports.
  app.route("/", providerReportRoutes);
  app.use("/api/*", requireSameOrigin);
  app.use("/api/*", async (c, next) => {
    await next();
    // Answers about a member must not be kept by shared caches.
    if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", "private, no-store");
  });

  app.route("/", accountRoutes);
  app.route("/", photoRoutes);
  app.route("/", verificationRoutes);
  app.route("/", chatRoutes);
  app.route("/", sessionRoutes);
  app.route("/", reportRoutes);
  app.route("/", decisionRoutes);
  app.route("/", likeRoutes);
  app.route("/", memberChannelRoutes);
  app.route("/", paymentRoutes);
  app.route("/", notificationRoutes);
  app.route(
    "/",
    sandboxRoutes((request, c) => Promise.resolve(app.fetch(request, c.env, c.executionCtx))),
  );
  for (const path of Object.keys(SOURCES)) {
    app.get(path, async (c) => c.json(await loadSource(c, path + new URL(c.req.url).search)));
  }
  app.get("/dev/outbox", (c, next) => (c.env.ENVIRONMENT === "development" ? showOutbox(c) : next()));

  // The language switcher: sets the locale cookie (365 days) and goes back to where it was used.
  app.get("/lang-config", async (c, next) => {
    const locale = c.req.query("locale");
    if (locale === undefined) return next();
    if (!isLanguage(locale)) return renderPage(c, null, { status: 404, message: null });
    setCookie(c, LOCALE_COOKIE, locale, {
      path: "/",
      maxAge: LOCALE_COOKIE_MAX_AGE,
      sameSite: "Lax",
      secure: new URL(c.req.url).protocol === "https:",
    });
    return c.redirect(safeReturnPath(c.req.query("return")), 302);
  });

  // Per site, so each names its own sitemap and lists its own pages with their alternates elsewhere.
  app.get("/robots.txt", (c) =>
    c.text(robotsTxt(c.get("site"), new URL(c.req.url)), 200, { "cache-control": "public, max-age=3600" }),
  );
  app.get("/sitemap.xml", async (c) =>
    c.body(sitemapXml(c.get("site"), await listSites(c.env.SETTINGS), new URL(c.req.url)), 200, {
      "content-type": "application/xml; charset=utf-8",
      "cache-control": "public, max-age=3600",
    }),
  );

  for (const route of ROUTES) app.get(honoPath(route), renderRoute);

  app.notFound((c) =>
    isApi(c)
      ? c.json({ error: "not_found", message: c.get("t")?.("errors.not_found") ?? "Not found" }, 404)
      : renderPage(c, null, { status: 404, message: null }),
  );

  app.onError((error, c) => {
    if (error instanceof AppError) {
      if (isApi(c)) return c.json(errorBody(c, error), error.status);
      return renderPage(c, null, {
        status: error.status,
        message: error.status === 404 ? null : errorBody(c, error).message,
      });
    }
    if (error instanceof HTTPException) {
      // Hono's own refusals (a body that is not JSON, ...): the status with a message in the user's language.
      const status = error.getResponse().status as 400;
      const t = c.get("t");
      const message = t ? t(status === 400 ? "errors.invalid_body" : "errors.has_occurred") : "Error";
      if (isApi(c)) return c.json({ error: status === 400 ? "invalid_body" : "http_error", message }, status);
      return renderPage(c, null, { status, message });
    }
    console.error(
      JSON.stringify({
        event: "unhandled_error",
        requestId: c.get("requestId"),
        path: c.req.path,
        message: error.message,
        stack: error.stack,
      }),
    );
    const t = c.get("t");
    if (isApi(c) || !t)
      return c.json(
        {
          error: "internal_error",
          message: t?.("errors.try_again_later") ?? "An error occured, please try again later",
        },
        500,
      );
    return renderPage(c, null, { status: 500, message: null });
  });

  return app;
}

export const app = createApp();
