/**
 * VAPID (RFC 8292): the Worker signs each push request with the deployment's key pair, so a push
 * service only takes pushes for subscriptions made with our public key (the site setting
 * `push_public_key`, which the page hands to PushManager.subscribe). The private key is the secret
 * VAPID_PRIVATE_KEY: the base64url of the P-256 scalar `d`, as `npm run vapid` prints it.
 */
import { decodeBase64Url, encodeBase64Url } from "../../shared/web-push";

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** A push service accepts a token that expires within 24 hours (RFC 8292 §2); 12 leaves room for clock skew. */
const TOKEN_SECONDS = 12 * 60 * 60;

const json64 = (value: unknown) => encodeBase64Url(new TextEncoder().encode(JSON.stringify(value)));

const signingKeys = new Map<string, Promise<CryptoKey>>();

function signingKey(keys: VapidKeys): Promise<CryptoKey> {
  const cacheKey = `${keys.publicKey}.${keys.privateKey}`;
  let key = signingKeys.get(cacheKey);
  if (!key) {
    const point = decodeBase64Url(keys.publicKey);
    if (!point || point.length !== 65 || point[0] !== 0x04) throw new Error("push_public_key is not an uncompressed P-256 point");
    key = crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: encodeBase64Url(point.slice(1, 33)), y: encodeBase64Url(point.slice(33)), d: keys.privateKey },
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["sign"],
    );
    key.catch(() => signingKeys.delete(cacheKey));
    signingKeys.set(cacheKey, key);
  }
  return key;
}

/**
 * The Authorization header of a push request to `endpoint`: `vapid t=<ES256 JWT>, k=<public key>`,
 * the token's audience the push service's origin, its subject our contact (a mailto: address).
 */
export async function vapidAuthorization(endpoint: string, keys: VapidKeys, now: number): Promise<string> {
  const claims = { aud: new URL(endpoint).origin, exp: now + TOKEN_SECONDS, sub: keys.subject };
  const unsigned = `${json64({ typ: "JWT", alg: "ES256" })}.${json64(claims)}`;
  // WebCrypto's ECDSA signature is r || s, 64 bytes: exactly the JWS form of ES256.
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, await signingKey(keys), new TextEncoder().encode(unsigned));
  return `vapid t=${unsigned}.${encodeBase64Url(new Uint8Array(signature))}, k=${keys.publicKey}`;
}
