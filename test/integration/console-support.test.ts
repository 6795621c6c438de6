/**
 * The console's support, money, sites and dashboard screens (issue 24 points 4, 5 and 6) through
 * HTTP as Access passes an operator: roles decide who may do what, each action leaves its audit row,
 * site settings that fail the `npm run site` rules are refused with nothing saved, the difference is
 * shown before saving, a refund reaches the provider once when pressed together, and the DSA figures
 * download as CSV with their columns.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { ledgerSum } from "../../src/server/db/ledger";
import { clearSiteCache } from "../../src/server/edge/site";
import { siteKey } from "../../src/shared/settings";
import { chatMember, creditsOf } from "../chat";
import { asOperator, mollieConsole, operator, paidOrder, productionEnv, refundsAtStandIn } from "../console";
import { DEVELOPMENT_VAPID } from "../../scripts/demo/vapid-keys";
import { putSites, site } from "../fixtures";
import { fetchWorker } from "../http";
import { auditRows } from "../support";

const SITE = "console-support.test";
const ORIGIN = `http://${SITE}`;
const db = databaseOf(env.DB);

vi.setConfig({ testTimeout: 60_000 });

let admin: string, support: string, finance: string, moderator: string;
beforeAll(async () => {
  await putSites(site(SITE));
  clearSiteCache();
  [admin, support, finance, moderator] = await Promise.all([
    operator("admin"),
    operator("support"),
    operator("finance"),
    operator("moderator"),
  ]);
});

const stored = async (domain: string) => env.SETTINGS.get(siteKey(domain));

describe("roles", () => {
  it("support cannot change site settings, a moderator cannot refund or see a member, support cannot see orders", async () => {
    const before = await stored(SITE);
    const changed = JSON.stringify({ site: { ...site(SITE), name: "Changed by support" } });
    for (const path of [`/sites/${SITE}`, `/sites/${SITE}/draft`, `/sites/${SITE}/save`]) {
      const response = await asOperator(
        support,
        path,
        path.endsWith(SITE) ? {} : { form: { settings: changed, base: "x", reason: "trying" } },
      );
      expect(response.status, path).toBe(403);
    }
    expect(await stored(SITE)).toBe(before);
    expect((await asOperator(moderator, "/orders/1/refund", { form: { reason: "trying" } })).status).toBe(403);
    expect((await asOperator(moderator, "/members/1/orders/1/refund", { form: { reason: "trying" } })).status).toBe(
      403,
    );
    expect((await asOperator(moderator, "/members?q=x")).status).toBe(403);
    expect((await asOperator(support, "/orders")).status).toBe(403);
    expect((await asOperator(finance, "/orders")).status).toBe(200);
    // The dashboard names no member: every operator sees it.
    expect((await asOperator(moderator, "/dashboard")).status).toBe(200);
  });
});

describe("member support through the console", () => {
  it("finds a member, shows their file, and a credit correction is a ledger row naming the operator with its audit row", async () => {
    const m = await chatMember(ORIGIN);
    await env.DB.prepare(
      "INSERT INTO credit_ledger (user_id, delta, reason) VALUES (?1, (SELECT credits FROM users WHERE id = ?1) - (SELECT COALESCE(SUM(delta), 0) FROM credit_ledger WHERE user_id = ?1), 'bonus')",
    )
      .bind(m.userId)
      .run();
    const found = await (await asOperator(support, `/members?q=${encodeURIComponent(m.user.email)}`)).text();
    expect(found).toContain(`href="/members/${m.userId}"`);
    const page = await asOperator(support, `/members/${m.userId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(m.user.email);

    const refused = await asOperator(support, `/members/${m.userId}/credits`, { form: { delta: "25", reason: "" } });
    expect(refused.status).toBe(400);
    expect(await auditRows("member", m.userId)).toEqual([]);

    const before = await creditsOf(m);
    const done = await asOperator(support, `/members/${m.userId}/credits`, {
      form: { delta: "25", reason: "outage goodwill" },
    });
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await creditsOf(m)).toBe(before + 25);
    expect(await ledgerSum(db, m.userId)).toBe(await creditsOf(m));
    const supportId = (await env.DB.prepare("SELECT id FROM operators WHERE email = ?")
      .bind(support)
      .first<{ id: number }>())!.id;
    const ledger = await env.DB.prepare("SELECT ref FROM credit_ledger WHERE user_id = ? AND reason = 'correction'")
      .bind(m.userId)
      .first<{ ref: string }>();
    expect(ledger!.ref).toMatch(new RegExp(`^operator:${supportId}:`));
    expect(await auditRows("member", m.userId)).toEqual([
      expect.objectContaining({
        action: "member.correct_credits",
        actor: support,
        operator_id: supportId,
        reason: "outage goodwill",
      }),
    ]);

    const tooMuch = await asOperator(support, `/members/${m.userId}/credits`, {
      form: { delta: String(-(before + 26)), reason: "take all" },
    });
    expect(tooMuch.status).toBe(409);
    expect(await creditsOf(m)).toBe(before + 25);
    expect(await auditRows("member", m.userId)).toHaveLength(1);
  });

  it("disable from the console, once a second operator confirms: the member's pages are logged out, the audit rows name both", async () => {
    const m = await chatMember(ORIGIN);
    const asked = await asOperator(support, `/members/${m.userId}/disable`, {
      form: { reason: "scam reports", confirmed: "yes", ground: "scam", fact_template: "scam.money" },
    });
    expect(asked.status).toBe(200);
    const request = await env.DB.prepare(
      "SELECT id FROM operator_requests WHERE target_kind = 'member' AND target_id = ? AND status = 'waiting'",
    )
      .bind(String(m.userId))
      .first<{ id: number }>();
    const response = await asOperator(admin, `/requests/${request!.id}/confirm`, {
      form: { reason: "seen the reports", confirmed: "yes" },
    });
    expect(response.status).toBe(200);
    expect((await m.browser.fetch("/api/user.php")).status).toBe(403);
    expect(await auditRows("member", m.userId)).toEqual([
      expect.objectContaining({ action: "member.disable", actor: admin }),
      expect.objectContaining({ action: "member.disable.confirmed", actor: admin }),
      expect.objectContaining({ action: "member.disable.asked", actor: support }),
    ]);
    expect(
      (
        await asOperator(support, `/members/${m.userId}/disable`, {
          form: { reason: "again", confirmed: "yes", ground: "scam", fact_template: "scam.money" },
        })
      ).status,
    ).toBe(409);
    expect(await auditRows("member", m.userId)).toHaveLength(3);
  });
});

describe("a refund pressed by several operators at once", () => {
  it("reaches the Mollie stand-in once; the others are told it is refunded already", async () => {
    for (let round = 0; round < 3; round++) {
      const m = await chatMember(ORIGIN);
      const { orderId, paymentId } = await paidOrder(m, SITE, 995);
      const order = { id: orderId };
      const presses = await Promise.all(
        // Finance from the Orders screen, an admin from the member's page: the same refund either way.
        Array.from({ length: 6 }, (_, i) =>
          asOperator(
            i % 2 ? finance : admin,
            i % 2 ? `/orders/${order!.id}/refund` : `/members/${m.userId}/orders/${order!.id}/refund`,
            {
              form: { reason: "member asked", confirmed: "yes" },
              workerEnv: mollieConsole,
            },
          ),
        ),
      );
      expect(presses.map((p) => p.status).toSorted()).toEqual([200, 409, 409, 409, 409, 409]);
      expect(await refundsAtStandIn(paymentId)).toBe(1);
      expect(await creditsOf(m)).toBe(0);
      expect(await ledgerSum(db, m.userId)).toBe(0);
      expect(await auditRows("order", order!.id)).toEqual([
        expect.objectContaining({ action: "order.refund", reason: "member asked" }),
      ]);
    }
    // An order is refunded from its own member's page only.
    const other = await chatMember(ORIGIN);
    const order = await env.DB.prepare("SELECT id FROM orders WHERE site_domain = ? ORDER BY id DESC LIMIT 1")
      .bind(SITE)
      .first<{ id: number }>();
    expect(
      (
        await asOperator(support, `/members/${other.userId}/orders/${order!.id}/refund`, {
          form: { reason: "wrong page", confirmed: "yes" },
          workerEnv: mollieConsole,
        })
      ).status,
    ).toBe(404);
  });
});

describe("discount codes", () => {
  it("added and ended from the console by the command's rules, each with its audit row; a bad code adds nothing", async () => {
    const code = `CONSOLE${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
    const bad = await asOperator(finance, "/discounts", { form: { code, percentage: "150", reason: "spring" } });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ message: string }>()).message).toContain("percentage");
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM discount_codes WHERE code = ?").bind(code).first<{ n: number }>(),
    ).toEqual({ n: 0 });
    const added = await asOperator(finance, "/discounts", {
      form: {
        code: code.toLowerCase(),
        percentage: "20",
        currency: "EUR",
        paymentMethods: ["ideal", "creditcard"],
        expiresAt: "2099-12-31",
        reason: "spring",
      },
    });
    expect(added.status, await added.clone().text()).toBe(200);
    const row = await env.DB.prepare(
      "SELECT percentage, currency, status, payment_methods FROM discount_codes WHERE code = ?",
    )
      .bind(code)
      .first();
    expect(row).toEqual({
      percentage: 20,
      currency: "EUR",
      status: "active",
      payment_methods: '["ideal","creditcard"]',
    });
    const end = (reason: string) =>
      asOperator(finance, `/discounts/${code}/end`, { form: { reason, confirmed: "yes" } });
    expect((await end("over")).status).toBe(200);
    expect((await end("over again")).status).toBe(409);
    expect((await auditRows("discount", code)).map((r) => r.action)).toEqual(["discount.end", "discount.add"]);
  });
});

/** A web push public key of a deployment's own: the base64url of an uncompressed P-256 point. */
async function ownPushKey(): Promise<string> {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  return btoa(String.fromCharCode(...raw))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The fixture site as production's launch rules take it: its own push key, a real address, texts in nl and en. */
async function launchable(domain: string) {
  const both = (en: string, nl: string) => ({ en, nl });
  return site(domain, {
    push_public_key: await ownPushKey(),
    support_email: "support@testwave.nl",
    fictional_warning: both("Fictional", "Fictief"),
    fictional_singular: both("fictional profile", "fictief profiel"),
    fictional_plural: both("fictional profiles", "fictieve profielen"),
    description: both("A test site", "Een testsite"),
    index_title: both("Test site", "Testsite"),
  });
}

describe("site settings", () => {
  // A name a visitor could reach: production's launch rules refuse a reserved one such as *.test.
  const domain = "settings.testwave.nl";
  let launched: Awaited<ReturnType<typeof launchable>>;
  beforeAll(async () => {
    launched = await launchable(domain);
    await putSites(launched);
    clearSiteCache();
  });

  it("settings that break a launch rule are refused with the field and the fix, and nothing is saved", async () => {
    const before = await stored(domain);
    const swish = structuredClone(launched);
    swish.pricing["NL"]!.methods = ["ideal", "swish", "directdebit"];
    const refused = await asOperator(admin, `/sites/${domain}/draft`, {
      form: { settings: JSON.stringify({ site: swish }) },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(
      "site.pricing.NL.methods: swish cannot pay in EUR (it pays in SEK): remove swish, or price NL in a currency it pays in",
    );
    expect((await asOperator(admin, `/sites/${domain}/review`)).status).toBe(404);
    expect(await stored(domain)).toBe(before);
  });

  it("production's console refuses the development push key, which the local stack's takes", async () => {
    const development = { ...launched, push_public_key: DEVELOPMENT_VAPID.publicKey };
    const settings = JSON.stringify({ site: development });
    const refused = await asOperator(admin, `/sites/${domain}/draft`, { form: { settings } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("site.push_public_key: this is the development key");
    // Another admin's draft: drafts are each operator's own, and the tests below expect none of admin's.
    const local = await asOperator(await operator("admin"), `/sites/${domain}/draft`, {
      form: { settings },
      workerEnv: { ...productionEnv, ENVIRONMENT: "development" },
    });
    expect(local.status, await local.clone().text()).toBe(200);
  });

  it("settings that fail validation are refused and nothing is saved, not even a draft", async () => {
    const before = await stored(domain);
    for (const settings of [
      "{ not json",
      JSON.stringify({ site: { ...launched, refund_days: "fourteen" } }),
      JSON.stringify({ site: { ...launched, domain: "elsewhere.test" } }),
    ]) {
      const response = await asOperator(admin, `/sites/${domain}/draft`, { form: { settings } });
      expect(response.status).toBe(400);
    }
    expect((await asOperator(admin, `/sites/${domain}/review`)).status).toBe(404);
    expect(await stored(domain)).toBe(before);
    expect(await auditRows("site", domain)).toEqual([]);
  });

  it("a valid change shows its difference first, and only saving puts it into KV, with its audit row", async () => {
    const draft = await asOperator(admin, `/sites/${domain}/draft`, {
      form: { settings: JSON.stringify({ site: { ...launched, name: "Renamed", refund_days: 10 } }) },
    });
    expect(draft.status, await draft.clone().text()).toBe(200);
    expect(JSON.parse((await stored(domain))!)).toMatchObject({ name: launched.name, refund_days: 14 });
    const review = await (await asOperator(admin, `/sites/${domain}/review`)).text();
    expect(review).toContain("site.name");
    expect(review).toContain("site.refund_days");
    expect(review).toContain("Renamed");
    const base = /name="base" value="([0-9a-f]+)"/.exec(review)![1]!;
    const saved = await asOperator(admin, `/sites/${domain}/save`, { form: { base, reason: "new name" } });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(JSON.parse((await stored(domain))!)).toMatchObject({ name: "Renamed", refund_days: 10 });
    const [audit] = await auditRows("site", domain);
    expect(audit).toMatchObject({ action: "site.settings", reason: "new name" });
    expect(JSON.parse(audit!.after!)).toEqual({ "site.name": "Renamed", "site.refund_days": 10 });
  });

  it("a save after someone else changed the settings is refused", async () => {
    await asOperator(admin, `/sites/${domain}/draft`, {
      form: { settings: JSON.stringify({ site: { ...launched, name: "Mine" } }) },
    });
    const review = await (await asOperator(admin, `/sites/${domain}/review`)).text();
    const base = /name="base" value="([0-9a-f]+)"/.exec(review)![1]!;
    await env.SETTINGS.put(siteKey(domain), JSON.stringify({ ...launched, name: "Theirs" }));
    expect((await asOperator(admin, `/sites/${domain}/save`, { form: { base, reason: "mine" } })).status).toBe(409);
    expect(JSON.parse((await stored(domain))!)).toMatchObject({ name: "Theirs" });
  });
});

describe("the dashboard", () => {
  it("counts a site's day, and points to the transparency report", async () => {
    const domain = "console-figures.test";
    await putSites(site(domain));
    clearSiteCache();
    const m = await chatMember(`http://${domain}`, { status: "not_confirmed" });
    const reported = await chatMember(`http://${domain}`);
    // m confirms their address: one activation that day, counted even after the used link is gone.
    const mail = await env.DB.prepare("SELECT text FROM outgoing_mail WHERE to_address = ? AND kind = 'activation'")
      .bind(m.user.email)
      .first<{ text: string }>();
    const link = new URL(/(https?:\/\/\S+)/.exec(mail!.text)![1]!);
    expect(
      (await fetchWorker(`http://${domain}${link.pathname}${link.search}`, { redirect: "manual" })).headers.get(
        "location",
      ),
    ).toBe("/activate/done");
    await env.DB.prepare("DELETE FROM auth_tokens WHERE user_id = ?").bind(m.userId).run();
    expect(
      (
        await m.browser.post("/api/report.php", {
          subject: "harassment",
          description: "rude messages again and again",
          category: "illegal_or_harmful_speech",
          good_faith: true,
          profile_id: reported.id,
        })
      ).status,
    ).toBeLessThan(300);
    // A moderator decides the report: one human decision, a notice-to-decision time.
    const reportId = (await env.DB.prepare("SELECT id FROM reports WHERE profile_id = ?")
      .bind(reported.id)
      .first<{ id: number }>())!.id;
    const decided = await asOperator(moderator, `/reports/${reportId}/decide`, {
      form: { outcome: "warn", ground: "harassment", facts: "Repeated rude messages to another member." },
    });
    expect(decided.status, await decided.clone().text()).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const page = await (await asOperator(finance, `/dashboard?site=${domain}&from=${today}&to=${today}`)).text();
    // Day, signups, activations; then first purchases, revenue, sends, likes, reports opened and closed.
    expect(page).toMatch(
      new RegExp(
        `<td[^>]*>${today}</td><td>2</td><td>1</td><td>0</td><td></td><td>0</td><td>0</td><td>1</td><td>1</td>`,
      ),
    );

    // The DSA figures are the transparency report's screen now (test/integration/transparency-report.test.ts).
    expect(page).toContain('href="/transparency?site=console-figures.test"');
  });
});
