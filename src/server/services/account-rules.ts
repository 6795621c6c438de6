/**
 * The server's account rules (SPEC §5). The checks of what a person types are the shared field
 * schemas of src/shared/account-fields.ts, the same the forms apply.
 */

/** Usernames compare by this key, so "Anna", "ANNA" and a full-width "Ａｎｎａ" are the same name. */
export function usernameKey(username: string): string {
  return username.normalize("NFKC").trim().toLowerCase();
}
