import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { unsubscribeMailto } from "../../src/server/mail/inbound";
import {
  CloudflareMailer,
  HttpMailer,
  MailRefused,
  mailerFor,
  OutboxMailer,
  SesMailer,
  type ResendTiming,
  type Mail,
  type SesSettings,
} from "../../src/server/mail/mailer";
import { unsubscribeToken } from "../../src/server/mail/unsubscribe-links";
import worker from "../../src/worker";
import { chatMember } from "../chat";
import { putSites, site } from "../fixtures";
import { fetchWorker } from "../http";
import { RESEND_DOMAIN, RESEND_KEY, RESEND_LIMITED_KEY } from "../resend-stand-in";
import { SES_CONFIGURATION_SET, SES_IDENTITY, SES_KEY_ID, SES_REGION, SES_SECRET, SNS_TOPIC } from "../ses-stand-in";
import { receiveMail } from "../../src/server/services/notification-choices";

const DOMAIN = "mailers.test";
const ORIGIN = `http://${DOMAIN}`;
const db = databaseOf(env.DB);
const resendUrl = inject("resendUrl");
const sesUrl = inject("sesUrl");

beforeAll(async () => {
  await putSites(site(DOMAIN));
});

const HEADERS = {
  "List-Unsubscribe":
    "<https://mailers.test/api/unsubscribe.php?token=t>, <mailto:unsubscribe@flirtwave.test?subject=unsubscribe%20t>",
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
};
const mail = (to: string): Mail => ({
  to,
  kind: "like",
  subject: "Sanne likes you",
  text: "Sanne likes you.",
  html: "<p>Sanne likes you.</p>",
  headers: HEADERS,
});

/** A member whose address the providers report on; answers their id and address. */
async function member() {
  const m = await chatMember(ORIGIN);
  const { email } = (await env.DB.prepare("SELECT email FROM users WHERE id = ?")
    .bind(m.userId)
    .first<{ email: string }>())!;
  return { userId: m.userId, email };
}

const stopsOf = async (userId: number) =>
  (
    await env.DB.prepare("SELECT reason FROM mail_stops WHERE user_id = ? ORDER BY reason")
      .bind(userId)
      .all<{ reason: string }>()
  ).results.map((r) => r.reason);
const outboxRow = (to: string) =>
  env.DB.prepare("SELECT provider_id, sent_at, headers FROM outgoing_mail WHERE to_address = ? ORDER BY id DESC")
    .bind(to)
    .first<{ provider_id: string | null; sent_at: number | null; headers: string | null }>();

describe("choosing the mail provider", () => {
  it("MAIL_PROVIDER picks the outbox, Resend, Cloudflare or SES", () => {
    expect(mailerFor(env)).toBeInstanceOf(OutboxMailer);
    expect(mailerFor({ ...env, MAIL_PROVIDER: "resend" })).toBeInstanceOf(HttpMailer);
    expect(mailerFor({ ...env, MAIL_PROVIDER: "http" })).toBeInstanceOf(HttpMailer);
    expect(
      mailerFor({
        ...env,
        MAIL_PROVIDER: "ses",
        MAIL_SES_REGION: "eu-west-1",
        MAIL_SES_ACCESS_KEY_ID: SES_KEY_ID,
        MAIL_SES_SECRET_ACCESS_KEY: SES_SECRET,
      }),
    ).toBeInstanceOf(SesMailer);
    expect(
      mailerFor({ ...env, MAIL_PROVIDER: "cloudflare", EMAIL: cloudflareStandIn().binding } as Env),
    ).toBeInstanceOf(CloudflareMailer);
    expect(() => mailerFor({ ...env, MAIL_PROVIDER: "cloudflare" })).toThrow(/send_email binding/);
  });
});

