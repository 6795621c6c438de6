/**
 * A stand-in of Sinch's SMS REST API on loopback, as its reference describes it
 * (https://developers.sinch.com/docs/sms/api-reference/sms/batches/sendsms):
 * - POST /xms/v1/<service_plan_id>/batches with `Authorization: Bearer <API token>` and
 *   `{ from, to: [E.164 ...], body, delivery_report?, callback_url?, client_reference? }` answers
 *   201 with the batch; a wrong token 401, another plan 403 `{ code: "forbidden", text }`, a bad
 *   field 400 `{ code: "syntax_invalid_parameter_format", text }`.
 * - GET /_stand-in/batches lists the batches it took.
 * - POST /_stand-in/reports { batch_id, status, code?, timestamp?, secret? } answers the recipient
 *   delivery report Sinch would post to the batch's callback_url: its raw body and headers, signed
 *   with the plan's HMAC secret (x-sinch-webhook-signature over `<body>.<nonce>.<timestamp>`), and
 *   its number `report` among those the stand-in made.
 * - POST /_stand-in/reports/<report>/retry { attempt } answers Sinch's retry of that report when it
 *   was not answered 2xx (https://developers.sinch.com/docs/sms/api-reference/sms/tag/Webhooks/):
 *   the same request again, body, nonce and signature with the first try's timestamp, and `at`, when
 *   Sinch sends it: 5 s after the first try, then 10, 20, 40 s ..., doubling, the last (attempt 15)
 *   81,920 s after it. There is no retry after that.
 */
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { answerJson as answer, bodyText, onLoopback } from "./stand-in-server";

export const SINCH_PLAN = "standinplan0001";
export const SINCH_TOKEN = "sinch-stand-in-api-token";
/** The HMAC secret of the plan's callbacks (SMS_WEBHOOK_SECRET in the tests' Worker). */
export const SINCH_CALLBACK_SECRET = "sinch-stand-in-callback-secret";

type Batch = {
  id: string;
  from: string;
  to: string[];
  body: string;
  delivery_report: string;
  callback_url: string | null;
  client_reference: string | null;
  created_at: string;
};

const E164 = /^\+?[1-9][0-9]{6,14}$/;
const ALPHANUMERIC_SENDER = /^[A-Za-z0-9 ]{1,11}$/;
const REPORTS = ["none", "summary", "full", "per_recipient", "per_recipient_final"];

const invalid = (res: ServerResponse, field: string) =>
  answer(res, 400, { code: "syntax_invalid_parameter_format", text: `Invalid parameter '${field}'` });

/** What Sinch would post for one recipient of a batch, signed as its SDKs verify it. */
export function signedReport(batch: Batch, status: string, code: number, timestamp: number, secret: string) {
  const body = JSON.stringify({
    type: "recipient_delivery_report_sms",
    batch_id: batch.id,
    recipient: batch.to[0]!.replace(/^\+/, ""),
    code,
    status,
    at: new Date(timestamp * 1000).toISOString(),
    ...(batch.client_reference ? { client_reference: batch.client_reference } : {}),
  });
  const nonce = randomBytes(12).toString("hex");
  const signature = createHmac("sha256", secret).update(`${body}.${nonce}.${timestamp}`).digest("base64");
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-sinch-webhook-signature": signature,
      "x-sinch-webhook-signature-nonce": nonce,
      "x-sinch-webhook-signature-timestamp": String(timestamp),
      "x-sinch-webhook-signature-algorithm": "HmacSHA256",
    },
  };
}

/**
 * When Sinch sends its retry number `attempt` of a callback, in seconds after the first try: 5 s,
 * then 10, 20, 40, 80 s ..., doubling, the last (the 15th) at 81,920 s.
 */
export function retryDelay(attempt: number): number | null {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > 15) return null;
  return 5 * 2 ** (attempt - 1);
}

export function createSinchStandIn() {
  const batches: Batch[] = [];
  const reports: { signed: ReturnType<typeof signedReport>; timestamp: number }[] = [];
  const server = createServer(async (req, res) => {
    const raw = await bodyText(req);
    const path = new URL(req.url ?? "/", "http://stand-in").pathname;
    if (path === "/_stand-in/batches") return answer(res, 200, batches);
    if (path === "/_stand-in/reports" && req.method === "POST") {
      const {
        batch_id,
        status,
        code = 0,
        timestamp = Math.floor(Date.now() / 1000),
        secret = SINCH_CALLBACK_SECRET,
      } = JSON.parse(raw) as { batch_id: string; status: string; code?: number; timestamp?: number; secret?: string };
      const batch = batches.find((b) => b.id === batch_id);
      if (!batch) return answer(res, 404, { code: "not_found", text: "no such batch" });
      const signed = signedReport(batch, status, code, timestamp, secret);
      reports.push({ signed, timestamp });
      return answer(res, 200, { ...signed, report: reports.length });
    }
    const retry = /^\/_stand-in\/reports\/([0-9]+)\/retry$/.exec(path);
    if (retry && req.method === "POST") {
      const first = reports[Number(retry[1]) - 1];
      const { attempt } = JSON.parse(raw) as { attempt: number };
      const delay = retryDelay(attempt);
      if (!first || delay === null) return answer(res, 404, { code: "not_found", text: "no such retry" });
      return answer(res, 200, { ...first.signed, at: first.timestamp + delay });
    }
    const send = /^\/xms\/v1\/([^/]+)\/batches$/.exec(path);
    if (!send || req.method !== "POST") return answer(res, 404, { code: "not_found", text: "Not found" });
    if (req.headers.authorization !== `Bearer ${SINCH_TOKEN}`)
      return answer(res, 401, { code: "unauthorized", text: "Invalid or missing credentials" });
    if (send[1] !== SINCH_PLAN)
      return answer(res, 403, { code: "forbidden", text: "Service plan not found or not accessible" });
    if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
      return answer(res, 415, { code: "unsupported_media_type", text: "Content-Type must be application/json" });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return answer(res, 400, { code: "syntax_malformed_json", text: "Malformed JSON" });
    }
    const { from, to, delivery_report = "none", callback_url = null, client_reference = null } = body;
    if (
      !Array.isArray(to) ||
      to.length < 1 ||
      to.length > 1000 ||
      !to.every((n) => typeof n === "string" && E164.test(n))
    )
      return invalid(res, "to");
    if (typeof from !== "string" || !(E164.test(from) || ALPHANUMERIC_SENDER.test(from))) return invalid(res, "from");
    if (typeof body.body !== "string" || body.body.length === 0 || body.body.length > 2000) return invalid(res, "body");
    if (typeof delivery_report !== "string" || !REPORTS.includes(delivery_report))
      return invalid(res, "delivery_report");
    if (callback_url !== null && (typeof callback_url !== "string" || !/^https?:\/\//.test(callback_url)))
      return invalid(res, "callback_url");
    if (client_reference !== null && (typeof client_reference !== "string" || client_reference.length > 2048))
      return invalid(res, "client_reference");
    const now = new Date().toISOString();
    const batch: Batch = {
      id: `01SB${randomBytes(11).toString("hex").toUpperCase()}`,
      from,
      to: to as string[],
      body: body.body,
      delivery_report,
      callback_url: callback_url as string | null,
      client_reference: client_reference as string | null,
      created_at: now,
    };
    batches.push(batch);
    return answer(res, 201, { ...batch, type: "mt_text", canceled: false, modified_at: now, flash_message: false });
  });
  return onLoopback(server);
}
