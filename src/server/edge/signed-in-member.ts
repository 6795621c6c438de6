import type { Context, MiddlewareHandler } from "hono";
import { clearSessionCookie, LIVE_SESSION_FROM, readSessionCookie } from "../auth/session-cookie";
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
    const row = await c.env.DB.prepare(`SELECT u.status, p.id AS profile_id, p.gender, p.sexuality, p.country ${LIVE_SESSION_FROM}`)
      .bind(claims.sessionId, claims.userId)
      .first<{ status: string; profile_id: number; gender: string; sexuality: string; country: string }>();
    if (row) {
      c.set("session", {
        id: claims.sessionId,
        userId: claims.userId,
        status: row.status,
        profileId: row.profile_id,
        gender: row.gender,
        sexuality: row.sexuality,
        country: row.country,
      });
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