describe("Resend, against a stand-in of its API", () => {
  const resend = (key = RESEND_KEY, from = `Flirtwave <no-reply@${RESEND_DOMAIN}>`, timing?: ResendTiming) =>
    new HttpMailer(db, `${resendUrl}/emails`, key, from, undefined, timing);
  const received = async () =>
    (await (await fetch(`${resendUrl}/_stand-in/emails`)).json()) as {
      id: string;
      from: string;
      to: string[];
      subject: string;
      html: string;
      text: string;
      headers: Record<string, string>;
      idempotencyKey: string | null;
    }[];

  it("posts the documented request and keeps Resend's id", async () => {
    await resend().send(mail("resend@example.com"));
    const email = (await received()).at(-1)!;
    expect(email).toMatchObject({
      from: `Flirtwave <no-reply@${RESEND_DOMAIN}>`,
      to: ["resend@example.com"],
      subject: "Sanne likes you",
      text: "Sanne likes you.",
      html: "<p>Sanne likes you.</p>",
      headers: HEADERS,
    });
    expect(await outboxRow("resend@example.com")).toMatchObject({ provider_id: email.id });
  });

  const control = (path: string, body: unknown = {}) =>
    fetch(`${resendUrl}/_stand-in/${path}`, { method: "POST", body: JSON.stringify(body) });

  it("makes a try whose answer was lost again with the same Idempotency-Key: the mail is sent once", async () => {
    const waits: number[] = [];
    const mailer = resend(RESEND_KEY, undefined, {
      timeoutMs: 200,
      // The first answer is still on its way at the second try (409 concurrent_idempotent_requests); it comes before the third.
      wait: async (ms) => {
        waits.push(ms);
        if (waits.length === 2) await control("release");
      },
    });
    await control("hold", { to: "lost-answer@example.com" });
    await mailer.send(mail("lost-answer@example.com"));
    const sent = (await received()).filter((e) => e.to.includes("lost-answer@example.com"));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.idempotencyKey).toMatch(/^like\/[0-9a-f-]{36}$/);
    expect(waits).toEqual([500, 1000]);
    expect(await outboxRow("lost-answer@example.com")).toMatchObject({ provider_id: sent[0]!.id });
  });

  it("waits out a 429 as Resend's retry-after says, then sends; past 2 requests a second", async () => {
    // A second of the stand-in's clock of its own, and three mails in it.
    await control("clock", { advance: 1000 });
    const waits: number[] = [];
    const mailer = resend(RESEND_LIMITED_KEY, undefined, {
      timeoutMs: 5000,
      wait: async (ms) => {
        waits.push(ms);
        await control("clock", { advance: ms });
      },
    });
    const to = ["limit1@example.com", "limit2@example.com", "limit3@example.com"];
    await Promise.all(to.map((address) => mailer.send(mail(address))));
    expect(waits).toEqual([1000]);
    const sent = await received();
    for (const address of to)
      expect(
        sent.filter((e) => e.to.includes(address)),
        address,
      ).toHaveLength(1);
    for (const address of to) expect((await outboxRow(address))!.provider_id).toBeTruthy();
  });

  it("refuses to send another mail under a key already used, and keeps nothing as sent", async () => {
    const mailer = resend();
    const key = `like/${crypto.randomUUID()}`;
    await mailer.send({ ...mail("key-once@example.com"), idempotencyKey: key });
    await expect(mailer.send({ ...mail("key-twice@example.com"), idempotencyKey: key })).rejects.toMatchObject({
      provider: "resend",
      code: "invalid_idempotent_request",
    });
    expect(await outboxRow("key-twice@example.com")).toBeNull();
    // The same mail again under its key is the first one: nothing more is sent.
    await mailer.send({ ...mail("key-once@example.com"), idempotencyKey: key });
    expect((await received()).filter((e) => e.to.includes("key-once@example.com"))).toHaveLength(1);
  });

  it("reads Resend's refusals and keeps nothing as sent", async () => {
    await expect(resend("re_wrong").send(mail("refused@example.com"))).rejects.toMatchObject({
      provider: "resend",
      code: "invalid_api_key",
    });
    await expect(
      resend(RESEND_KEY, "no-reply@elsewhere.example").send(mail("refused@example.com")),
    ).rejects.toMatchObject({ code: "validation_error" });
    expect(await outboxRow("refused@example.com")).toBeNull();
  });

  it("takes bounces and complaints signed with Resend's svix-* headers; a forged one changes nothing", async () => {
    const [bounced, complained, forged] = [await member(), await member(), await member()];
    const event = async (type: string, to: string, extra: Record<string, unknown> = {}) =>
      (await (
        await fetch(`${resendUrl}/_stand-in/webhooks`, { method: "POST", body: JSON.stringify({ type, to, ...extra }) })
      ).json()) as { body: string; headers: Record<string, string> };
    const deliver = (signed: { body: string; headers: Record<string, string> }) =>
      fetchWorker(`${ORIGIN}/api/mail-webhook.php`, { method: "POST", headers: signed.headers, body: signed.body });

    expect((await deliver(await event("email.bounced", bounced.email))).status).toBe(200);
    expect((await deliver(await event("email.complained", complained.email))).status).toBe(200);
    const signed = await event("email.bounced", bounced.email);
    expect((await deliver({ ...signed, body: signed.body.replace(bounced.email, forged.email) })).status).toBe(401);
    expect(
      (await deliver(await event("email.bounced", forged.email, { timestamp: Math.floor(Date.now() / 1000) - 3600 })))
        .status,
    ).toBe(401);
    expect((await deliver(await event("email.bounced", forged.email, { bounceType: "Transient" }))).status).toBe(200);

    expect(await stopsOf(bounced.userId)).toEqual(["bounce"]);
    expect(await stopsOf(complained.userId)).toEqual(["complaint"]);
    expect(await stopsOf(forged.userId)).toEqual([]);
  });
});

