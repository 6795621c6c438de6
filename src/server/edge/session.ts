import type { Context, MiddlewareHandler } from "hono";
import { clearSessionCookie, readSessionCookie } from "../auth/session";
import type { AppEnv } from "../context";
import { AppError } from "../errors";

export type Session = { id: string; userId: number; status: string };

/**
 * The signed-in member, if the session cookie is valid and its row is live (not revoked, not expired)
 * and the account is usable. A dead cookie is cleared.
 */
export const session: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("session", null);
  const claims = await readSessionCookie(c);
  if (claims) {
    const row = await c.env.DB.prepare(
      `SELECT u.status FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.id = ? AND s.user_id = ? AND s.revoked_at IS NULL AND s.expires_at > unixepoch()`,
    )
      .bind(claims.sessionId, claims.userId)
      .first<{ status: string }>();
    if (row && (row.status === "active" || row.status === "not_confirmed")) {
      c.set("session", { id: claims.sessionId, userId: claims.userId, status: row.status });
    } else {
      clearSessionCookie(c);
    }
  }
  await next();
};

/** The member making this call; a visitor gets 403 authentication_required (which logs a client out). */
export function requireMember(c: Context<AppEnv>): Session {
  const current = c.get("session");
  if (!current) throw new AppError(403, "authentication_required", "errors.authentication_required");
  return current;
}
