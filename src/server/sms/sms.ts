/**
 * Outgoing SMS (direct-debit codes). Every SMS is kept in D1 (outgoing_sms): locally that table is
 * the outbox shown at /dev/outbox beside the mail; in production the HTTP provider also delivers it
 * and the row records the provider's id. Chosen by SMS_PROVIDER ("outbox" or "http").
 */
import type { Database } from "../db/database";
import { recordSms } from "../db/outbox";

type Sms = { to: string; text: string };

export interface SmsSender {
  send(sms: Sms): Promise<void>;
}

/** Development and tests: the SMS stays in the outbox table. */
class OutboxSms implements SmsSender {
  constructor(private readonly db: Database) {}

  async send(sms: Sms): Promise<void> {
    await recordSms(this.db, sms, null);
  }
}

/** Production: the provider's JSON API (POST { to, text } with a bearer key, answering { id }). */
export class HttpSms implements SmsSender {
  constructor(
    private readonly db: Database,
    private readonly url: string,
    private readonly apiKey: string,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  async send(sms: Sms): Promise<void> {
    const response = await this.fetcher(this.url, {
      method: "POST",
      headers: { Authorization: `Bearer ${this.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ to: sms.to, text: sms.text }),
    });
    if (!response.ok) throw new Error(`sms provider answered ${response.status}`);
    const { id } = (await response.json().catch(() => ({}))) as { id?: string };
    await recordSms(this.db, sms, id ?? null);
  }
}

export function smsSenderFor(env: Env, db: Database): SmsSender {
  return env.SMS_PROVIDER === "http" ? new HttpSms(db, env.SMS_API_URL, env.SMS_API_KEY) : new OutboxSms(db);
}
