/**
 * What the mail and SMS providers report back, each trusted only once its signature holds:
 * - POST /api/mail-sns.php: Amazon SNS notifications of SES bounces and complaints (and the
 *   topic's subscription confirmation), mail/sns-notifications.ts.
 * - POST /api/sms-report.php: Sinch's delivery reports, sms/sms-reports.ts.
 * Both are called by the provider, so they sit outside the same-origin check. Resend's reports
 * come to /api/mail-webhook.php (notifications.ts).
 */
import { Hono } from "hono";
import * as v from "valibot";
import { recordSmsStatus } from "../db/outbox";
import { AppError } from "../errors";
import { isSnsUrl, sesStop, SnsMessage, snsRefusal } from "../mail/sns-notifications";
import type { AppEnv } from "../request-context";
import { stopMailForReport } from "../services/notification-choices";
import { reportedStatus, SmsReport, verifySmsReport } from "../sms/sms-reports";
import { SMS_REPORT_PATH } from "../sms/sms";

const nowOf = () => Math.floor(Date.now() / 1000);

/** A report too large to be one (SNS messages are at most 256 KB). */
const MAX_REPORT_BYTES = 300_000;

const refused = () => new AppError({ status: 401, code: "invalid_signature", key: "errors.invalid_body" });
const invalidBody = () => new AppError({ status: 400, code: "invalid_body", key: "errors.invalid_body" });

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw invalidBody();
  }
}

const development = (env: Env) => env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test";

export const providerReportRoutes = new Hono<AppEnv>()
  .post("/api/mail-sns.php", async (c) => {
    const body = await c.req.text();
    if (body.length > MAX_REPORT_BYTES) throw invalidBody();
    const message = v.safeParse(SnsMessage, parseJson(body));
    if (!message.success) throw invalidBody();
    const certOrigin = development(c.env) && c.env.MAIL_SNS_CERT_ORIGIN ? c.env.MAIL_SNS_CERT_ORIGIN : null;
    const topicArns = c.env.MAIL_SNS_TOPIC_ARNS.split(",")
      .map((arn) => arn.trim())
      .filter(Boolean);
    const refusal = await snsRefusal(message.output, { topicArns, certOrigin, now: nowOf() });
    if (refusal) {
      console.warn(
        JSON.stringify({
          event: "mail_sns_refused",
          requestId: c.get("requestId"),
          reason: refusal,
          topic: message.output.TopicArn,
        }),
      );
      throw refused();
    }
    const sns = message.output;
    if (sns.Type === "SubscriptionConfirmation") {
      // Visiting the signed SubscribeURL confirms the subscription; it must be Amazon's too.
      if (!sns.SubscribeURL || !isSnsUrl(sns.SubscribeURL, certOrigin)) throw invalidBody();
      const confirmed = await fetch(sns.SubscribeURL, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
      await confirmed.body?.cancel();
      console.info(
        JSON.stringify({
          event: "mail_sns_subscribed",
          requestId: c.get("requestId"),
          topic: sns.TopicArn,
          status: confirmed.status,
        }),
      );
      if (!confirmed.ok)
        throw new AppError({ status: 502, code: "subscription_not_confirmed", key: "errors.invalid_body" });
      return c.json({ ok: true });
    }
    if (sns.Type === "UnsubscribeConfirmation") {
      console.warn(
        JSON.stringify({ event: "mail_sns_unsubscribed", requestId: c.get("requestId"), topic: sns.TopicArn }),
      );
      return c.json({ ok: true });
    }
    const stop = sesStop(sns.Message);
    const stopped = stop ? await stopMailForReport(c.get("db"), stop.reason, stop.addresses, nowOf()) : 0;
    console.info(
      JSON.stringify({
        event: "mail_sns",
        requestId: c.get("requestId"),
        message: sns.MessageId,
        reason: stop?.reason ?? null,
        stopped,
      }),
    );
    return c.json({ ok: true });
  })
  .post(SMS_REPORT_PATH, async (c) => {
    const body = await c.req.text();
    if (
      body.length > MAX_REPORT_BYTES ||
      !(await verifySmsReport(c.env.SMS_WEBHOOK_SECRET, c.req.raw.headers, body, nowOf()))
    ) {
      console.warn(JSON.stringify({ event: "sms_report_refused", requestId: c.get("requestId") }));
      throw refused();
    }
    const report = v.safeParse(SmsReport, parseJson(body));
    if (!report.success) throw invalidBody();
    const status = reportedStatus(report.output);
    const known = status ? await recordSmsStatus(c.get("db"), status, nowOf()) : false;
    console.info(
      JSON.stringify({
        event: "sms_report",
        requestId: c.get("requestId"),
        type: report.output.type,
        status: status?.status ?? null,
        known,
      }),
    );
    return c.json({ ok: true });
  });
