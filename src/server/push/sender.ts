/**
 * Sending web push. PUSH_PROVIDER "outbox" (development, tests) keeps each push in D1
 * (outgoing_push, shown at /dev/outbox); "web" posts it to the browser's push service (RFC 8030),
 * encrypted (RFC 8291, aes128gcm) and signed (VAPID, RFC 8292) by @block65/webcrypto-web-push
 * (docs/decisions/0018-web-push.md).
 */
import { buildPushPayload } from "@block65/webcrypto-web-push";
import type { PushPayload } from "../../shared/member-events";
import type { SiteSettings } from "../../shared/settings";
import type { Database } from "../db/database";
import { deleteSubscription, markPushDelivered, recordPush, type StoredSubscription } from "../db/push-subscriptions";
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

/** What became of one push: taken, the subscription is gone for good (404/410), or it failed. */
export type PushOutcome = { kind: "sent" } | { kind: "gone"; status: number } | { kind: "failed"; reason: string };

export interface PushSender {
  send(userId: number, subscription: StoredSubscription, message: PushMessage, now: number): Promise<PushOutcome>;
}

/** Development and tests: the push stays in the outbox table. */
class OutboxPush implements PushSender {
  constructor(private readonly db: Database) {}

  async send(userId: number, subscription: StoredSubscription, message: PushMessage, now: number): Promise<PushOutcome> {
    await recordPush(this.db, { userId, endpoint: subscription.endpoint, payload: JSON.stringify(message.payload), topic: message.topic, urgency: message.urgency, createdAt: now });
    return { kind: "sent" };
  }
}

/** Production: the push service of the subscription's browser. */
export class WebPush implements PushSender {
  constructor(
    private readonly vapid: VapidKeys,
    private readonly development: boolean,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  // The token's expiry is the library's (12 hours from the clock), so `now` is not needed here.
  async send(_userId: number, subscription: StoredSubscription, message: PushMessage, _now: number): Promise<PushOutcome> {
    // Checked when stored too; checked again so no row can make the Worker post elsewhere.
    if (!isAllowedPushEndpoint(subscription.endpoint, this.development)) return { kind: "gone", status: 0 };
    const request = await buildPushPayload(
      { data: message.payload, options: { ttl: message.ttl, urgency: message.urgency, ...(message.topic ? { topic: message.topic } : {}) } },
      { endpoint: subscription.endpoint, expirationTime: null, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      this.vapid,
    );
    const response = await this.fetcher(pushServiceAddress(subscription.endpoint, this.development), {
      method: "POST",
      headers: request.headers,
      body: request.body,
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) return { kind: "gone", status: response.status };
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
    console.warn(JSON.stringify({ event: "push_not_configured", site: site.domain, public_key: Boolean(site.push_public_key), private_key: Boolean(env.VAPID_PRIVATE_KEY) }));
    return null;
  }
  return new WebPush({ publicKey: site.push_public_key, privateKey: env.VAPID_PRIVATE_KEY, subject: `mailto:${site.support_email}` }, isDevelopment(env));
}

/** Whether stored endpoints may be loopback (development and tests). */
export const pushToLoopbackAllowed = isDevelopment;

/**
 * Send one message to each of a member's browsers. A subscription the push service calls gone is
 * deleted; any other failure is logged and the rest still go out. Never throws.
 */
export async function deliverPush(db: Database, sender: PushSender, userId: number, subscriptions: StoredSubscription[], message: PushMessage, now: number): Promise<void> {
  await Promise.all(
    subscriptions.map(async (subscription) => {
      try {
        const outcome = await sender.send(userId, subscription, message, now);
        if (outcome.kind === "sent") await markPushDelivered(db, subscription.id, now);
        else if (outcome.kind === "gone") await deleteSubscription(db, subscription.id);
        else console.warn(JSON.stringify({ event: "push_failed", userId, subscription: subscription.id, push_service: new URL(subscription.endpoint).origin, reason: outcome.reason }));
      } catch (error) {
        console.warn(JSON.stringify({ event: "push_failed", userId, subscription: subscription.id, reason: error instanceof Error ? error.message : String(error) }));
      }
    }),
  );
}
