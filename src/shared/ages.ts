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

/** The text (locales/) of an age range whose minimum is above its maximum: the search form and the API say the same. */
export const AGE_RANGE_REVERSED = "validation.age_range_reversed";

/** Whether an age range can hold anyone: a minimum above the maximum cannot (either end may be left open). */
export function ageRangeHolds(range: { min_age?: number | undefined; max_age?: number | undefined }): boolean {
  return range.min_age === undefined || range.max_age === undefined || range.min_age <= range.max_age;
}

/** Full years between a YYYY-MM-DD birth date and the UTC day of `today`. */
export function ageOn(birthDate: string, today = new Date()): number {
  const [y, m, d] = birthDate.split("-").map(Number) as [number, number, number];
  const month = today.getUTCMonth() + 1;
  const beforeBirthday = month < m || (month === m && today.getUTCDate() < d);
  return today.getUTCFullYear() - y - (beforeBirthday ? 1 : 0);
}

/** Birth-date bounds (YYYY-MM-DD) of an age range on a given day, for an indexable comparison: the age rule turned round. */
export function birthDateRange(minAge: number, maxAge: number, today = new Date()): { from: string; to: string } {
  const shift = (years: number, days = 0) => {
    const d = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() + days));
    return d.toISOString().slice(0, 10);
  };
  // Born on or before today minus minAge years, and after today minus (maxAge + 1) years.
  return { from: shift(maxAge + 1, 1), to: shift(minAge) };
}
