/**
 * A stand-in of the Commission's DSA Transparency Database API on loopback, as its documentation
 * describes it (https://transparency.dsa.ec.europa.eu/page/api-documentation, and the validation of
 * its source, github.com/digital-services-act/transparency-database, StatementStoreRequest):
 * - POST /api/v1/statement with `Authorization: Bearer <token>` and a JSON statement. A missing or
 *   unknown token answers 401 {"message":"Unauthenticated."}. A statement that breaks a rule answers
 *   422 {"message": the first error (and N more errors), "errors": {field: [messages]}}, and nothing
 *   is made: required fields, the allowed values of each limited field, the conditional fields of
 *   each ground and of "other", the YYYY-MM-DD dates and their bounds, the territorial scope of EU/EEA
 *   codes, the length limits and the puid's characters. A puid the platform used already answers
 *   422 "The identifier given is not unique within this platform." with `existing`. A statement
 *   accepted answers 201 with the statement as made and its `uuid`, `permalink`, `self`.
 * - GET /api/v1/statement/existing-puid/{puid}: 302 when the platform has it, else 404.
 * - Control for the tests, per token: POST /_stand-in/fail { token, status, times, stored? } makes the
 *   next `times` statements answer `status` (5xx, 429), before making them, or after (`stored`: the
 *   answer is lost though the statement was made); POST /_stand-in/delay { token, ms } slows every
 *   answer; GET /_stand-in/requests?token= lists each statement call (puid, status).
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { answerJson as answer, bodyText, onLoopback } from "./stand-in-server";

/** The API tokens the stand-in knows: one platform each (Sanctum's "id|secret" form). */
export const TDB_TOKENS = {
  report: "11|tdbReportPlatformToken0123456789abcdef",
  submissions: "12|tdbSubmissionsPlatformToken0123456789ab",
  races: "13|tdbRacesPlatformToken0123456789abcdefgh",
} as const;

const VISIBILITIES = [
  "DECISION_VISIBILITY_CONTENT_REMOVED",
  "DECISION_VISIBILITY_CONTENT_DISABLED",
  "DECISION_VISIBILITY_CONTENT_DEMOTED",
  "DECISION_VISIBILITY_CONTENT_AGE_RESTRICTED",
  "DECISION_VISIBILITY_CONTENT_INTERACTION_RESTRICTED",
  "DECISION_VISIBILITY_CONTENT_LABELLED",
  "DECISION_VISIBILITY_OTHER",
];
const MONETARY = ["DECISION_MONETARY_SUSPENSION", "DECISION_MONETARY_TERMINATION", "DECISION_MONETARY_OTHER"];
const PROVISIONS = [
  "DECISION_PROVISION_PARTIAL_SUSPENSION",
  "DECISION_PROVISION_TOTAL_SUSPENSION",
  "DECISION_PROVISION_PARTIAL_TERMINATION",
  "DECISION_PROVISION_TOTAL_TERMINATION",
];
const ACCOUNTS = ["DECISION_ACCOUNT_SUSPENDED", "DECISION_ACCOUNT_TERMINATED"];
const ACCOUNT_TYPES = ["ACCOUNT_TYPE_BUSINESS", "ACCOUNT_TYPE_PRIVATE"];
const GROUNDS = ["DECISION_GROUND_ILLEGAL_CONTENT", "DECISION_GROUND_INCOMPATIBLE_CONTENT"];
const CONTENT_TYPES = [
  "CONTENT_TYPE_APP",
  "CONTENT_TYPE_AUDIO",
  "CONTENT_TYPE_IMAGE",
  "CONTENT_TYPE_PRODUCT",
  "CONTENT_TYPE_SYNTHETIC_MEDIA",
  "CONTENT_TYPE_TEXT",
  "CONTENT_TYPE_VIDEO",
  "CONTENT_TYPE_OTHER",
];
const CATEGORIES = [
  "ANIMAL_WELFARE",
  "CONSUMER_INFORMATION",
  "CYBER_VIOLENCE",
  "CYBER_VIOLENCE_AGAINST_WOMEN",
  "DATA_PROTECTION_AND_PRIVACY_VIOLATIONS",
  "ILLEGAL_OR_HARMFUL_SPEECH",
  "INTELLECTUAL_PROPERTY_INFRINGEMENTS",
  "NEGATIVE_EFFECTS_ON_CIVIC_DISCOURSE_OR_ELECTIONS",
  "NOT_SPECIFIED_NOTICE",
  "OTHER_VIOLATION_TC",
  "PROTECTION_OF_MINORS",
  "RISK_FOR_PUBLIC_SECURITY",
  "SCAMS_AND_FRAUD",
  "SELF_HARM",
  "UNSAFE_AND_PROHIBITED_PRODUCTS",
  "VIOLENCE",
].map((c) => `STATEMENT_CATEGORY_${c}`);
const COUNTRIES = "AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IS IT LI LT LU LV MT NL NO PL PT RO SE SI SK".split(
  " ",
);
const SOURCES = ["SOURCE_ARTICLE_16", "SOURCE_TRUSTED_FLAGGER", "SOURCE_TYPE_OTHER_NOTIFICATION", "SOURCE_VOLUNTARY"];
const AUTOMATED_DECISIONS = [
  "AUTOMATED_DECISION_FULLY",
  "AUTOMATED_DECISION_PARTIALLY",
  "AUTOMATED_DECISION_NOT_AUTOMATED",
];
const YES_NO = ["Yes", "No"];

