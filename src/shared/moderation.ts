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
] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** The outcomes of a report an operator can choose. */
export const REPORT_OUTCOMES = ["dismiss", "warn", "remove_content", "restrict", "disable"] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** Decisions that restrict the member (DSA Art. 17): each is a statement of reasons, appealable once. */
export const RESTRICTING_OUTCOMES: readonly DecisionOutcome[] = [
  "reject_photo",
  "remove_content",
  "remove_message",
  "restrict",
  "disable",
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
};

export const AppealBody = v.object({
  decision_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** The key of the mailed link, for a member who cannot log in (a disabled account). */
  key: v.optional(v.pipe(v.string(), v.maxLength(200))),
  text: v.pipe(v.string(), v.trim(), v.minLength(APPEAL_TEXT.min), v.maxLength(APPEAL_TEXT.max)),
});
export type AppealBody = v.InferOutput<typeof AppealBody>;
