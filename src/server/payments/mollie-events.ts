/**
 * Mollie's next-gen webhooks (https://docs.mollie.com/reference/webhooks-new): an event object POSTed
 * as JSON to the URL the account subscribed in Mollie's dashboard or Webhooks API, signed with the
 * subscription's shared secret (MOLLIE_WEBHOOK_SECRET). The signature is the hex HMAC-SHA256 of the
 * raw body in `X-Mollie-Signature`, compared in constant time
 * (https://docs.mollie.com/reference/webhooks-best-practices; Mollie's PHP client also accepts it
 * prefixed `sha256=`, and checks several secrets while one is rotated).
 *
 * The event (https://docs.mollie.com/reference/get-webhook-event): `{ resource: "event", id, type,
 * entityId, createdAt, _embedded?: { entity }, _links }`; the entity is embedded with a full payload
 * subscription ("a snapshot of the entity, as returned by the GET endpoint":
 * https://docs.mollie.com/reference/refunds-api-webhooks, .../chargebacks-api-webhooks), absent with a
 * simple one. The app acts on refunds and chargebacks only: refund.queued, .pending, .processing,
 * .refunded, .failed, .canceled; chargeback.received, .reversed.
 */
import * as v from "valibot";
import { sameBytes } from "../auth/tokens";

export const MOLLIE_SIGNATURE_HEADER = "x-mollie-signature";

const encoder = new TextEncoder();

/** The secrets MOLLIE_WEBHOOK_SECRET holds: one, or several separated by commas while one is rotated. */
const secretsOf = (configured: string) =>
  configured
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** Whether `signature` is a valid signature of the raw `body` by the holder of one of the configured secrets. */
export async function verifyMollieSignature(
  configured: string,
  signature: string | null,
  body: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  const secrets = secretsOf(configured);
  if (secrets.length === 0 || !signature) return false;
  const hex = signature.startsWith("sha256=") ? signature.slice("sha256=".length) : signature;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
  const given = Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));
  let valid = false;
  for (const secret of secrets) {
    const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, body));
    // Every secret is tried, so the time taken does not tell which one matched.
    valid = sameBytes(given, expected) || valid;
  }
  return valid;
}

const Id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_]{1,64}$/));

/** The part of an embedded refund or chargeback the app reads: which payment it belongs to. */
const Entity = v.object({
  resource: v.pipe(v.string(), v.maxLength(40)),
  id: Id,
  paymentId: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(80)))),
});

export const MollieEvent = v.object({
  resource: v.literal("event"),
  id: Id,
  type: v.pipe(v.string(), v.maxLength(80)),
  entityId: Id,
  createdAt: v.pipe(v.string(), v.maxLength(40)),
  _embedded: v.optional(v.nullable(v.object({ entity: v.optional(v.nullable(v.unknown())) }))),
});
export type MollieEvent = v.InferOutput<typeof MollieEvent>;

/** What an event is about, when it is one the app acts on: a refund or chargeback, and its payment when embedded. */
export function eventSubject(
  event: MollieEvent,
): { kind: "refund" | "chargeback"; entityId: string; paymentId: string | null } | null {
  const [resource] = event.type.split(".");
  if (resource !== "refund" && resource !== "chargeback") return null;
  const entity = v.safeParse(Entity, event._embedded?.entity);
  const paymentId =
    entity.success &&
    entity.output.id === event.entityId &&
    /^tr_[A-Za-z0-9]{1,64}$/.test(entity.output.paymentId ?? "")
      ? entity.output.paymentId!
      : null;
  return { kind: resource, entityId: event.entityId, paymentId };
}