type Body = Record<string, unknown>;
const words = (field: string) => field.replaceAll("_", " ");
const isDate = (value: unknown) =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

/** The errors Laravel's validation would answer for a statement, by field. */
export function validate(s: Body): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const present = (field: string) => s[field] !== undefined && s[field] !== null && s[field] !== "";
  const oneOf = (field: string, allowed: string[]) => {
    if (present(field) && !allowed.includes(s[field] as string)) add(field, `The selected ${words(field)} is invalid.`);
  };
  const listOf = (field: string, allowed: string[]) => {
    if (!present(field)) return;
    if (!Array.isArray(s[field])) return add(field, `The ${words(field)} field must be an array.`);
    if ((s[field] as unknown[]).some((v) => !allowed.includes(v as string)))
      add(field, `The selected ${words(field)} is invalid.`);
  };
  const required = (field: string, message = `The ${words(field)} field is required.`) => {
    if (!present(field) || (Array.isArray(s[field]) && (s[field] as unknown[]).length === 0)) add(field, message);
  };
  const max = (field: string, n: number) => {
    if (typeof s[field] === "string" && (s[field] as string).length > n)
      add(field, `The ${words(field)} field must not be greater than ${n} characters.`);
  };
  const decisions = ["decision_visibility", "decision_monetary", "decision_provision", "decision_account"];
  for (const field of decisions) {
    if (!decisions.some((other) => present(other))) {
      const others = decisions.filter((o) => o !== field).map(words);
      add(field, `The ${words(field)} field is required when none of ${others.join(" / ")} are present.`);
    }
  }
  listOf("decision_visibility", VISIBILITIES);
  if (Array.isArray(s.decision_visibility) && s.decision_visibility.includes("DECISION_VISIBILITY_OTHER"))
    required("decision_visibility_other");
  oneOf("decision_monetary", MONETARY);
  oneOf("decision_provision", PROVISIONS);
  oneOf("decision_account", ACCOUNTS);
  oneOf("account_type", ACCOUNT_TYPES);
  required("decision_ground");
  oneOf("decision_ground", GROUNDS);
  if (present("decision_ground_reference_url") && !/^https?:\/\/[^\s/]+/.test(String(s.decision_ground_reference_url)))
    add("decision_ground_reference_url", "The decision ground reference url field must be a valid URL.");
  if (s.decision_ground === "DECISION_GROUND_ILLEGAL_CONTENT") {
    required(
      "illegal_content_legal_ground",
      "The illegal content legal ground field is required when decision ground is illegal content.",
    );
    required(
      "illegal_content_explanation",
      "The illegal content explanation field is required when decision ground is illegal content.",
    );
  }
  if (s.decision_ground === "DECISION_GROUND_INCOMPATIBLE_CONTENT") {
    required(
      "incompatible_content_ground",
      "The incompatible content ground field is required when decision ground is incompatible content.",
    );
    required(
      "incompatible_content_explanation",
      "The incompatible content explanation field is required when decision ground is incompatible content.",
    );
    oneOf("incompatible_content_illegal", YES_NO);
  }
  required("content_type");
  listOf("content_type", CONTENT_TYPES);
  if (Array.isArray(s.content_type) && s.content_type.includes("CONTENT_TYPE_OTHER")) required("content_type_other");
  required("category");
  oneOf("category", CATEGORIES);
  listOf("category_addition", CATEGORIES);
  listOf("territorial_scope", COUNTRIES);
  if (present("content_language") && !/^[A-Z]{2}$/.test(String(s.content_language)))
    add("content_language", "The selected content language is invalid.");
  for (const [field, earliest] of [
    ["content_date", "2000-01-01"],
    ["application_date", "2020-01-01"],
  ] as const) {
    required(field);
    if (!present(field)) continue;
    if (!isDate(s[field])) add(field, `The ${words(field)} does not match the format YYYY-MM-DD.`);
    else if ((s[field] as string) < earliest)
      add(field, `The ${words(field)} field must be a date after or equal to ${earliest}.`);
    else if ((s[field] as string) > "2038-01-01")
      add(field, `The ${words(field)} field must be a date before or equal to 2038-01-01.`);
  }
  for (const field of [
    "end_date_account_restriction",
    "end_date_monetary_restriction",
    "end_date_service_restriction",
    "end_date_visibility_restriction",
  ])
    if (present(field) && !isDate(s[field])) add(field, `The ${words(field)} does not match the format YYYY-MM-DD.`);
  required("decision_facts");
  required("source_type");
  oneOf("source_type", SOURCES);
  required("automated_detection");
  oneOf("automated_detection", YES_NO);
  required("automated_decision");
  oneOf("automated_decision", AUTOMATED_DECISIONS);
  required("puid");
  if (present("puid") && !/^[a-zA-Z0-9-_]+$/.test(String(s.puid))) add("puid", "The puid format is invalid.");
  for (const [field, n] of [
    ["decision_visibility_other", 500],
    ["decision_ground_reference_url", 500],
    ["illegal_content_legal_ground", 500],
    ["illegal_content_explanation", 2000],
    ["incompatible_content_ground", 500],
    ["incompatible_content_explanation", 2000],
    ["content_type_other", 500],
    ["decision_facts", 5000],
    ["puid", 500],
  ] as const)
    max(field, n);
  return errors;
}

