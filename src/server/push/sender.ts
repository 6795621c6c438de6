/**
 * Sending web push. PUSH_PROVIDER "outbox" (development, tests) keeps each push in D1
 * (outgoing_push, shown at /dev/outbox); "web" posts it to the browser's push service (RFC 8030),
 * encrypted (RFC 8291, aes128gcm) and signed (VAPID, RFC 8292) by @block65/webcrypto-web-push
 * (docs/decisions/0018-web-push.md).
 */
import { encryptNotification, vapidHeaders } from "@block65/webcrypto-web-push";
import type { PushPayload } from "../../shared/member-events";
import type { SiteSettings } from "../../shared/settings";
import type { Database } from "../db/database";
import {
  countTooLargePush,
  deferSubscription,
  deleteSubscription,
  markPushDelivered,
  recordKeyMismatch,
  recordPush,
  type StoredSubscription,
} from "../db/push-subscriptions";
import { isAllowedPushEndpoint, pushServiceAddress } from "./endpoints";

/** The deployment's VAPID pair (base64url: `d` scalar, uncompressed point) and our contact, a mailto: address. */
export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

export type PushMessage = {
  payload: PushPayload;
  /** Replaces a push of the same topic the browser has not fetched yet (RFC 8030 §5.4). */
  topic: string | null;
  urgency: "high" | "normal";
  /** Seconds the push service keeps it for a browser that is offline. */
  ttl: number;
};

/**
 * What became of one push: taken; the subscription is gone for good (404/410); too large even
 * shortened (413 twice); the push service asks to wait until a time (429 Retry-After); the push
 * service says the subscription belongs to another VAPID key (403); or another failure.
 */
export type PushOutcome =
  | { kind: "sent" }
  | { kind: "gone"; status: number }
  | { kind: "too_large" }
  | { kind: "wait"; until: number }
  | { kind: "key_mismatch"; publicKey: string }
  | { kind: "failed"; reason: string };

export interface PushSender {
  send(userId: number, subscription: StoredSubscription, message: PushMessage, now: number): Promise<PushOutcome>;
}

/** Development and tests: the push stays in the outbox table. */
class OutboxPush implements PushSender {
  constructor(private readonly db: Database) {}

  async send(
    userId: number,
    subscription: StoredSubscription,
    message: PushMessage,
    now: number,
  ): Promise<PushOutcome> {
    await recordPush(this.db, {
      userId,
      endpoint: subscription.endpoint,
      payload: JSON.stringify(message.payload),
      topic: message.topic,
      urgency: message.urgency,
      createdAt: now,
    });
    return { kind: "sent" };
  }
}

/**
 * The most bytes a push's encrypted body may take. RFC 8030 lets a push service refuse more than
 * 4,096, but Mozilla's relay to Firefox on Android takes about 3,070 and answers 413 above that, so
 * every push stays within 3,000: the RFC 8188 header (86 bytes), the text, its delimiter and the
 * AES-GCM tag (17 bytes).
 */
export const PUSH_BODY_MAX_BYTES = 3000;
/** After a 413 the push is sent once more, unpadded and within this. */
export const PUSH_RETRY_MAX_BYTES = 1024;
const ENCRYPTION_OVERHEAD = 86 + 17;
/** How long a push service's 429 without a usable Retry-After holds pushes back, and the most any holds them back. */
const DEFAULT_WAIT_SECONDS = 60;
const MAX_WAIT_SECONDS = 24 * 60 * 60;

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text).byteLength;

/** Cut a text to at most `bytes` UTF-8 bytes on a character boundary, ending with "…" when cut. */
function cut(text: string, bytes: number): string {
  if (bytesOf(text) <= bytes) return text;
  if (bytes < bytesOf("…")) return "";
  const chars = [...text];
  while (chars.length > 0 && bytesOf(chars.join("") + "…") > bytes) chars.pop();
  return chars.join("") + "…";
}

/**
 * The payload as JSON within `maxBytes`: a message preview (the body) is shortened first, then the
 * title; the kind, tag, address and badge, which the service worker needs whole, never are.
 */
