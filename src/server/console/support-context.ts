/**
 * What the support and money screens hand the shared services (issue 24 points 4 and 5): the audit
 * recorder of this request's operator, and the member's own site as the member side would have it
 * (its settings, its address for links in mail, its payment provider), since the console has no site.
 */
import type { Context } from "hono";
import { withAudit } from "../db/audit-log";
import { loadSite } from "../edge/site";
import { mailerFor } from "../mail/mailer";
import { paymentProviderFor } from "../payments";
import type { AccountContext } from "../services/accounts";
import { tellBalance } from "../notices/tell";
import type { SupportContext } from "../services/member-support";
import type { PaymentContext } from "../services/payments";
import type { SiteSettings } from "../../shared/settings";
import { actorOf } from "./audited-action";
import type { ConsoleEnv } from "./console-context";
import { ConsoleRefusal } from "./console-refusal";

const nowOf = () => Math.floor(Date.now() / 1000);

/** The support services' context for this request: each action's audit row guarded by its first statement. */
export function supportContext(c: Context<ConsoleEnv>, now = nowOf()): SupportContext {
  const db = c.var.db;
  const actor = actorOf(c.var.operator);
  return {
    db,
    env: c.env,
    now,
    record: (entry, statements) => withAudit(db, actor, entry, statements, now, true),
    moderator: { env: c.env, db, actor: { ...actor, operatorId: c.var.operator.id }, now },
  };
}

/** A member site's settings and company; a site that is gone is a refusal, not a guess. */
export async function memberSite(c: Context<ConsoleEnv>, domain: string) {
  const site = await loadSite(c.env.SETTINGS, domain);
  if (!site) throw new ConsoleRefusal(409, "site_unknown", `The site ${domain} has no settings in KV.`);
  return site;
}

/** Where a site's links point: its public address, else its domain (on the console's port in development). */
function siteOrigin(c: Context<ConsoleEnv>, site: SiteSettings): string {
  if (site.public_url) return site.public_url;
  if (c.env.ENVIRONMENT !== "development") return `https://${site.domain}`;
  const port = new URL(c.req.url).port;
  return `http://${site.domain}${port ? `:${port}` : ""}`;
}

/** The account services' context on the member's site (mail in their site's name, links to it). */
export async function memberAccounts(c: Context<ConsoleEnv>, domain: string, now = nowOf()): Promise<AccountContext> {
  const site = await memberSite(c, domain);
  return {
    db: c.var.db,
    mailer: mailerFor(c.env, c.var.db),
    origin: siteOrigin(c, site.settings),
    site: site.settings,
    company: site.company,
    now,
  };
}

/** The payment services' context on the site an order was placed on; the member's open pages hear of their new balance. */
export async function orderPayments(c: Context<ConsoleEnv>, domain: string, now = nowOf()): Promise<PaymentContext> {
  const site = await memberSite(c, domain);
  const origin = siteOrigin(c, site.settings);
  const balanceChanged = (userId: number) => c.executionCtx.waitUntil(tellBalance(c.env, userId, now));
  return {
    db: c.var.db,
    env: c.env,
    provider: paymentProviderFor(c.env, c.var.db, origin),
    site: site.settings,
    origin,
    now,
    balanceChanged,
  };
}
