import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { AppError } from "../../src/server/errors";
import { mobileNumberOf, SMS_COUNTRIES } from "../../src/server/sms/phone-numbers";
import { smsSenderFor, smsSenderName, SmsRefused } from "../../src/server/sms/sms";
import { chatMember } from "../chat";
import { putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";
import { SINCH_CALLBACK_SECRET, SINCH_PLAN, SINCH_TOKEN } from "../sinch-stand-in";
import worker from "../../src/worker";

const DOMAIN = "texts.test";
const ORIGIN = `http://${DOMAIN}`;
const db = databaseOf(env.DB);
const smsUrl = inject("smsUrl");
/** The tests' clock: each test its own hour, so the hourly limits of one do not reach another. */
const HOUR = 3600;
let hour = 2_000_000_000;
const nextHour = () => (hour += 10 * HOUR);

const sinchEnv = (overrides: Partial<Env> = {}): Env => ({
  ...env,
  SMS_PROVIDER: "sinch",
  SMS_API_URL: smsUrl,
  SMS_SERVICE_PLAN_ID: SINCH_PLAN,
  SMS_API_KEY: SINCH_TOKEN,
  ...overrides,
});

type Batch = {
  id: string;
  from: string;
  to: string[];
  body: string;
  delivery_report: string;
  callback_url: string | null;
  client_reference: string | null;
};
const batches = async (): Promise<Batch[]> => (await fetch(`${smsUrl}/_stand-in/batches`)).json();
const smsRow = (id: string | number) =>
  env.DB.prepare("SELECT id, to_number, country, provider_id, sent_at, delivery_status FROM outgoing_sms WHERE id = ?")
    .bind(id)
    .first<{
      id: number;
      to_number: string;
      country: string;
      provider_id: string | null;
      sent_at: number | null;
      delivery_status: string | null;
    }>();

beforeAll(async () => {
  await putSites(site(DOMAIN, { name: "Textwave", direct_debit: { outstanding_limit_credits: 300 } }));
});

describe("mobile numbers as members type them", () => {
  // A national mobile number of each of the product's countries, as written there, and its E.164 form.
  const NATIONAL: Record<string, [string, string]> = {
    DK: ["20 12 34 56", "+4520123456"],
    NO: ["412 34 567", "+4741234567"],
    SE: ["070-123 45 67", "+46701234567"],
    FI: ["040 123 4567", "+358401234567"],
    PL: ["512 345 678", "+48512345678"],
    NL: ["06-12345678", "+31612345678"],
    BE: ["0470 12 34 56", "+32470123456"],
    DE: ["0151 23456789", "+4915123456789"],
    AT: ["0660 1234567", "+436601234567"],
    CH: ["079 123 45 67", "+41791234567"],
    FR: ["06 12 34 56 78", "+33612345678"],
    IT: ["347 123 4567", "+393471234567"],
    ES: ["612 34 56 78", "+34612345678"],
    GB: ["07400 123456", "+447400123456"],
    IE: ["085 123 4567", "+353851234567"],
  };

  it("reads each country's national numbers into E.164 from the member's country", () => {
    expect(Object.keys(NATIONAL).toSorted()).toEqual(SMS_COUNTRIES.toSorted());
    for (const [country, [national, e164]] of Object.entries(NATIONAL)) {
      expect(mobileNumberOf(national, country), country).toEqual({ e164, country });
      // Typed in international form, the member's country does not matter.
      expect(mobileNumberOf(e164, "NL").e164, country).toBe(e164);
    }
    // The UK site's country code is UK, the numbering plan's GB.
    expect(mobileNumberOf("07400 123456", "UK")).toEqual({ e164: "+447400123456", country: "GB" });
  });

  it("refuses what cannot be a mobile number, and numbers outside the product's countries", () => {
    for (const [typed, country] of [
      ["12345678", "NL"],
      ["020 123 4567", "NL"],
      ["+31 6 1234", "DE"],
      ["0000000000", "FR"],
    ] as const) {
      expect(() => mobileNumberOf(typed, country), typed).toThrow(
        expect.objectContaining({ status: 400, code: "invalid_mobile", key: "sms.number_impossible" }),
      );
    }
    expect(() => mobileNumberOf("+1 202 555 0100", "NL")).toThrow(
      expect.objectContaining({ status: 400, code: "mobile_country_not_served" }),
    );
  });

  it("an impossible number is refused in the member's language, with nothing sent or saved", async () => {
    const m = await chatMember(ORIGIN);
    m.browser.cookies.set("locale", "de");
    const before = (await env.DB.prepare("SELECT COUNT(*) AS n FROM outgoing_sms").first<{ n: number }>())!.n;
    const res = await m.browser.fetch("/api/directdebit.php", {
      method: "POST",
      json: {
        bundle_id: 1,
        account_holder: "Jan Jansen",
        iban: "NL91ABNA0417164300",
        street: "Damrak",
        house_number: "1",
        postal_code: "1012 LG",
        city: "Amsterdam",
        mobile: "12345678",
        authorise: true,
      },
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({
      error: "invalid_mobile",
      field: "mobile",
      message:
        "Das kann keine Handynummer sein. Prüfe sie oder gib sie mit Ländervorwahl ein, zum Beispiel +49 151 23456789.",
    });
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM outgoing_sms").first<{ n: number }>())!.n).toBe(before);
    expect(
      await env.DB.prepare("SELECT 1 FROM direct_debit_accounts WHERE user_id = ?").bind(m.userId).first(),
    ).toBeNull();
  });

  it("a national number typed on the form is texted and kept in E.164", async () => {
    const m = await chatMember(ORIGIN);
    const res = await m.browser.fetch("/api/directdebit.php", {
      method: "POST",
      json: {
        bundle_id: 1,
        account_holder: "Jan Jansen",
        iban: "NL91ABNA0417164300",
        street: "Damrak",
        house_number: "1",
        postal_code: "1012 LG",
        city: "Amsterdam",
        mobile: "06 2345 6789",
        authorise: true,
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(
      await env.DB.prepare("SELECT mobile FROM direct_debit_accounts WHERE user_id = ?").bind(m.userId).first(),
    ).toEqual({ mobile: "+31623456789" });
    expect(await env.DB.prepare("SELECT country FROM outgoing_sms WHERE to_number = '+31623456789'").first()).toEqual({
      country: "NL",
    });
  });
});

describe("Sinch's SMS API, against a stand-in of it", () => {
  it("sends the documented batch request and keeps the batch id for the delivery reports", async () => {
    const now = nextHour();
    await smsSenderFor(sinchEnv(), db, "https://texts.test").send(
      { to: { e164: "+4520123456", country: "DK" }, text: "123456 is your code", from: "Textwave" },
      now,
    );
    const batch = (await batches()).at(-1)!;
    const row = await smsRow(batch.client_reference!);
    expect(batch).toMatchObject({
      from: "Textwave",
      to: ["+4520123456"],
      body: "123456 is your code",
      delivery_report: "per_recipient_final",
      callback_url: "https://texts.test/api/sms-report.php",
    });
    expect(row).toMatchObject({ to_number: "+4520123456", country: "DK", provider_id: batch.id, sent_at: now });
  });

  it("reads the provider's refusals: a wrong token, another plan, a sender name it does not take", async () => {
    const to = { e164: "+46701234567", country: "SE" as const };
    const attempt = (overrides: Partial<Env>, from = "Textwave") =>
      smsSenderFor(sinchEnv(overrides), db, null).send({ to, text: "x", from }, nextHour());
    await expect(attempt({ SMS_API_KEY: "wrong" })).rejects.toMatchObject({ status: 401, code: "unauthorized" });
    await expect(attempt({ SMS_SERVICE_PLAN_ID: "someoneelse" })).rejects.toMatchObject({
      status: 403,
      code: "forbidden",
    });
    await expect(attempt({}, "Textwave Sweden")).rejects.toSatisfy(
      (error) =>
        error instanceof SmsRefused && error.status === 400 && error.code === "syntax_invalid_parameter_format",
    );
  });

  it("takes a signed delivery report and refuses a forged, a wrongly keyed or a stale one", async () => {
    await smsSenderFor(sinchEnv(), db, null).send(
      { to: { e164: "+358401234567", country: "FI" }, text: "654321", from: "Textwave" },
      nextHour(),
    );
    const batch = (await batches()).at(-1)!;
    const report = async (extra: Record<string, unknown> = {}) =>
      (await (
        await fetch(`${smsUrl}/_stand-in/reports`, {
          method: "POST",
          body: JSON.stringify({ batch_id: batch.id, status: "Delivered", ...extra }),
        })
      ).json()) as { body: string; headers: Record<string, string> };
    const deliver = (signed: { body: string; headers: Record<string, string> }) =>
      fetchWorker(`${ORIGIN}/api/sms-report.php`, { method: "POST", headers: signed.headers, body: signed.body });

    const forged = await report({ status: "Failed" });
    expect((await deliver({ ...forged, body: forged.body.replace("Failed", "Delivered") })).status).toBe(401);
    expect((await deliver(await report({ secret: "not-the-plan-secret" }))).status).toBe(401);
    // Older than Sinch's last retry (81,920 s after the first try): nobody sends that but a replayer.
    expect((await deliver(await report({ timestamp: Math.floor(Date.now() / 1000) - 25 * 3600 }))).status).toBe(401);
    expect((await deliver(await report({ timestamp: Math.floor(Date.now() / 1000) + 3600 }))).status).toBe(401);
    expect((await smsRow(batch.client_reference!))!.delivery_status).toBeNull();

    expect((await deliver(await report())).status).toBe(200);
    expect((await smsRow(batch.client_reference!))!.delivery_status).toBe("Delivered");
    expect(SINCH_CALLBACK_SECRET).toBe(env.SMS_WEBHOOK_SECRET);
  });

  it("takes a report Sinch retries hours later with its first timestamp, once; an exact replay changes nothing", async () => {
    await smsSenderFor(sinchEnv(), db, null).send(
      { to: { e164: "+358401234568", country: "FI" }, text: "Sent a while ago", from: "Textwave" },
      nextHour(),
    );
    const batch = (await batches()).at(-1)!;
    // The first try was made almost six hours ago and not answered; Sinch's 13th retry (20,480 s later) comes now.
    const firstTry = Math.floor(Date.now() / 1000) - 20_480 - 5;
    const first = (await (
      await fetch(`${smsUrl}/_stand-in/reports`, {
        method: "POST",
        body: JSON.stringify({ batch_id: batch.id, status: "Delivered", timestamp: firstTry }),
      })
    ).json()) as { body: string; headers: Record<string, string>; report: number };
    const retry = (await (
      await fetch(`${smsUrl}/_stand-in/reports/${first.report}/retry`, {
        method: "POST",
        body: JSON.stringify({ attempt: 13 }),
      })
    ).json()) as { body: string; headers: Record<string, string>; at: number };
    expect(retry.at).toBe(firstTry + 20_480);
    expect(retry.headers).toEqual(first.headers);
    const deliver = (signed: { body: string; headers: Record<string, string> }) =>
      fetchWorker(`${ORIGIN}/api/sms-report.php`, { method: "POST", headers: signed.headers, body: signed.body });

    expect((await deliver(retry)).status).toBe(200);
    expect((await smsRow(batch.client_reference!))!.delivery_status).toBe("Delivered");
    // Mark when it was recorded: the same report again, however often and at once, leaves that as it is.
    await env.DB.prepare("UPDATE outgoing_sms SET status_at = 1 WHERE id = ?").bind(batch.client_reference).run();
    const again = await Promise.all(Array.from({ length: 5 }, () => deliver(retry)));
    expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(
      await env.DB.prepare("SELECT delivery_status, status_at FROM outgoing_sms WHERE id = ?")
        .bind(batch.client_reference)
        .first(),
    ).toEqual({ delivery_status: "Delivered", status_at: 1 });
  });
});

describe("a code texted through Sinch from the direct-debit form", () => {
  /** The form posted as the member's page posts it, to the Worker with Sinch configured. */
  async function requestCode(
    member: Awaited<ReturnType<typeof chatMember>>,
    mobile: string,
    overrides: Partial<Env> = {},
  ) {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${ORIGIN}/api/directdebit.php`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: ORIGIN,
          "x-request-type": "client",
          cookie: [...member.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        },
        body: JSON.stringify({
          bundle_id: 1,
          account_holder: "Jan Jansen",
          iban: "NL91ABNA0417164300",
          street: "Damrak",
          house_number: "1",
          postal_code: "1012 LG",
          city: "Amsterdam",
          mobile,
          authorise: true,
        }),
      }),
      sinchEnv(overrides),
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  }

  it("goes to the number in E.164 from the site's sender name, with the site's report address", async () => {
    const m = await chatMember(ORIGIN);
    expect((await requestCode(m, "06 3456 7890")).status).toBe(200);
    expect((await batches()).at(-1)).toMatchObject({
      from: "Textwave",
      to: ["+31634567890"],
      delivery_report: "per_recipient_final",
      callback_url: `${ORIGIN}/api/sms-report.php`,
    });
    expect((await batches()).at(-1)!.body).toMatch(/^\d{6} is your Textwave code/);
  });

  it("leaves no plain code in D1: sms_codes keeps its hash, outgoing_sms the text with the code masked", async () => {
    const m = await chatMember(ORIGIN);
    expect((await requestCode(m, "06 3456 7891")).status).toBe(200);
    const texted = (await batches()).at(-1)!;
    const code = /^(\d{6}) is your Textwave code/.exec(texted.body)![1]!;
    const kept = await env.DB.prepare(
      "SELECT text, provider_id FROM outgoing_sms WHERE to_number = '+31634567891'",
    ).first<{
      text: string;
      provider_id: string;
    }>();
    expect(kept!.provider_id).toBe(texted.id);
    expect(kept!.text).not.toContain(code);
    expect(kept!.text).toBe(texted.body.replace(/[0-9]/g, "•"));
    const stored = await env.DB.prepare("SELECT * FROM sms_codes WHERE user_id = ?").bind(m.userId).all();
    expect(stored.results).toHaveLength(1);
    expect(JSON.stringify(stored.results)).not.toContain(code);
  });

  it("a provider that refuses is a 502 in the member's language, and the attempt still counts", async () => {
    const m = await chatMember(ORIGIN);
    m.browser.cookies.set("locale", "nl");
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await requestCode(m, "06 4567 8901", { SMS_API_KEY: "revoked" });
    expect(res.status).toBe(502);
    expect(await json(res)).toMatchObject({
      error: "sms_unavailable",
      message: "De sms kon niet worden verstuurd. Probeer het over een paar minuten opnieuw.",
    });
    expect(JSON.parse(String(error.mock.calls[0]![0]))).toMatchObject({ event: "sms_provider_failed", country: "NL" });
    expect(
      await env.DB.prepare("SELECT provider_id FROM outgoing_sms WHERE to_number = '+31645678901'").first(),
    ).toEqual({ provider_id: null });
    error.mockRestore();
  });
});

describe("limits against SMS pumping", () => {
  it("sends at most the hourly limit to one country when many codes are asked for at once", async () => {
    const now = nextHour();
    const limited = { ...env, SMS_LIMIT_PER_COUNTRY_HOUR: "5" };
    const sends = Array.from({ length: 24 }, (_, i) =>
      smsSenderFor(limited, db).send(
        { to: { e164: `+4741234${String(500 + i)}`, country: "NO" }, text: "code", from: "Textwave" },
        now + (i % 3),
      ),
    );
    const results = await Promise.allSettled(sends);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    for (const refused of results.filter((r) => r.status === "rejected"))
      expect((refused as PromiseRejectedResult).reason).toMatchObject({
        status: 429,
        code: "sms_country_limit",
        key: "sms.country_busy",
      });
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM outgoing_sms WHERE country = 'NO' AND created_at >= ?")
        .bind(now)
        .first<{ n: number }>())!.n,
    ).toBe(5);
    // Another country is not held up, and the country's next hour starts afresh.
    await smsSenderFor(limited, db).send(
      { to: { e164: "+46701234599", country: "SE" }, text: "code", from: "Textwave" },
      now + 10,
    );
    await smsSenderFor(limited, db).send(
      { to: { e164: "+4741234999", country: "NO" }, text: "code", from: "Textwave" },
      now + HOUR + 5,
    );
    await expect(
      smsSenderFor(limited, db).send(
        { to: { e164: "+4741234998", country: "NO" }, text: "code", from: "Textwave" },
        now + 20,
      ),
    ).rejects.toBeInstanceOf(AppError);
  });
});

describe("the site's sender name", () => {
  it("is the site's sms_sender, or its name cut to what an alphanumeric sender may be", () => {
    expect(smsSenderName({ name: "Flirtwave Danmark!", sms_sender: undefined })).toBe("Flirtwave D");
    expect(smsSenderName({ name: "Flirtwave", sms_sender: "FlirtDK" })).toBe("FlirtDK");
    expect(smsSenderName({ name: "Ålborg ♥", sms_sender: undefined })).toBe("lborg");
  });
});
