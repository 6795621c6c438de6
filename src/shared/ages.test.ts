import { describe, expect, it } from "vitest";
import { ageOn, MAX_AGE, MIN_AGE } from "./ages";
import { birthDateProblem } from "./account-fields";

describe("the age rule (SPEC §5)", () => {
  it("counts a birthday from midnight UTC, whatever the clock's zone", () => {
    expect(ageOn("2008-06-15", new Date("2026-06-14T23:59:59Z"))).toBe(17);
    expect(ageOn("2008-06-15", new Date("2026-06-15T00:00:00Z"))).toBe(18);
    // 01:30 in Amsterdam on the birthday is still the day before in UTC.
    expect(ageOn("2008-06-15", new Date("2026-06-15T01:30:00+02:00"))).toBe(17);
  });

  it("counts someone born on 29 February a year older on 1 March", () => {
    expect(ageOn("2008-02-29", new Date("2026-02-28T12:00:00Z"))).toBe(17);
    expect(ageOn("2008-02-29", new Date("2026-03-01T00:00:00Z"))).toBe(18);
  });

  it("accepts a date of birth from the first second of the 18th birthday up to MAX_AGE", () => {
    expect(MIN_AGE).toBe(18);
    expect(birthDateProblem("2008-06-15", new Date("2026-06-14T23:59:59Z"))).toEqual({
      key: "validation.date_of_birth_min_age",
      values: { min_age: 18 },
    });
    expect(birthDateProblem("2008-06-15", new Date("2026-06-15T00:00:00Z"))).toBeNull();
    expect(birthDateProblem("1926-06-16", new Date("2026-06-15T12:00:00Z"))).toBeNull();
    expect(ageOn("1926-06-16", new Date("2026-06-15T12:00:00Z"))).toBe(MAX_AGE);
    expect(birthDateProblem("1926-06-15", new Date("2026-06-15T12:00:00Z"))).toEqual({
      key: "validation.date_of_birth_invalid",
    });
    expect(birthDateProblem("2026-06-16", new Date("2026-06-15T12:00:00Z"))).toEqual({
      key: "validation.date_of_birth_invalid",
    });
  });
});
