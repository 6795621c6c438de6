import type { MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { BOOKMARK_COOKIE, BOOKMARK_MAX_AGE, BOOKMARK_PATTERN, isNewerBookmark } from "../../shared/d1-bookmark";
import { databaseOf, D1Reads, withReads } from "../db/database";
import type { AppEnv } from "../request-context";

/**
 * Every request reads D1 through a session of the Sessions API (docs/decisions/0033): its reads may
 * go to a replica near the member, starting from the bookmark their browser brought, so they see
 * their own writes. The answer carries the session's newest bookmark back when it moved on (a write,
 * or a read of a newer copy), except where it must not: a shared cache may keep the answer, or it
 * is a socket's handshake (the socket's object was handed the bookmark instead).
 */
export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const cookie = getCookie(c, BOOKMARK_COOKIE);
  const brought = cookie && BOOKMARK_PATTERN.test(cookie) ? cookie : null;
  const reads = new D1Reads(c.env.DB, brought);
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
