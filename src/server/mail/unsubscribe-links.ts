/**
 * The signed unsubscribe link of a notification mail: it names the member and the kind of mail, and
 * works without logging in (RFC 8058 one-click), so the signature is what makes it trusted. The key
 * is derived from SESSION_SECRET for this one use, so no other signature of the site can pass for it.
 */
import { EMAIL_KINDS, type EmailKind } from "../../shared/notifications";
import { base64url, sameBytes } from "../auth/tokens";

const encoder = new TextEncoder();
const LABEL = "flirtwave mail links v1";

async function hmacKey(secret: BufferSource): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function linkKey(sessionSecret: string): Promise<CryptoKey> {
  const derived = await crypto.subtle.sign("HMAC", await hmacKey(encoder.encode(sessionSecret)), encoder.encode(LABEL));
  return hmacKey(derived);
}

async function signature(sessionSecret: string, userId: number, kind: EmailKind): Promise<string> {
  return base64url(
    await crypto.subtle.sign("HMAC", await linkKey(sessionSecret), encoder.encode(`unsubscribe:${userId}:${kind}`)),
  );
}

/** The token of an unsubscribe link: `<user id>.<kind>.<signature>`. */
export async function unsubscribeToken(sessionSecret: string, userId: number, kind: EmailKind): Promise<string> {
  return `${userId}.${kind}.${await signature(sessionSecret, userId, kind)}`;
}

/** The member and kind a token names, or null when it is malformed or its signature does not match. */
export async function readUnsubscribeToken(
  sessionSecret: string,
  token: string,
): Promise<{ userId: number; kind: EmailKind } | null> {
  const match = /^([1-9][0-9]{0,9})\.([a-z_]{1,40})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const kind = match[2] as EmailKind;
  if (!EMAIL_KINDS.includes(kind)) return null;
  const userId = Number(match[1]);
  const expected = encoder.encode(await signature(sessionSecret, userId, kind));
  const given = encoder.encode(match[3]!);
  if (!sameBytes(expected, given)) return null;
  return { userId, kind };
}