type Failure = { status: number; times: number; stored: boolean };
type Platform = {
  statements: Map<string, Body>;
  fail: Failure | null;
  delayMs: number;
  requests: { puid: unknown; status: number }[];
};

export function createTransparencyDatabaseStandIn() {
  const platforms = new Map<string, Platform>(
    Object.entries(TDB_TOKENS).map(([, token]) => [
      token,
      { statements: new Map(), fail: null, delayMs: 0, requests: [] },
    ]),
  );
  let origin = "";
  const server = createServer(async (req, res) => {
    const raw = await bodyText(req);
    const url = new URL(req.url ?? "/", "http://stand-in");
    if (url.pathname.startsWith("/_stand-in/")) {
      const control = (raw ? JSON.parse(raw) : {}) as {
        token?: string;
        status?: number;
        times?: number;
        stored?: boolean;
        ms?: number;
      };
      const platform = platforms.get(control.token ?? url.searchParams.get("token") ?? "");
      if (!platform) return answer(res, 404, { message: "no such platform" });
      if (url.pathname === "/_stand-in/requests") return answer(res, 200, platform.requests);
      if (url.pathname === "/_stand-in/statements") return answer(res, 200, [...platform.statements.values()]);
      if (url.pathname === "/_stand-in/fail") {
        platform.fail = { status: control.status ?? 500, times: control.times ?? 1, stored: control.stored ?? false };
        return answer(res, 200, {});
      }
      if (url.pathname === "/_stand-in/delay") {
        platform.delayMs = control.ms ?? 0;
        return answer(res, 200, {});
      }
      return answer(res, 404, { message: "Not Found" });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const platform = token ? platforms.get(token) : undefined;
    if (!platform) return answer(res, 401, { message: "Unauthenticated." });
    if (platform.delayMs) await new Promise((resolve) => setTimeout(resolve, platform.delayMs));
    const existing = /^\/api\/v1\/statement\/existing-puid\/([^/]+)$/.exec(url.pathname);
    if (existing && req.method === "GET") {
      const puid = decodeURIComponent(existing[1]!);
      return platform.statements.has(puid)
        ? answer(res, 302, { message: "statement of reason found", puid })
        : answer(res, 404, { message: "statement of reason not found", puid });
    }
    if (url.pathname !== "/api/v1/statement" || req.method !== "POST")
      return answer(res, 404, { message: "Not Found" });
    let body: Body = {};
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Body;
    } catch {
      // An invalid payload is validated as an empty one, as the API does.
    }
    const reply = (status: number, payload: unknown) => {
      platform.requests.push({ puid: body.puid, status });
      answer(res, status, payload);
    };
    const failure = platform.fail;
    if (failure && failure.times > 0 && !failure.stored) {
      failure.times--;
      return reply(failure.status, { message: "Server Error" });
    }
    const errors = validate(body);
    const fields = Object.values(errors);
    if (fields.length > 0) {
      const more = fields.flat().length - 1;
      return reply(422, { message: `${fields[0]![0]}${more > 0 ? ` (and ${more} more errors)` : ""}`, errors });
    }
    const puid = body.puid as string;
    if (platform.statements.has(puid)) {
      const message = "The identifier given is not unique within this platform.";
      return reply(422, { message, errors: { puid: [message] }, existing: { puid } });
    }
    const uuid = randomUUID();
    const made = {
      ...body,
      uuid,
      platform_name: "Flirtwave",
      created_at: new Date().toISOString().replace("T", " ").slice(0, 19),
      permalink: `${origin}/statement/${uuid}`,
      self: `${origin}/api/v1/statement/${uuid}`,
    };
    platform.statements.set(puid, made);
    if (failure && failure.times > 0 && failure.stored) {
      failure.times--;
      return reply(failure.status, { message: "Server Error" });
    }
    reply(201, made);
  });
  return onLoopback(server, (started) => (origin = started));
}