export function fitPayload(payload: PushPayload, maxBytes: number): string {
  let fitted = payload;
  for (const field of ["body", "title"] as const) {
    let room = bytesOf(payload[field]);
    // JSON escapes make the text take more room than its bytes: shorten until the whole fits.
    while (bytesOf(JSON.stringify(fitted)) > maxBytes && room > 0) {
      room = Math.max(0, room - (bytesOf(JSON.stringify(fitted)) - maxBytes));
      fitted = { ...fitted, [field]: cut(payload[field], room) };
    }
  }
  return JSON.stringify(fitted);
}

/**
 * The push's plaintext: the payload within the budget, padded with JSON whitespace to the whole
 * budget when `pad` (so the body's size does not tell how long a message was; the library's own
 * padding would make every body 4,096 bytes).
 */
export function pushPlaintext(payload: PushPayload, maxBodyBytes: number, pad: boolean): Uint8Array {
  const room = maxBodyBytes - ENCRYPTION_OVERHEAD;
  const json = fitPayload(payload, room);
  return encoder.encode(pad ? json.padEnd(json.length + room - bytesOf(json), " ") : json);
}

/** Seconds to wait from a Retry-After header (seconds or an HTTP date, RFC 9110 §10.2.3), within limits. */
function waitOf(retryAfter: string | null, now: number): number {
  const value = retryAfter?.trim() ?? "";
  const seconds = /^[0-9]+$/.test(value)
    ? Number(value)
    : Number.isFinite(Date.parse(value))
      ? Math.ceil(Date.parse(value) / 1000) - now
      : DEFAULT_WAIT_SECONDS;
  return Math.min(MAX_WAIT_SECONDS, Math.max(1, seconds));
}

/** Production: the push service of the subscription's browser. */
/**
 * The TTL header every push carries: RFC 8030 §5.2 (https://www.rfc-editor.org/rfc/rfc8030#section-5.2)
 * says an application server MUST send it, as delta-seconds (whole seconds, 0 or more), and push
 * services answer 400 without it; a ttl that is no such number is sent as 0 (deliver now or not at all).
 */
export function ttlHeader(ttl: number): string {
  return Number.isFinite(ttl) && ttl > 0 ? String(Math.min(Math.floor(ttl), 2 ** 31 - 1)) : "0";
}

