import type { MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { BOOKMARK_COOKIE, BOOKMARK_MAX_AGE, BOOKMARK_PATTERN, isNewerBookmark } from "../../shared/d1-bookmark";
import { databaseOf, D1Reads, withReads } from "../db/database";
import type { AppEnv } from "../request-context";
import { SMS_REPORT_PATH } from "../sms/sms";

/**
 * The providers' callbacks: the payment webhook, Mollie's next-gen webhook, the mail provider's webhook and SNS reports, the SMS
 * delivery reports. Each is told about a row the site wrote a moment ago (an order, a sent mail or
 * SMS) and brings no bookmark; a replica that has not seen that row yet would make it answer 200 for
 * an unknown id, and the provider would not call again. So they read and write the primary.
 * Every route the app serves without a same-origin check must be here (test/integration/d1-sessions.test.ts
 * derives them from the app's routes), and each is tested on a lagging replica
 * (test/integration/callbacks-on-primary.test.ts, docs/decisions/0055).
 */
export const PROVIDER_CALLBACKS: readonly string[] = [
  "/api/payment-webhook.php",
  "/api/mollie-events.php",
  "/api/mail-webhook.php",
  "/api/mail-sns.php",
  SMS_REPORT_PATH,
];

/**
 * Every request reads D1 through a session of the Sessions API (docs/decisions/0033): its reads may
 * go to a replica near the member, starting from the bookmark their browser brought, so they see
 * their own writes. The answer carries the session's newest bookmark back when it moved on (a write,
 * or a read of a newer copy), except where it must not: a shared cache may keep the answer, or it
 * is a socket's handshake (the socket's object was handed the bookmark instead). A provider's
 * callback starts at the primary instead (PROVIDER_CALLBACKS).
 */
export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const cookie = getCookie(c, BOOKMARK_COOKIE);
  const brought = cookie && BOOKMARK_PATTERN.test(cookie) ? cookie : null;
  const reads = PROVIDER_CALLBACKS.includes(c.req.path)
    ? new D1Reads(c.env.DB, null, "first-primary")
    : new D1Reads(c.env.DB, brought);
  c.set("db", databaseOf(c.env.DB));
  await withReads(reads, next);
  const latest = reads.bookmark();
  if (
    !isNewerBookmark(latest, brought) ||
    c.res.status === 101 ||
    /\bpublic\b/.test(c.res.headers.get("cache-control") ?? "")
  )
    return;
  setCookie(c, BOOKMARK_COOKIE, latest, {
    path: "/",
    maxAge: BOOKMARK_MAX_AGE,
    sameSite: "Lax",
    secure: new URL(c.req.url).protocol === "https:",
  });
};
