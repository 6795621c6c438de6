/**
 * Sessions: a jose-signed token (HS256 only) in an HttpOnly, Secure, SameSite=Lax cookie valid 30
 * days, naming a row of the sessions table. The row is what logout, a password change and account
 * deletion revoke, so a stolen or old cookie stops working at once.
 */
import type { Context } from "hono";
import { restrictionsOf } from "../db/measures";
import { AppError } from "../errors";
import { measureRefusal } from "../measure-refusal";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { jwtVerify, SignJWT } from "jose";
import { deviceOf } from "../../shared/devices";
import { insertSession } from "../db/sessions";
import { recordActiveMonth } from "../db/transparency";
import type { AppEnv } from "../request-context";
import { randomToken } from "./tokens";

export const SESSION_COOKIE = "session";
export const SESSION_DAYS = 30;
const SESSION_SECONDS = SESSION_DAYS * 24 * 60 * 60;
const ALGORITHM = "HS256";
const MIN_SECRET_LENGTH = 32;

function key(secret: string): Uint8Array {
  if (!secret || secret.length < MIN_SECRET_LENGTH)
    throw new Error("SESSION_SECRET is missing or shorter than 32 characters");
  return new TextEncoder().encode(secret);
}

type SessionClaims = { sessionId: string; userId: number };

/**
 * Start a session for a member: a row (with the device it was started on), then the signed cookie.
 * Logging in counts the member as active in the month (Art. 24(2), docs/decisions/0063).
 */
export async function startSession(
  c: Context<AppEnv>,
  userId: number,
  now = Math.floor(Date.now() / 1000),
): Promise<void> {
  // A suspended member signs in by no way at all (password, activation or reset link) until it ends (decision 0061).
  const suspended = measureRefusal(
    { suspendedUntil: (await restrictionsOf(c.get("db"), userId))?.suspendedUntil },
    now,
  );
  if (suspended) throw new AppError(suspended);
  const sessionId = randomToken(24);
  const device = deviceOf(c.req.header("user-agent"));
  await insertSession(c.get("db"), {
    id: sessionId,
    publicId: randomToken(16),
    userId,
    createdAt: now,
    expiresAt: now + SESSION_SECONDS,
    device,
  });
  await recordActiveMonth(c.get("db"), userId, new Date(now * 1000).toISOString().slice(0, 7));
  const token = await new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(String(userId))
    .setIssuedAt(now)
    .setExpirationTime(now + SESSION_SECONDS)
    .setAudience(new URL(c.req.url).hostname)
    .sign(key(c.env.SESSION_SECRET));
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
    path: "/",
    maxAge: SESSION_SECONDS,
  });
}

/** The claims of the request's session cookie when its signature, algorithm, audience and expiry hold. */
export async function readSessionCookie(c: Context<AppEnv>): Promise<SessionClaims | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key(c.env.SESSION_SECRET), {
      algorithms: [ALGORITHM],
      audience: new URL(c.req.url).hostname,
    });
    const userId = Number(payload.sub);
    if (typeof payload.sid !== "string" || !Number.isInteger(userId)) return null;
    return { sessionId: payload.sid, userId };
  } catch {
    return null;
  }
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
}
