/**
 * The DSA transparency report of the console (issue 39, docs/decisions/0063): the CSV of a calendar
 * year against a fixture of known decisions, notices, complaints, out-of-court disputes and active
 * months, in the sections and items of Implementing Regulation (EU) 2024/2835's template; only
 * restrictions count as measures and only notices about content as notices; the periods it takes.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { clearSiteCache } from "../../src/server/edge/site";
import { firstKeptMonth, runRetention } from "../../src/server/services/retention";
import { REPORT_CSV_COLUMNS, SECTIONS } from "../../src/server/services/transparency-report";
import { chatMember } from "../chat";
import { asOperator, operator } from "../console";
import { putSites, site } from "../fixtures";

const DOMAIN = "report-year.test";
const OTHER = "report-other.test";
const at = (iso: string) => Date.parse(iso) / 1000;

/** A CSV line's fields (RFC 4180 quoting). */
function fields(line: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted && ch === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (ch === "," && !quoted) {
      out.push(field);
      field = "";
    } else {
      field += ch;
    }
  }
  out.push(field);
  return out;
}

let moderator = "";
let operatorId = 0;
let memberA = 0;
let memberB = 0;

async function member(email: string, domain: string): Promise<number> {
  return (await env.DB.prepare("INSERT INTO users (email, username, site_domain) VALUES (?, ?, ?) RETURNING id")
    .bind(email, email.split("@")[0], domain)
    .first<{ id: number }>())!.id;
}

type Notice = {
  subject: string;
  created: number;
  category?: string;
  basis?: string;
  law?: string;
  status?: string;
  handled?: number;
  domain?: string;
};
async function notice(n: Notice): Promise<number> {
  return (await env.DB.prepare(
    "INSERT INTO reports (reporter_key, email, subject, description, site_domain, language, client_address, status, created_at, handled_at, category, basis, law) VALUES (?, 'notifier@example.com', ?, 'What I saw on the site.', ?, 'en', '192.0.2.1', ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(
      `email:notifier${Math.random()}@example.com`,
      n.subject,
      n.domain ?? DOMAIN,
      n.status ?? "open",
      n.created,
      n.handled ?? null,
      n.category ?? null,
      n.basis ?? null,
      n.law ?? null,
    )
    .first<{ id: number }>())!.id;
}

type Decision = {
  user: number;
  outcome: string;
  created: number;
  source?: string;
  restricts?: boolean;
  report?: number;
  measure?: string;
  initiative?: string;
  ground?: string;
  basis?: string;
  automated?: boolean;
  detected?: boolean;
  ends?: number;
};
async function decision(d: Decision): Promise<number> {
  return (await env.DB.prepare(
    "INSERT INTO moderation_decisions (user_id, source, report_id, outcome, ground, restricts, automated, language, operator_id, created_at, measure, initiative, detection_automated, basis, legal_ground, starts_at, ends_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'en', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(
      d.user,
      d.source ?? (d.report ? "report" : "photo"),
      d.report ?? null,
      d.outcome,
      d.ground ?? "other",
      d.restricts === false ? 0 : 1,
      d.automated ? 1 : 0,
      operatorId,
      d.created,
      d.measure ?? null,
      d.initiative ?? "notice",
      d.detected ? 1 : 0,
      d.basis ?? null,
      d.basis === "illegal" ? "§ 263 StGB (fraud)" : null,
      d.created,
      d.ends ?? null,
    )
    .first<{ id: number }>())!.id;
}

async function appeal(decisionId: number, user: number, created: number, status: string, decided: number | null) {
  await env.DB.prepare(
    "INSERT INTO appeals (decision_id, user_id, text, status, created_at, decided_by, decided_at) VALUES (?, ?, 'Please look at it again.', ?, ?, ?, ?)",
  )
    .bind(decisionId, user, status, created, decided === null ? null : operatorId, decided)
    .run();
}

