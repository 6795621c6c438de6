/**
 * Outgoing SMS (direct-debit codes). Every SMS is kept in D1 (outgoing_sms): locally that table is
 * the outbox shown at /dev/outbox beside the mail; with SMS_PROVIDER "sinch" Sinch's SMS API also
 * delivers it and the row records the batch id, which its delivery reports name. Whatever the
 * provider, at most SMS_LIMIT_PER_COUNTRY_HOUR texts go to one destination country an hour: a burst
 * of codes to one country is how SMS pumping looks (docs/decisions/0028-mail-sms-push-providers.md).
 */
import type { SiteSettings } from "../../shared/settings";
import type { Database } from "../db/database";
import { markSmsSent, reserveSms } from "../db/outbox";
import { AppError } from "../errors";
import type { MobileNumber } from "./phone-numbers";

/** An SMS to a number already normalised to E.164 (phone-numbers.ts), from the site's sender name. */
export type Sms = { to: MobileNumber; text: string; from: string };

/**
 * How the text leaves the machine: answers the provider's id, or null when it stays in the outbox.
 * `keepsText`: the outbox row keeps the whole text, which only the offline outbox does (nothing
 * leaves the machine, so the row is the only way a developer or a test reads the code).
 */
interface SmsTransport {
  readonly keepsText: boolean;
  deliver(sms: Sms, reference: number): Promise<string | null>;
}

/**
 * The text as D1 keeps it once a provider delivers it: every digit masked. The SMS we send carry a
 * one-time code (direct debit), which sms_codes keeps only as a hash; a plain copy in outgoing_sms
 * would be readable there for OUTBOX_RETENTION_DAYS by anyone who can read the table.
 */
export const withoutCode = (text: string) => text.replace(/[0-9]/g, "•");

export interface SmsSender {
  send(sms: Sms, now: number): Promise<void>;
}

/** The provider refused an SMS (its status and code), or could not be reached. */
export class SmsRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`sms provider refused: ${status} ${code}: ${message}`);
  }
}

/**
 * Development and tests: the SMS stays in the outbox table, whole, for /dev/outbox and the tests to
 * read the code. Outside development nothing would read it there (the member never gets it), so
 * the code is masked as after a provider.
 */
const outboxFor = (env: Env): SmsTransport => ({
  keepsText: env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test",
  deliver: () => Promise.resolve(null),
});

export type SinchSettings = { url: string; servicePlanId: string; apiToken: string; callbackUrl: string | null };

/**
 * Sinch's SMS API, "Send" (https://developers.sinch.com/docs/sms/api-reference/sms/batches/sendsms):
 * `POST <region>/xms/v1/<service_plan_id>/batches` with the plan's API token as a bearer token and
 * `{ from, to: [E.164], body, delivery_report, callback_url, client_reference }`, answering 201 with
 * the batch (`{ id, ... }`); a refusal answers `{ code, text }` (400 syntax_*, 403 forbidden ...).
 */
export class SinchTransport implements SmsTransport {
  readonly keepsText = false;

  constructor(
    private readonly settings: SinchSettings,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  async deliver(sms: Sms, reference: number): Promise<string> {
    const response = await this.fetcher(
      `${this.settings.url}/xms/v1/${encodeURIComponent(this.settings.servicePlanId)}/batches`,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${this.settings.apiToken}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          from: sms.from,
          to: [sms.to.e164],
          body: sms.text,
          // One final report per recipient: delivered, failed or expired, not every step between.
          delivery_report: "per_recipient_final",
          ...(this.settings.callbackUrl ? { callback_url: this.settings.callbackUrl } : {}),
          client_reference: String(reference),
        }),
        signal: AbortSignal.timeout(10_000),
      },
    );
    const answer = (await response.json().catch(() => ({}))) as { id?: unknown; code?: unknown; text?: unknown };
    if (response.status !== 201 || typeof answer.id !== "string") {
      throw new SmsRefused(
        response.status,
        typeof answer.code === "string" ? answer.code : "unknown",
        typeof answer.text === "string" ? answer.text : "",
      );
    }
    return answer.id;
  }
}

/** Keeps each SMS in the outbox within the country's hourly limit, then hands it to the transport. */
class LimitedSms implements SmsSender {
  constructor(
    private readonly db: Database,
    private readonly transport: SmsTransport,
    private readonly limitPerCountryHour: number,
  ) {}

  async send(sms: Sms, now: number): Promise<void> {
    const id = await reserveSms(
      this.db,
      { to: sms.to.e164, text: this.transport.keepsText ? sms.text : withoutCode(sms.text), country: sms.to.country },
      this.limitPerCountryHour,
      now,
    );
    if (id === null) {
      console.warn(
        JSON.stringify({ event: "sms_country_limit", country: sms.to.country, limit: this.limitPerCountryHour }),
      );
      throw new AppError({ status: 429, code: "sms_country_limit", key: "sms.country_busy" });
    }
    // The row stays even when the provider refuses: an attempt counts against the limit too.
    const providerId = await this.transport.deliver(sms, id);
    if (providerId) await markSmsSent(this.db, id, providerId, now);
  }
}

const DEFAULT_LIMIT_PER_COUNTRY_HOUR = 60;

function limitOf(env: Env): number {
  const limit = Number(env.SMS_LIMIT_PER_COUNTRY_HOUR);
  return Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_LIMIT_PER_COUNTRY_HOUR;
}

/** The sender SMS_PROVIDER chooses; `origin` is the site's, where Sinch posts the delivery reports. */
export function smsSenderFor(
  env: Env,
  db: Database,
  origin: string | null = null,
  transport?: SmsTransport,
): SmsSender {
  const chosen =
    transport ??
    (env.SMS_PROVIDER === "sinch"
      ? new SinchTransport({
          url: env.SMS_API_URL,
          servicePlanId: env.SMS_SERVICE_PLAN_ID,
          apiToken: env.SMS_API_KEY,
          callbackUrl: origin ? `${origin}${SMS_REPORT_PATH}` : null,
        })
      : outboxFor(env));
  return new LimitedSms(db, chosen, limitOf(env));
}

/** Who a site's SMS come from: its `sms_sender`, or its name as an alphanumeric sender (at most 11 characters). */
export function smsSenderName(site: Pick<SiteSettings, "sms_sender" | "name">): string {
  return (
    site.sms_sender ??
    (site.name
      .replace(/[^A-Za-z0-9 ]/g, "")
      .trim()
      .slice(0, 11)
      .trim() ||
      "Info")
  );
}

/** Where Sinch posts delivery reports (sms-reports.ts). */
export const SMS_REPORT_PATH = "/api/sms-report.php";
