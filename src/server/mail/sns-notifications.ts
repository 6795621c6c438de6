/**
 * Amazon SES's bounces and complaints, delivered by Amazon SNS to POST /api/mail-sns.php. Nothing in
 * a message is believed before its signature holds, as
 * https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html asks: the signing
 * certificate comes only from https://sns.<region>.amazonaws.com (fetched over https, kept per
 * isolate), SignatureVersion 1 is RSA with SHA-1 and 2 RSA with SHA-256 over the documented string
 * to sign, the topic must be one of ours (MAIL_SNS_TOPIC_ARNS: anyone can sign with SNS for a topic
 * of their own), and a message older than an hour is refused so a captured one cannot be replayed.
 */
import * as v from "valibot";

/** SNS retries an HTTPS delivery for at most an hour by its delivery policy; older is a replay. */
export const SNS_MESSAGE_MAX_AGE_SECONDS = 60 * 60;

const Text = v.pipe(v.string(), v.maxLength(300_000));

/** The JSON SNS posts (https://docs.aws.amazon.com/sns/latest/dg/http-notification-json.html and its subscription confirmation). */
export const SnsMessage = v.object({
  Type: v.picklist(["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"]),
  MessageId: v.pipe(v.string(), v.maxLength(100)),
  TopicArn: v.pipe(v.string(), v.maxLength(300)),
  Subject: v.optional(v.nullable(Text)),
  Message: Text,
  Timestamp: v.pipe(v.string(), v.isoTimestamp()),
  SignatureVersion: v.picklist(["1", "2"]),
  Signature: v.pipe(v.string(), v.maxLength(2000)),
  SigningCertURL: v.pipe(v.string(), v.maxLength(500)),
  Token: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  SubscribeURL: v.optional(v.pipe(v.string(), v.maxLength(2000))),
});
export type SnsMessage = v.InferOutput<typeof SnsMessage>;

/** The fields signed, in this order, per message type (each as "Name\nvalue\n"). */
const SIGNED_FIELDS: Record<SnsMessage["Type"], (keyof SnsMessage)[]> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
};

export function stringToSign(message: SnsMessage): string {
  return SIGNED_FIELDS[message.Type]
    .map((field) => (message[field] === undefined || message[field] === null ? "" : `${field}\n${message[field]}\n`))
    .join("");
}

/**
 * Whether a URL SNS names (the signing certificate, a subscription's confirmation) is Amazon's:
 * https on sns.<region>.amazonaws.com. `extraOrigin` lets development and tests name a stand-in.
 */
export function isSnsUrl(url: string, extraOrigin: string | null): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (extraOrigin && parsed.origin === extraOrigin) return true;
  return (
    parsed.protocol === "https:" &&
    parsed.port === "" &&
    /^sns\.[a-z]{2}(-[a-z]+)+-[0-9]\.amazonaws\.com$/.test(parsed.hostname)
  );
}

/** DER: the tag, where the content starts and how long it is. */
function derItem(bytes: Uint8Array, at: number): { tag: number; start: number; end: number } {
  const tag = bytes[at]!;
  let length = bytes[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + bytes[start + i]!;
    start += octets;
  }
  if (start + length > bytes.length) throw new Error("truncated certificate");
  return { tag, start, end: start + length };
}

/** The SubjectPublicKeyInfo of an X.509 certificate in PEM (RFC 5280 §4.1), for WebCrypto's "spki". */
export function publicKeyOfCertificate(pem: string): Uint8Array<ArrayBuffer> {
  const base64 = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/.exec(pem)?.[1];
  if (!base64) throw new Error("not a PEM certificate");
  const der = Uint8Array.from(atob(base64.replace(/\s+/g, "")), (ch) => ch.charCodeAt(0));
  const certificate = derItem(der, 0);
  const tbs = derItem(der, certificate.start);
  let at = tbs.start;
  // version [0] (optional), serialNumber, signature, issuer, validity, subject, then the key.
  if (der[at] === 0xa0) at = derItem(der, at).end;
  for (let skip = 0; skip < 5; skip++) at = derItem(der, at).end;
  const key = derItem(der, at);
  if (key.tag !== 0x30) throw new Error("no public key in the certificate");
  return der.slice(at, key.end);
}