export class WebPush implements PushSender {
  constructor(
    private readonly vapid: VapidKeys,
    private readonly development: boolean,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  private async post(subscription: StoredSubscription, message: PushMessage, plaintext: Uint8Array): Promise<Response> {
    const target = {
      endpoint: subscription.endpoint,
      expirationTime: null,
      keys: { p256dh: subscription.p256dh, auth: subscription.auth },
    };
    // The token's expiry is the library's (12 hours from the clock).
    const { headers } = await vapidHeaders(target, this.vapid);
    const body = await encryptNotification(target, plaintext, { pad: false });
    const response = await this.fetcher(pushServiceAddress(subscription.endpoint, this.development), {
      method: "POST",
      headers: {
        ...headers,
        ttl: ttlHeader(message.ttl),
        urgency: message.urgency,
        ...(message.topic ? { topic: message.topic } : {}),
        "content-encoding": "aes128gcm",
        "content-type": "application/octet-stream",
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    return response;
  }

  async send(
    _userId: number,
    subscription: StoredSubscription,
    message: PushMessage,
    now: number,
  ): Promise<PushOutcome> {
    // Checked when stored too; checked again so no row can make the Worker post elsewhere.
    if (!isAllowedPushEndpoint(subscription.endpoint, this.development)) return { kind: "gone", status: 0 };
    let response = await this.post(subscription, message, pushPlaintext(message.payload, PUSH_BODY_MAX_BYTES, true));
    if (response.status === 413) {
      response = await this.post(subscription, message, pushPlaintext(message.payload, PUSH_RETRY_MAX_BYTES, false));
      if (response.status === 413) return { kind: "too_large" };
    }
    if (response.status === 404 || response.status === 410) return { kind: "gone", status: response.status };
    if (response.status === 429) return { kind: "wait", until: now + waitOf(response.headers.get("retry-after"), now) };
    if (response.status === 403) return { kind: "key_mismatch", publicKey: this.vapid.publicKey };
    if (!response.ok) return { kind: "failed", reason: `push service answered ${response.status}` };
    return { kind: "sent" };
  }
}

const isDevelopment = (env: Env) => env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test";

/**
 * The sender for a site, or null when "web" lacks its keys (the site has no push_public_key or the
 * VAPID_PRIVATE_KEY secret is missing): then nobody of that site is pushed to, and that is logged.
 */
export function pushSenderFor(env: Env, db: Database, site: SiteSettings): PushSender | null {
  if (env.PUSH_PROVIDER !== "web") return new OutboxPush(db);
  if (!site.push_public_key || !env.VAPID_PRIVATE_KEY) {
    console.warn(
      JSON.stringify({
        event: "push_not_configured",
        site: site.domain,
        public_key: Boolean(site.push_public_key),
        private_key: Boolean(env.VAPID_PRIVATE_KEY),
      }),
    );
    return null;
  }
  return new WebPush(
    { publicKey: site.push_public_key, privateKey: env.VAPID_PRIVATE_KEY, subject: `mailto:${site.support_email}` },
    isDevelopment(env),
  );
}

/** Whether stored endpoints may be loopback (development and tests). */
export const pushToLoopbackAllowed = isDevelopment;

/** What a push's outcome changes: the subscription's row, and what is logged. */
async function settle(
  db: Database,
  userId: number,
  subscription: StoredSubscription,
  outcome: PushOutcome,
  now: number,
): Promise<void> {
  const pushService = new URL(subscription.endpoint).origin;
  switch (outcome.kind) {
    case "sent":
      return markPushDelivered(db, subscription.id, now);
    case "gone":
      return deleteSubscription(db, subscription.id);
    case "too_large":
      // Kept: the next, shorter push may well go through; the count shows a browser that never gets any.
      await countTooLargePush(db, subscription.id);
      console.warn(
        JSON.stringify({
          event: "push_failed",
          userId,
          subscription: subscription.id,
          push_service: pushService,
          reason: "push service answered 413 twice",
        }),
      );
      return;
    case "wait":
      // Nothing is sent to this subscription before then (pushRecipient leaves it out); no request sleeps.
      await deferSubscription(db, subscription.id, outcome.until);
      console.warn(
        JSON.stringify({
          event: "push_deferred",
          userId,
          subscription: subscription.id,
          push_service: pushService,
          until: outcome.until,
        }),
      );
      return;
    case "key_mismatch":
      // Every subscription made under an earlier key answers so: one line per key, not one per push.
      if (await recordKeyMismatch(db, outcome.publicKey, now))
        console.warn(
          JSON.stringify({ event: "push_key_mismatch", public_key: outcome.publicKey, push_service: pushService }),
        );
      return;
    case "failed":
      console.warn(
        JSON.stringify({
          event: "push_failed",
          userId,
          subscription: subscription.id,
          push_service: pushService,
          reason: outcome.reason,
        }),
      );
  }
}

/**
 * Send one message to each of a member's browsers. A subscription the push service calls gone is
 * deleted, one that must wait is held back, any other failure is logged and the rest still go out.
 * Never throws.
 */
export async function deliverPush(
  db: Database,
  sender: PushSender,
  userId: number,
  subscriptions: StoredSubscription[],
  message: PushMessage,
  now: number,
): Promise<void> {
  await Promise.all(
    subscriptions.map(async (subscription) => {
      try {
        await settle(db, userId, subscription, await sender.send(userId, subscription, message, now), now);
      } catch (error) {
        console.warn(
          JSON.stringify({
            event: "push_failed",
            userId,
            subscription: subscription.id,
            reason: error instanceof Error ? error.message : String(error),
          }),
        );
      }
    }),
  );
}
