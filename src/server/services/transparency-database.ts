/**
 * Statements of reasons to the Commission's DSA Transparency Database (Art. 24(5),
 * docs/decisions/0063), through its API: POST {DSA_TDB_API_URL}/statement with the company's bearer
 * token and the statement as JSON (https://transparency.dsa.ec.europa.eu/page/api-documentation).
 * 201 Created answers the statement with its `uuid`; anything else means it was not made and must
 * be sent again later. A 422 lists the refused fields in `errors`; a 422 for a `puid` the platform
 * used already means an earlier attempt was made though its answer was lost, so it counts as accepted.
 *
 * A job (the five-minute cron, `now` a parameter) queues every restricting decision of the
 * companies that submit, claims the due ones, sends each once per run and keeps what came back; a
 * refused or failed statement waits longer after each attempt (five minutes doubling to a day) and
 * is tried until accepted.
 */
import type { Database } from "../db/database";
import { databaseOf } from "../db/database";
import { decisionForStatement } from "../db/transparency";
import {
  claimDue,
  enqueueStatements,
  markAccepted,
  markFailed,
  markOutsideUnion,
  type ClaimedSubmission,
} from "../db/transparency-submissions";
import { listSites, loadSite } from "../edge/site";
import { i18nFor } from "../translations";
import { EEA_COUNTRIES, MEASURE_RESTRICTIONS } from "../../shared/dsa";
import type { CompanyInfo, SiteSettings } from "../../shared/settings";
import { basisOf, decisionCategory, initiativeOf, measureOf } from "./transparency-report";
import { dayText } from "./dashboard";

/** Statements one run sends at most, and decisions it queues at most. */
const BATCH = 25;
const QUEUE_BATCH = 200;
const CALL_TIMEOUT_MS = 10_000;
/** How long a run holds the statements it claimed: longer than its calls can take, one after the other. */
const CLAIM_SECONDS = (BATCH * CALL_TIMEOUT_MS) / 1000 + 60;
const FIRST_WAIT = 5 * 60;
const LONGEST_WAIT = 24 * 3600;

/** The wait after the n-th failed attempt (1-based): five minutes, doubling, at most a day. */
export const retryWait = (attempts: number) => Math.min(LONGEST_WAIT, FIRST_WAIT * 2 ** Math.max(0, attempts - 1));

type Decision = NonNullable<Awaited<ReturnType<typeof decisionForStatement>>>;
type Statement = Record<string, string | string[]>;

const date = (seconds: number) => dayText(seconds);
/** What the platform calls a statement: letters, digits, "-" and "_" only, as the API asks of a puid. */
export const puidPrefixOf = (companyId: string) => `${companyId.replace(/[^A-Za-z0-9_-]/g, "_")}-decision`;

/** The measure in words, for the statement's facts (the database is read in English). */
const MEASURE_WORDS: Record<string, string> = {
  remove_item: "One item the member posted (a photo or a message) was removed.",
  remove_all: "The content of the member's profile (its text and photos) was removed.",
  refuse_photo: "A photo the member uploaded was refused and is not shown.",
  restrict_search: "The member's profile was left out of search and the lists.",
  restrict_chat: "The member could not send chat messages for a period.",
  refuse_verification: "The member's verification was refused: the profile shows no verified badge.",
  suspend: "The member's account was suspended for a period.",
  disable: "The member's account was disabled until an appeal or an operator lifts it.",
  delete: "The member's account was deleted.",
};

/** The content a decision is about: images for photos, text for the profile's text and messages. */
function contentTypes(d: Decision): string[] {
  const scope = JSON.parse(d.contentScope ?? "{}") as { photo_ids?: number[]; message_ids?: number[]; text?: boolean };
  const types = new Set<string>();
  if (scope.photo_ids?.length) types.add("CONTENT_TYPE_IMAGE");
  if (scope.message_ids?.length || scope.text) types.add("CONTENT_TYPE_TEXT");
  if (types.size === 0) {
    const measure = measureOf(d);
    if (measure === "refuse_photo" || measure === "refuse_verification") types.add("CONTENT_TYPE_IMAGE");
    else if (measure === "remove_item") types.add("CONTENT_TYPE_TEXT");
    else types.add("CONTENT_TYPE_IMAGE").add("CONTENT_TYPE_TEXT");
  }
  return [...types].toSorted();
}

