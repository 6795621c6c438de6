/**
 * The development login's cookie (docs/decisions/0034): only while ENVIRONMENT is "development" does
 * the console accept it in place of an Access token. Host-only (no Domain), its own name, signed
 * with a key of its own (derived from SESSION_SECRET) for the operator host's audience: a member's
 * `session` cookie never opens the console, and this one is never sent to a member site.
 */
import type { Context } from "hono";
import type { ConsoleEnv } from "./console-context";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { jwtVerify, SignJWT } from "jose";

export const OPERATOR_COOKIE = "operator_session";
const HOURS = 12;
const ALGORITHM = "HS256";

function key(secret: string): Uint8Array {
  if (!secret || secret.length < 32) throw new Error("SESSION_SECRET is missing or shorter than 32 characters");
  return new TextEncoder().encode(`operator-console:${secret}`);
}

type CookieContext = Context<ConsoleEnv>;

export async function setOperatorCookie(c: CookieContext, operatorId: number, now: number): Promise<void> {
  const seconds = HOURS * 60 * 60;
  const token = await new SignJWT({ op: operatorId })
    .setProtectedHeader({ alg: ALGORITHM })
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .setAudience(new URL(c.req.url).host)
    .sign(key(c.env.SESSION_SECRET));
  setCookie(c, OPERATOR_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    path: "/",
    maxAge: seconds,
  });
}

/** The operator id the cookie names when its signature, audience and expiry hold. */
export async function operatorIdFromCookie(c: CookieContext): Promise<number | null> {
  const token = getCookie(c, OPERATOR_COOKIE);
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key(c.env.SESSION_SECRET), {
      algorithms: [ALGORITHM],
      audience: new URL(c.req.url).host,
    });
    return typeof payload.op === "number" && Number.isInteger(payload.op) ? payload.op : null;
  } catch {
    return null;
  }
}

export function clearOperatorCookie(c: CookieContext): void {
  deleteCookie(c, OPERATOR_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Strict" });
}
