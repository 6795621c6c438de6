import { drizzle } from "drizzle-orm/d1";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/server/db/schema";
import { profileListStatement } from "../../src/server/db/profiles";
import { filterOf, type Criteria } from "../../src/server/services/search";

const db = drizzle(env.DB, { schema });

async function plan(criteria: Criteria, offset = 0): Promise<string[]> {
  const { sql, params } = profileListStatement(db, filterOf(criteria, new Date("2026-06-01")), 25, offset);
  const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail);
}

describe("the search query's plan", () => {
  const cases: [string, Criteria, RegExp][] = [
    [
      "country and gender",
      { country: "NL", gender: "female", minAge: 25, maxAge: 40 },
      /profiles_search_idx \(country=\? AND searchable=\? AND gender=\?/,
    ],
    [
      "country, any gender",
      { country: "NL", minAge: 18, maxAge: 99 },
      /profiles_search_any_gender_idx \(country=\? AND searchable=\?/,
    ],
    [
      "region and gender",
      { country: "NL", gender: "male", regionId: 1, minAge: 30, maxAge: 50 },
      /profiles_search_region_idx \(region_id=\? AND searchable=\? AND gender=\?/,
    ],
  ];

  for (const [name, criteria, index] of cases) {
    it(`reads profiles through an index in the order it returns them: ${name}`, async () => {
      const steps = await plan(criteria);
      const profiles = steps.find((s) => /\bprofiles\b/.test(s)) ?? "";
      expect(profiles, steps.join("\n")).toMatch(index);
      expect(steps.join("\n")).not.toMatch(/SCAN profiles(?! USING)/);
      expect(steps.join("\n"), "no sort of the whole match").not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      // The joins are primary-key lookups.
      expect(
        steps.some((s) => /SEARCH regions USING INTEGER PRIMARY KEY/.test(s)),
        steps.join("\n"),
      ).toBe(true);
      expect(
        steps.some((s) => /SEARCH photos USING INTEGER PRIMARY KEY/.test(s)),
        steps.join("\n"),
      ).toBe(true);
      expect(
        steps.some((s) => /SEARCH users USING INTEGER PRIMARY KEY/.test(s)),
        steps.join("\n"),
      ).toBe(true);
    });
  }
});
