/**
 * Moderation decisions as members and operators both see them (docs/decisions/0035): what can be
 * decided, on which rule of the terms, and how long a member may appeal. The texts are in locales/
 * under `moderation.*`.
 */
import * as v from "valibot";

/** What an operator decides about a photo or a report, and what an appeal ends in. */
/** `remove_message`: "remove the content" of a report that names one chat message (docs/decisions/0041). */
export const DECISION_OUTCOMES = [
  "approve",
  "reject_photo",
  "dismiss",
  "warn",
  "remove_content",
  "remove_message",
  "restrict",
  "disable",
  "appeal_upheld",
  "appeal_reversed",
  "reject_verification",
  // Graded measures (docs/decisions/0061): one photo or the text removed, chat or search restricted
  // for a period, a suspension, a deletion from the console.
  "remove_photo",
  "remove_text",
  "restrict_chat",
  "restrict_search",
  "suspend",
  "delete",
] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** The outcomes of a report an operator can choose. */
/** `restrict` is kept for the command line: a search restriction until lifted. */
export const REPORT_OUTCOMES = [
  "dismiss",
  "warn",
  "remove_item",
  "remove_content",
  "restrict_chat",
  "restrict_search",
  "restrict",
  "suspend",
  "disable",
] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** Decisions that restrict the member (DSA Art. 17): each is a statement of reasons, appealable once. */
export const RESTRICTING_OUTCOMES: readonly DecisionOutcome[] = [
  "reject_photo",
  "remove_content",
  "remove_message",
  "restrict",
  "disable",
  "remove_photo",
  "remove_text",
  "restrict_chat",
  "restrict_search",
  "suspend",
  "delete",
];

/** Decisions the member concerned is told of (a warning too, though it restricts nothing). */
export const TOLD_OUTCOMES: readonly DecisionOutcome[] = [...RESTRICTING_OUTCOMES, "warn", "reject_verification"];

/** The rules of the terms a decision can rest on (moderation.grounds.<ground>: the rule, in the member's language). */
export const DECISION_GROUNDS = [
  "explicit_content",
  "not_the_member",
  "minor",
  "offensive",
  "contact_details",
  "fake_profile",
  "harassment",
  "scam",
  "spam",
  "illegal",
  "other",
] as const;
export type DecisionGround = (typeof DECISION_GROUNDS)[number];

/** The grounds offered for rejecting a photo. */
export const PHOTO_GROUNDS: readonly DecisionGround[] = [
  "explicit_content",
  "not_the_member",
  "minor",
  "offensive",
  "contact_details",
  "other",
];

/**
 * What was done, as migration 0037 names it (moderation_decisions.measure), for each outcome; the
 * transparency figures and the DSA database read it.
 */
export const MEASURES = [
  "remove_item",
  "remove_all",
  "warn",
  "restrict_chat",
  "restrict_search",
  "suspend",
  "disable",
  "delete",
  "refuse_photo",
  "refuse_verification",
  "none",
] as const;
export type Measure = (typeof MEASURES)[number];

export const MEASURE_OF: Record<DecisionOutcome, Measure> = {
  approve: "none",
  dismiss: "none",
  reject_photo: "refuse_photo",
  warn: "warn",
  remove_content: "remove_all",
  remove_message: "remove_item",
  remove_photo: "remove_item",
  remove_text: "remove_item",
  restrict: "restrict_search",
  restrict_search: "restrict_search",
  restrict_chat: "restrict_chat",
  suspend: "suspend",
  disable: "disable",
  delete: "delete",
  appeal_upheld: "none",
  appeal_reversed: "none",
  reject_verification: "refuse_verification",
};

/** The measures that last for a period (or until lifted), and can be lifted early. */
export const TIMED_MEASURES: readonly Measure[] = ["restrict_chat", "restrict_search", "suspend"];

/** The periods an operator chooses for a timed measure, in seconds; `lifted`: until an operator lifts it. */
export const MEASURE_PERIODS = { day: 86_400, week: 7 * 86_400, month: 30 * 86_400, lifted: null } as const;
export type MeasurePeriod = keyof typeof MEASURE_PERIODS;

/** "Until lifted" in the users' *_until columns (migration 0038): 9999-12-31T23:59:59Z. */
export const UNTIL_LIFTED = 253_402_300_799;

/** Where a decision comes from (moderation_decisions.initiative, DSA Art. 17(3)(b)). */
export type Initiative = "notice" | "own_initiative" | "authority_order";

