/**
 * Complaints and reports (SPEC §2 /complaints, the Report action of a profile, a photo and a chat
 * message): the body of POST /api/report.php, checked by the Worker and built by the forms. A report
 * about content is a notice in the sense of DSA Art. 16(2) (docs/decisions/0062); a question about
 * billing, the account or personal data goes to support instead.
 */
import * as v from "valibot";
import { EMAIL_MAX } from "./account";

/** What a report is about; operators sort by it, the form offers it in the member's language. */
export const REPORT_SUBJECTS = [
  "fake_profile",
  "harassment",
  "inappropriate_content",
  "underage",
  "scam",
  "illegal_content",
  "other",
  "payment",
  "account",
  "privacy",
  "question",
] as const;
export type ReportSubject = (typeof REPORT_SUBJECTS)[number];

/** Questions that are no notice about content: they go to support's queue, never to the moderators'. */
export const SUPPORT_SUBJECTS: readonly ReportSubject[] = ["payment", "account", "privacy", "question"];
export const isSupportSubject = (subject: string) => SUPPORT_SUBJECTS.includes(subject as ReportSubject);

/**
 * The category of a notice, after the DSA Transparency Database's statement categories (its API
 * documentation, https://transparency.dsa.ec.europa.eu/page/api-documentation, field `category`);
 * child sexual abuse material is its keyword KEYWORD_CHILD_SEXUAL_ABUSE_MATERIAL under protection of
 * minors, kept apart because only its notifier may stay anonymous (Art. 16(2)(c)).
 */
export const NOTICE_CATEGORIES = {
  scams_and_fraud: { category: "STATEMENT_CATEGORY_SCAMS_AND_FRAUD" },
  illegal_or_harmful_speech: { category: "STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH" },
  non_consensual_behaviour: { category: "STATEMENT_CATEGORY_NON_CONSENSUAL_BEHAVIOUR" },
  pornography_or_sexualized_content: { category: "STATEMENT_CATEGORY_PORNOGRAPHY_OR_SEXUALIZED_CONTENT" },
  protection_of_minors: { category: "STATEMENT_CATEGORY_PROTECTION_OF_MINORS" },
  child_sexual_abuse_material: {
    category: "STATEMENT_CATEGORY_PROTECTION_OF_MINORS",
    keyword: "KEYWORD_CHILD_SEXUAL_ABUSE_MATERIAL",
  },
  data_protection_and_privacy_violations: { category: "STATEMENT_CATEGORY_DATA_PROTECTION_AND_PRIVACY_VIOLATIONS" },
  intellectual_property_infringements: { category: "STATEMENT_CATEGORY_INTELLECTUAL_PROPERTY_INFRINGEMENTS" },
  violence: { category: "STATEMENT_CATEGORY_VIOLENCE" },
  self_harm: { category: "STATEMENT_CATEGORY_SELF_HARM" },
  risk_for_public_security: { category: "STATEMENT_CATEGORY_RISK_FOR_PUBLIC_SECURITY" },
  unsafe_and_illegal_products: { category: "STATEMENT_CATEGORY_UNSAFE_AND_PROHIBITED_PRODUCTS" },
  animal_welfare: { category: "STATEMENT_CATEGORY_ANIMAL_WELFARE" },
  negative_effects_on_civic_discourse_or_elections: {
    category: "STATEMENT_CATEGORY_NEGATIVE_EFFECTS_ON_CIVIC_DISCOURSE_OR_ELECTIONS",
  },
  // The database's schema of July 2025 has no scope-of-service category: it is "other violation of the terms".
  scope_of_platform_service: { category: "STATEMENT_CATEGORY_OTHER_VIOLATION_TC" },
} as const satisfies Record<string, { category: string; keyword?: string }>;
export type NoticeCategory = keyof typeof NOTICE_CATEGORIES;
export const NOTICE_CATEGORY_IDS = Object.keys(NOTICE_CATEGORIES) as NoticeCategory[];
/** The one category whose notifier may leave out their name and address (Art. 16(2)(c)). */
export const ANONYMOUS_CATEGORY: NoticeCategory = "child_sexual_abuse_material";

