/**
 * A stand-in of a browser's push service (RFC 8030) on loopback, playing the browser too: it makes
 * subscriptions as PushManager.subscribe would (a P-256 key pair and a 16-byte auth secret, with
 * WebCrypto), and for each push it receives it checks the VAPID token (RFC 8292: ES256, audience the
 * endpoint's origin, expiry within 24 hours, signed by the key the header names) and decrypts the
 * aes128gcm body (RFC 8291) with the subscription's private key.
 *
 * It listens on plain http (no certificate on loopback), but hands out endpoints as a real push
 * service does: https (`https://127.0.0.1:<port>/push/<id>`), so the token's audience is that https
 * origin. In development and tests the Worker reaches a loopback https endpoint over http
 * (pushServiceAddress in src/server/push/endpoints.ts).
 *
 * - POST /_stand-in/subscriptions { applicationServerKey?, answer? } makes a subscription (as
 *   PushManager.subscribe with that VAPID public key): its `PushSubscription.toJSON()`. Pushes whose
 *   token does not verify get 401, a token of another key than the subscription's 403 (RFC 8292 §4).
 * - POST /_stand-in/subscriptions/<id>/answer { status, retryAfter?, maxBytes? } sets what its pushes are
 *   answered (201, 404, 410, 429 with `Retry-After: <retryAfter>`, 500 ...); with `maxBytes` a body
 *   larger than that is answered 413, as Mozilla's push service does for a Firefox on Android (its
 *   relay takes about 3 kB), whatever the status set.
 * - A push without a TTL header of delta-seconds is answered 400, as RFC 8030 §5.2 requires of the
 *   sender ("An application server MUST include the TTL (Time-To-Live) header field",
 *   https://www.rfc-editor.org/rfc/rfc8030#section-5.2) and push services enforce (Mozilla's
 *   autopush: https://blog.mozilla.org/services/2016/02/20/webpushs-new-requirement-ttl-header/,
 *   https://mozilla-services.github.io/autopush-rs/errors.html), whatever the status set.
 * - GET /_stand-in/received/<id> lists what reached it: headers, the token's claims, the decrypted JSON
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { onLoopback } from "./stand-in-server";
import { webcrypto } from "node:crypto";

const subtle = webcrypto.subtle;

type Subscription = {
  privateKey: webcrypto.CryptoKey;
  publicRaw: Uint8Array;
  auth: Uint8Array;
  applicationServerKey: string | null;
  answer: number;
  retryAfter: string | null;
  maxBytes: number | null;
};

export type ReceivedPush = {
  answered: number;
  /** The size of the encrypted body (RFC 8188 header and record). */
  bytes: number;
  headers: { contentEncoding: string | null; ttl: string | null; urgency: string | null; topic: string | null };
  vapid: { ok: true; aud: string; exp: number; sub: string; k: string } | { ok: false; reason: string };
  payload: unknown;
  decryptError: string | null;
};

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, "base64url"));
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

async function readBytes(req: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

function send(res: ServerResponse, status: number, body?: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(body === undefined ? "" : JSON.stringify(body));
}

async function checkVapid(authorization: string | undefined, origin: string): Promise<ReceivedPush["vapid"]> {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? "");
  if (!match) return { ok: false, reason: `not a vapid authorization: ${authorization}` };
  const [, token, k] = match as unknown as [string, string, string];
  const [header, claims, signature] = token.split(".") as [string, string, string];
  const head = JSON.parse(Buffer.from(header, "base64url").toString()) as { alg?: string };
  if (head.alg !== "ES256") return { ok: false, reason: `alg ${head.alg}` };
  const key = await subtle.importKey("raw", unb64(k), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
  const valid = await subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    unb64(signature),
    new TextEncoder().encode(`${header}.${claims}`),
  );
  if (!valid) return { ok: false, reason: "signature does not verify with k" };
  const { aud, exp, sub } = JSON.parse(Buffer.from(claims, "base64url").toString()) as {
    aud: string;
    exp: number;
    sub: string;
  };
  const now = Math.floor(Date.now() / 1000);
  if (aud !== origin) return { ok: false, reason: `aud ${aud} is not ${origin}` };
  if (!(exp > now && exp <= now + 24 * 60 * 60)) return { ok: false, reason: `exp ${exp} not within 24 h of ${now}` };
  if (!sub.startsWith("mailto:") && !sub.startsWith("https:")) return { ok: false, reason: `sub ${sub}` };
  return { ok: true, aud, exp, sub, k };
}

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bytes: number) {
  const key = await subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(await subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8));
}

