import type { Context, MiddlewareHandler } from "hono";
import { clearSessionCookie, readSessionCookie } from "../auth/session-cookie";
import { liveSessionMember, touchSession } from "../db/sessions";
import { recordActiveMonth } from "../db/transparency";
import type { AppEnv, Session } from "../request-context";
import { AppError } from "../errors";

/** How often a session's "last used" is written at most: a page view should not cost a D1 write. */
export const SESSION_TOUCH_SECONDS = 10 * 60;

/**
 * The signed-in member, if the session cookie is valid and its row is live (not revoked, not expired)
 * and the account is usable. A dead cookie is cleared.
 */
export const session: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("session", null);
  const claims = await readSessionCookie(c);
  if (claims) {
    const member = await liveSessionMember(c.get("db"), claims.sessionId, claims.userId);
    if (member) {
      c.set("session", { id: claims.sessionId, userId: claims.userId, ...member });
      const now = Math.floor(Date.now() / 1000);
      // Awaited, not left to waitUntil: it happens once in ten minutes, and the list then never lags behind the answer.
      // The same moment counts the member as active in the month (Art. 24(2), docs/decisions/0063).
      if (member.lastUsedAt === null || now - member.lastUsedAt >= SESSION_TOUCH_SECONDS)
        await Promise.all([
          touchSession(c.get("db"), claims.sessionId, now, SESSION_TOUCH_SECONDS),
          recordActiveMonth(c.get("db"), claims.userId, new Date(now * 1000).toISOString().slice(0, 7)),
        ]);
    } else {
      clearSessionCookie(c);
    }
  }
  await next();
};

/**
 * The member making this call; a visitor gets 403 authentication_required (which logs a client out),
 * with the text `messageKey` where a call says what a visitor needs to log in for (SPEC §6).
 */
export function requireMember(c: Context<AppEnv>, messageKey = "errors.authentication_required"): Session {
  const current = c.get("session");
  if (!current) throw new AppError({ status: 403, code: "authentication_required", key: messageKey });
  return current;
}
