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
 * Anything else is dropped. This file reads such mail; what it does to a member's mail is
 * services/notification-choices.ts receiveMail.
 */

/** The local part of the address a List-Unsubscribe mailto: names. */
export const UNSUBSCRIBE_MAILBOX = "unsubscribe";

/** A delivery status report is small; anything larger is not read past this. */
const MAX_READ_BYTES = 512 * 1024;

const domainOf = (address: string) =>
  address
    .slice(address.lastIndexOf("@") + 1)
    .replace(/>$/, "")
    .toLowerCase();

/** The address that takes a notification mail's mailto: unsubscribe, on the domain mail is sent from. */
export function unsubscribeAddress(mailFrom: string): string {
  return `${UNSUBSCRIBE_MAILBOX}@${domainOf(mailFrom)}`;
}

/** The mailto: of a notification mail's List-Unsubscribe (RFC 2369): the token travels in the subject. */
export function unsubscribeMailto(mailFrom: string, token: string): string {
  return `mailto:${unsubscribeAddress(mailFrom)}?subject=${encodeURIComponent(`unsubscribe ${token}`)}`;
}

/** The start of a received mail's raw text (a report is small; nothing past MAX_READ_BYTES is read). */
export async function readRaw(stream: ReadableStream<Uint8Array>): Promise<string> {
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
