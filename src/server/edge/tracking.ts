import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { TRACKING_FIELDS } from "../../shared/tracking";
import type { AppEnv, Tracking } from "../request-context";

export const TRACKING_COOKIE = "trafficsource";
/** How long the traffic-source cookie keeps a referral (also told on the cookies page). */
export const TRACKING_DAYS = 30;
const TRACKING_MAX_AGE = TRACKING_DAYS * 24 * 60 * 60;
const VALUE = /^[\w.:~-]{1,100}$/;

function fromParams(params: URLSearchParams): Tracking | null {
  const tracking: Tracking = {};
  for (const field of TRACKING_FIELDS) {
    const value = params.get(field);
    if (value && VALUE.test(value)) tracking[field] = value;
  }
  return tracking.network || tracking.ref ? tracking : null;
}

function fromCookie(raw: string | undefined): Tracking | null {
  if (!raw) return null;
  return fromParams(new URLSearchParams(raw));
}

/**
 * The traffic source a visitor came with (network, ref, sub1-3). Taken from the page's query and
 * kept in a cookie for 30 days, so that a later signup is credited to it and the site's
 * logged_out_search_trafficsource mode applies.
 */
export function resolveTracking(c: Context<AppEnv>): Tracking | null {
  const url = new URL(c.req.url);
  const fresh = url.pathname.startsWith("/api/") ? null : fromParams(url.searchParams);
  if (fresh) {
    const value = new URLSearchParams(fresh as Record<string, string>).toString();
    setCookie(c, TRACKING_COOKIE, value, {
      path: "/",
      maxAge: TRACKING_MAX_AGE,
      httpOnly: true,
      secure: url.protocol === "https:",
      sameSite: "Lax",
    });
    return fresh;
  }
  return fromCookie(getCookie(c, TRACKING_COOKIE));
}