beforeAll(async () => {
  await putSites(site(DOMAIN), site(OTHER));
  clearSiteCache();
  moderator = await operator("moderator");
  operatorId = (await env.DB.prepare("SELECT id FROM operators WHERE email = ?")
    .bind(moderator)
    .first<{ id: number }>())!.id;
  memberA = await member("report-a@example.com", DOMAIN);
  memberB = await member("report-b@example.com", DOMAIN);
  const stranger = await member("report-c@example.com", OTHER);

  // Notices of 2025: harassment (terms), a scam (illegal), a minor (illegal, dismissed), a billing
  // question (not a notice about content), a fake profile filed on the year's last evening.
  const n1 = await notice({
    subject: "harassment",
    basis: "terms",
    created: at("2025-02-01T10:00:00Z"),
    status: "resolved",
    handled: at("2025-02-01T12:00:00Z"),
  });
  const n2 = await notice({
    subject: "scam",
    category: "STATEMENT_CATEGORY_SCAMS_AND_FRAUD",
    basis: "illegal",
    law: "§ 263 StGB",
    created: at("2025-03-01T08:00:00Z"),
    status: "resolved",
    handled: at("2025-03-01T12:00:00Z"),
  });
  const n3 = await notice({
    subject: "other",
    category: "PROTECTION_OF_MINORS",
    basis: "illegal",
    created: at("2025-04-01T00:00:00Z"),
    status: "rejected",
    handled: at("2025-04-01T10:00:00Z"),
  });
  const billing = await notice({
    subject: "payment",
    created: at("2025-05-01T09:00:00Z"),
    status: "rejected",
    handled: at("2025-05-01T10:00:00Z"),
  });
  await notice({ subject: "fake_profile", created: at("2025-12-31T23:00:00Z") });
  // Outside the year, or of another site: never counted.
  await notice({ subject: "harassment", created: at("2024-12-31T23:59:59Z") });
  await notice({ subject: "harassment", created: at("2025-06-01T00:00:00Z"), domain: OTHER });

  await decision({
    user: memberB,
    report: n1,
    outcome: "remove_message",
    measure: "remove_item",
    ground: "harassment",
    basis: "terms",
    created: at("2025-02-01T12:00:00Z"),
  });
  const d2 = await decision({
    user: memberB,
    report: n2,
    outcome: "disable",
    measure: "suspend",
    ground: "scam",
    basis: "illegal",
    created: at("2025-03-01T12:00:00Z"),
    ends: at("2025-03-31T12:00:00Z"),
  });
  await decision({
    user: memberB,
    report: n3,
    outcome: "dismiss",
    restricts: false,
    created: at("2025-04-01T10:00:00Z"),
  });
  await decision({
    user: memberA,
    report: billing,
    outcome: "dismiss",
    restricts: false,
    created: at("2025-05-01T10:00:00Z"),
  });
  // A photo approved, and the photo queue's own refusal (detected by automated means).
  await decision({ user: memberA, outcome: "approve", restricts: false, created: at("2025-06-01T09:00:00Z") });
  const d5 = await decision({
    user: memberA,
    outcome: "reject_photo",
    measure: "refuse_photo",
    initiative: "own_initiative",
    ground: "explicit_content",
    detected: true,
    created: at("2025-06-02T09:00:00Z"),
  });
  // Decided by automated means: out of search as a fake profile.
  const d6 = await decision({
    user: memberA,
    outcome: "restrict",
    measure: "restrict_search",
    initiative: "own_initiative",
    ground: "fake_profile",
    automated: true,
    created: at("2025-07-01T09:00:00Z"),
  });
  // An authority's order to remove illegal content.
  await decision({
    user: memberB,
    outcome: "remove_content",
    measure: "remove_all",
    initiative: "authority_order",
    ground: "illegal",
    basis: "illegal",
    created: at("2025-08-01T09:00:00Z"),
  });
  // The appeal of d5 reversed it: the appeal's decision is no measure of its own.
  await decision({
    user: memberA,
    source: "appeal",
    outcome: "appeal_reversed",
    restricts: false,
    created: at("2025-06-05T09:00:00Z"),
  });
  // Disabled from the Members screen, on the platform's own initiative.
  await decision({
    user: memberB,
    source: "support",
    outcome: "disable",
    measure: "disable",
    initiative: "own_initiative",
    ground: "spam",
    created: at("2025-10-01T09:00:00Z"),
  });
  // Outside the year, and of another site.
  await decision({
    user: memberA,
    outcome: "reject_photo",
    measure: "refuse_photo",
    initiative: "own_initiative",
    created: at("2026-01-01T00:00:00Z"),
  });
  await decision({
    user: stranger,
    outcome: "reject_photo",
    measure: "refuse_photo",
    initiative: "own_initiative",
    created: at("2025-06-02T09:00:00Z"),
  });

  await appeal(d5, memberA, at("2025-06-03T09:00:00Z"), "reversed", at("2025-06-05T09:00:00Z"));
  await appeal(d6, memberA, at("2025-07-02T09:00:00Z"), "upheld", at("2025-07-03T09:00:00Z"));
  await appeal(d2, memberB, at("2025-03-05T09:00:00Z"), "open", null);

  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO out_of_court_disputes (decision_id, site_domain, body, received_at, outcome, closed_at) VALUES (?, ?, 'Online Dispute Board Europe', ?, 'provider', ?)",
    ).bind(d6, DOMAIN, at("2025-07-10T00:00:00Z"), at("2025-09-10T00:00:00Z")),
    env.DB.prepare(
      "INSERT INTO out_of_court_disputes (decision_id, site_domain, body, received_at) VALUES (?, ?, 'Online Dispute Board Europe', ?)",
    ).bind(d2, DOMAIN, at("2025-11-01T00:00:00Z")),
  ]);
  // Twelve members in the Union were active in January and in February; a Swiss one in January
  // and five in December 2024 are not the year's recipients in the Union.
  const active = (month: string, user: number, country: string) =>
    env.DB.prepare("INSERT INTO active_months (month, user_id, site_domain, country) VALUES (?, ?, ?, ?)").bind(
      month,
      user,
      DOMAIN,
      country,
    );
  await env.DB.batch([
    ...Array.from({ length: 12 }, (_, i) => active("2025-01", 9000 + i, i % 2 ? "NL" : "BE")),
    ...Array.from({ length: 12 }, (_, i) => active("2025-02", 9000 + i, "NL")),
    active("2025-01", 9100, "CH"),
    ...Array.from({ length: 5 }, (_, i) => active("2024-12", 9200 + i, "NL")),
  ]);
});

