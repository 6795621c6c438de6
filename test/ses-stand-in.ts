/**
 * A stand-in of Amazon SES (API v2) and of the SNS topic its bounces and complaints go to, on
 * loopback, as AWS documents them:
 * - POST /v2/email/outbound-emails (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html)
 *   checks the Signature Version 4 of the request
 *   (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html):
 *   an unknown key id answers 403 UnrecognizedClientException, a wrong signature 403
 *   SignatureDoesNotMatch, a request more than 5 minutes off 403 InvalidSignatureException (the
 *   error's name in `x-amzn-ErrorType`, `{ message }` in the body). A sender outside the verified
 *   identity answers 400 MessageRejected, an unknown configuration set 404 NotFoundException, a
 *   message without subject or body 400 BadRequestException; a good one 200 `{ MessageId }`.
 * - SNS: the stand-in holds an RSA key and its certificate for sns.amazonaws.com issued by an
 *   authority named as Amazon's (made with openssl), served at /SimpleNotificationService-standin.pem,
 *   and a self-signed one of the same name at /SimpleNotificationService-foreign.pem. POST
 *   /_stand-in/sns { kind: "Bounce" | "Complaint" | "Transient" | "SubscriptionConfirmation", to?,
 *   signatureVersion?, timestamp?, certificate?: "genuine" | "foreign" } answers the JSON
 *   SNS would post to the subscribed endpoint, signed as
 *   https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html describes.
 *   GET /?Action=ConfirmSubscription&Token=... confirms a subscription (listed at /_stand-in/confirmed).
 * - GET /_stand-in/sent lists the mails it took, with the headers they carry.
 */
