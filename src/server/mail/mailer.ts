/**
 * Outgoing mail. Every mail is kept in D1 (outgoing_mail): locally that table is the outbox that
 * /dev/outbox shows and the tests read; in production the HTTP provider also delivers it and the row
 * records the provider's id.
 */
import { databaseOf, type Database } from "../db/database";
import { recordMail } from "../db/outbox";

/** `headers`: extra mail headers, such as List-Unsubscribe on notification mail (RFC 2369, RFC 8058). */
export type Mail = { to: string; kind: string; subject: string; text: string; html: string; headers?: Record<string, string> };

const headersOf = (mail: Mail) => (mail.headers && Object.keys(mail.headers).length ? JSON.stringify(mail.headers) : null);

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Development and tests: the mail stays in the outbox table, nothing leaves the machine. */
export class OutboxMailer implements Mailer {
  constructor(private readonly db: Database) {}

  async send(mail: Mail): Promise<void> {
    await recordMail(this.db, { toAddress: mail.to, kind: mail.kind, subject: mail.subject, text: mail.text, html: mail.html, headers: headersOf(mail) });
  }
}

/**
 * Production: a transactional-mail provider's JSON API (POST { from, to, subject, text, html, headers? }
 * with a bearer key, answering { id }), then the same record as the outbox with the provider's id.
 */
export class HttpMailer implements Mailer {
  constructor(
    private readonly db: Database,
    private readonly url: string,
    private readonly apiKey: string,
    private readonly from: string,
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  async send(mail: Mail): Promise<void> {
    const response = await this.fetcher(this.url, {
      method: "POST",
      headers: { Authorization: `Bearer ${this.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, ...(mail.headers ? { headers: mail.headers } : {}) }),
    });
    if (!response.ok) throw new Error(`mail provider answered ${response.status}`);
    const { id } = (await response.json().catch(() => ({}))) as { id?: string };
    await recordMail(this.db, {
      toAddress: mail.to,
      kind: mail.kind,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: headersOf(mail),
      sentAt: Math.floor(Date.now() / 1000),
      providerId: id ?? null,
    });
  }
}

export function mailerFor(env: Env, db: Database = databaseOf(env.DB)): Mailer {
  return env.MAIL_PROVIDER === "http" ? new HttpMailer(db, env.MAIL_API_URL, env.MAIL_API_KEY, env.MAIL_FROM) : new OutboxMailer(db);
}
