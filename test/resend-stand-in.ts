/**
 * A stand-in of Resend on loopback, as its reference describes it:
 * - POST /emails (https://resend.com/docs/api-reference/emails/send-email) with a bearer API key and
 *   JSON `{ from, to, subject, html?, text?, headers? }` answers 200 `{ id }`; refusals answer
 *   `{ statusCode, name, message }` (https://resend.com/docs/api-reference/errors): no key 401
 *   missing_api_key, a wrong key 403 invalid_api_key, a sender outside the verified domain 403
 *   validation_error, a missing field 422 missing_required_field.
 * - POST /_stand-in/webhooks { type, to, bounceType?, timestamp? } answers the bounce or complaint
 *   event Resend would post (https://resend.com/docs/dashboard/webhooks/event-types): its raw body and
 *   the svix-id, svix-timestamp and svix-signature headers, signed with the endpoint's secret.
 * - GET /_stand-in/emails lists what it took.
 */
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { answerJson as answer, bodyText, onLoopback } from "./stand-in-server";

export const RESEND_KEY = "re_standin_0123456789";
export const RESEND_DOMAIN = "flirtwave.test";
/** The endpoint's signing secret: the tests' MAIL_WEBHOOK_SECRET (vitest.config.ts). */
export const RESEND_WEBHOOK_SECRET = "whsec_dGVzdCB3ZWJob29rIHNlY3JldCBvZiB0aGUgbWFpbCBwcm92aWRlcg==";

type Email = {
  id: string;
  from: string;
  to: string[];
  subject: string;
  html?: string;
  text?: string;
  headers?: Record<string, string>;
};

const refuse = (res: ServerResponse, statusCode: number, name: string, message: string) =>
  answer(res, statusCode, { statusCode, name, message });

const domainOf = (address: string) => /@([^>\s]+)>?$/.exec(address)?.[1]?.toLowerCase();

export function createResendStandIn() {
  const emails: Email[] = [];
  const server = createServer(async (req, res) => {
    const raw = await bodyText(req);
    const path = new URL(req.url ?? "/", "http://stand-in").pathname;
    if (path === "/_stand-in/emails") return answer(res, 200, emails);
    if (path === "/_stand-in/webhooks" && req.method === "POST") {
      const {
        type,
        to,
        bounceType = "Permanent",
        timestamp = Math.floor(Date.now() / 1000),
      } = JSON.parse(raw) as { type: string; to: string; bounceType?: string; timestamp?: number };
      const body = JSON.stringify({
        type,
        created_at: new Date(timestamp * 1000).toISOString(),
        data: {
          email_id: randomBytes(8).toString("hex"),
          from: `no-reply@${RESEND_DOMAIN}`,
          to: [to],
          subject: "A mail",
          ...(type === "email.bounced"
            ? { bounce: { type: bounceType, subType: "General", message: "The recipient's mail server refused it." } }
            : {}),
        },
      });
      const id = `msg_${randomBytes(10).toString("hex")}`;
      const key = Buffer.from(RESEND_WEBHOOK_SECRET.slice("whsec_".length), "base64");
      const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
      return answer(res, 200, {
        body,
        headers: {
          "content-type": "application/json",
          "svix-id": id,
          "svix-timestamp": String(timestamp),
          "svix-signature": `v1,${signature}`,
        },
      });
    }
    if (path !== "/emails" || req.method !== "POST")
      return refuse(res, 404, "not_found", "The requested endpoint does not exist.");
    const authorization = req.headers.authorization;
    if (!authorization) return refuse(res, 401, "missing_api_key", "Missing API key in the authorization header.");
    if (authorization !== `Bearer ${RESEND_KEY}`) return refuse(res, 403, "invalid_api_key", "API key is invalid.");
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return refuse(res, 422, "invalid_parameter", "The body is not valid JSON.");
    }
    for (const field of ["from", "to", "subject"])
      if (body[field] === undefined) return refuse(res, 422, "missing_required_field", `Missing \`${field}\` field.`);
    const to = typeof body.to === "string" ? [body.to] : body.to;
    if (!Array.isArray(to) || to.length === 0 || to.length > 50)
      return refuse(res, 422, "validation_error", "Invalid `to` field.");
    if (typeof body.from !== "string" || domainOf(body.from) !== RESEND_DOMAIN)
      return refuse(
        res,
        403,
        "validation_error",
        `The ${domainOf(String(body.from))} domain is not verified. Please, add and verify your domain on https://resend.com/domains`,
      );
    if (typeof body.html !== "string" && typeof body.text !== "string")
      return refuse(res, 422, "validation_error", "Missing `html` or `text` field.");
    const email: Email = {
      id: randomBytes(16).toString("hex"),
      from: body.from,
      to: to as string[],
      subject: String(body.subject),
      html: body.html as string,
      text: body.text as string,
      headers: body.headers as Record<string, string>,
    };
    emails.push(email);
    return answer(res, 200, { id: email.id });
  });
  return onLoopback(server);
}
