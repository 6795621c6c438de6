import type { PushSubscriptionJson } from "../../shared/web-push";
import { decodeBase64Url } from "../../shared/web-push";
import type { Database } from "../db/database";
import { forgetSessionSubscriptions, forgetSubscription, storeSubscription } from "../db/push-subscriptions";
import { fieldError } from "../errors";
import { isAllowedPushEndpoint } from "../push/endpoints";

type Subscriber = { userId: number; sessionId: string };

const endpointRefused = (field: string) =>
  fieldError({ status: 400, code: "invalid_parameter", key: "push.errors.endpoint", field });

/** The browser's key must be a point of the curve, not just 65 bytes: else no push could be encrypted for it. */
async function isP256Point(p256dh: string): Promise<boolean> {
  const bytes = decodeBase64Url(p256dh);
  if (!bytes) return false;
  return crypto.subtle.importKey("raw", Uint8Array.from(bytes), { name: "ECDH", namedCurve: "P-256" }, false, []).then(
    () => true,
    () => false,
  );
}

/**
 * POST /api/user.php?push=1 with a subscription: this browser gets the member's pushes from now on
 * (for as long as this login lasts). An endpoint another member stored moves to this one.
 * `development` allows the loopback endpoints of the push service stand-in.
 */
export async function subscribeBrowser(
  db: Database,
  member: Subscriber,
  subscription: PushSubscriptionJson,
  development: boolean,
  now: number,
): Promise<void> {
  if (!isAllowedPushEndpoint(subscription.endpoint, development)) throw endpointRefused("subscription.endpoint");
  if (!(await isP256Point(subscription.keys.p256dh)))
    throw fieldError({
      status: 400,
      code: "invalid_parameter",
      key: "push.errors.keys",
      field: "subscription.keys.p256dh",
    });
  const expiresAt =
    typeof subscription.expirationTime === "number" ? Math.floor(subscription.expirationTime / 1000) : null;
  await storeSubscription(
    db,
    {
      userId: member.userId,
      sessionId: member.sessionId,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      expiresAt,
    },
    now,
  );
}

/**
 * `{ subscription: null }`: push turned off in this browser, or the browser dropped the subscription.
 * Forgets the endpoint named (if it is the member's), else whatever this login subscribed.
 */
export async function unsubscribeBrowser(
  db: Database,
  member: Subscriber,
  endpoint: string | undefined,
): Promise<void> {
  if (endpoint === undefined) await forgetSessionSubscriptions(db, member.userId, member.sessionId);
  else if (!URL.canParse(endpoint)) throw endpointRefused("endpoint");
  else await forgetSubscription(db, member.userId, endpoint);
}
