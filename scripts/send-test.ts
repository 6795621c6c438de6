/**
 * A test send from the operator's command line through the configured provider, with the app's own
 * adapters (docs/configuration.md): the settings are the chosen environment's vars in wrangler.toml,
 * the secrets those of .dev.vars (or .dev.vars.<env>), any of them overridden by a shell variable of
 * the same name (production secrets cannot be read back from Cloudflare, so give them that way).
 * What is sent is recorded in the chosen database, as the Worker records it.
 *
 *   npm run send-test -- mail --to you@example.com --local|--remote [--env production]
 *   npm run send-test -- sms --to +31612345678 [--from Flirtwave] --local|--remote [--env production]
 *   npm run send-test -- push --member <profile id> --site example.nl --local|--remote [--env production]
 *
 * MAIL_PROVIDER "cloudflare" sends only from inside the Worker (its send_email binding): there, ask
 * the site for a password reset mail to test it.
 */
import { join, resolve } from "node:path";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import { getPlatformProxy } from "wrangler";
import * as schema from "../src/server/db/schema";
import { databaseOf, type Database } from "../src/server/db/database";
import { pushRecipient } from "../src/server/db/push-subscriptions";
import { mailerFor } from "../src/server/mail/mailer";
import { deliverPush, pushSenderFor } from "../src/server/push/sender";
import { mobileNumberOf } from "../src/server/sms/phone-numbers";
import { smsSenderFor } from "../src/server/sms/sms";
import { SiteSettings } from "../src/shared/settings";
import * as v from "valibot";
import { fail, inlineSql, operatorArgs, wrangler } from "./operator";

process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";

const { positionals, target, option } = operatorArgs(["to", "from", "member", "site"]);
const [channel] = positionals;
const usage =
  "usage: send-test mail --to ADDRESS | sms --to +E164 [--from NAME] | push --member PROFILE_ID --site DOMAIN; with --local or --remote [--env NAME]";
if (channel !== "mail" && channel !== "sms" && channel !== "push") fail(usage);
const where = target();
const local = where[0] === "--local";
const environment = where.includes("--env") ? where[where.indexOf("--env") + 1] : undefined;

const proxy = await getPlatformProxy<Env>({
  configPath: "wrangler.toml",
  ...(environment ? { environment } : {}),
  persist: local ? { path: join(resolve(where[where.indexOf("--persist-to") + 1] ?? ".wrangler/state"), "v3") } : false,
  remoteBindings: false,
});

try {
  // A shell variable of a provider setting's name wins over wrangler.toml and .dev.vars.
  const overrides = Object.entries(process.env).filter(([name]) => /^(MAIL|SMS|PUSH|VAPID)_/.test(name));
  const env = { ...proxy.env, ...Object.fromEntries(overrides) } as Env;
  const db: Database = local
    ? databaseOf(env.DB)
    : (drizzle(
        async (query, params, method) => {
          const [result] = JSON.parse(
            wrangler(["d1", "execute", "DB", ...where, "--json", "--command", inlineSql({ sql: query, params })]),
          ) as { results: Record<string, unknown>[] }[];
          const rows = (result?.results ?? []).map((row) => Object.values(row));
          return { rows: method === "get" ? (rows[0] as unknown as unknown[][]) : rows };
        },
        { schema },
      ) as unknown as Database);
  const now = Math.floor(Date.now() / 1000);

  if (channel === "mail") {
    const to = option("to") ?? fail(usage);
    if (env.MAIL_PROVIDER === "cloudflare")
      fail(
        'MAIL_PROVIDER is "cloudflare": its send_email binding sends only from inside the Worker; ask the site for a password reset mail instead.',
      );
    await mailerFor(env, db).send({
      to,
      kind: "test",
      subject: "Test mail",
      text: `A test mail through ${env.MAIL_PROVIDER}, sent ${new Date().toISOString()}.`,
      html: `<p>A test mail through ${env.MAIL_PROVIDER}, sent ${new Date().toISOString()}.</p>`,
    });
    console.info(
      `mail to ${to} taken by ${env.MAIL_PROVIDER}${env.MAIL_PROVIDER === "outbox" ? " (kept in outgoing_mail, nothing left the machine)" : ""}`,
    );
  } else if (channel === "sms") {
    const to = mobileNumberOf(option("to") ?? fail(usage), "NL");
    await smsSenderFor(env, db).send(
      { to, text: `A test text through ${env.SMS_PROVIDER}.`, from: option("from") ?? "Flirtwave" },
      now,
    );
    console.info(`sms to ${to.e164} (${to.country}) taken by ${env.SMS_PROVIDER}`);
  } else {
    const member = Number(option("member"));
    const domain = option("site") ?? fail(usage);
    if (!Number.isInteger(member) || member < 1) fail(usage);
    const stored = local
      ? await env.SETTINGS.get(`site:${domain}`)
      : wrangler(["kv", "key", "get", `site:${domain}`, "--binding", "SETTINGS", ...where]);
    const site = v.safeParse(SiteSettings, JSON.parse(stored ?? "null"));
    if (!site.success) fail(`no valid settings for ${domain}`);
    const recipient = await pushRecipient(db, member, now);
    if (!recipient?.subscriptions.length) fail(`profile ${member} has no browser that may be pushed to`);
    const sender =
      pushSenderFor(env, db, site.output) ??
      fail("push is not configured (the site's push_public_key or VAPID_PRIVATE_KEY is missing)");
    await deliverPush(
      db,
      sender,
      recipient.userId,
      recipient.subscriptions,
      {
        payload: { kind: "like", title: "Test", body: "A test push", tag: "test", url: "/", badge: null },
        topic: "test",
        urgency: "normal",
        ttl: 60,
      },
      now,
    );
    console.info(
      `push sent to ${recipient.subscriptions.length} browser(s) of profile ${member}; a failure is logged above`,
    );
  }
} catch (error) {
  // The provider's refusal, as the adapter read it: what the operator needs to fix the configuration.
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await proxy.dispose();
}
