/**
 * Outgoing mail. Every mail is kept in D1 (outgoing_mail): locally that table is the outbox that
 * /dev/outbox shows and the tests read; in production the HTTP provider also delivers it and the row
 * records the provider's id.
 */
export type Mail = { to: string; kind: string; subject: string; text: string; html: string };

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Development and tests: the mail stays in the outbox table, nothing leaves the machine. */
export class OutboxMailer implements Mailer {
  constructor(private readonly db: D1Database) {}

  async send(mail: Mail): Promise<void> {
    await this.db
      .prepare("INSERT INTO outgoing_mail (to_address, kind, subject, text, html) VALUES (?, ?, ?, ?, ?)")
      .bind(mail.to, mail.kind, mail.subject, mail.text, mail.html)
      .run();
  }
}

/**
 * Production: a transactional-mail provider's JSON API (POST { from, to, subject, text, html } with a
 * bearer key, answering { id }), then the same record as the outbox with the provider's id.
 */
export class HttpMailer implements Mailer {
  constructor(
    private readonly db: D1Database,
    private readonly url: string,
    private readonly apiKey: string,
    private readonly from: string,
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  async send(mail: Mail): Promise<void> {
    const response = await this.fetcher(this.url, {
      method: "POST",
      headers: { Authorization: `Bearer ${this.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html }),
    });
    if (!response.ok) throw new Error(`mail provider answered ${response.status}`);
    const { id } = (await response.json().catch(() => ({}))) as { id?: string };
    await this.db
      .prepare("INSERT INTO outgoing_mail (to_address, kind, subject, text, html, sent_at, provider_id) VALUES (?, ?, ?, ?, ?, unixepoch(), ?)")
      .bind(mail.to, mail.kind, mail.subject, mail.text, mail.html, id ?? null)
      .run();
  }
}

export function mailerFor(env: Env): Mailer {
  return env.MAIL_PROVIDER === "http" ? new HttpMailer(env.DB, env.MAIL_API_URL, env.MAIL_API_KEY, env.MAIL_FROM) : new OutboxMailer(env.DB);
}
