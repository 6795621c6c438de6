/**
 * The mail provider's bounce and complaint reports, signed the Standard Webhooks way
 * (https://www.standardwebhooks.com, used by common transactional mail providers): headers
 * webhook-id, webhook-timestamp (seconds) and webhook-signature ("v1,<base64 HMAC-SHA256 of
 * `id.timestamp.body`>", several separated by spaces while a secret is rotated), with the secret
 * MAIL_WEBHOOK_SECRET as "whsec_<base64>". Resend signs the same way through Svix, whose headers
 * are named svix-id, svix-timestamp and svix-signature (https://resend.com/docs/webhooks/verify-webhooks-requests);
 * the webhook- names are Svix's white-label ones.
 */
import * as v from "valibot";
import { sameBytes } from "../auth/tokens";

/** A report older (or further ahead) than this is refused, so a captured one cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

const encoder = new TextEncoder();

function bytesOfBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Whether a call carries a valid, fresh signature of `body` by the holder of `secret`. */
export async function verifyWebhook(secret: string, headers: Headers, body: string, now: number): Promise<boolean> {
  // One family or the other, never mixed: an id of one and a signature of the other is no signature.
  const prefix = headers.has("webhook-id") ? "webhook" : "svix";
  const id = headers.get(`${prefix}-id`);
  const timestamp = headers.get(`${prefix}-timestamp`);
  const signatures = headers.get(`${prefix}-signature`);
  const key = secret.startsWith("whsec_") ? bytesOfBase64(secret.slice("whsec_".length)) : null;
  if (!id || !timestamp || !signatures || !key || key.length === 0 || !/^[0-9]{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const hmac = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const expected = new Uint8Array(await crypto.subtle.sign("HMAC", hmac, encoder.encode(`${id}.${timestamp}.${body}`)));
  return signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    const given = version === "v1" && signature ? bytesOfBase64(signature) : null;
    return !!given && sameBytes(given, expected);
  });
}

const Address = v.pipe(v.string(), v.trim(), v.minLength(3), v.maxLength(254), v.email());

/**
 * What a report says (README: "Mail provider webhook"): { type: "email.bounced" | "email.complained",
 * data: { to: address or addresses, bounce?: { type: "Permanent" | "Transient" | ... } } }. Other
 * types are accepted and ignored.
 */
export const MailProviderReport = v.object({
  type: v.pipe(v.string(), v.maxLength(100)),
  data: v.optional(
    v.object({
      to: v.optional(v.union([Address, v.pipe(v.array(Address), v.maxLength(50))])),
      bounce: v.optional(v.object({ type: v.optional(v.pipe(v.string(), v.maxLength(40))) })),
    }),
  ),
});
export type MailProviderReport = v.InferOutput<typeof MailProviderReport>;

/** What a report asks of the site: stop mail for these addresses, for this reason; null when it asks nothing. */
export function reportedStop(
  report: MailProviderReport,
): { reason: "bounce" | "complaint"; addresses: string[] } | null {
  const to = report.data?.to;
  const addresses = to === undefined ? [] : typeof to === "string" ? [to] : to;
  if (addresses.length === 0) return null;
  if (report.type === "email.complained") return { reason: "complaint", addresses };
  // A soft (transient) bounce is a full mailbox or a busy server: the address still works.
  if (report.type === "email.bounced" && report.data?.bounce?.type?.toLowerCase() !== "transient")
    return { reason: "bounce", addresses };
  return null;
}
