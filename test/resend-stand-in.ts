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
 * - An `Idempotency-Key` header (https://resend.com/docs/dashboard/emails/idempotency-keys): 1 to
 *   256 characters (else 400 invalid_idempotency_key), kept 24 hours. A key already used with the
 *   same body answers the first answer (the same id) and sends nothing; with another body 409
 *   invalid_idempotent_request; while the first request with it is still being processed 409
 *   concurrent_idempotent_requests.
 * - The rate limit (https://resend.com/docs/api-reference/rate-limit): every answer carries
 *   ratelimit-limit, ratelimit-remaining and ratelimit-reset; past 2 requests a second an API key
 *   is answered 429 rate_limit_exceeded with retry-after too. Only RESEND_LIMITED_KEY is held to it
 *   (the suite's files share the stand-in and send in bursts), on the stand-in's own clock, which
 *   moves only by POST /_stand-in/clock { advance } (milliseconds): a test decides when a second has passed.
 * - POST /_stand-in/hold { to } makes the next send to that address slow as a lost answer is: the
 *   mail is taken and sent at once, but the answer waits until POST /_stand-in/release (or 3 s),
 *   and until then its key is being processed.
 * - GET /_stand-in/emails lists what it took.
 */
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { answerJson as answer, bodyText, onLoopback } from "./stand-in-server";

export const RESEND_KEY = "re_standin_0123456789";
/** A key held to Resend's default rate limit of 2 requests a second. */
export const RESEND_LIMITED_KEY = "re_standin_limited_0001";
const RATE_LIMIT = 2;
/** How long Resend keeps an idempotency key. */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** The longest a held answer waits for its release. */
const HOLD_MS = 3_000;
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
  idempotencyKey: string | null;
};

/** What an idempotency key was first used for: the body, and the answer once there is one. */
type KeyUse = { body: string; at: number; answer: { status: number; body: unknown } | null };

const refuse = (res: ServerResponse, statusCode: number, name: string, message: string) =>
  answer(res, statusCode, { statusCode, name, message });

const domainOf = (address: string) => /@([^>\s]+)>?$/.exec(address)?.[1]?.toLowerCase();

export function createResendStandIn() {
  const emails: Email[] = [];
  const keys = new Map<string, KeyUse>();
  /** The stand-in's clock (ms), for the rate limit's windows and the keys' lifetime. */
  let clock = Date.now();
  /** Requests of the limited key in the current second's window. */
  let window = { second: -1, count: 0 };
  /** The addresses whose next send is answered slowly. */
  const holds = new Set<string>();
  let released: Array<() => void> = [];
  const server = createServer(async (req, res) => {
    const raw = await bodyText(req);
    const path = new URL(req.url ?? "/", "http://stand-in").pathname;
    if (path === "/_stand-in/emails") return answer(res, 200, emails);
    if (path === "/_stand-in/clock" && req.method === "POST") {
      clock += (JSON.parse(raw) as { advance: number }).advance;
      return answer(res, 200, { clock });
    }
    if (path === "/_stand-in/hold" && req.method === "POST") {
      holds.add((JSON.parse(raw) as { to: string }).to);
      return answer(res, 200, {});
    }
    if (path === "/_stand-in/release" && req.method === "POST") {
      const waiting = released;
      released = [];
      for (const release of waiting) release();
      return answer(res, 200, { released: waiting.length });
    }
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
    if (authorization !== `Bearer ${RESEND_KEY}` && authorization !== `Bearer ${RESEND_LIMITED_KEY}`)
      return refuse(res, 403, "invalid_api_key", "API key is invalid.");
    // The rate limit's headers on every answer; past the limit, 429 and when to come back.
    const second = Math.floor(clock / 1000);
    if (window.second !== second) window = { second, count: 0 };
    const limited = authorization === `Bearer ${RESEND_LIMITED_KEY}`;
    if (limited) window.count++;
    const reset = String(Math.max(1, Math.ceil(((second + 1) * 1000 - clock) / 1000)));
    res.setHeader("ratelimit-limit", String(RATE_LIMIT));
    res.setHeader("ratelimit-remaining", String(limited ? Math.max(0, RATE_LIMIT - window.count) : RATE_LIMIT));
    res.setHeader("ratelimit-reset", reset);
    if (limited && window.count > RATE_LIMIT) {
      res.setHeader("retry-after", reset);
      return refuse(res, 429, "rate_limit_exceeded", "Too many requests. You can only make 2 requests per second.");
    }
    const key = req.headers["idempotency-key"] as string | undefined;
    if (key !== undefined && (key.length < 1 || key.length > 256))
      return refuse(res, 400, "invalid_idempotency_key", "The key must be between 1-256 chars.");
    const used = key === undefined ? undefined : keys.get(key);
    if (used && clock - used.at < KEY_LIFETIME_MS) {
      if (used.body !== raw)
        return refuse(
          res,
          409,
          "invalid_idempotent_request",
          "Same idempotency key used with a different request payload. Change your idempotency key or payload.",
        );
      if (!used.answer)
        return refuse(
          res,
          409,
          "concurrent_idempotent_requests",
          "Same idempotency key used while original request is still in progress. Try the request again later.",
        );
      return answer(res, used.answer.status, used.answer.body);
    }
    const use: KeyUse = { body: raw, at: clock, answer: null };
    if (key !== undefined) keys.set(key, use);
    // A sent mail's answer is the key's from now on; after a refusal nothing was sent and the key is free again.
    const settle = (status: number, body: unknown) => {
      if (status === 200) use.answer = { status, body };
      else if (key !== undefined) keys.delete(key);
      return answer(res, status, body);
    };
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return settle(422, { statusCode: 422, name: "invalid_parameter", message: "The body is not valid JSON." });
    }
    for (const field of ["from", "to", "subject"])
      if (body[field] === undefined)
        return settle(422, { statusCode: 422, name: "missing_required_field", message: `Missing \`${field}\` field.` });
    const to = typeof body.to === "string" ? [body.to] : body.to;
    if (!Array.isArray(to) || to.length === 0 || to.length > 50)
      return settle(422, { statusCode: 422, name: "validation_error", message: "Invalid `to` field." });
    if (typeof body.from !== "string" || domainOf(body.from) !== RESEND_DOMAIN)
      return settle(403, {
        statusCode: 403,
        name: "validation_error",
        message: `The ${domainOf(String(body.from))} domain is not verified. Please, add and verify your domain on https://resend.com/domains`,
      });
    if (typeof body.html !== "string" && typeof body.text !== "string")
      return settle(422, { statusCode: 422, name: "validation_error", message: "Missing `html` or `text` field." });
    const email: Email = {
      id: randomBytes(16).toString("hex"),
      from: body.from,
      to: to as string[],
      subject: String(body.subject),
      html: body.html as string,
      text: body.text as string,
      headers: body.headers as Record<string, string>,
      idempotencyKey: key ?? null,
    };
    emails.push(email);
    if (email.to.some((address) => holds.has(address))) {
      // Sent, but the answer is slow: the caller may give up on it, and its key is still in progress meanwhile.
      for (const address of email.to) holds.delete(address);
      await new Promise<void>((resolve) => {
        released.push(resolve);
        setTimeout(resolve, HOLD_MS);
      });
    }
    return settle(200, { id: email.id });
  });
  return onLoopback(server);
}
