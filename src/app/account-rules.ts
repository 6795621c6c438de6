/**
 * Account rules the screens apply: the checks the signup form makes before it sends anything
 * (SPEC §5), as message keys of locales/ so they can be tested without rendering (the server checks
 * the same again), and the constants the texts mention.
 */
import { isEmail, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from "../shared/account";
import { MIN_AGE, type GENDERS } from "../shared/api";

/** SPEC §4, §9: a deleted account can be reactivated by the mailed link within 14 days. */
export const REACTIVATION_DAYS = 14;

export type SignupDraft = {
  email: string;
  username: string;
  password: string;
  day: string;
  month: string;
  year: string;
  gender: "" | (typeof GENDERS)[number];
  terms: boolean;
};

export type SignupField = "email" | "username" | "password" | "date_of_birth" | "gender" | "terms";
export type Problem = { key: string; values?: Record<string, string | number> };

const pad = (value: number, length: number) => String(value).padStart(length, "0");

/** "YYYY-MM-DD" of the chosen day, month and year; null when any is missing or the day does not exist. */
export function dateOfBirth(day: string, month: string, year: string): string | null {
  const [d, m, y] = [Number(day), Number(month), Number(year)];
  if (!Number.isInteger(d) || !Number.isInteger(m) || !Number.isInteger(y) || d < 1 || m < 1 || m > 12 || y < 1900) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** Full years between a YYYY-MM-DD birth date and today's local date. */
export function ageOn(birth: string, today: Date): number {
  const [y, m, d] = birth.split("-").map(Number) as [number, number, number];
  const beforeBirthday = today.getMonth() + 1 < m || (today.getMonth() + 1 === m && today.getDate() < d);
  return today.getFullYear() - y - (beforeBirthday ? 1 : 0);
}

/** SPEC §5: every problem of a signup draft, by field; empty when it may be sent. */
export function signupProblems(draft: SignupDraft, today = new Date(), minAge = MIN_AGE): Partial<Record<SignupField, Problem>> {
  const problems: Partial<Record<SignupField, Problem>> = {};
  const email = draft.email.trim();
  const username = draft.username.trim();

  if (!isEmail(email)) problems.email = { key: "validation.email_invalid" };

  if (!username) problems.username = { key: "validation.required" };
  else if (username.startsWith("@")) problems.username = { key: "validation.username_at" };
  else if (username.toLowerCase() === email.toLowerCase()) problems.username = { key: "validation.username_is_email" };
  else if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) problems.username = { key: "validation.username_invalid" };

  if (draft.password.length < PASSWORD_MIN) problems.password = { key: "validation.password_too_short", values: { min: PASSWORD_MIN } };

  if (!draft.day && !draft.month && !draft.year) {
    problems.date_of_birth = { key: "validation.date_of_birth_min_age", values: { min_age: minAge } };
  } else {
    const birth = dateOfBirth(draft.day, draft.month, draft.year);
    const age = birth === null ? null : ageOn(birth, today);
    if (birth === null || age === null || age < 0 || age > 120) problems.date_of_birth = { key: "validation.date_of_birth_invalid" };
    else if (age < minAge) problems.date_of_birth = { key: "validation.date_of_birth_min_age", values: { min_age: minAge } };
  }

  if (!draft.gender) problems.gender = { key: "validation.gender_required" };
  if (!draft.terms) problems.terms = { key: "validation.terms_required" };
  return problems;
}
