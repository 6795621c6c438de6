/**
 * Outgoing mail. Every mail is kept in D1 (outgoing_mail): locally that table is the outbox that
 * /dev/outbox shows and the tests read; in production a provider also delivers it and the row
 * records the provider's id. MAIL_PROVIDER chooses: "outbox", "resend" ("http" is its older name),
 * "cloudflare" (the send_email binding EMAIL) or "ses" (Amazon SES v2 in MAIL_SES_REGION);
 * docs/configuration.md lists what each needs, docs/decisions/0028-mail-sms-push-providers.md why.
 */
import { AwsClient } from "aws4fetch";
import { databaseOf, type Database } from "../db/database";
import { normaliseEmail } from "../../shared/account-fields";
import { stopMailTo } from "../db/notification-choices";
import { recordMail } from "../db/outbox";

/**
 * `headers`: extra mail headers, such as List-Unsubscribe on notification mail (RFC 2369, RFC 8058).
 * `idempotencyKey`: what makes this mail one mail at a provider that takes such keys (Resend); each
 * send makes its own when none is given.
 */
export type Mail = {
  to: string;
  kind: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  idempotencyKey?: string;
};

/** The message as the providers that take JSON fields (Resend, Cloudflare's binding) want it. */
const messageOf = (from: string, mail: Mail) => ({
  from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  ...(mail.headers ? { headers: mail.headers } : {}),
});

const headersOf = (mail: Mail) =>
  mail.headers && Object.keys(mail.headers).length ? JSON.stringify(mail.headers) : null;

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * The provider refused a mail. `suppressed`: it will never deliver to that address (it bounced or
 * complained before), which the caller treats as a bounce.
 */
export class MailRefused extends Error {
  constructor(
    readonly provider: string,
    readonly code: string,
    readonly suppressed: boolean,
    message: string,
  ) {
    super(`${provider} refused the mail: ${code}: ${message}`);
  }
}

/** Development and tests: the mail stays in the outbox table, nothing leaves the machine. */
export class OutboxMailer implements Mailer {
  constructor(private readonly db: Database) {}

  async send(mail: Mail): Promise<void> {
    await recordMail(this.db, {
      toAddress: mail.to,
      kind: mail.kind,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: headersOf(mail),
    });
  }
}

/**
 * What a provider took, for the outbox row: who, which kind, the subject and the provider's id, not
 * the body or the headers. Those are the provider's to keep; in D1 they would be most of the table's
 * bytes (docs/scale.md) and would hold the links of activation, reset and unsubscribe mails.
 */
async function recordSent(db: Database, mail: Mail, providerId: string | null): Promise<void> {
  await recordMail(db, {
    toAddress: mail.to,
    kind: mail.kind,
    subject: mail.subject,
    text: "",
    html: null,
    headers: null,
    sentAt: Math.floor(Date.now() / 1000),
    providerId,
  });
}

/** How the Resend mailer waits and how long it gives each try (tests make both their own: no sleeping). */
export type ResendTiming = {
  /** Waits `ms` milliseconds before the next try. */
  wait: (ms: number) => Promise<void>;
  /** How long one try may take before its answer counts as lost. */
  timeoutMs: number;
};

const defaultTiming: ResendTiming = {
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  timeoutMs: 10_000,
};

/** Tries of one mail at most (the first and three more). */
export const RESEND_TRIES = 4;
/** The longest wait between two tries, and the first wait after a failure that asks none. */
const RESEND_MAX_WAIT_MS = 5_000;
const RESEND_FIRST_BACKOFF_MS = 500;

/** How long (ms) a 429 asks us to wait: `retry-after`, else `ratelimit-reset`, both seconds (https://resend.com/docs/api-reference/rate-limit). */
function rateLimitWait(headers: Headers): number | null {
  for (const name of ["retry-after", "ratelimit-reset"]) {
    const value = headers.get(name);
    if (value && /^[0-9]{1,6}(\.[0-9]+)?$/.test(value.trim())) return Number(value) * 1000;
  }
  return null;
}

