import type { MiddlewareHandler } from "hono";
import { AppError } from "../errors";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * State-changing API calls must come from this site's own pages: the X-Request-Type header (which
 * a cross-site form cannot send) and an Origin equal to the request's own. Anything else is refused
 * before it can change anything. The operators' console asks the same of its writes.
 */
export const requireSameOrigin: MiddlewareHandler = async (c, next) => {
  if (SAFE.has(c.req.method)) return next();
  const origin = c.req.header("origin");
  if (!c.req.header("x-request-type") || !origin || origin !== new URL(c.req.url).origin) {
    throw new AppError({ status: 403, code: "csrf", key: "errors.csrf" });
  }
  return next();
};
