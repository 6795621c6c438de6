/**
 * The checks of SPEC §5 on what a person types when signing up or changing their account. Each
 * returns the locale key of the message (and its values) or null when the input is fine.
 */
import { isEmail, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from "../../shared/account";

export type Problem = { key: string; values?: Record<string, string | number> };

export const MIN_AGE = 18;
const MAX_AGE = 120;

export function normaliseEmail(email: string): string {
  return email.normalize("NFKC").trim().toLowerCase();
}

/** Usernames compare by this key, so "Anna", "ANNA" and a full-width "Ａｎｎａ" are the same name. */
export function usernameKey(username: string): string {
  return username.normalize("NFKC").trim().toLowerCase();
}

export function emailProblem(email: string): Problem | null {
  return isEmail(email) ? null : { key: "validation.email_invalid" };
}

// Latin letters (any accents), digits and . _ - only: mixing scripts is how look-alike names are made.
const USERNAME = new RegExp(`^[\\p{Script=Latin}\\p{Nd}._-]{${USERNAME_MIN},${USERNAME_MAX}}$`, "u");

export function usernameProblem(username: string, email: string): Problem | null {
  const name = username.normalize("NFKC").trim();
  if (!name) return { key: "validation.required" };
  if (name.startsWith("@")) return { key: "validation.username_at" };
  if (name.toLowerCase() === email.trim().toLowerCase()) return { key: "validation.username_is_email" };
  if (!USERNAME.test(name) || !/\p{L}/u.test(name)) return { key: "validation.username_invalid" };
  return null;
}

export function passwordProblem(password: string): Problem | null {
  if (password.length < PASSWORD_MIN) return { key: "validation.password_too_short", values: { min: PASSWORD_MIN } };
  if (password.length > PASSWORD_MAX) return { key: "validation.password_too_long", values: { max: PASSWORD_MAX } };
  return null;
}

/** A real calendar date (no 2023-02-30), old enough and not absurd. */
export function birthDateProblem(date: string, today = new Date()): Problem | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return { key: "validation.date_of_birth_invalid" };
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const parsed = new Date(Date.UTC(y, m - 1, d));
  if (parsed.getUTCFullYear() !== y || parsed.getUTCMonth() !== m - 1 || parsed.getUTCDate() !== d) return { key: "validation.date_of_birth_invalid" };
  const age = today.getUTCFullYear() - y - (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d) ? 1 : 0);
  if (age > MAX_AGE || parsed > today) return { key: "validation.date_of_birth_invalid" };
  if (age < MIN_AGE) return { key: "validation.date_of_birth_min_age", values: { min_age: MIN_AGE } };
  return null;
}