/**
 * Resend's `POST /emails` (https://resend.com/docs/api-reference/emails/send-email): JSON `{ from,
 * to, subject, text, html, headers }` with a bearer API key, answering `{ id }`; a refusal answers
 * `{ statusCode, name, message }` (https://resend.com/docs/api-reference/errors). MAIL_API_URL is
 * `https://api.resend.com/emails`.
 *
 * A mail is sent once however its tries go. Each carries the same `Idempotency-Key`
 * (https://resend.com/docs/dashboard/emails/idempotency-keys: at most 256 characters, kept by
 * Resend for 24 hours, `<event-type>/<entity-id>` suggested; a key already used answers the first
 * request's answer without sending again), so a try whose answer was lost (a timeout, a dropped
 * connection, a 5xx) is made again with it: Resend either sent the mail and answers its id, or
 * sends it now. Resend answers 409 `concurrent_idempotent_requests` while the first try with the key
 * is still being processed ("safe to retry later"), so that is tried again too; 409
 * `invalid_idempotent_request` (the key was used with another body) is a refusal. The rate limit
 * is 2 requests a second (https://resend.com/docs/api-reference/rate-limit): a 429
 * `rate_limit_exceeded` waits what `retry-after` (or `ratelimit-reset`) says, at most 5 s, then
 * tries again; the daily and monthly quotas (429 `daily_quota_exceeded`, `monthly_quota_exceeded`)
 * do not pass by waiting and are refusals. At most RESEND_TRIES tries, then the last failure.
 */
export class HttpMailer implements Mailer {
  constructor(
    private readonly db: Database,
    private readonly url: string,
    private readonly apiKey: string,
    private readonly from: string,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
    private readonly timing: ResendTiming = defaultTiming,
  ) {}