/**
 * Cloudflare's send_email binding as its Workers API page documents it: `send()` answers `{ messageId }`
 * or throws an Error with a string `code`: E_FIELD_MISSING, E_SENDER_NOT_VERIFIED for a sender
 * outside the onboarded domain, E_RECIPIENT_SUPPRESSED for an address on the suppression list,
 * E_TOO_MANY_RECIPIENTS beyond 50.
 */
function cloudflareStandIn(suppressed: string[] = []) {
  const sent: Parameters<SendEmail["send"]>[0][] = [];
  const fail = (code: string, message: string) => Object.assign(new Error(message), { code });
  const binding = {
    async send(message: Parameters<SendEmail["send"]>[0]) {
      if (!("subject" in message)) throw fail("E_VALIDATION_ERROR", "a raw message is not what this stand-in takes");
      const to = ([] as unknown[])
        .concat(message.to ?? [])
        .map((r) => (typeof r === "string" ? r : (r as EmailAddress).email));
      const from = typeof message.from === "string" ? message.from : message.from.email;
      if (!message.subject || to.length === 0 || !from) throw fail("E_FIELD_MISSING", "Missing to, from or subject");
      if (to.length > 50) throw fail("E_TOO_MANY_RECIPIENTS", "Too many recipients");
      if (!from.endsWith(`@${SES_IDENTITY}`)) throw fail("E_SENDER_NOT_VERIFIED", "Sender domain not verified");
      if (to.some((address) => suppressed.includes(address)))
        throw fail("E_RECIPIENT_SUPPRESSED", "Recipient is on suppression list");
      sent.push(message);
      return { messageId: `<${crypto.randomUUID()}@${SES_IDENTITY}>` };
    },
  } as unknown as SendEmail;
  return { binding, sent };
}

describe("Cloudflare's Email Service, through the send_email binding", () => {
  it("sends the message with its headers and keeps the message id", async () => {
    const { binding, sent } = cloudflareStandIn();
    await new CloudflareMailer(db, binding, `no-reply@${SES_IDENTITY}`).send(mail("cloudflare@example.com"));
    expect(sent.at(-1)).toEqual({
      from: `no-reply@${SES_IDENTITY}`,
      to: "cloudflare@example.com",
      subject: "Sanne likes you",
      text: "Sanne likes you.",
      html: "<p>Sanne likes you.</p>",
      headers: HEADERS,
    });
    expect((await outboxRow("cloudflare@example.com"))!.provider_id).toMatch(/@flirtwave\.test>$/);
  });

  it("a suppressed address stops the member's mail; an unverified sender is refused", async () => {
    const suppressed = await member();
    const { binding } = cloudflareStandIn([suppressed.email]);
    await expect(
      new CloudflareMailer(db, binding, `no-reply@${SES_IDENTITY}`).send(mail(suppressed.email)),
    ).rejects.toMatchObject({ code: "E_RECIPIENT_SUPPRESSED", suppressed: true });
    expect(await stopsOf(suppressed.userId)).toEqual(["bounce"]);
    await expect(
      new CloudflareMailer(db, binding, "no-reply@elsewhere.example").send(mail("x@example.com")),
    ).rejects.toMatchObject({ code: "E_SENDER_NOT_VERIFIED", suppressed: false });
  });

  it("a hard-bounce report to the sender address stops the recipient's mail; one to another address does not", async () => {
    const [bounced, other] = [await member(), await member()];
    const report = (to: string, recipient: string) => {
      const raw = [
        "From: Mail Delivery System <mailer-daemon@cf-bounce.flirtwave.example>",
        `To: ${to}`,
        "Subject: Undelivered Mail Returned to Sender",
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
        "",
        "--b1",
        "Content-Type: text/plain",
        "",
        "Your message could not be delivered.",
        "--b1",
        "Content-Type: message/delivery-status",
        "",
        "Reporting-MTA: dns; cf-bounce.flirtwave.example",
        "",
        `Final-Recipient: rfc822; ${recipient}`,
        "Action: failed",
        "Status: 5.1.1",
        "Diagnostic-Code: smtp; 550 5.1.1 No such user",
        "--b1--",
        "",
      ].join("\r\n");
      return {
        to,
        from: "mailer-daemon@cf-bounce.flirtwave.example",
        headers: new Headers({ "content-type": 'multipart/report; report-type=delivery-status; boundary="b1"' }),
        raw: new Response(raw).body!,
      };
    };
    expect(await receiveMail(report(env.MAIL_FROM, bounced.email), env, 1_900_000_000)).toBe("bounce");
    expect(await receiveMail(report("someone@flirtwave.example", other.email), env, 1_900_000_000)).toBe("dropped");
    expect(await stopsOf(bounced.userId)).toEqual(["bounce"]);
    expect(await stopsOf(other.userId)).toEqual([]);
  });
});

