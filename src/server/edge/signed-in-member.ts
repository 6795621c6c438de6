import type { Context, MiddlewareHandler } from "hono";
import { clearSessionCookie, readSessionCookie } from "../auth/session-cookie";
import { liveSessionMember } from "../db/sessions";
import type { AppEnv, Session } from "../request-context";
import { AppError } from "../errors";

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