/**
 * The facts a moderator chooses from, per ground (moderation.fact_templates.<ground>.<template>, in
 * every language), so the member reads them in theirs; the moderator's own words come beside them.
 */
export const FACT_TEMPLATES: Record<DecisionGround, readonly string[]> = {
  explicit_content: ["nudity", "sexual_act"],
  not_the_member: ["other_person", "picture_of_picture"],
  minor: ["looks_minor", "says_minor"],
  offensive: ["hateful", "violent"],
  contact_details: ["phone_or_address", "link"],
  fake_profile: ["false_details", "second_account"],
  harassment: ["insults", "insistence"],
  scam: ["money", "personal_data"],
  spam: ["advertising", "bulk"],
  illegal: ["illegal_content"],
  other: ["described"],
};

/** A template key "<ground>.<template>" that belongs to the ground. */
export function isFactTemplate(ground: DecisionGround, key: string | null | undefined): boolean {
  const [g, template] = (key ?? "").split(".");
  return g === ground && FACT_TEMPLATES[ground].includes(template ?? "");
}

/**
 * The section of the terms and conditions each ground rests on (legal_text.terms.<section>: its
 * number and heading in the member's language). Illegal content rests on the law the moderator names.
 */
export const TERMS_SECTION: Record<DecisionGround, "membership" | "conduct"> = {
  explicit_content: "conduct",
  not_the_member: "conduct",
  minor: "membership",
  offensive: "conduct",
  contact_details: "conduct",
  fake_profile: "membership",
  harassment: "conduct",
  scam: "conduct",
  spam: "conduct",
  illegal: "conduct",
  other: "conduct",
};

/** Which content a decision is about (moderation_decisions.content_scope, migration 0037). */
export type ContentScope = { photo_ids?: number[]; message_ids?: number[]; text?: boolean; account?: boolean };

/** A member may appeal a restricting decision once, within six months of it (DSA Art. 20(1)). */
export const APPEAL_MONTHS = 6;
export const APPEAL_TEXT = { min: 10, max: 2000 } as const;

/** The last moment (seconds) an appeal of a decision taken at `decidedAt` is taken: six calendar months later. */
export function appealDeadline(decidedAt: number): number {
  const date = new Date(decidedAt * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + APPEAL_MONTHS);
  // 31 August + 6 months is the last day of February, not 3 March.
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return Math.floor(date.getTime() / 1000);
}

/** A statement of reasons as the member's page shows it (GET /api/decision.php). */
export type Statement = {
  id: number;
  outcome: DecisionOutcome;
  ground: DecisionGround | null;
  facts: string | null;
  automated: boolean;
  /** Whether it restricts the member, and so can be appealed. */
  restricts: boolean;
  created_at: number;
  /** Until when an appeal is taken; null when it cannot be appealed. */
  appeal_until: number | null;
  /** Whether the member can appeal now (restricting, within the time, not appealed yet). */
  can_appeal: boolean;
  /** The member's appeal, once filed; `note`: the reviewer's reasons, once decided (DSA Art. 20(5)). */
  appeal: {
    status: "open" | "upheld" | "reversed";
    created_at: number;
    decided_at: number | null;
    note: string | null;
  } | null;
  /** The out-of-court dispute settlement body the company names (DSA Art. 21), when it names one. */
  out_of_court: { name: string; url: string } | null;
  /** The elements of DSA Art. 17(3) (docs/decisions/0061). */
  measure: Measure | null;
  initiative: Initiative;
  detection_automated: boolean;
  scope: ContentScope;
  /** The sites it applies on (every site of the brand when the decision names none). */
  sites: string[];
  starts_at: number | null;
  /** When a timed measure ends by itself; null: until lifted (or not timed). */
  ends_at: number | null;
  lifted_at: number | null;
  basis: "illegal" | "terms" | null;
  /** The law concerned, for illegal content. */
  legal_ground: string | null;
  /** The section of the terms (its number and heading, in the member's language). */
  terms_clause: string | null;
  /** The chosen facts in the member's language; `facts` beside it are the moderator's own words. */
  fact_text: string | null;
};

export const AppealBody = v.object({
  decision_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** The key of the mailed link, for a member who cannot log in (a disabled account). */
  key: v.optional(v.pipe(v.string(), v.maxLength(200))),
  text: v.pipe(v.string(), v.trim(), v.minLength(APPEAL_TEXT.min), v.maxLength(APPEAL_TEXT.max)),
});
export type AppealBody = v.InferOutput<typeof AppealBody>;
