/**
 * The vocabulary of the DSA's transparency tools (docs/decisions/0063): the categories of content
 * and the types of restriction that both the transparency report of Implementing Regulation (EU)
 * 2024/2835 and the Commission's Transparency Database use (its API v1 schema as of July 2025,
 * https://transparency.dsa.ec.europa.eu/page/api-documentation), and how this app's grounds,
 * report subjects and measures fall into them.
 */
import type { DecisionGround, Measure } from "./moderation";
import { NOTICE_CATEGORIES, SUPPORT_SUBJECTS, type ReportSubject } from "./reports";

/** The categories, by their Transparency Database key (without STATEMENT_CATEGORY_), with the template's name. */
export const DSA_CATEGORIES = {
  ANIMAL_WELFARE: "Animal welfare",
  CONSUMER_INFORMATION: "Consumer information infringements",
  CYBER_VIOLENCE: "Cyber violence",
  CYBER_VIOLENCE_AGAINST_WOMEN: "Cyber violence against women",
  DATA_PROTECTION_AND_PRIVACY_VIOLATIONS: "Data protection and privacy violations",
  ILLEGAL_OR_HARMFUL_SPEECH: "Illegal or harmful speech",
  INTELLECTUAL_PROPERTY_INFRINGEMENTS: "Intellectual property infringements",
  NEGATIVE_EFFECTS_ON_CIVIC_DISCOURSE_OR_ELECTIONS: "Negative effects on civic discourse or elections",
  NOT_SPECIFIED_NOTICE: "Type of alleged illegal content not specified by the notifier",
  OTHER_VIOLATION_TC: "Other violation of provider's terms and conditions",
  PROTECTION_OF_MINORS: "Protection of minors",
  RISK_FOR_PUBLIC_SECURITY: "Risk for public security",
  SCAMS_AND_FRAUD: "Scams and/or fraud",
  SELF_HARM: "Self-harm",
  UNSAFE_AND_PROHIBITED_PRODUCTS: "Unsafe, non-compliant or prohibited products",
  VIOLENCE: "Violence",
} as const;
export type DsaCategory = keyof typeof DSA_CATEGORIES;
export const DSA_CATEGORY_KEYS = Object.keys(DSA_CATEGORIES) as DsaCategory[];

/**
 * A stored category ("SCAMS_AND_FRAUD", "STATEMENT_CATEGORY_SCAMS_AND_FRAUD" or "scams_and_fraud")
 * as a key, or null when it is none of them.
 */
export function dsaCategoryOf(stored: string | null | undefined): DsaCategory | null {
  if (!stored) return null;
  const notice = NOTICE_CATEGORIES[stored as keyof typeof NOTICE_CATEGORIES];
  const key = (notice?.category ?? stored).toUpperCase().replace(/^STATEMENT_CATEGORY_/, "");
  return key in DSA_CATEGORIES ? (key as DsaCategory) : null;
}

/** The category of a decision's ground, when no notice named one. */
export const GROUND_CATEGORIES: Readonly<Record<DecisionGround, DsaCategory>> = {
  explicit_content: "OTHER_VIOLATION_TC",
  not_the_member: "DATA_PROTECTION_AND_PRIVACY_VIOLATIONS",
  minor: "PROTECTION_OF_MINORS",
  offensive: "ILLEGAL_OR_HARMFUL_SPEECH",
  contact_details: "OTHER_VIOLATION_TC",
  fake_profile: "SCAMS_AND_FRAUD",
  harassment: "CYBER_VIOLENCE",
  scam: "SCAMS_AND_FRAUD",
  spam: "OTHER_VIOLATION_TC",
  illegal: "NOT_SPECIFIED_NOTICE",
  other: "OTHER_VIOLATION_TC",
};

/** The category of a notice by its subject, when the notice named no category itself. */
export const SUBJECT_CATEGORIES: Readonly<Record<ReportSubject, DsaCategory>> = {
  fake_profile: "SCAMS_AND_FRAUD",
  harassment: "CYBER_VIOLENCE",
  inappropriate_content: "OTHER_VIOLATION_TC",
  underage: "PROTECTION_OF_MINORS",
  scam: "SCAMS_AND_FRAUD",
  payment: "CONSUMER_INFORMATION",
  privacy: "DATA_PROTECTION_AND_PRIVACY_VIOLATIONS",
  other: "NOT_SPECIFIED_NOTICE",
  illegal_content: "NOT_SPECIFIED_NOTICE",
  account: "CONSUMER_INFORMATION",
  question: "NOT_SPECIFIED_NOTICE",
};

/** Report subjects that are questions for support (billing, the account), not notices about content (Art. 16). */
export const NON_CONTENT_SUBJECTS: readonly string[] = [...SUPPORT_SUBJECTS, "billing"];

/** The measure of a decision stored before `measure` was filled, by its outcome. */
export const OUTCOME_MEASURES: Readonly<Record<string, Measure>> = {
  reject_photo: "refuse_photo",
  remove_content: "remove_all",
  remove_message: "remove_item",
  restrict: "restrict_search",
  disable: "disable",
  warn: "warn",
  reject_verification: "refuse_verification",
};

/** The restrictions the Transparency Database and the report's template name, as one key each. */
export const RESTRICTION_TYPES = {
  DECISION_VISIBILITY_CONTENT_REMOVED: "Removal of content",
  DECISION_VISIBILITY_CONTENT_DEMOTED: "Demotion of content",
  DECISION_VISIBILITY_OTHER: "Other restriction of visibility",
  DECISION_PROVISION_PARTIAL_SUSPENSION: "Partial suspension of the provision of the service",
  DECISION_ACCOUNT_SUSPENDED: "Suspension of the account",
  DECISION_ACCOUNT_TERMINATED: "Termination of the account",
} as const;
export type RestrictionType = keyof typeof RESTRICTION_TYPES;

/**
 * The type of restriction of each restricting measure: removing content; keeping a profile out of
 * search demotes it; a refused verification takes away a badge (an "other" visibility restriction);
 * no chat for a while suspends part of the service; a suspension or a disabling suspends the account
 * (a disabled account can be enabled again); a deletion ends it.
 */
export const MEASURE_RESTRICTIONS: Readonly<Partial<Record<Measure, RestrictionType>>> = {
  remove_item: "DECISION_VISIBILITY_CONTENT_REMOVED",
  remove_all: "DECISION_VISIBILITY_CONTENT_REMOVED",
  refuse_photo: "DECISION_VISIBILITY_CONTENT_REMOVED",
  restrict_search: "DECISION_VISIBILITY_CONTENT_DEMOTED",
  refuse_verification: "DECISION_VISIBILITY_OTHER",
  restrict_chat: "DECISION_PROVISION_PARTIAL_SUSPENSION",
  suspend: "DECISION_ACCOUNT_SUSPENDED",
  disable: "DECISION_ACCOUNT_SUSPENDED",
  delete: "DECISION_ACCOUNT_TERMINATED",
};

/** The countries the Transparency Database takes as a territorial scope: the EU and the EEA. */
export const EEA_COUNTRIES: readonly string[] = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IS",
  "IT",
  "LI",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "NO",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
];

/** The EU's member states (Art. 24(2) counts recipients "in the Union"). */
export const EU_COUNTRIES: readonly string[] = EEA_COUNTRIES.filter((c) => !["IS", "LI", "NO"].includes(c));
