/**
 * The server's account rules (SPEC §5). The checks of what a person types are the shared field
 * schemas of src/shared/account-fields.ts, the same the forms apply.
 */
export { birthDateProblem, emailProblem, normaliseEmail, passwordProblem, usernameProblem, type Problem } from "../../shared/account-fields";

/** Usernames compare by this key, so "Anna", "ANNA" and a full-width "Ａｎｎａ" are the same name. */
export function usernameKey(username: string): string {
  return username.normalize("NFKC").trim().toLowerCase();
}

/** SPEC §9: the terms version is 2023-12-01 12:00 UTC, or the company's added date if later. */
export function termsVersion(companyAdded: string | undefined): string {
  const base = Date.parse("2023-12-01T12:00:00Z");
  const added = companyAdded ? Date.parse(companyAdded) : NaN;
  return new Date(Number.isNaN(added) || added < base ? base : added).toISOString();
}