describe("List-Unsubscribe's mailto:", () => {
  it("a mail to the unsubscribe address with the signed token in its subject unsubscribes, through the Worker's email handler", async () => {
    const m = await member();
    const token = await unsubscribeToken(env.SESSION_SECRET, m.userId, "like");
    const mailto = new URL(unsubscribeMailto(env.MAIL_FROM, token));
    expect(mailto.pathname).toBe("unsubscribe@flirtwave.example");
    const message = (subject: string) =>
      ({
        to: mailto.pathname,
        from: m.email,
        headers: new Headers({ subject }),
        raw: new Response("").body!,
        rawSize: 0,
        canBeForwarded: false,
      }) as unknown as ForwardableEmailMessage;
    await worker.email!(message(`unsubscribe ${token.replace(/.$/, (c) => (c === "A" ? "B" : "A"))}`), env);
    expect(await stopsOf(m.userId)).toEqual([]);
    await worker.email!(message(mailto.searchParams.get("subject")!), env);
    expect(await stopsOf(m.userId)).toEqual(["unsubscribe"]);
  });
});

describe("Amazon SES, against a stand-in of its API v2", () => {
  const settings = (overrides: Partial<SesSettings> = {}): SesSettings => ({
    region: SES_REGION,
    accessKeyId: SES_KEY_ID,
    secretAccessKey: SES_SECRET,
    configurationSet: SES_CONFIGURATION_SET,
    endpoint: sesUrl,
    ...overrides,
  });
  const ses = (overrides: Partial<SesSettings> = {}, from = `Flirtwave <no-reply@${SES_IDENTITY}>`) =>
    new SesMailer(db, settings(overrides), from);
  const sent = async () =>
    (await (await fetch(`${sesUrl}/_stand-in/sent`)).json()) as {
      messageId: string;
      from: string;
      to: string[];
      subject: string;
      text: string;
      html: string;
      headers: { Name: string; Value: string }[];
      configurationSet: string;
    }[];

  it("signs SendEmail with Signature Version 4 and sends the documented Simple message with its headers", async () => {
    await ses().send(mail("ses@example.com"));
    const taken = (await sent()).at(-1)!;
    expect(taken).toMatchObject({
      from: `Flirtwave <no-reply@${SES_IDENTITY}>`,
      to: ["ses@example.com"],
      subject: "Sanne likes you",
      text: "Sanne likes you.",
      html: "<p>Sanne likes you.</p>",
      configurationSet: SES_CONFIGURATION_SET,
    });
    expect(taken.headers).toEqual(Object.entries(HEADERS).map(([Name, Value]) => ({ Name, Value })));
    expect(await outboxRow("ses@example.com")).toMatchObject({ provider_id: taken.messageId });
  });

  it("reads SES's refusals by their error type", async () => {
    await expect(ses({ secretAccessKey: "not-the-secret" }).send(mail("refused@example.com"))).rejects.toMatchObject({
      provider: "ses",
      code: "SignatureDoesNotMatch",
    });
    await expect(ses({ accessKeyId: "AKIAUNKNOWN" }).send(mail("refused@example.com"))).rejects.toMatchObject({
      code: "UnrecognizedClientException",
    });
    await expect(ses({ region: "eu-central-1" }).send(mail("refused@example.com"))).rejects.toMatchObject({
      code: "SignatureDoesNotMatch",
    });
    await expect(ses({}, "no-reply@elsewhere.example").send(mail("refused@example.com"))).rejects.toMatchObject({
      code: "MessageRejected",
    });
    await expect(ses({ configurationSet: "nope" }).send(mail("refused@example.com"))).rejects.toBeInstanceOf(
      MailRefused,
    );
    expect(await outboxRow("refused@example.com")).toBeNull();
  });
});

