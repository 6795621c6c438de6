/**
 * One valibot schema each for the fields a person types to sign up or change their account (SPEC §5):
 * e-mail, username, password and date of birth. The forms check them before sending and the server
 * checks them again with the same schemas, so a form never accepts what the server refuses. Each issue's
 * message is the locale key of its text; `problemOf` adds the values the text mentions.
 */
import * as v from "valibot";
import { isEmail, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from "./account";
import { ageOn, MAX_AGE, MIN_AGE } from "./ages";

/** A refused field: the locale key of its text and the values the text mentions. */
export type Problem = { key: string; values?: Record<string, string | number> };

const VALUES: Record<string, Problem["values"]> = {
  "validation.password_too_short": { count: PASSWORD_MIN },
  "validation.password_too_long": { count: PASSWORD_MAX },
  "validation.date_of_birth_min_age": { min_age: MIN_AGE },
};

/** Addresses compare in this form, so a full-width or capitalised address is the same address. */
export function normaliseEmail(email: string): string {
  return email.normalize("NFKC").trim().toLowerCase();
}

const Email = v.pipe(v.string(), v.transform(normaliseEmail), v.check(isEmail, "validation.email_invalid"));

// Latin letters (any accents), digits and . _ - only: mixing scripts is how look-alike names are made.
const USERNAME = new RegExp(`^[\\p{Script=Latin}\\p{Nd}._-]{${USERNAME_MIN},${USERNAME_MAX}}$`, "u");

const Username = v.pipe(
  v.string(),
  v.transform((name: string) => name.normalize("NFKC").trim()),
  v.nonEmpty("validation.required"),
  v.check((name) => !name.startsWith("@"), "validation.username_at"),
  v.regex(USERNAME, "validation.username_invalid"),
  v.regex(/\p{L}/u, "validation.username_invalid"),
);

const Password = v.pipe(
  v.string(),
  v.minLength(PASSWORD_MIN, "validation.password_too_short"),
  v.maxLength(PASSWORD_MAX, "validation.password_too_long"),
);

/** A real calendar date (no 2023-02-30) as YYYY-MM-DD. */
function isCalendarDate(date: string): boolean {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const parsed = new Date(Date.UTC(y, m - 1, d));
  return parsed.getUTCFullYear() === y && parsed.getUTCMonth() === m - 1 && parsed.getUTCDate() === d;
}

/** A YYYY-MM-DD date of birth on `today`: a real, past date of someone between MIN_AGE and MAX_AGE. */
const DateOfBirth = (today = new Date()) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, "validation.date_of_birth_invalid"),
    v.check(isCalendarDate, "validation.date_of_birth_invalid"),
    v.check((date) => ageOn(date, today) >= 0 && ageOn(date, today) <= MAX_AGE, "validation.date_of_birth_invalid"),
    v.check((date) => ageOn(date, today) >= MIN_AGE, "validation.date_of_birth_min_age"),
  );

/** The first problem of `input` under `schema`, or null when it passes. */
function problemOf(schema: v.GenericSchema<string, unknown>, input: string): Problem | null {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return null;
  const key = result.issues[0].message;
  const values = VALUES[key];
  return values ? { key, values } : { key };
}

export const emailProblem = (email: string) => problemOf(Email, email);
export const passwordProblem = (password: string) => problemOf(Password, password);
export const birthDateProblem = (date: string, today = new Date()) => problemOf(DateOfBirth(today), date);

/** A username's problem; it may not be the member's own e-mail address either. */
export function usernameProblem(username: string, email: string): Problem | null {
  const name = username.normalize("NFKC").trim();
  if (name && !name.startsWith("@") && name.toLowerCase() === normaliseEmail(email))
    return { key: "validation.username_is_email" };
  return problemOf(Username, name);
}
