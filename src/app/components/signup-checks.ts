/**
 * The checks the signup form makes before it sends anything (SPEC §5), as message keys of locales/
 * so they can be tested without rendering. Each field goes through the shared schema the server
 * applies too (src/shared/account-fields.ts), so the form refuses exactly what the server refuses.
 */
import {
  birthDateProblem,
  emailProblem,
  passwordProblem,
  usernameProblem,
  type Problem,
} from "../../shared/account-fields";
import { MIN_AGE } from "../../shared/ages";
import type { GENDERS } from "../../shared/api";
import type { LookingFor } from "../../shared/account";

export type SignupDraft = {
  email: string;
  username: string;
  password: string;
  day: string;
  month: string;
  year: string;
  gender: "" | (typeof GENDERS)[number];
  lookingFor: "" | LookingFor;
  terms: boolean;
};

type SignupField = "email" | "username" | "password" | "date_of_birth" | "gender" | "looking_for" | "terms";

const pad = (value: number, length: number) => String(value).padStart(length, "0");

/** "YYYY-MM-DD" of the chosen day, month and year; null when any is missing or the day does not exist. */
export function dateOfBirth(day: string, month: string, year: string): string | null {
  const [d, m, y] = [Number(day), Number(month), Number(year)];
  if (!Number.isInteger(d) || !Number.isInteger(m) || !Number.isInteger(y) || d < 1 || m < 1 || m > 12 || y < 1900)
    return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** SPEC §5: every problem of a signup draft, by field; empty when it may be sent. */
export function signupProblems(draft: SignupDraft, today = new Date()): Partial<Record<SignupField, Problem>> {
  const problems: Partial<Record<SignupField, Problem>> = {};
  const add = (field: SignupField, problem: Problem | null) => {
    if (problem) problems[field] = problem;
  };
  add("email", emailProblem(draft.email));
  add("username", usernameProblem(draft.username, draft.email));
  add("password", passwordProblem(draft.password));
  if (!draft.day && !draft.month && !draft.year) {
    // Nothing chosen yet: the text asks for the date and says the minimum age.
    add("date_of_birth", { key: "validation.date_of_birth_min_age", values: { min_age: MIN_AGE } });
  } else {
    add("date_of_birth", birthDateProblem(dateOfBirth(draft.day, draft.month, draft.year) ?? "", today));
  }
  if (!draft.gender) add("gender", { key: "validation.gender_required" });
  if (!draft.lookingFor) add("looking_for", { key: "validation.looking_for_required" });
  if (!draft.terms) add("terms", { key: "validation.terms_required" });
  return problems;
}
