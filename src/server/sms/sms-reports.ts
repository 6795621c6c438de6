/**
 * Sinch's delivery reports for the SMS we sent, checked before anything is believed. Sinch signs SMS
 * callbacks with the service plan's HMAC secret (SMS_WEBHOOK_SECRET, set up with Sinch's account
 * manager: https://developers.sinch.com/docs/sms/api-reference/sms/tag/Webhooks/) in the headers
 * x-sinch-webhook-signature (base64 HMAC of `<raw body>.<nonce>.<timestamp>`),
 * x-sinch-webhook-signature-nonce, x-sinch-webhook-signature-timestamp (seconds) and
 * x-sinch-webhook-signature-algorithm (HmacSHA256 ...), as Sinch's SDKs verify them.
 */
import * as v from "valibot";
import { sameBytes } from "../auth/tokens";

/**
 * How old a report's signature may be. Sinch retries a callback that was not answered 2xx (or was
 * answered 5xx or 429) 5 s after the first try, then after 10, 20, 40, 80 s ..., doubling, the last
 * at 81,920 s (22 h 45 min) after the first failed attempt
 * (https://developers.sinch.com/docs/sms/api-reference/sms/tag/Webhooks/), and a retry is the same
 * request again, signed with the first try's timestamp. So a report is taken for a day after it was
 * signed, as Sinch sends it; a replay of a captured one changes nothing because a report is recorded
 * once per batch, recipient and status (recordSmsStatus), not because of its age.
 */
export const SMS_REPORT_MAX_AGE_SECONDS = 24 * 60 * 60;
/** A timestamp ahead of our clock by more than this is not Sinch's. */
export const SMS_REPORT_CLOCK_SKEW_SECONDS = 5 * 60;

const HASHES: Record<string, "SHA-256" | "SHA-384" | "SHA-512"> = {
  HmacSHA256: "SHA-256",
  HmacSHA384: "SHA-384",
  HmacSHA512: "SHA-512",
};

const encoder = new TextEncoder();

/** Whether a callback carries a valid, fresh signature of `body` by the holder of `secret`. */
export async function verifySmsReport(secret: string, headers: Headers, body: string, now: number): Promise<boolean> {
  const signature = headers.get("x-sinch-webhook-signature");
  const nonce = headers.get("x-sinch-webhook-signature-nonce");
  const timestamp = headers.get("x-sinch-webhook-signature-timestamp");
  const hash = HASHES[headers.get("x-sinch-webhook-signature-algorithm") ?? ""];
  if (!secret || !signature || !nonce || !timestamp || !hash || !/^[0-9]{1,12}$/.test(timestamp)) return false;
  const age = now - Number(timestamp);
  if (age > SMS_REPORT_MAX_AGE_SECONDS || age < -SMS_REPORT_CLOCK_SKEW_SECONDS) return false;
  let given: Uint8Array;
  try {
    given = Uint8Array.from(atob(signature), (ch) => ch.charCodeAt(0));
  } catch {
    return false;
  }
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash }, false, ["sign"]);
  const expected = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, encoder.encode(`${body}.${nonce}.${timestamp}`)),
  );
  return sameBytes(given, expected);
}

/**
 * A recipient delivery report (https://developers.sinch.com/docs/sms/api-reference/sms/webhooks/deliveryreport):
 * `{ type: "recipient_delivery_report_sms", batch_id, recipient, code, status, at, client_reference }`.
 * Other callback types are accepted and ignored.
 */
export const SmsReport = v.object({
  type: v.pipe(v.string(), v.maxLength(60)),
  batch_id: v.optional(v.pipe(v.string(), v.maxLength(100))),
  recipient: v.optional(v.pipe(v.string(), v.maxLength(32))),
  status: v.optional(v.pipe(v.string(), v.maxLength(40))),
  code: v.optional(v.number()),
  client_reference: v.optional(v.pipe(v.string(), v.maxLength(100))),
});
export type SmsReport = v.InferOutput<typeof SmsReport>;

/** The SMS a report is about and its status, or null when the report is not one about a recipient. */
export function reportedStatus(
  report: SmsReport,
): { id: number; providerId: string; to: string; status: string } | null {
  if (report.type !== "recipient_delivery_report_sms" || !report.batch_id || !report.recipient || !report.status)
    return null;
  const id = Number(report.client_reference);
  if (!Number.isInteger(id) || id < 1) return null;
  // Sinch names the recipient without its "+".
  const to = report.recipient.startsWith("+") ? report.recipient : `+${report.recipient}`;
  return { id, providerId: report.batch_id, to, status: report.status };
}