async function report(query: string) {
  const response = await asOperator(moderator, `/transparency/report.csv?${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  const lines = (await response.text()).trimEnd().split("\r\n").map(fields);
  return {
    header: lines[0]!,
    lines: lines.slice(1),
    value(section: string, item: string, breakdown = "Total") {
      const found = lines.filter((l) => l[0] === section && l[1] === item && l[2] === breakdown);
      expect(found, `${section} / ${item} / ${breakdown}`).toHaveLength(1);
      return found[0]![3];
    },
  };
}

describe("the transparency report of a calendar year", () => {
  it("counts each item of the template from the year's decisions, notices, complaints and disputes", async () => {
    const r = await report(`site=${DOMAIN}&period=2025`);
    expect(r.header).toEqual([...REPORT_CSV_COLUMNS]);
    expect(r.value(SECTIONS.identification, "Start of the reporting period", "")).toBe("2025-01-01");
    expect(r.value(SECTIONS.identification, "End of the reporting period", "")).toBe("2025-12-31");
    expect(r.value(SECTIONS.identification, "Name of the service provider", "")).toBe("Testing Company B.V.");

    const orders = SECTIONS.orders;
    expect(r.value(orders, "Orders to act against illegal content (Art. 9)")).toBe("1");
    expect(
      r.value(
        orders,
        "Orders to act against illegal content (Art. 9)",
        "Type of alleged illegal content not specified by the notifier",
      ),
    ).toBe("1");

    const n = SECTIONS.notices;
    expect(r.value(n, "Notices received")).toBe("4");
    expect(r.value(n, "Notices received", "Cyber violence")).toBe("1");
    expect(r.value(n, "Notices received", "Scams and/or fraud")).toBe("2");
    expect(r.value(n, "Notices received", "Protection of minors")).toBe("1");
    expect(r.value(n, "Notices received", "Consumer information infringements")).toBe("0");
    expect(r.value(n, "Notices received by basis", "Alleged illegal content")).toBe("2");
    expect(r.value(n, "Notices received by basis", "Incompatible with terms and conditions")).toBe("1");
    expect(r.value(n, "Notices received by basis", "Basis not given")).toBe("1");
    expect(r.value(n, "Actions taken on notices")).toBe("2");
    expect(r.value(n, "Actions taken on notices", "On the basis of the law")).toBe("1");
    expect(r.value(n, "Actions taken on notices", "On the basis of terms and conditions")).toBe("1");
    expect(r.value(n, "Actions taken on notices by type of restriction", "Removal of content")).toBe("1");
    expect(r.value(n, "Actions taken on notices by type of restriction", "Suspension of the account")).toBe("1");
    expect(r.value(n, "Median time to take action (hours)")).toBe("3");
    expect(r.value(n, "Notices decided")).toBe("3");
    expect(r.value(n, "Notices decided without action")).toBe("1");
    expect(r.value(n, "Median time to decide a notice (hours)")).toBe("4");
    expect(r.value(n, "Notices submitted by trusted flaggers")).toBe("0");

    const own = SECTIONS.ownInitiative;
    expect(r.value(own, "Own-initiative measures")).toBe("3");
    expect(r.value(own, "Own-initiative measures", "Other violation of provider's terms and conditions")).toBe("2");
    expect(r.value(own, "Own-initiative measures", "Scams and/or fraud")).toBe("1");
    expect(r.value(own, "Own-initiative measures by type of restriction", "Removal of content")).toBe("1");
    expect(r.value(own, "Own-initiative measures by type of restriction", "Demotion of content")).toBe("1");
    expect(r.value(own, "Own-initiative measures by type of restriction", "Suspension of the account")).toBe("1");
    expect(r.value(own, "Own-initiative measures by basis", "On the basis of terms and conditions")).toBe("3");
    expect(r.value(own, "Own-initiative measures by detection method", "Automated means")).toBe("1");
    expect(r.value(own, "Own-initiative measures by detection method", "Not automated")).toBe("2");

    const c = SECTIONS.complaints;
    expect(r.value(c, "Complaints received (Art. 20)")).toBe("3");
    expect(r.value(c, "Complaints received by basis", "Against a decision on the basis of the law")).toBe("1");
    expect(r.value(c, "Complaints received by basis", "Against a decision on the basis of terms and conditions")).toBe(
      "2",
    );
    expect(r.value(c, "Complaints decided", "Initial decision upheld")).toBe("1");
    expect(r.value(c, "Complaints decided", "Initial decision reversed")).toBe("1");
    expect(r.value(c, "Complaints still open at the end of the period")).toBe("1");
    expect(r.value(c, "Median time to decide a complaint (hours)")).toBe("36");
    expect(r.value(c, "Disputes submitted to out-of-court settlement bodies (Art. 21)")).toBe("2");
    expect(r.value(c, "Out-of-court disputes closed", "In favour of the provider")).toBe("1");
    expect(r.value(c, "Out-of-court disputes closed")).toBe("1");
    expect(r.value(c, "Median time to close an out-of-court dispute (days)")).toBe("62");
    expect(r.value(c, "Suspensions (Art. 23)", "For the frequent provision of manifestly illegal content")).toBe("1");

    const a = SECTIONS.automated;
    expect(r.value(a, "Measures decided by automated means", "Fully automated")).toBe("1");
    expect(r.value(a, "Measures decided by automated means", "Not automated")).toBe("5");
    expect(r.value(a, "Measures on content detected by automated means")).toBe("1");
    expect(r.value(a, "Automated decisions reversed on complaint")).toBe("0");

    const m = SECTIONS.recipients;
    expect(r.value(m, "Monthly active recipients", "2025-01")).toBe("12");
    expect(r.value(m, "Monthly active recipients", "2025-02")).toBe("12");
    expect(r.value(m, "Monthly active recipients", "2025-12")).toBe("0");
    expect(r.lines.filter((l) => l[1] === "Monthly active recipients")).toHaveLength(12);
    expect(r.value(m, "Average monthly active recipients")).toBe("2");
  });

  it("reads the half-year and the days asked for, and refuses more than a year", async () => {
    const first = await report(`site=${DOMAIN}&period=2025-H1`);
    expect(first.value(SECTIONS.identification, "End of the reporting period", "")).toBe("2025-06-30");
    expect(first.value(SECTIONS.notices, "Notices received")).toBe("3");
    expect(first.value(SECTIONS.ownInitiative, "Own-initiative measures")).toBe("1");
    expect(first.value(SECTIONS.recipients, "Average monthly active recipients")).toBe("4");
    const days = await report(`site=${DOMAIN}&from=2025-02-01&to=2025-03-31`);
    expect(days.value(SECTIONS.notices, "Actions taken on notices")).toBe("2");
    // Every site: the other site's notice and photo refusal count too.
    const all = await report("period=2025");
    expect(all.value(SECTIONS.notices, "Notices received")).toBe("5");
    expect(all.value(SECTIONS.ownInitiative, "Own-initiative measures")).toBe("4");
    for (const query of [
      "from=2025-01-01&to=2026-01-02",
      "from=2025-03-01&to=2025-02-01",
      "period=2025-H3",
      "from=2025-1-1&to=2025-02-01",
    ])
      expect((await asOperator(moderator, `/transparency/report.csv?${query}`)).status, query).toBe(400);
    expect((await asOperator(moderator, `/transparency/report.csv?from=2024-01-01&to=2024-12-31`)).status).toBe(200);
  });

  it("shows the report on the console's screen to any operator, with its CSV link", async () => {
    const finance = await operator("finance");
    const page = await asOperator(finance, `/transparency?site=${DOMAIN}&period=2025`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("DSA transparency report, 2025-01-01 to 2025-12-31");
    expect(html).toContain(`href="/transparency/report.csv?site=${DOMAIN}&amp;period=2025"`);
    for (const section of Object.values(SECTIONS)) expect(html).toContain(section);
  });
});

describe("monthly active recipients", () => {
  it("counts a member once in the month they log in and use their session", async () => {
    const m = await chatMember(`http://${DOMAIN}`);
    const month = new Date().toISOString().slice(0, 7);
    const rows = async () =>
      (
        await env.DB.prepare("SELECT site_domain, country FROM active_months WHERE user_id = ? AND month = ?")
          .bind(m.userId, month)
          .all<{ site_domain: string; country: string }>()
      ).results;
    // Signing up logs the member in: they are active this month, once however often they come.
    expect(await rows()).toEqual([{ site_domain: DOMAIN, country: expect.stringMatching(/^[A-Z]{2}$/) }]);
    await m.browser.fetch("/api/settings.php");
    expect(await rows()).toHaveLength(1);
    // A session that carries on into a month where it was not counted yet: its next touch counts it.
    await env.DB.prepare("DELETE FROM active_months WHERE user_id = ?").bind(m.userId).run();
    await env.DB.prepare("UPDATE sessions SET last_used_at = last_used_at - 700 WHERE user_id = ?")
      .bind(m.userId)
      .run();
    await m.browser.fetch("/api/settings.php");
    expect(await rows()).toHaveLength(1);
    // The member's data export lists the months.
    const archive = (await (await m.browser.fetch("/api/my-data.php")).json()) as { active_months: string[] };
    expect(archive.active_months).toEqual([month]);
  });
});