/** The EU/EEA countries of the sites a decision covers (its own site when it names none). */
function territoryOf(d: Decision, sites: SiteSettings[]): string[] {
  const named = JSON.parse(d.territorialScope ?? "null") as string[] | null;
  const domains = named && named.length > 0 ? named : d.site ? [d.site] : [];
  const countries = new Set(sites.filter((s) => domains.includes(s.domain)).flatMap((s) => s.countries));
  return EEA_COUNTRIES.filter((c) => countries.has(c));
}

/**
 * A decision as the API's statement: the restriction and its end, the ground (the law and why, or
 * the terms' clause and why), the content, the category, where and when, the source, the use of
 * automated means, and the puid. No personal data: the moderator's own words stay out of it.
 */
export function statementOf(d: Decision, puid: string, sites: SiteSettings[]): Statement {
  const t = i18nFor("en").t;
  const measure = measureOf(d);
  const restriction = MEASURE_RESTRICTIONS[measure];
  const rule = t(`moderation.grounds.${d.ground ?? "other"}.rule`, { defaultValue: "" });
  const template = d.factTemplate
    ? t(`moderation.facts.${d.factTemplate}`, { defaultValue: "" }) ||
      t(`moderation.fact_templates.${d.factTemplate}`, { defaultValue: "" })
    : "";
  const explanation = template || rule || "The content broke the site's terms and conditions.";
  const starts = d.startsAt ?? d.createdAt;
  const statement: Statement = {
    account_type: "ACCOUNT_TYPE_PRIVATE",
    content_type: contentTypes(d),
    category: `STATEMENT_CATEGORY_${decisionCategory(d)}`,
    territorial_scope: territoryOf(d, sites),
    content_language: d.language.slice(0, 2).toUpperCase(),
    content_date: date(d.photoAt ?? d.memberSince ?? d.createdAt),
    application_date: date(starts),
    decision_facts: `${MEASURE_WORDS[measure] ?? "The member's content was restricted."} ${explanation}`.slice(0, 5000),
    source_type: { notice: "SOURCE_ARTICLE_16", order: "SOURCE_TYPE_OTHER_NOTIFICATION", own: "SOURCE_VOLUNTARY" }[
      initiativeOf(d)
    ],
    automated_detection: d.detectionAutomated ? "Yes" : "No",
    automated_decision: d.automated ? "AUTOMATED_DECISION_FULLY" : "AUTOMATED_DECISION_NOT_AUTOMATED",
    puid,
  };
  const end = d.endsAt === null ? null : date(Math.max(d.endsAt, starts));
  if (restriction?.startsWith("DECISION_VISIBILITY_")) {
    statement.decision_visibility = [restriction];
    if (restriction === "DECISION_VISIBILITY_OTHER") statement.decision_visibility_other = "Verification badge refused";
    if (end) statement.end_date_visibility_restriction = end;
  } else if (restriction?.startsWith("DECISION_PROVISION_")) {
    statement.decision_provision = restriction;
    if (end) statement.end_date_service_restriction = end;
  } else if (restriction) {
    statement.decision_account = restriction;
    if (end) statement.end_date_account_restriction = end;
  }
  if (basisOf(d) === "illegal") {
    statement.decision_ground = "DECISION_GROUND_ILLEGAL_CONTENT";
    if (d.legalGround) statement.illegal_content_legal_ground = d.legalGround.slice(0, 500);
    statement.illegal_content_explanation = explanation.slice(0, 2000);
  } else {
    statement.decision_ground = "DECISION_GROUND_INCOMPATIBLE_CONTENT";
    statement.incompatible_content_ground = (d.termsClause ?? rule ?? "Terms and conditions").slice(0, 500);
    statement.incompatible_content_explanation = explanation.slice(0, 2000);
    if (d.site) statement.decision_ground_reference_url = `https://${d.site}/pages/terms`;
  }
  return statement;
}

