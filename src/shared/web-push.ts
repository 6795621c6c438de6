/**
 * The body of POST /api/user.php?push=1 (SPEC §7) and the encodings web push uses. The service
 * worker's page sends what `PushSubscription.toJSON()` gives:
 * `{ subscription: { endpoint, expirationTime?, keys: { p256dh, auth } } }` stores this browser;
 * `{ subscription: null, endpoint? }` forgets it (the named endpoint, or the ones this login stored).
 */
import * as v from "valibot";

/** base64url without padding (RFC 4648 §5), as push keys and VAPID use it. */
export function encodeBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The bytes of a base64url text (padding optional), or null when it is not one. */
export function decodeBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text) || text.replace(/=+$/, "").length % 4 === 1) return null;
  const binary = atob(text.replace(/=+$/, "").replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

/** An uncompressed P-256 point: 0x04, then 32 bytes of x and 32 of y. */
export const isUncompressedP256Point = (text: string) => {
  const bytes = decodeBase64Url(text);
  return bytes !== null && bytes.length === 65 && bytes[0] === 0x04;
};

/** RFC 8291 §3.2: the authentication secret is 16 bytes. */
const isAuthSecret = (text: string) => decodeBase64Url(text)?.length === 16;

export const PushSubscriptionJson = v.object({
  endpoint: v.pipe(v.string(), v.maxLength(2048)),
  /** Milliseconds since 1970 (a DOMHighResTimeStamp), within what a Date can hold. */
  expirationTime: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(8.64e15)))),
  keys: v.object({
    p256dh: v.pipe(v.string(), v.maxLength(200), v.check(isUncompressedP256Point)),
    auth: v.pipe(v.string(), v.maxLength(50), v.check(isAuthSecret)),
  }),
});
export type PushSubscriptionJson = v.InferOutput<typeof PushSubscriptionJson>;

export const PushSubscriptionBody = v.object({
  subscription: v.nullable(PushSubscriptionJson),
  endpoint: v.optional(v.pipe(v.string(), v.maxLength(2048))),
});
export type PushSubscriptionBody = v.InferOutput<typeof PushSubscriptionBody>;