describe("SES bounces and complaints through SNS (POST /api/mail-sns.php)", () => {
  const snsEnv = (overrides: Partial<Env> = {}): Env => ({
    ...env,
    MAIL_SNS_TOPIC_ARNS: `arn:aws:sns:eu-west-1:123456789012:other, ${SNS_TOPIC}`,
    MAIL_SNS_CERT_ORIGIN: sesUrl,
    ...overrides,
  });
  const snsMessage = async (request: Record<string, unknown>) =>
    (await (
      await fetch(`${sesUrl}/_stand-in/sns`, { method: "POST", body: JSON.stringify(request) })
    ).json()) as Record<string, string>;
  async function deliver(message: Record<string, string>, overrides: Partial<Env> = {}) {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${ORIGIN}/api/mail-sns.php`, {
        method: "POST",
        headers: { "content-type": "text/plain; charset=UTF-8", "x-amz-sns-message-type": message.Type! },
        body: JSON.stringify(message),
      }),
      snsEnv(overrides),
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res.status;
  }

  it("confirms the topic's subscription by visiting its signed SubscribeURL", async () => {
    const confirmation = await snsMessage({ kind: "SubscriptionConfirmation" });
    expect(await deliver(confirmation)).toBe(200);
    expect((await (await fetch(`${sesUrl}/_stand-in/confirmed`)).json()) as string[]).toContain(confirmation.Token);
  });

  it("a permanent bounce (SignatureVersion 2) and a complaint (SignatureVersion 1) stop the member's mail; a transient bounce does not", async () => {
    const [bounced, complained, transient] = [await member(), await member(), await member()];
    expect(await deliver(await snsMessage({ kind: "Bounce", to: bounced.email, signatureVersion: "2" }))).toBe(200);
    expect(await deliver(await snsMessage({ kind: "Complaint", to: complained.email, signatureVersion: "1" }))).toBe(
      200,
    );
    expect(await deliver(await snsMessage({ kind: "Transient", to: transient.email }))).toBe(200);
    expect(await stopsOf(bounced.userId)).toEqual(["bounce"]);
    expect(await stopsOf(complained.userId)).toEqual(["complaint"]);
    expect(await stopsOf(transient.userId)).toEqual([]);
  });

  it("refuses a message signed with a certificate from the right host that Amazon did not issue", async () => {
    const victim = await member();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const foreign = await snsMessage({ kind: "Bounce", to: victim.email, certificate: "foreign" });
    // Served by the same origin as the genuine certificate: only its issuer tells them apart.
    expect(new URL(foreign.SigningCertURL!).origin).toBe(sesUrl);
    expect(await deliver(foreign)).toBe(401);
    expect(JSON.parse(String(warn.mock.calls.at(-1)![0]))).toMatchObject({
      event: "mail_sns_refused",
      reason: "certificate_issuer",
    });
    expect(await stopsOf(victim.userId)).toEqual([]);
    expect(await deliver(await snsMessage({ kind: "Bounce", to: victim.email }))).toBe(200);
    expect(await stopsOf(victim.userId)).toEqual(["bounce"]);
    warn.mockRestore();
  });

  it("refuses a forged, a stale, another topic's or a foreign-certificate message, changing nothing", async () => {
    const [victim, other] = [await member(), await member()];
    const genuine = await snsMessage({ kind: "Bounce", to: other.email });
    expect(await deliver({ ...genuine, Message: genuine.Message!.replace(other.email, victim.email) })).toBe(401);
    expect(
      await deliver(
        await snsMessage({ kind: "Bounce", to: victim.email, timestamp: Math.floor(Date.now() / 1000) - 2 * 3600 }),
      ),
    ).toBe(401);
    expect(
      await deliver(
        await snsMessage({
          kind: "Bounce",
          to: victim.email,
          topic: "arn:aws:sns:eu-west-1:999999999999:someone-elses",
        }),
      ),
    ).toBe(401);
    // Outside development the certificate must come from sns.<region>.amazonaws.com, whatever is configured.
    expect(await deliver(await snsMessage({ kind: "Bounce", to: victim.email }), { ENVIRONMENT: "production" })).toBe(
      401,
    );
    expect(
      await deliver({ ...genuine, SigningCertURL: "https://sns.eu-west-1.amazonaws.com.evil.example/cert.pem" }),
    ).toBe(401);
    expect(await stopsOf(victim.userId)).toEqual([]);
    expect(await stopsOf(other.userId)).toEqual([]);
  });
});
