/**
 * The notification calls: PUT /api/notifications.php (the member's choices; GET is a page source),
 * and the two calls from outside the site's pages: the unsubscribe link of a notification mail
 * (GET shows a confirmation page, POST unsubscribes at once, RFC 8058) and the mail provider's
 * signed bounce and complaint webhook.
 */
import { vValidator } from "@hono/valibot-validator";
import { Hono, type Context } from "hono";
import * as v from "valibot";
import { isLanguage } from "../../shared/locales";
import { NotificationsUpdate } from "../../shared/notifications";
import { accountById } from "../db/accounts";
import { requireMember } from "../edge/signed-in-member";
import { AppError } from "../errors";
import { MailProviderReport, reportedStop, verifyWebhook } from "../mail/provider-webhook";
import { escapeHtml } from "../mail/templates";
import { readUnsubscribeToken } from "../mail/unsubscribe-links";
import type { AppEnv } from "../request-context";
import { stopMailForReport, unsubscribe, updateNotifications } from "../services/notification-choices";
import { i18nFor } from "../translations";
import { invalidBody } from "./body";

const nowOf = () => Math.floor(Date.now() / 1000);

export const notificationRoutes = new Hono<AppEnv>().put(
  "/api/notifications.php",
  vValidator("json", NotificationsUpdate, invalidBody),
  async (c) => {
    const { userId } = requireMember(c);
    return c.json(await updateNotifications(c.get("db"), userId, c.req.valid("json"), nowOf()));
  },
);

/** A small page of the unsubscribe link, in the member's language when the link names one. */
function linkPage(
  c: Context<AppEnv>,
  language: string | null,
  status: 200 | 400,
  body: (t: (key: string, values?: Record<string, string>) => string) => string,
) {
  const lang = language && isLanguage(language) ? language : c.get("locale");
  const t = i18nFor(lang, c.get("site").countries[0]).t as (key: string, values?: Record<string, string>) => string;
  const title = escapeHtml(t("notification_mail.page.title", { site: c.get("site").name }));
  return c.html(
    `<!doctype html><html lang="${lang}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title>
<style>body{font:16px system-ui,sans-serif;color:#23191b;max-width:32rem;margin:2rem auto;padding:0 1rem}button{font:inherit;font-weight:600;padding:.75rem 1.25rem;border:0;border-radius:999px;background:#e8412c;color:#fff;cursor:pointer}a{color:#b8321f}</style>
<h1>${title}</h1>${body(t)}</html>`,
    status,
    // About one member: no shared cache may keep it.
    { "cache-control": "private, no-store" },
  );
}

/** The member and kind of the request's unsubscribe link with the account's language, or null when the link does not hold. */
async function linkOf(c: Context<AppEnv>) {
  const link = await readUnsubscribeToken(c.env.SESSION_SECRET, c.req.query("token") ?? "");
  const account = link ? await accountById(c.get("db"), link.userId) : undefined;
  return link && account ? { ...link, language: account.language } : null;
}

const invalidLink = (c: Context<AppEnv>) =>
  linkPage(
    c,
    null,
    400,
    (t) =>
      `<p>${escapeHtml(t("notification_mail.page.invalid"))}</p><p><a href="/notifications">${escapeHtml(t("notification_mail.page.settings"))}</a></p>`,
  );

export const mailLinkRoutes = new Hono<AppEnv>()
  // Shows what the link would do; a mail scanner opening it changes nothing.
  .get("/api/unsubscribe.php", async (c) => {
    const link = await linkOf(c);
    if (!link) return invalidLink(c);
    return linkPage(c, link.language, 200, (t) => {
      const kind = escapeHtml(t(`notifications.email_kinds.${link.kind}`));
      const action = `/api/unsubscribe.php?token=${encodeURIComponent(c.req.query("token")!)}`;
      return `<p>${escapeHtml(t("notification_mail.page.question", { kind: "\u0000" })).replace("\u0000", `<b>${kind}</b>`)}</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(t("notification_mail.page.confirm"))}</button></form>
<p><a href="/notifications">${escapeHtml(t("notification_mail.page.settings"))}</a></p>`;
    });
  })
  // One-click (List-Unsubscribe-Post) and the confirmation page's button: the link's signature is the authority.
  .post("/api/unsubscribe.php", async (c) => {
    const link = await linkOf(c);
    if (!link) {
      if ((c.req.header("accept") ?? "").includes("text/html")) return invalidLink(c);
      throw new AppError({ status: 400, code: "invalid_link", key: "notification_mail.page.invalid" });
    }
    await unsubscribe(c.get("db"), link, nowOf());
    console.info(
      JSON.stringify({
        event: "mail_unsubscribe",
        requestId: c.get("requestId"),
        userId: link.userId,
        kind: link.kind,
      }),
    );
    if (!(c.req.header("accept") ?? "").includes("text/html")) return c.json({ ok: true });
    return linkPage(c, link.language, 200, (t) => {
      const kind = escapeHtml(t(`notifications.email_kinds.${link.kind}`));
      return `<p>${escapeHtml(t("notification_mail.page.done", { kind: "\u0000" })).replace("\u0000", `<b>${kind}</b>`)}</p><p><a href="/notifications">${escapeHtml(t("notification_mail.page.settings"))}</a></p>`;
    });
  })
  /** The mail provider's bounce and complaint reports (README "Mail provider webhook"); nothing changes unless the signature holds. */
  .post("/api/mail-webhook.php", async (c) => {
    const secret = c.env.MAIL_WEBHOOK_SECRET;
    const body = await c.req.text();
    if (!secret || !(await verifyWebhook(secret, c.req.raw.headers, body, nowOf()))) {
      console.warn(JSON.stringify({ event: "mail_webhook_refused", requestId: c.get("requestId") }));
      throw new AppError({ status: 401, code: "invalid_signature", key: "errors.invalid_body" });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new AppError({ status: 400, code: "invalid_body", key: "errors.invalid_body" });
    }
    const report = v.safeParse(MailProviderReport, parsed);
    if (!report.success) throw new AppError({ status: 400, code: "invalid_body", key: "errors.invalid_body" });
    const stop = reportedStop(report.output);
    const stopped = stop ? await stopMailForReport(c.get("db"), stop.reason, stop.addresses, nowOf()) : 0;
    console.info(
      JSON.stringify({ event: "mail_webhook", requestId: c.get("requestId"), type: report.output.type, stopped }),
    );
    return c.json({ ok: true });
  });
