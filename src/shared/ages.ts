/**
 * The one age rule of both sides (SPEC §5, §6): who may sign up, which ages a search covers, and how
 * old a member is on a given day. Counted in UTC so the form and the server agree at any hour.
 */

/** Members are adults. */
export const MIN_AGE = 18;
/**
 * The oldest age a member can have: the search form offers up to 99, so a date of birth that makes
 * someone older is refused at signup rather than leaving a member nobody can find.
 */
export const MAX_AGE = 99;

/** Full years between a YYYY-MM-DD birth date and the UTC day of `today`. */
export function ageOn(birthDate: string, today = new Date()): number {
  const [y, m, d] = birthDate.split("-").map(Number) as [number, number, number];
  const month = today.getUTCMonth() + 1;
  const beforeBirthday = month < m || (month === m && today.getUTCDate() < d);
  return today.getUTCFullYear() - y - (beforeBirthday ? 1 : 0);
}
