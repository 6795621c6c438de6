/**
 * Complaints and reports (SPEC §2 /complaints, the Report action of a profile and a chat): the body
 * of POST /api/report.php, checked by the Worker and built by the forms.
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
  "payment",
  "privacy",
  "other",
] as const;
export type ReportSubject = (typeof REPORT_SUBJECTS)[number];

export const REPORT_DESCRIPTION_MIN = 10;
const REPORT_DESCRIPTION_MAX = 4000;
/** Reports one member (or one visitor's address) may file per hour. */
export const REPORTS_PER_HOUR = 5;
/** Reports one network address may file per hour, whoever files them. */
export const REPORTS_PER_ADDRESS_HOUR = 20;

/** How long a handled report is kept (the privacy text says two years). */
export const REPORT_RETENTION_DAYS = 2 * 365;

const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));

/** POST /api/report.php. A member's reports go to the account's address, so `email` is for visitors. */
export const ReportBody = v.strictObject({
  subject: v.picklist(REPORT_SUBJECTS),
  description: v.pipe(v.string(), v.trim(), v.minLength(REPORT_DESCRIPTION_MIN), v.maxLength(REPORT_DESCRIPTION_MAX)),
  email: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(EMAIL_MAX), v.email())),
  profile_id: v.optional(id),
  message_id: v.optional(id),
});
export type ReportBody = v.InferOutput<typeof ReportBody>;

/** 201 answer of POST /api/report.php. */
export type ReportResponse = { report: { id: number; status: "open" } };
