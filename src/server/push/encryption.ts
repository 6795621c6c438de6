/**
 * Message encryption for web push, RFC 8291 with the aes128gcm content coding of RFC 8188: what every
 * current browser's push service takes. Written on WebCrypto because @block65/webcrypto-web-push
 * 1.0.2 sends the older "aesgcm" draft coding (docs/decisions/0018-web-push.md).
 */
import { decodeBase64Url } from "../../shared/web-push";

const RECORD_SIZE = 4096;
/** RFC 8188 §2.1 header: salt (16), record size (4), key id length (1), key id (65-byte P-256 point). */
const HEADER_SIZE = 16 + 4 + 1 + 65;
/** One record carries the whole message: the header, the text, its delimiter and the 16-byte tag. */
export const MAX_PUSH_PLAINTEXT = RECORD_SIZE - HEADER_SIZE - 1 - 16;
/** Texts are padded up to a multiple of this, so the length tells little about who wrote what. */
const PAD_TO = 256;

const text = (s: string) => new TextEncoder().encode(s);

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function hkdf(salt: Uint8Array<ArrayBuffer>, ikm: Uint8Array<ArrayBuffer>, info: Uint8Array<ArrayBuffer>, bytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8));
}

/** What is fresh for every message; a test fixes it to reproduce RFC 8291's example (Appendix A). */
type Sealing = { keyPair?: CryptoKeyPair; salt?: Uint8Array<ArrayBuffer>; padTo?: number };

/**
 * Encrypt a push message for one subscription (its `p256dh` point and `auth` secret, base64url):
 * a fresh ECDH key pair and salt per message, one record, the body to POST with
 * `Content-Encoding: aes128gcm`.
 */
export async function encryptForSubscription(keys: { p256dh: string; auth: string }, plaintext: Uint8Array, sealing: Sealing = {}): Promise<Uint8Array<ArrayBuffer>> {
  if (plaintext.length > MAX_PUSH_PLAINTEXT) throw new Error(`push message of ${plaintext.length} bytes exceeds ${MAX_PUSH_PLAINTEXT}`);
  const userAgentPublic = decodeBase64Url(keys.p256dh);
  const authSecret = decodeBase64Url(keys.auth);
  if (!userAgentPublic || userAgentPublic.length !== 65 || !authSecret || authSecret.length !== 16) throw new Error("subscription keys are malformed");
  const uaPublic = concat(userAgentPublic);
  const uaKey = await crypto.subtle.importKey("raw", uaPublic, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const local = sealing.keyPair ?? ((await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair);
  const asPublic = new Uint8Array((await crypto.subtle.exportKey("raw", local.publicKey)) as ArrayBuffer);
  const ecdhSecret = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: uaKey }, local.privateKey, 256));

  // RFC 8291 §3.3-3.4: the input keying material binds both public keys and the auth secret.
  const ikm = await hkdf(concat(authSecret), ecdhSecret, concat(text("WebPush: info\0"), uaPublic, asPublic), 32);
  const salt = sealing.salt ?? crypto.getRandomValues(new Uint8Array(16));
  const cek = await hkdf(salt, ikm, text("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, text("Content-Encoding: nonce\0"), 12);

  // The last (only) record ends with the delimiter 0x02, then zero padding (RFC 8188 §2).
  const padTo = sealing.padTo ?? PAD_TO;
  const paddedLength = Math.min(MAX_PUSH_PLAINTEXT + 1, Math.ceil((plaintext.length + 1) / padTo) * padTo);
  const record = new Uint8Array(paddedLength);
  record.set(plaintext);
  record[plaintext.length] = 0x02;
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, key, record));

  const header = new Uint8Array(HEADER_SIZE);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = asPublic.length;
  header.set(asPublic, 21);
  return concat(header, sealed);
}