/** RFC 8291 §3-4 and RFC 8188 §2, as the receiving browser does it. */
async function decrypt(subscription: Subscription, body: Uint8Array): Promise<unknown> {
  const salt = body.slice(0, 16);
  const recordSize = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0);
  const idLength = body[20]!;
  const senderPublic = body.slice(21, 21 + idLength);
  const record = body.slice(21 + idLength);
  if (idLength !== 65 || record.length > recordSize)
    throw new Error(`bad header: idlen ${idLength}, rs ${recordSize}, record ${record.length}`);
  const senderKey = await subtle.importKey("raw", senderPublic, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const secret = new Uint8Array(
    await subtle.deriveBits({ name: "ECDH", public: senderKey }, subscription.privateKey, 256),
  );
  const ikm = await hkdf(
    subscription.auth,
    secret,
    concat(new TextEncoder().encode("WebPush: info\0"), subscription.publicRaw, senderPublic),
    32,
  );
  const cek = await hkdf(salt, ikm, new TextEncoder().encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, new TextEncoder().encode("Content-Encoding: nonce\0"), 12);
  const key = await subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, record));
  // RFC 8188 §2: the text, then the delimiter 0x02 (last record), then zeros up to the record's end.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 0x02) throw new Error("the last record does not end with the delimiter 0x02");
  return JSON.parse(new TextDecoder().decode(padded.slice(0, end)));
}

export function createPushStandIn() {
  const subscriptions = new Map<string, Subscription>();
  const received = new Map<string, ReceivedPush[]>();
  let origin = "";
  /** The origin of the endpoints handed out, as a browser would get them: https. */
  let subscribedOrigin = "";
  let next = 0;

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://stand-in").pathname;
    const body = await readBytes(req);
    if (path === "/_stand-in/subscriptions" && req.method === "POST") {
      const { answer = 201, applicationServerKey = null } = (
        body.length ? JSON.parse(Buffer.from(body).toString()) : {}
      ) as { answer?: number; applicationServerKey?: string };
      const pair = (await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
        "deriveBits",
      ])) as webcrypto.CryptoKeyPair;
      const publicRaw = new Uint8Array(await subtle.exportKey("raw", pair.publicKey));
      const auth = webcrypto.getRandomValues(new Uint8Array(16));
      const id = `s${++next}-${b64(webcrypto.getRandomValues(new Uint8Array(6)))}`;
      subscriptions.set(id, {
        privateKey: pair.privateKey,
        publicRaw,
        auth,
        applicationServerKey,
        answer,
        retryAfter: null,
        maxBytes: null,
      });
      received.set(id, []);
      return send(res, 201, {
        id,
        subscription: {
          endpoint: `${subscribedOrigin}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: b64(publicRaw), auth: b64(auth) },
        },
      });
    }
    const answer = /^\/_stand-in\/subscriptions\/([\w-]+)\/answer$/.exec(path);
    if (answer && req.method === "POST") {
      const subscription = subscriptions.get(answer[1]!);
      if (!subscription) return send(res, 404, { error: "no such subscription" });
      const set = JSON.parse(Buffer.from(body).toString()) as {
        status: number;
        retryAfter?: string;
        maxBytes?: number;
      };
      subscription.answer = set.status;
      subscription.retryAfter = set.retryAfter ?? null;
      subscription.maxBytes = set.maxBytes ?? null;
      return send(res, 200, {});
    }
    const list = /^\/_stand-in\/received\/([\w-]+)$/.exec(path);
    if (list) return send(res, 200, received.get(list[1]!) ?? []);

    const push = /^\/push\/([\w-]+)$/.exec(path);
    const subscription = push ? subscriptions.get(push[1]!) : undefined;
    if (!push || !subscription || req.method !== "POST") return send(res, 404, { error: "not found" });
    const vapid = await checkVapid(req.headers.authorization, subscribedOrigin).catch((error: Error) => ({
      ok: false as const,
      reason: error.message,
    }));
    const tooLarge = subscription.maxBytes !== null && body.length > subscription.maxBytes;
    const ttl = req.headers["ttl"];
    const answered =
      typeof ttl !== "string" || !/^[0-9]+$/.test(ttl)
        ? 400
        : !vapid.ok
          ? 401
          : subscription.applicationServerKey && vapid.k !== subscription.applicationServerKey
            ? 403
            : tooLarge
              ? 413
              : subscription.answer;
    const entry: ReceivedPush = {
      answered,
      bytes: body.length,
      headers: {
        contentEncoding: (req.headers["content-encoding"] as string | undefined) ?? null,
        ttl: (req.headers["ttl"] as string | undefined) ?? null,
        urgency: (req.headers["urgency"] as string | undefined) ?? null,
        topic: (req.headers["topic"] as string | undefined) ?? null,
      },
      vapid,
      payload: null,
      decryptError: null,
    };
    try {
      entry.payload = await decrypt(subscription, body);
    } catch (error) {
      entry.decryptError = error instanceof Error ? error.message : String(error);
    }
    received.get(push[1]!)!.push(entry);
    // RFC 8030 §5: 201 Created with the message's location when taken.
    if (answered === 201) res.setHeader("location", `${origin}/message/${received.get(push[1]!)!.length}`);
    if (answered === 429 && subscription.retryAfter) res.setHeader("retry-after", subscription.retryAfter);
    return send(res, answered);
  });

  return onLoopback(server, (at) => {
    origin = at;
    subscribedOrigin = at.replace(/^http:/, "https:");
  });
}
