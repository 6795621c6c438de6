/**
 * Mail that reaches the Worker through Cloudflare Email Routing (the Worker's `email` handler):
 * - the `mailto:` of a notification mail's List-Unsubscribe (unsubscribe@<MAIL_FROM's domain>, the
 *   signed unsubscribe token in the subject), which some mail programs send instead of the one-click
 *   POST: the token is the authority, as for the link;
 * - with MAIL_PROVIDER "cloudflare", the bounce notifications (RFC 3464 delivery status reports)
 *   Cloudflare's Email Service sends to the sender address for a hard bounce
 *   (https://developers.cloudflare.com/email-service/concepts/deliverability/): each failed
 *   recipient's mail stops. Complaints need no mail: Cloudflare puts the address on its suppression
 *   list and the next send's E_RECIPIENT_SUPPRESSED stops it (mailer.ts).
 * Anything else is dropped.
 */
import { databaseOf } from "../db/database";
import { stopMailForReport, unsubscribe } from "../services/notification-choices";
import { readUnsubscribeToken } from "./unsubscribe-links";

/** The local part of the address a List-Unsubscribe mailto: names. */
export const UNSUBSCRIBE_MAILBOX = "unsubscribe";

/** A delivery status report is small; anything larger is not read past this. */
const MAX_READ_BYTES = 512 * 1024;

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).replace(/>$/, "").toLowerCase();

/** The address that takes a notification mail's mailto: unsubscribe, on the domain mail is sent from. */
export function unsubscribeAddress(mailFrom: string): string {
  return `${UNSUBSCRIBE_MAILBOX}@${domainOf(mailFrom)}`;
}

/** The mailto: of a notification mail's List-Unsubscribe (RFC 2369): the token travels in the subject. */
export function unsubscribeMailto(mailFrom: string, token: string): string {
  return `mailto:${unsubscribeAddress(mailFrom)}?subject=${encodeURIComponent(`unsubscribe ${token}`)}`;
}

async function readRaw(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < MAX_READ_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  const decoder = new TextDecoder();
  return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode();
}

/** The recipients an RFC 3464 report says failed for good: `Final-Recipient` with `Action: failed` and a 5.x.x status. */
export function failedRecipients(raw: string): string[] {
  const failed: string[] = [];
  // Per-recipient fields are groups separated by a blank line (RFC 3464 §2.3).
  for (const group of raw.replace(/\r\n/g, "\n").split(/\n\s*\n/)) {
    const recipient = /^Final-Recipient:\s*rfc822;\s*<?([^\s>]+@[^\s>]+)>?\s*$/im.exec(group)?.[1];
    const action = /^Action:\s*(\S+)/im.exec(group)?.[1]?.toLowerCase();
    const status = /^Status:\s*([245])\.\d{1,3}\.\d{1,3}/im.exec(group)?.[1];
    if (recipient && action === "failed" && status === "5") failed.push(recipient);
  }
  return failed;
}

/** Handle one mail the Worker received; never throws for a mail it does not understand. */
export async function receiveMail(message: Pick<ForwardableEmailMessage, "to" | "from" | "headers" | "raw">, env: Env, now: number): Promise<string> {
  const db = databaseOf(env.DB);
  const to = message.to.toLowerCase();
  if (to === unsubscribeAddress(env.MAIL_FROM)) {
    const token = /\b([1-9][0-9]{0,9}\.[a-z_]{1,40}\.[A-Za-z0-9_-]{43})\b/.exec(message.headers.get("subject") ?? "")?.[1];
    const link = token ? await readUnsubscribeToken(env.SESSION_SECRET, token) : null;
    if (!link) return "unsubscribe_invalid";
    await unsubscribe(db, link, now);
    console.info(JSON.stringify({ event: "mail_unsubscribe", by: "mailto", userId: link.userId, kind: link.kind }));
    return "unsubscribed";
  }
  const type = message.headers.get("content-type") ?? "";
  // Bounce notifications come to the sender address only; a report sent anywhere else is not ours.
  if (to === env.MAIL_FROM.toLowerCase() && /multipart\/report/i.test(type) && /report-type="?delivery-status/i.test(type)) {
    const failed = failedRecipients(await readRaw(message.raw));
    const stopped = failed.length ? await stopMailForReport(db, "bounce", failed, now) : 0;
    console.info(JSON.stringify({ event: "mail_bounce_report", failed: failed.length, stopped }));
    return "bounce";
  }
  return "dropped";
}