describe("out-of-court disputes recorded on the screen", () => {
  it("records a dispute and its outcome for a moderator, counts them, and refuses what does not fit", async () => {
    const now = Math.floor(Date.now() / 1000);
    const today = new Date(now * 1000).toISOString().slice(0, 10);
    const year = today.slice(0, 4);
    const disputed = await decision({
      user: memberA,
      outcome: "reject_photo",
      measure: "refuse_photo",
      initiative: "own_initiative",
      created: now - 3600,
    });
    const form = {
      decision: String(disputed),
      body: "Online Dispute Board Europe",
      received: today,
      reason: "The body wrote to us",
    };
    const finance = await operator("finance");
    expect((await asOperator(finance, "/transparency/disputes", { form })).status).toBe(403);
    for (const [change, status] of [
      [{ decision: "999999" }, 404],
      [{ decision: "abc" }, 400],
      [{ received: "2099-01-01" }, 400],
      [{ received: "2026-02-30" }, 400],
      [{ body: "" }, 400],
      [{ reason: "" }, 400],
    ] as const) {
      const refused = await asOperator(moderator, "/transparency/disputes", { form: { ...form, ...change } });
      expect(refused.status, JSON.stringify(change)).toBe(status);
    }
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM out_of_court_disputes WHERE decision_id = ?")
        .bind(disputed)
        .first("n"),
    ).toBe(0);
    expect((await asOperator(moderator, "/transparency/disputes", { form })).status).toBe(200);
    const id = (await env.DB.prepare("SELECT id, site_domain FROM out_of_court_disputes WHERE decision_id = ?")
      .bind(disputed)
      .first<{ id: number; site_domain: string }>())!;
    expect(id.site_domain).toBe(DOMAIN);
    const page = await (await asOperator(moderator, `/transparency?site=${DOMAIN}&period=${year}`)).text();
    expect(page).toContain(`action="/transparency/disputes/${id.id}/close"`);

    // Closing is once, however many operators press it at the same moment.
    const closing = {
      outcome: "complainant",
      closed: today,
      implemented: "yes",
      reason: "The body decided for the member",
    };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        asOperator(moderator, `/transparency/disputes/${id.id}/close`, { form: closing }),
      ),
    );
    expect(answers.map((a) => a.status).toSorted()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'dispute.close' AND target_id = ?")
        .bind(String(id.id))
        .first("n"),
    ).toBe(1);
    const r = await report(`site=${DOMAIN}&period=${year}`);
    expect(r.value(SECTIONS.complaints, "Disputes submitted to out-of-court settlement bodies (Art. 21)")).toBe("1");
    expect(r.value(SECTIONS.complaints, "Out-of-court disputes closed", "In favour of the recipient")).toBe("1");
    expect(r.value(SECTIONS.complaints, "Out-of-court decisions implemented")).toBe("1");
  });
});

// Last of the file: the run at a later day deletes the fixture's old rows too.
describe("how long active months are kept", () => {
  it("keeps the current month and the 24 before it, and deletes older ones", async () => {
    const now = at("2027-03-15T12:00:00Z");
    expect(firstKeptMonth(now)).toBe("2025-03");
    const row = (month: string) =>
      env.DB.prepare("INSERT INTO active_months (month, user_id, site_domain, country) VALUES (?, 7777, ?, 'NL')").bind(
        month,
        DOMAIN,
      );
    await env.DB.batch([row("2025-02"), row("2025-03"), row("2027-03")]);
    const result = await runRetention(databaseOf(env.DB), now, { outboxDays: 30 });
    expect(result.deleted.active_months).toBeGreaterThanOrEqual(1);
    const kept = await env.DB.prepare("SELECT month FROM active_months WHERE user_id = 7777 ORDER BY month").all<{
      month: string;
    }>();
    expect(kept.results.map((r) => r.month)).toEqual(["2025-03", "2027-03"]);
  });
});
