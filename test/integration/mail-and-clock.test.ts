import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { suggestEmail } from "../../src/shared/account";
import { databaseOf } from "../../src/server/db/database";
import { HttpMailer, mailerFor, OutboxMailer, RESEND_TRIES } from "../../src/server/mail/mailer";
import worker from "../../src/worker";

const mail = { to: "anna@example.com", kind: "activation", subject: "Welcome", text: "Hi", html: "<p>Hi</p>" };

describe("mail", () => {
  it("keeps mail in the outbox by default", async () => {
    expect(mailerFor(env)).toBeInstanceOf(OutboxMailer);
    await mailerFor(env).send({ ...mail, to: "outbox@example.com" });
    const row = await env.DB.prepare(
      "SELECT subject, sent_at FROM outgoing_mail WHERE to_address = 'outbox@example.com'",
    ).first();
    expect(row).toEqual({ subject: "Welcome", sent_at: null });
  });

  it("delivers through the provider's HTTP API when configured, and records its id", async () => {
    expect(mailerFor({ ...env, MAIL_PROVIDER: "http" })).toBeInstanceOf(HttpMailer);
    const sent: { url: string; init: RequestInit }[] = [];
    const provider = async (url: RequestInfo | URL, init?: RequestInit) => {
      sent.push({ url: String(url), init: init! });
      return Response.json({ id: "msg-123" });
    };
    await new HttpMailer(
      databaseOf(env.DB),
      "https://mail.example/send",
      "key-1",
      "no-reply@example.com",
      provider as typeof fetch,
    ).send({ ...mail, to: "http@example.com" });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe("https://mail.example/send");
    expect(new Headers(sent[0]!.init.headers).get("authorization")).toBe("Bearer key-1");
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({
      from: "no-reply@example.com",
      to: "http@example.com",
      subject: "Welcome",
      text: "Hi",
      html: "<p>Hi</p>",
    });
    const row = await env.DB.prepare(
      "SELECT provider_id, sent_at, subject, text, html, headers FROM outgoing_mail WHERE to_address = 'http@example.com'",
    ).first<{
      provider_id: string;
      sent_at: number;
      subject: string;
      text: string;
      html: string | null;
      headers: string | null;
    }>();
    expect(row!.provider_id).toBe("msg-123");
    expect(row!.sent_at).toBeGreaterThan(0);
    // The body stays with the provider: D1 keeps who, what kind and the subject (docs/scale.md).
    expect(row).toMatchObject({ subject: "Welcome", text: "", html: null, headers: null });
  });

  it("does not record a mail the provider refused", async () => {
    let tries = 0;
    const refusing = (async () => (tries++, new Response("no", { status: 500 }))) as typeof fetch;
    const waits: number[] = [];
    const timing = { timeoutMs: 1000, wait: async (ms: number) => void waits.push(ms) };
    await expect(
      new HttpMailer(databaseOf(env.DB), "https://mail.example/send", "k", "f@example.com", refusing, timing).send({
        ...mail,
        to: "refused@example.com",
      }),
    ).rejects.toThrow();
    // A 5xx may have sent it: tried again with the same key, then given up.
    expect(tries).toBe(RESEND_TRIES);
    expect(waits).toEqual([500, 1000, 2000]);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM outgoing_mail WHERE to_address = 'refused@example.com'").first(),
    ).toEqual({ n: 0 });
  });

  it("suggests the common domain an address was probably meant for", () => {
    expect(suggestEmail("anna@gmial.com")).toBe("anna@gmail.com");
    expect(suggestEmail("anna@hotmial.nl")).toBe("anna@hotmail.nl");
    expect(suggestEmail("jan@ziggo.nll")).toBe("jan@ziggo.nl");
    expect(suggestEmail("anna@gmail.com")).toBeNull();
    expect(suggestEmail("anna@my-own-company.example")).toBeNull();
    expect(suggestEmail("not an address")).toBeNull();
  });
});

describe("the daily clock", () => {
  it("erases accounts whose deletion window has passed when the cron trigger fires", async () => {
    await env.DB.prepare(
      "INSERT INTO users (id, email, username, status, site_domain, deletion_requested_at) VALUES (9001, 'gone@example.com', 'gone', 'pending_deletion', 'nl.test', unixepoch() - 15 * 86400)",
    ).run();
    await env.DB.prepare(
      "INSERT INTO users (id, email, username, status, site_domain, deletion_requested_at) VALUES (9002, 'stays@example.com', 'stays', 'pending_deletion', 'nl.test', unixepoch() - 13 * 86400)",
    ).run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "17 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const left = await env.DB.prepare("SELECT email FROM users WHERE id IN (9001, 9002)").all();
    expect(left.results).toEqual([{ email: "stays@example.com" }]);
  });
});
