/**
 * Statements of reasons to the DSA Transparency Database (issue 39, docs/decisions/0063), against
 * the loopback stand-in of its API (test/transparency-database-stand-in.ts): what a decision becomes
 * as a statement, the refusals (422 with errors, 401) and failures (5xx, a lost answer) retried by
 * the job on its clock until accepted, the id kept, nothing for a company that does not submit, and
 * one statement per decision however many runs of the job meet.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { clearSiteCache } from "../../src/server/edge/site";
import { retryWait, submitStatements } from "../../src/server/services/transparency-database";
import { companyKey, siteKey } from "../../src/shared/settings";
import { operator } from "../console";
import { COMPANY, site } from "../fixtures";
import { TDB_TOKENS } from "../transparency-database-stand-in";
import worker from "../../src/worker";

const tdbUrl = inject("tdbUrl");
const standIn = tdbUrl.replace(/\/api\/v1$/, "");
const NL = "tdb-nl.test";
const CH = "tdb-ch.test";
const QUIET = "tdb-quiet.test";

const envWith = (token: string, overrides: Partial<Env> = {}): Env => ({
  ...env,
  DSA_TDB_API_URL: tdbUrl,
  DSA_TDB_TOKEN: token,
  ...overrides,
});

type Sent = Record<string, unknown> & { puid: string; uuid: string };
const statements = async (token: string) =>
  (await (await fetch(`${standIn}/_stand-in/statements?token=${encodeURIComponent(token)}`)).json()) as Sent[];
const requests = async (token: string) =>
  (await (await fetch(`${standIn}/_stand-in/requests?token=${encodeURIComponent(token)}`)).json()) as {
    puid: string;
    status: number;
  }[];
const control = (path: string, body: Record<string, unknown>) =>
  fetch(`${standIn}/_stand-in/${path}`, { method: "POST", body: JSON.stringify(body) });

let operatorId = 0;
const users: Record<string, number> = {};

beforeAll(async () => {
  await env.SETTINGS.put(companyKey("tdbco"), JSON.stringify({ ...COMPANY, transparency_database: { submit: true } }));
  await env.SETTINGS.put(companyKey("quietco"), JSON.stringify(COMPANY));
  await env.SETTINGS.put(siteKey(NL), JSON.stringify(site(NL, { company_id: "tdbco", countries: ["NL", "BE"] })));
  await env.SETTINGS.put(siteKey(CH), JSON.stringify(site(CH, { company_id: "tdbco", countries: ["CH"] })));
  await env.SETTINGS.put(siteKey(QUIET), JSON.stringify(site(QUIET, { company_id: "quietco" })));
  clearSiteCache();
  const email = await operator("moderator");
  operatorId = (await env.DB.prepare("SELECT id FROM operators WHERE email = ?").bind(email).first<{ id: number }>())!
    .id;
  for (const domain of [NL, CH, QUIET])
    users[domain] = (await env.DB.prepare(
      "INSERT INTO users (email, username, site_domain, signup_date) VALUES (?, ?, ?, ?) RETURNING id",
    )
      .bind(`member@${domain}`, `member-${domain}`, domain, Date.parse("2025-01-10T00:00:00Z") / 1000)
      .first<{ id: number }>())!.id;
});

type Decision = {
  domain?: string;
  outcome?: string;
  measure?: string | null;
  restricts?: boolean;
  source?: string;
  ground?: string;
  basis?: string | null;
  legalGround?: string | null;
  initiative?: string;
  ends?: number | null;
  created?: number;
};
async function decision(d: Decision = {}): Promise<number> {
  const created = d.created ?? Date.parse("2026-11-02T10:00:00Z") / 1000;
  return (await env.DB.prepare(
    "INSERT INTO moderation_decisions (user_id, source, outcome, ground, restricts, automated, language, operator_id, created_at, measure, initiative, basis, legal_ground, terms_clause, starts_at, ends_at) VALUES (?, ?, ?, ?, ?, 0, 'nl', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(
      users[d.domain ?? NL],
      d.source ?? "photo",
      d.outcome ?? "reject_photo",
      d.ground ?? "explicit_content",
      d.restricts === false ? 0 : 1,
      operatorId,
      created,
      d.measure === undefined ? "refuse_photo" : d.measure,
      d.initiative ?? "own_initiative",
      d.basis ?? null,
      d.legalGround ?? null,
      d.basis === "illegal" ? null : "Terms and conditions, section 4.2 (photos)",
      created,
      d.ends ?? null,
    )
    .first<{ id: number }>())!.id;
}

const submission = (decisionId: number) =>
  env.DB.prepare("SELECT * FROM transparency_submissions WHERE decision_id = ?").bind(decisionId).first<{
    state: string;
    puid: string;
    uuid: string | null;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
    next_attempt_at: number;
    submitted_at: number | null;
  }>();

describe("statements of reasons sent to the Transparency Database", () => {
  it("sends each restricting decision of a company that submits, as the API's statement, and keeps its uuid", async () => {
    const token = TDB_TOKENS.submissions;
    const now = Date.parse("2026-11-02T10:05:00Z") / 1000;
    const photo = await decision();
    const suspended = await decision({
      outcome: "disable",
      measure: "suspend",
      source: "report",
      initiative: "own_initiative",
      ground: "scam",
      basis: "illegal",
      legalGround: "Wetboek van Strafrecht art. 326 (oplichting)",
      ends: Date.parse("2026-12-02T10:00:00Z") / 1000,
    });
    const approved = await decision({ outcome: "approve", measure: null, restricts: false });
    const appealDecision = await decision({
      outcome: "appeal_reversed",
      measure: null,
      restricts: false,
      source: "appeal",
    });
    const swiss = await decision({ domain: CH });
    const quiet = await decision({ domain: QUIET });

    const run = await submitStatements(envWith(token), now);
    expect(run).toMatchObject({ accepted: 2, failed: 0, outsideUnion: 1 });
    const sent = await statements(token);
    const photoStatement = sent.find((s) => s.puid === `tdbco-decision-${photo}`)!;
    expect(photoStatement).toMatchObject({
      decision_visibility: ["DECISION_VISIBILITY_CONTENT_REMOVED"],
      decision_ground: "DECISION_GROUND_INCOMPATIBLE_CONTENT",
      incompatible_content_ground: "Terms and conditions, section 4.2 (photos)",
      decision_ground_reference_url: `https://${NL}/pages/terms`,
      content_type: ["CONTENT_TYPE_IMAGE"],
      category: "STATEMENT_CATEGORY_OTHER_VIOLATION_TC",
      territorial_scope: ["BE", "NL"],
      content_language: "NL",
      content_date: "2025-01-10",
      application_date: "2026-11-02",
      source_type: "SOURCE_VOLUNTARY",
      automated_detection: "No",
      automated_decision: "AUTOMATED_DECISION_NOT_AUTOMATED",
      account_type: "ACCOUNT_TYPE_PRIVATE",
    });
    expect(String(photoStatement.decision_facts)).toContain("A photo the member uploaded was refused");
    expect(sent.find((s) => s.puid === `tdbco-decision-${suspended}`)).toMatchObject({
      decision_account: "DECISION_ACCOUNT_SUSPENDED",
      end_date_account_restriction: "2026-12-02",
      decision_ground: "DECISION_GROUND_ILLEGAL_CONTENT",
      illegal_content_legal_ground: "Wetboek van Strafrecht art. 326 (oplichting)",
      category: "STATEMENT_CATEGORY_SCAMS_AND_FRAUD",
    });
    // The uuid the database answered is kept on the decision's row.
    expect(await submission(photo)).toMatchObject({
      state: "accepted",
      uuid: photoStatement.uuid,
      submitted_at: now,
      attempts: 1,
    });
    // Not restrictions, or nothing the Union's database takes: no statement is sent.
    expect(await submission(approved)).toBeNull();
    expect(await submission(appealDecision)).toBeNull();
    expect(await submission(quiet)).toBeNull();
    expect(await submission(swiss)).toMatchObject({ state: "outside_union", uuid: null });
    expect((await requests(token)).map((r) => r.puid)).not.toContain(`tdbco-decision-${swiss}`);
    // A later run sends nothing again.
    expect(await submitStatements(envWith(token), now + 600)).toMatchObject({ queued: 0, accepted: 0, failed: 0 });
  });

  it("keeps a refused statement waiting with the API's errors and tries it again, later each time, until it is accepted", async () => {
    const token = TDB_TOKENS.submissions;
    const now = Date.parse("2026-11-03T10:00:00Z") / 1000;
    // Illegal content without the law it breaks: the API requires illegal_content_legal_ground.
    const id = await decision({
      ground: "illegal",
      basis: "illegal",
      legalGround: null,
      measure: "remove_all",
      outcome: "remove_content",
    });
    expect(await submitStatements(envWith(token), now)).toMatchObject({ failed: 1, accepted: 0 });
    const refused = (await submission(id))!;
    expect(refused).toMatchObject({
      state: "waiting",
      attempts: 1,
      last_status: 422,
      next_attempt_at: now + retryWait(1),
    });
    expect(refused.last_error).toContain(
      "The illegal content legal ground field is required when decision ground is illegal content.",
    );
    // Before its time nothing is sent.
    const before = (await requests(token)).length;
    await submitStatements(envWith(token), now + retryWait(1) - 1);
    expect((await requests(token)).length).toBe(before);
    // Still refused: the next wait doubles.
    await submitStatements(envWith(token), now + retryWait(1));
    expect(await submission(id)).toMatchObject({ attempts: 2, next_attempt_at: now + retryWait(1) + retryWait(2) });
    expect(retryWait(2)).toBe(2 * retryWait(1));
    expect(retryWait(30)).toBe(24 * 3600);
    // Once the decision names the law, the next attempt is accepted.
    await env.DB.prepare("UPDATE moderation_decisions SET legal_ground = 'Art. 240b Sr' WHERE id = ?").bind(id).run();
    await submitStatements(envWith(token), now + retryWait(1) + retryWait(2));
    expect(await submission(id)).toMatchObject({ state: "accepted", attempts: 3, last_error: null });
    expect((await statements(token)).filter((s) => s.puid === `tdbco-decision-${id}`)).toHaveLength(1);
  });

  it("tries again after a server error, a refused token and a lost answer, and sends the statement once", async () => {
    const token = TDB_TOKENS.submissions;
    const now = Date.parse("2026-11-04T10:00:00Z") / 1000;
    const failing = await decision();
    await control("fail", { token, status: 503, times: 2 });
    await submitStatements(envWith(token), now);
    expect(await submission(failing)).toMatchObject({ state: "waiting", last_status: 503, attempts: 1 });
    await submitStatements(envWith(token), now + retryWait(1));
    expect(await submission(failing)).toMatchObject({ state: "waiting", last_status: 503, attempts: 2 });
    await submitStatements(envWith(token), now + retryWait(1) + retryWait(2));
    expect(await submission(failing)).toMatchObject({ state: "accepted", last_status: 201, attempts: 3 });

    // A token the database does not know: 401, nothing made, tried again later.
    const unauthorised = await decision();
    await submitStatements(envWith("99|notATokenTheDatabaseKnows"), now + 3600);
    expect(await submission(unauthorised)).toMatchObject({ state: "waiting", last_status: 401 });
    expect((await submission(unauthorised))!.last_error).toContain("Unauthenticated.");
    // No token at all: nothing is sent, the operators read why.
    await submitStatements(envWith("", { DSA_TDB_TOKEN: "" }), now + 2 * 3600);
    expect((await submission(unauthorised))!.last_error).toContain("secret DSA_TDB_TOKEN is not set");
    await submitStatements(envWith(token), now + 3 * 3600);
    expect(await submission(unauthorised)).toMatchObject({ state: "accepted" });

    // The statement is made but its answer is lost: the next attempt is refused for its puid, which
    // means it is in the database already; it counts as accepted and exists once.
    const lost = await decision();
    await control("fail", { token, status: 502, times: 1, stored: true });
    await submitStatements(envWith(token), now + 4 * 3600);
    expect(await submission(lost)).toMatchObject({ state: "waiting", last_status: 502 });
    await submitStatements(envWith(token), now + 4 * 3600 + retryWait(1));
    expect(await submission(lost)).toMatchObject({ state: "accepted", last_status: 422 });
    expect((await statements(token)).filter((s) => s.puid === `tdbco-decision-${lost}`)).toHaveLength(1);
  });

  it("maps a notice's chat restriction on one message, over the sites it names, and runs on the five-minute cron", async () => {
    const token = TDB_TOKENS.submissions;
    const created = Date.parse("2026-11-06T09:00:00Z") / 1000;
    const report = (await env.DB.prepare(
      "INSERT INTO reports (reporter_key, email, subject, description, site_domain, language, client_address, status, created_at, handled_at, category, basis) VALUES ('email:tdb@example.com', 'tdb@example.com', 'harassment', 'Rude messages, again and again.', ?, 'nl', '192.0.2.1', 'resolved', ?, ?, 'CYBER_VIOLENCE', 'terms') RETURNING id",
    )
      .bind(NL, created - 3600, created)
      .first<{ id: number }>())!.id;
    const id = await decision({
      outcome: "restrict",
      measure: "restrict_chat",
      source: "report",
      initiative: "notice",
      ground: "harassment",
      ends: created + 7 * 86_400,
      created,
    });
    await env.DB.prepare(
      "UPDATE moderation_decisions SET report_id = ?, content_scope = '{\"message_ids\":[41]}', territorial_scope = ? WHERE id = ?",
    )
      .bind(report, JSON.stringify([NL, CH]), id)
      .run();
    // The Worker's five-minute cron sends it.
    const ctx = createExecutionContext();
    await worker.scheduled!(
      createScheduledController({ cron: "*/5 * * * *", scheduledTime: Date.now() }),
      envWith(token),
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(await submission(id)).toMatchObject({ state: "accepted" });
    expect((await statements(token)).find((s) => s.puid === `tdbco-decision-${id}`)).toMatchObject({
      decision_provision: "DECISION_PROVISION_PARTIAL_SUSPENSION",
      end_date_service_restriction: "2026-11-13",
      content_type: ["CONTENT_TYPE_TEXT"],
      category: "STATEMENT_CATEGORY_CYBER_VIOLENCE",
      source_type: "SOURCE_ARTICLE_16",
      // The Swiss site is outside the database's territory; the Dutch site's countries are in it.
      territorial_scope: ["BE", "NL"],
    });
  });

  it("sends nothing while no address is configured, and nothing of a company that does not submit", async () => {
    const id = await decision();
    expect(
      await submitStatements(envWith(TDB_TOKENS.submissions, { DSA_TDB_API_URL: "" }), Math.floor(Date.now() / 1000)),
    ).toEqual({
      queued: 0,
      accepted: 0,
      failed: 0,
      outsideUnion: 0,
    });
    expect(await submission(id)).toBeNull();
    // The company's setting is off unless it says otherwise.
    await env.SETTINGS.put(companyKey("tdbco"), JSON.stringify(COMPANY));
    clearSiteCache();
    try {
      await submitStatements(envWith(TDB_TOKENS.submissions), Math.floor(Date.now() / 1000));
      expect(await submission(id)).toBeNull();
    } finally {
      await env.SETTINGS.put(
        companyKey("tdbco"),
        JSON.stringify({ ...COMPANY, transparency_database: { submit: true } }),
      );
      clearSiteCache();
    }
  });

  it("sends each statement once when runs of the job meet", async () => {
    const token = TDB_TOKENS.races;
    await control("delay", { token, ms: 40 });
    const base = Date.parse("2026-11-05T10:00:00Z") / 1000;
    // What earlier tests left unsent goes first, so each round counts only its own.
    await submitStatements(envWith(token), base - 60);
    for (let round = 0; round < 4; round++) {
      const ids = [await decision(), await decision(), await decision()];
      const now = base + round * 3600;
      const runs = await Promise.all(Array.from({ length: 8 }, () => submitStatements(envWith(token), now)));
      expect(runs.reduce((sum, r) => sum + r.accepted, 0)).toBe(ids.length);
      const posted = (await requests(token)).map((r) => r.puid);
      for (const id of ids) {
        expect(
          posted.filter((puid) => puid === `tdbco-decision-${id}`),
          `round ${round}`,
        ).toHaveLength(1);
        expect(await submission(id)).toMatchObject({ state: "accepted" });
      }
    }
    await control("delay", { token, ms: 0 });
  });
});