/** The category the form starts from for a subject (the notifier may choose another). */
export const SUBJECT_CATEGORY: Partial<Record<ReportSubject, NoticeCategory>> = {
  fake_profile: "scope_of_platform_service",
  harassment: "illegal_or_harmful_speech",
  inappropriate_content: "pornography_or_sexualized_content",
  underage: "protection_of_minors",
  scam: "scams_and_fraud",
};

/** A notice rests on the law (illegal content: the law concerned is named) or on the site's terms. */
export type NoticeBasis = "illegal" | "terms";
export const basisOf = (subject: ReportSubject): NoticeBasis | null =>
  isSupportSubject(subject) ? null : subject === "illegal_content" ? "illegal" : "terms";

export const REPORT_DESCRIPTION_MIN = 10;
const REPORT_DESCRIPTION_MAX = 4000;
export const NOTIFIER_NAME_MAX = 100;
export const REPORT_LAW = { min: 3, max: 300 } as const;
/** Reports one member (or one visitor's address) may file per hour. */
export const REPORTS_PER_HOUR = 5;
/** Reports one network address may file per hour, whoever files them. */
export const REPORTS_PER_ADDRESS_HOUR = 20;

/** How long a handled report is kept (the privacy text says two years). */
export const REPORT_RETENTION_DAYS = 2 * 365;

const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max));

/**
 * POST /api/report.php. A member's reports carry the account's name and address, so `name` and
 * `email` are for visitors; `anonymous` only with the category child_sexual_abuse_material. A notice
 * about content needs `category` and `good_faith: true`; illegal content also `law`.
 */
export const ReportBody = v.strictObject({
  subject: v.picklist(REPORT_SUBJECTS),
  description: v.pipe(v.string(), v.trim(), v.minLength(REPORT_DESCRIPTION_MIN), v.maxLength(REPORT_DESCRIPTION_MAX)),
  email: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(EMAIL_MAX), v.email())),
  name: v.optional(text(NOTIFIER_NAME_MAX)),
  anonymous: v.optional(v.boolean()),
  category: v.optional(v.picklist(NOTICE_CATEGORY_IDS)),
  law: v.optional(text(REPORT_LAW.max)),
  good_faith: v.optional(v.boolean()),
  /** Where the notifier saw it, for a complaint typed in /complaints (a report from a page names its item). */
  location: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500), v.url())),
  profile_id: v.optional(id),
  message_id: v.optional(id),
  photo_id: v.optional(id),
});
export type ReportBody = v.InferOutput<typeof ReportBody>;

/** 201 answer of POST /api/report.php: `queue` says who reads it (moderators or support). */
export type ReportResponse = { report: { id: number; status: "open"; queue: ReportQueue } };
export type ReportQueue = "moderation" | "support";

/** The exact location of a reported item, as the form shows it and the report stores it. */
export function reportLocation(
  origin: string,
  item: { profileId: number; messageId?: number | null; photoId?: number | null },
): string {
  if (item.messageId) return `${origin}/members/${item.profileId}/chat#message-${item.messageId}`;
  if (item.photoId) return `${origin}/members/${item.profileId}#photo-${item.photoId}`;
  return `${origin}/members/${item.profileId}`;
}

/** POST /api/report_contest.php: the notifier contests a dismissed report, by the mailed key or as its member. */
export const ContestBody = v.strictObject({
  report_id: id,
  key: v.optional(v.pipe(v.string(), v.maxLength(100))),
  text: v.pipe(v.string(), v.trim(), v.minLength(10), v.maxLength(2000)),
});
export type ContestBody = v.InferOutput<typeof ContestBody>;
