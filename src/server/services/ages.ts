/** Birth-date bounds (YYYY-MM-DD) for an age range on a given day, for an indexable comparison. */
export function birthDateRange(minAge: number, maxAge: number, today = new Date()): { from: string; to: string } {
  const shift = (years: number, days = 0) => {
    const d = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() + days));
    return d.toISOString().slice(0, 10);
  };
  // Born on or before today minus minAge years, and after today minus (maxAge + 1) years.
  return { from: shift(maxAge + 1, 1), to: shift(minAge) };
}