type Answer = {
  status: number;
  body: { uuid?: string; message?: string; errors?: unknown; existing?: { uuid?: string } };
};

async function post(env: Env, token: string, statement: Statement): Promise<Answer> {
  const response = await fetch(`${env.DSA_TDB_API_URL.replace(/\/$/, "")}/statement`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify(statement),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const text = await response.text();
  let body: Answer["body"] = {};
  try {
    body = JSON.parse(text) as Answer["body"];
  } catch {
    body = { message: text.slice(0, 300) };
  }
  return { status: response.status, body };
}

type Submitting = { company: CompanyInfo; sites: SiteSettings[] };

/** The companies that submit, by id, with their sites. */
async function submittingCompanies(env: Env, sites: SiteSettings[]): Promise<Map<string, Submitting>> {
  const companies = new Map<string, Submitting>();
  for (const site of sites) {
    const company = (await loadSite(env.SETTINGS, site.domain))?.company;
    if (!company?.transparency_database?.submit) continue;
    const entry = companies.get(site.company_id) ?? { company, sites: [] };
    entry.sites.push(site);
    companies.set(site.company_id, entry);
  }
  return companies;
}

/** One attempt of one claimed statement; what became of it. */
async function attempt(
  env: Env,
  db: Database,
  row: ClaimedSubmission,
  submitting: Submitting | undefined,
  sites: SiteSettings[],
  now: number,
): Promise<"accepted" | "failed" | "outside_union"> {
  const fail = async (status: number, error: string) => {
    await markFailed(db, row, { status, error }, now + retryWait(row.attempts + 1));
    return "failed" as const;
  };
  if (!submitting) return fail(0, "The company no longer submits statements (company transparency_database).");
  const token = (env as unknown as Record<string, string | undefined>)[
    submitting.company.transparency_database!.token_secret
  ];
  if (!token)
    return fail(0, `No API token: the secret ${submitting.company.transparency_database!.token_secret} is not set.`);
  const decision = await decisionForStatement(db, row.decisionId);
  if (!decision) return fail(0, "The decision is gone.");
  const statement = statementOf(decision, row.puid, sites);
  if ((statement.territorial_scope as string[]).length === 0) {
    await markOutsideUnion(db, row);
    return "outside_union";
  }
  let answer: Answer;
  try {
    answer = await post(env, token, statement);
  } catch (error) {
    return fail(0, `No answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const errors = answer.body.errors as Record<string, unknown> | undefined;
  if (answer.status === 201 || (answer.status === 422 && errors?.puid && answer.body.existing)) {
    await markAccepted(
      db,
      row,
      { status: answer.status, uuid: answer.body.uuid ?? answer.body.existing?.uuid ?? null },
      now,
    );
    return "accepted";
  }
  return fail(
    answer.status,
    `${answer.body.message ?? `HTTP ${answer.status}`}${errors ? ` ${JSON.stringify(errors)}` : ""}`,
  );
}

export type SubmissionRun = { queued: number; accepted: number; failed: number; outsideUnion: number };

/** Queue the new restricting decisions of the companies that submit and send the due statements. */
export async function submitStatements(env: Env, now: number): Promise<SubmissionRun> {
  const run: SubmissionRun = { queued: 0, accepted: 0, failed: 0, outsideUnion: 0 };
  // Nothing leaves the machine unless the environment names the database's address.
  if (!env.DSA_TDB_API_URL) return run;
  const db = databaseOf(env.DB);
  const sites = await listSites(env.SETTINGS);
  const companies = await submittingCompanies(env, sites);
  for (const [id, { sites: own }] of companies) {
    run.queued += await enqueueStatements(
      db,
      { id, puidPrefix: puidPrefixOf(id), sites: own.map((s) => s.domain) },
      now,
      QUEUE_BATCH,
    );
  }
  const claimed = await claimDue(db, now, now + CLAIM_SECONDS, BATCH);
  for (const row of claimed) {
    const outcome = await attempt(env, db, row, companies.get(row.companyId), sites, now);
    if (outcome === "accepted") run.accepted++;
    else if (outcome === "failed") run.failed++;
    else run.outsideUnion++;
  }
  return run;
}