  async send(mail: Mail): Promise<void> {
    const key = mail.idempotencyKey ?? `${mail.kind}/${crypto.randomUUID()}`;
    const body = JSON.stringify(messageOf(this.from, mail));
    let failure: Error = new Error("no try made");
    // What the last 429 asked to wait, if it said.
    let asked: number | null = null;
    for (let attempt = 1; attempt <= RESEND_TRIES; attempt++) {
      // Before a try again: what a 429 asked, else 0.5 s, 1 s, 2 s.
      if (attempt > 1)
        await this.timing.wait(Math.min(RESEND_MAX_WAIT_MS, asked ?? RESEND_FIRST_BACKOFF_MS * 2 ** (attempt - 2)));
      asked = null;
      let response: Response;
      try {
        response = await this.fetcher(this.url, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${this.apiKey}`,
            "Content-Type": "application/json",
            "Idempotency-Key": key,
          },
          body,
          signal: AbortSignal.timeout(this.timing.timeoutMs),
        });
      } catch (error) {
        // A timeout or a lost connection: Resend may have sent it; the same key tells on the next try.
        failure = error instanceof Error ? error : new Error(String(error));
        continue;
      }
      if (response.ok) {
        const { id } = (await response.json().catch(() => ({}))) as { id?: string };
        await recordSent(this.db, mail, id ?? null);
        return;
      }
      const refusal = (await response.json().catch(() => ({}))) as { name?: string; message?: string };
      const name = refusal.name ?? String(response.status);
      const refused = new MailRefused("resend", name, false, refusal.message ?? `answered ${response.status}`);
      const again =
        response.status >= 500 ||
        (response.status === 429 && name !== "daily_quota_exceeded" && name !== "monthly_quota_exceeded") ||
        (response.status === 409 && name === "concurrent_idempotent_requests");
      if (!again) throw refused;
      failure = refused;
      if (response.status === 429) asked = rateLimitWait(response.headers);
    }
    throw failure;
  }
}

/** The part of Cloudflare's send_email binding the mailer uses (workers-types' SendEmail). */
type SendEmailBinding = Pick<SendEmail, "send">;

/**
 * Cloudflare Email Service through the send_email binding
 * (https://developers.cloudflare.com/email-service/api/send-emails/workers-api/): no key; the
 * binding answers `{ messageId }` or throws an Error whose `code` says why (E_SENDER_NOT_VERIFIED,
 * E_RECIPIENT_SUPPRESSED for an address that bounced or complained, E_VALIDATION_ERROR ...).
 */
export class CloudflareMailer implements Mailer {
  constructor(
    private readonly db: Database,
    private readonly binding: SendEmailBinding,
    private readonly from: string,
  ) {}

  async send(mail: Mail): Promise<void> {
    let messageId: string;
    try {
      ({ messageId } = await this.binding.send(messageOf(this.from, mail)));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const text = typeof code === "string" ? code : "E_UNKNOWN";
      // Cloudflare keeps its own list of addresses that bounced or complained: ours follows it.
      if (text === "E_RECIPIENT_SUPPRESSED")
        await stopMailTo(this.db, normaliseEmail(mail.to), "bounce", Math.floor(Date.now() / 1000));
      throw new MailRefused(
        "cloudflare",
        text,
        text === "E_RECIPIENT_SUPPRESSED",
        error instanceof Error ? error.message : String(error),
      );
    }
    await recordSent(this.db, mail, messageId);
  }
}

export type SesSettings = {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  configurationSet: string;
  endpoint?: string;
};

/**
 * Amazon SES API v2 SendEmail (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html):
 * `POST /v2/email/outbound-emails` on `email.<region>.amazonaws.com`, signed with Signature Version 4
 * (aws4fetch), a Simple message with its headers; answers `{ MessageId }`. A refusal carries its
 * name in `x-amzn-ErrorType` and `{ message }` in the body (MessageRejected, AccountSuspendedException,
 * SendingPausedException, MailFromDomainNotVerifiedException, TooManyRequestsException ...).
 */
export class SesMailer implements Mailer {
  private readonly client: AwsClient;
  private readonly url: string;

  constructor(
    private readonly db: Database,
    private readonly settings: SesSettings,
    private readonly from: string,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {
    // aws4fetch guesses the service and region from the host; a stand-in's host names neither.
    this.client = new AwsClient({
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      service: "ses",
      region: settings.region,
      retries: 0,
    });
    this.url = `${settings.endpoint ?? `https://email.${settings.region}.amazonaws.com`}/v2/email/outbound-emails`;
  }

  async send(mail: Mail): Promise<void> {
    const utf8 = (data: string) => ({ Data: data, Charset: "UTF-8" });
    const body = {
      FromEmailAddress: this.from,
      Destination: { ToAddresses: [mail.to] },
      Content: {
        Simple: {
          Subject: utf8(mail.subject),
          Body: { Text: utf8(mail.text), Html: utf8(mail.html) },
          ...(mail.headers ? { Headers: Object.entries(mail.headers).map(([Name, Value]) => ({ Name, Value })) } : {}),
        },
      },
      ...(this.settings.configurationSet ? { ConfigurationSetName: this.settings.configurationSet } : {}),
    };
    const request = await this.client.sign(this.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const response = await this.fetcher(request);
    if (!response.ok) {
      const type = (response.headers.get("x-amzn-ErrorType") ?? String(response.status)).split(":")[0]!;
      const { message } = (await response.json().catch(() => ({}))) as { message?: string };
      throw new MailRefused("ses", type, false, message ?? `answered ${response.status}`);
    }
    const { MessageId } = (await response.json().catch(() => ({}))) as { MessageId?: string };
    await recordSent(this.db, mail, MessageId ?? null);
  }
}

/** The binding of Cloudflare's Email Service, when wrangler.toml declares it (`[[send_email]] name = "EMAIL"`). */
const emailBindingOf = (env: Env) => (env as Env & { EMAIL?: SendEmailBinding }).EMAIL;

export function mailerFor(env: Env, db: Database = databaseOf(env.DB)): Mailer {
  switch (env.MAIL_PROVIDER) {
    case "http":
    case "resend":
      return new HttpMailer(db, env.MAIL_API_URL, env.MAIL_API_KEY, env.MAIL_FROM);
    case "cloudflare": {
      const binding = emailBindingOf(env);
      if (!binding)
        throw new Error('MAIL_PROVIDER is "cloudflare" but the Worker has no send_email binding named EMAIL');
      return new CloudflareMailer(db, binding, env.MAIL_FROM);
    }
    case "ses":
      return new SesMailer(
        db,
        {
          region: env.MAIL_SES_REGION,
          accessKeyId: env.MAIL_SES_ACCESS_KEY_ID,
          secretAccessKey: env.MAIL_SES_SECRET_ACCESS_KEY,
          configurationSet: env.MAIL_SES_CONFIGURATION_SET,
        },
        env.MAIL_FROM,
      );
    default:
      return new OutboxMailer(db);
  }
}