import { createHash, createHmac, createSign, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { answerJson, bodyText, onLoopback } from "./stand-in-server";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SES_REGION = "eu-west-1";
export const SES_KEY_ID = "AKIASTANDIN000000001";
export const SES_SECRET = "standin/secret/access/key/0000000000000";
export const SES_IDENTITY = "flirtwave.test";
export const SES_CONFIGURATION_SET = "flirtwave";
export const SNS_TOPIC = "arn:aws:sns:eu-west-1:123456789012:flirtwave-mail-feedback";

type Sent = {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  text: string | null;
  html: string | null;
  headers: { Name: string; Value: string }[];
  configurationSet: string | null;
};

function answer(res: ServerResponse, status: number, body: unknown, errorType?: string) {
  answerJson(
    res,
    status,
    body,
    errorType ? { "x-amzn-errortype": `${errorType}:http://internal.amazon.com/coral/com.amazon.coral.service/` } : {},
  );
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** Why a request's Signature Version 4 does not hold, or null when it does. */
function sigV4Problem(req: IncomingMessage, body: string): { type: string; message: string } | null {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? "",
    );
  if (!match)
    return {
      type: "IncompleteSignatureException",
      message: "Authorization header requires Credential, SignedHeaders and Signature.",
    };
  const [, keyId, date, region, service, signedHeaders, signature] = match as unknown as string[];
  if (keyId !== SES_KEY_ID)
    return { type: "UnrecognizedClientException", message: "The security token included in the request is invalid." };
  const amzDate = String(req.headers["x-amz-date"] ?? "");
  const when = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"));
  if (!amzDate.startsWith(date!) || !Number.isFinite(when) || Math.abs(Date.now() - when) > 5 * 60_000)
    return { type: "InvalidSignatureException", message: "Signature expired or not yet current." };
  if (region !== SES_REGION || service !== "ses")
    return {
      type: "SignatureDoesNotMatch",
      message: `Credential should be scoped to a valid region and to the service ses, not ${region}/${service}.`,
    };
  const names = signedHeaders!.split(";");
  if (!names.includes("host") || !names.includes("x-amz-date"))
    return { type: "SignatureDoesNotMatch", message: "host and x-amz-date must be signed." };
  const url = new URL(req.url ?? "/", "http://stand-in");
  const canonical = [
    req.method,
    url.pathname,
    [...url.searchParams]
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .toSorted()
      .join("&"),
    names
      .map(
        (name) =>
          `${name}:${String(req.headers[name] ?? "")
            .trim()
            .replace(/\s+/g, " ")}`,
      )
      .join("\n") + "\n",
    signedHeaders,
    String(req.headers["x-amz-content-sha256"] ?? sha256(body)),
  ].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${SES_SECRET}`, date!), region!), service!), "aws4_request");
  if (createHmac("sha256", key).update(toSign).digest("hex") !== signature)
    return {
      type: "SignatureDoesNotMatch",
      message: "The request signature we calculated does not match the signature you provided.",
    };
  return null;
}

/**
 * The stand-in's signing keys and their certificates (openssl): `genuine` for sns.amazonaws.com
 * issued by an authority named as Amazon's are (C=US, O=Amazon, CN=Amazon RSA 2048 M02), as SNS's
 * own certificates are; `foreign` for the same name but self-signed, as anyone can make one.
 */
function signingPairs(): Record<"genuine" | "foreign", { key: string; certificate: string }> {
  const dir = mkdtempSync(join(tmpdir(), "sns-stand-in-"));
  const at = (file: string) => join(dir, file);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  // A key and a certificate for `subject`, self-signed.
  const selfSigned = (key: string, certificate: string, subject: string) =>
    openssl(
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      at(key),
      "-out",
      at(certificate),
      "-subj",
      subject,
      "-days",
      "2",
    );
  try {
    selfSigned("ca.key", "ca.pem", "/C=US/O=Amazon/CN=Amazon RSA 2048 M02");
    openssl(
      "req",
      "-new",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      at("key.pem"),
      "-out",
      at("req.csr"),
      "-subj",
      "/CN=sns.amazonaws.com",
    );
    openssl(
      "x509",
      "-req",
      "-in",
      at("req.csr"),
      "-CA",
      at("ca.pem"),
      "-CAkey",
      at("ca.key"),
      "-CAcreateserial",
      "-out",
      at("cert.pem"),
      "-days",
      "2",
    );
    selfSigned("foreign.key", "foreign.pem", "/CN=sns.amazonaws.com");
    return {
      genuine: { key: readFileSync(at("key.pem"), "utf8"), certificate: readFileSync(at("cert.pem"), "utf8") },
      foreign: { key: readFileSync(at("foreign.key"), "utf8"), certificate: readFileSync(at("foreign.pem"), "utf8") },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SIGNED: Record<string, string[]> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
};

export function createSesStandIn() {
  const sent: Sent[] = [];
  const confirmed: string[] = [];
  const pairs = signingPairs();
  let origin = "";

  function snsMessage(request: {
    kind: string;
    to?: string;
    signatureVersion?: "1" | "2";
    timestamp?: number;
    topic?: string;
    certificate?: "genuine" | "foreign";
  }): Record<string, string> {
    const signer = request.certificate ?? "genuine";
    const timestamp = new Date((request.timestamp ?? Math.floor(Date.now() / 1000)) * 1000).toISOString();
    const base = {
      MessageId: crypto.randomUUID(),
      TopicArn: request.topic ?? SNS_TOPIC,
      Timestamp: timestamp,
      SignatureVersion: request.signatureVersion ?? "2",
      SigningCertURL: `${origin}/SimpleNotificationService-${signer === "genuine" ? "standin" : "foreign"}.pem`,
    };
    let message: Record<string, string>;
    if (request.kind === "SubscriptionConfirmation") {
      const token = randomBytes(32).toString("hex");
      message = {
        ...base,
        Type: "SubscriptionConfirmation",
        Token: token,
        Message: `You have chosen to subscribe to the topic ${base.TopicArn}.`,
        SubscribeURL: `${origin}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(base.TopicArn)}&Token=${token}`,
      };
    } else {
      const mail = {
        timestamp,
        source: `no-reply@${SES_IDENTITY}`,
        messageId: randomBytes(8).toString("hex"),
        destination: [request.to],
      };
      const ses =
        request.kind === "Complaint"
          ? {
              notificationType: "Complaint",
              complaint: {
                complainedRecipients: [{ emailAddress: request.to }],
                timestamp,
                feedbackId: "standin",
                complaintFeedbackType: "abuse",
              },
              mail,
            }
          : {
              notificationType: "Bounce",
              bounce: {
                bounceType: request.kind === "Transient" ? "Transient" : "Permanent",
                bounceSubType: request.kind === "Transient" ? "MailboxFull" : "General",
                bouncedRecipients: [{ emailAddress: request.to, action: "failed", status: "5.1.1" }],
                timestamp,
                feedbackId: "standin",
              },
              mail,
            };
      message = {
        ...base,
        Type: "Notification",
        Message: JSON.stringify(ses),
        UnsubscribeURL: `${origin}/?Action=Unsubscribe&SubscriptionArn=${encodeURIComponent(base.TopicArn)}:standin`,
      };
    }
    const toSign = SIGNED[message.Type!]!.filter((field) => message[field] !== undefined)
      .map((field) => `${field}\n${message[field]}\n`)
      .join("");
    message.Signature = createSign(message.SignatureVersion === "1" ? "RSA-SHA1" : "RSA-SHA256")
      .update(toSign)
      .sign(pairs[signer].key, "base64");
    return message;
  }

  const server = createServer(async (req, res) => {
    const raw = await bodyText(req);
    const url = new URL(req.url ?? "/", "http://stand-in");
    if (url.pathname === "/SimpleNotificationService-standin.pem")
      return res.writeHead(200, { "content-type": "application/x-pem-file" }).end(pairs.genuine.certificate);
    if (url.pathname === "/SimpleNotificationService-foreign.pem")
      return res.writeHead(200, { "content-type": "application/x-pem-file" }).end(pairs.foreign.certificate);
    if (url.pathname === "/" && url.searchParams.get("Action") === "ConfirmSubscription") {
      confirmed.push(url.searchParams.get("Token") ?? "");
      return res
        .writeHead(200, { "content-type": "text/xml" })
        .end(
          "<ConfirmSubscriptionResponse><ConfirmSubscriptionResult><SubscriptionArn>arn:aws:sns:standin</SubscriptionArn></ConfirmSubscriptionResult></ConfirmSubscriptionResponse>",
        );
    }
    if (url.pathname === "/_stand-in/sns" && req.method === "POST")
      return answer(res, 200, snsMessage(JSON.parse(raw)));
    if (url.pathname === "/_stand-in/confirmed") return answer(res, 200, confirmed);
    if (url.pathname === "/_stand-in/sent") return answer(res, 200, sent);
    if (url.pathname !== "/v2/email/outbound-emails" || req.method !== "POST")
      return answer(res, 404, { message: "Not found" }, "NotFoundException");
    const problem = sigV4Problem(req, raw);
    if (problem) return answer(res, 403, { message: problem.message }, problem.type);
    let body: {
      FromEmailAddress?: string;
      Destination?: { ToAddresses?: string[] };
      Content?: {
        Simple?: {
          Subject?: { Data?: string };
          Body?: { Text?: { Data?: string }; Html?: { Data?: string } };
          Headers?: { Name: string; Value: string }[];
        };
      };
      ConfigurationSetName?: string;
    };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      return answer(res, 400, { message: "Could not parse the request body." }, "BadRequestException");
    }
    const to = body.Destination?.ToAddresses ?? [];
    const simple = body.Content?.Simple;
    if (to.length === 0 || to.length > 50)
      return answer(res, 400, { message: "Destination must have between 1 and 50 recipients." }, "BadRequestException");
    if (!simple?.Subject?.Data || !(simple.Body?.Text?.Data || simple.Body?.Html?.Data))
      return answer(res, 400, { message: "A Simple message needs a subject and a body." }, "BadRequestException");
    const fromDomain = /@([^>\s]+)>?$/.exec(body.FromEmailAddress ?? "")?.[1];
    if (fromDomain !== SES_IDENTITY)
      return answer(
        res,
        400,
        {
          message: `Email address is not verified. The following identities failed the check in region ${SES_REGION.toUpperCase()}: ${body.FromEmailAddress}`,
        },
        "MessageRejected",
      );
    if (body.ConfigurationSetName !== undefined && body.ConfigurationSetName !== SES_CONFIGURATION_SET)
      return answer(
        res,
        404,
        { message: `Configuration set <${body.ConfigurationSetName}> does not exist.` },
        "NotFoundException",
      );
    const messageId = `0102019${randomBytes(12).toString("hex")}-000000`;
    sent.push({
      messageId,
      from: body.FromEmailAddress!,
      to,
      subject: simple.Subject.Data,
      text: simple.Body?.Text?.Data ?? null,
      html: simple.Body?.Html?.Data ?? null,
      headers: simple.Headers ?? [],
      configurationSet: body.ConfigurationSetName ?? null,
    });
    return answer(res, 200, { MessageId: messageId });
  });
  return onLoopback(server, (at) => (origin = at));
}