const certificates = new Map<string, Promise<CryptoKey>>();

async function signingKey(url: string, hash: "SHA-1" | "SHA-256", fetcher: typeof fetch): Promise<CryptoKey> {
  const cacheKey = `${hash} ${url}`;
  let key = certificates.get(cacheKey);
  if (!key) {
    key = (async () => {
      const response = await fetcher(url, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
      if (!response.ok) throw new Error(`certificate answered ${response.status}`);
      return crypto.subtle.importKey(
        "spki",
        publicKeyOfCertificate(await response.text()),
        { name: "RSASSA-PKCS1-v1_5", hash },
        false,
        ["verify"],
      );
    })();
    certificates.set(cacheKey, key);
    // A failed fetch is not kept: the next message tries again.
    key.catch(() => certificates.delete(cacheKey));
  }
  return key;
}

export type SnsCheck = { topicArns: readonly string[]; certOrigin: string | null; now: number; fetcher?: typeof fetch };

/** Why a message is refused, or null when it is SNS's, for one of our topics, and fresh. */
export async function snsRefusal(message: SnsMessage, check: SnsCheck): Promise<string | null> {
  if (!check.topicArns.includes(message.TopicArn)) return "topic";
  if (!isSnsUrl(message.SigningCertURL, check.certOrigin)) return "certificate_url";
  const sent = Date.parse(message.Timestamp) / 1000;
  if (!(Math.abs(check.now - sent) <= SNS_MESSAGE_MAX_AGE_SECONDS)) return "stale";
  let signature: Uint8Array<ArrayBuffer>;
  try {
    signature = Uint8Array.from(atob(message.Signature), (ch) => ch.charCodeAt(0));
  } catch {
    return "signature";
  }
  try {
    const key = await signingKey(
      message.SigningCertURL,
      message.SignatureVersion === "1" ? "SHA-1" : "SHA-256",
      check.fetcher ?? ((input, init) => fetch(input, init)),
    );
    const valid = await crypto.subtle.verify(
      "RSASSA-PKCS1-v1_5",
      key,
      signature,
      new TextEncoder().encode(stringToSign(message)),
    );
    return valid ? null : "signature";
  } catch {
    return "certificate";
  }
}

const Recipients = v.pipe(v.array(v.object({ emailAddress: v.pipe(v.string(), v.maxLength(320)) })), v.maxLength(50));

/**
 * An SES notification (https://docs.aws.amazon.com/ses/latest/dg/notification-contents.html):
 * `notificationType` from identity notifications, `eventType` from a configuration set's event
 * publishing; the same bounce and complaint objects in both.
 */
const SesNotification = v.object({
  notificationType: v.optional(v.string()),
  eventType: v.optional(v.string()),
  bounce: v.optional(v.object({ bounceType: v.optional(v.string()), bouncedRecipients: v.optional(Recipients) })),
  complaint: v.optional(v.object({ complainedRecipients: v.optional(Recipients) })),
});

/** What an SES notification asks of the site: stop mail for these addresses, for this reason; null when it asks nothing. */
export function sesStop(messageText: string): { reason: "bounce" | "complaint"; addresses: string[] } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(messageText);
  } catch {
    return null;
  }
  const notification = v.safeParse(SesNotification, parsed);
  if (!notification.success) return null;
  const { notificationType, eventType, bounce, complaint } = notification.output;
  const type = notificationType ?? eventType;
  if (type === "Complaint" && complaint?.complainedRecipients?.length)
    return { reason: "complaint", addresses: complaint.complainedRecipients.map((r) => r.emailAddress) };
  // A transient bounce (a full mailbox, a busy server) leaves the address working; Permanent and Undetermined do not.
  if (type === "Bounce" && bounce?.bounceType !== "Transient" && bounce?.bouncedRecipients?.length)
    return { reason: "bounce", addresses: bounce.bouncedRecipients.map((r) => r.emailAddress) };
  return null;
}
