/**
 * Amazon SES's bounces and complaints, delivered by Amazon SNS to POST /api/mail-sns.php. Nothing in
 * a message is believed before its signature holds, as
 * https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html asks: the signing
 * certificate comes only from https://sns.<region>.amazonaws.com (fetched over https, kept per
 * isolate) and must be issued by Amazon to SNS and within its validity (isSnsCertificate), SignatureVersion 1 is RSA with SHA-1 and 2 RSA with SHA-256 over the documented string
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

/** The attributes of an X.501 Name that we read (RFC 5280 §4.1.2.4), by OID: C, O, CN. */
const NAME_ATTRIBUTES: Record<string, "C" | "O" | "CN"> = { "550406": "C", "55040a": "O", "550403": "CN" };
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);

function nameOf(der: Uint8Array, at: number): Partial<Record<"C" | "O" | "CN", string>> {
  const name: Partial<Record<"C" | "O" | "CN", string>> = {};
  const sequence = derItem(der, at);
  // RDNSequence: SET OF AttributeTypeAndValue { OID, value }.
  for (let rdn = sequence.start; rdn < sequence.end; rdn = derItem(der, rdn).end) {
    const set = derItem(der, rdn);
    for (let pair = set.start; pair < set.end; pair = derItem(der, pair).end) {
      const type = derItem(der, derItem(der, pair).start);
      const value = derItem(der, type.end);
      const attribute = NAME_ATTRIBUTES[hex(der.slice(type.start, type.end))];
      if (attribute) name[attribute] = new TextDecoder().decode(der.slice(value.start, value.end));
    }
  }
  return name;
}

/** UTCTime (YYMMDDHHMMSSZ) or GeneralizedTime (YYYYMMDDHHMMSSZ), in seconds. */
function timeOf(der: Uint8Array, at: number): number {
  const item = derItem(der, at);
  const text = latin1(der.slice(item.start, item.end));
  const match = /^(\d{2}|\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) throw new Error("unreadable validity");
  const year = match[1]!.length === 2 ? (Number(match[1]) < 50 ? 2000 : 1900) + Number(match[1]) : Number(match[1]);
  return (
    Date.UTC(year, Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]), Number(match[6])) / 1000
  );
}

/** What we read of an X.509 certificate (RFC 5280 §4.1): who issued it, to whom, when it holds, its key. */
export type Certificate = {
  issuer: Partial<Record<"C" | "O" | "CN", string>>;
  subject: Partial<Record<"C" | "O" | "CN", string>>;
  notBefore: number;
  notAfter: number;
  /** The SubjectPublicKeyInfo, for WebCrypto's "spki". */
  publicKey: Uint8Array<ArrayBuffer>;
};

/** Read an X.509 certificate in PEM. */
export function readCertificate(pem: string): Certificate {
  const base64 = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/.exec(pem)?.[1];
  if (!base64) throw new Error("not a PEM certificate");
  const der = Uint8Array.from(atob(base64.replace(/\s+/g, "")), (ch) => ch.charCodeAt(0));
  const certificate = derItem(der, 0);
  const tbs = derItem(der, certificate.start);
  let at = tbs.start;
  // version [0] (optional), serialNumber, signature, issuer, validity, subject, then the key.
  if (der[at] === 0xa0) at = derItem(der, at).end;
  for (let skip = 0; skip < 2; skip++) at = derItem(der, at).end;
  const issuer = nameOf(der, at);
  at = derItem(der, at).end;
  const validity = derItem(der, at);
  const notBefore = timeOf(der, validity.start);
  const notAfter = timeOf(der, derItem(der, validity.start).end);
  at = validity.end;
  const subject = nameOf(der, at);
  at = derItem(der, at).end;
  const key = derItem(der, at);
  if (key.tag !== 0x30) throw new Error("no public key in the certificate");
  return { issuer, subject, notBefore, notAfter, publicKey: der.slice(at, key.end) };
}

/**
 * Whether a certificate is one SNS signs with: issued by Amazon (the Amazon RSA 2048 M0x
 * authorities of Amazon Trust Services: O=Amazon, C=US, CN "Amazon ...") to SNS (CN
 * sns.amazonaws.com), as "Check that the certificate is issued by Amazon SNS" asks
 * (https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html). The URL's host
 * alone is not enough: the page asks for both. The chain itself is not walked (a Worker has no
 * store of Amazon's roots); fetching it over https from sns.<region>.amazonaws.com stands for that.
 */
export function isSnsCertificate(certificate: Certificate): boolean {
  const { issuer, subject } = certificate;
  return (
    issuer.O === "Amazon" &&
    issuer.C === "US" &&
    /^Amazon\b/.test(issuer.CN ?? "") &&
    /^sns(\.[a-z0-9-]+)?\.amazonaws\.com$/.test(subject.CN ?? "")
  );
}

/** A certificate refused for what it says, not for how it was fetched. */
class CertificateRefused extends Error {
  constructor(readonly reason: "certificate_issuer" | "certificate_expired") {
    super(reason);
  }
}

type SigningKey = { key: CryptoKey; notBefore: number; notAfter: number };

const certificates = new Map<string, Promise<SigningKey>>();

async function signingKey(url: string, hash: "SHA-1" | "SHA-256", fetcher: typeof fetch): Promise<SigningKey> {
  const cacheKey = `${hash} ${url}`;
  let key = certificates.get(cacheKey);
  if (!key) {
    key = (async () => {
      const response = await fetcher(url, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
      if (!response.ok) throw new Error(`certificate answered ${response.status}`);
      const certificate = readCertificate(await response.text());
      if (!isSnsCertificate(certificate)) throw new CertificateRefused("certificate_issuer");
      return {
        key: await crypto.subtle.importKey("spki", certificate.publicKey, { name: "RSASSA-PKCS1-v1_5", hash }, false, [
          "verify",
        ]),
        notBefore: certificate.notBefore,
        notAfter: certificate.notAfter,
      };
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
    const signing = await signingKey(
      message.SigningCertURL,
      message.SignatureVersion === "1" ? "SHA-1" : "SHA-256",
      check.fetcher ?? ((input, init) => fetch(input, init)),
    );
    if (check.now < signing.notBefore || check.now > signing.notAfter)
      throw new CertificateRefused("certificate_expired");
    const valid = await crypto.subtle.verify(
      "RSASSA-PKCS1-v1_5",
      signing.key,
      signature,
      new TextEncoder().encode(stringToSign(message)),
    );
    return valid ? null : "signature";
  } catch (error) {
    return error instanceof CertificateRefused ? error.reason : "certificate";
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
