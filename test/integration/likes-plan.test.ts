import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { likesPage, matchFinderQuery } from "../../src/server/db/likes";

const db = databaseOf(env.DB);

async function plan(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql, params } = query.toSQL();
  const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail).join("\n");
}

describe("the likes queries' plans", () => {
  const tabs: [string, "received" | "sent" | "matches", RegExp][] = [
    ["received", "received", /SEARCH likes USING INDEX likes_liked_idx \(liked_id=\?\)/],
    ["sent", "sent", /SEARCH likes USING INDEX likes_liker_idx \(liker_id=\?\)/],
    ["matches", "matches", /SEARCH likes USING INDEX likes_matches_idx \(liker_id=\? AND matched_at>\?\)/],
  ];
  for (const [name, type, index] of tabs) {
    it(`reads the ${name} tab through one index in the order it shows it`, async () => {
      const steps = await plan(likesPage(db, 1, type, 25, 0));
      expect(steps, steps).toMatch(index);
      expect(steps, steps).not.toMatch(/TEMP B-TREE/);
      expect(steps, steps).not.toMatch(/SCAN (likes|profiles|users)/);
      expect(steps, steps).toMatch(/SEARCH profiles USING INTEGER PRIMARY KEY/);
    });
  }
});

describe("the match-finder's plan", () => {
  it("takes its candidates from the search index in activity order and counts shared interests by primary key", async () => {
    const steps = await plan(
      matchFinderQuery(db, {
        viewerId: 1,
        country: "NL",
        gender: "female",
        birthFrom: "1980-01-01",
        birthTo: "2000-01-01",
        regionId: 1,
        interestSlugs: ["travel", "cooking"],
        limit: 24,
      }),
    );
    expect(steps, steps).toMatch(
      /SEARCH profiles USING INDEX profiles_search_idx \(country=\? AND searchable=\? AND gender=\?\)/,
    );
    expect(steps, steps).toMatch(
      /profile_interests USING (COVERING INDEX|PRIMARY KEY|INDEX sqlite_autoindex_profile_interests_1)/,
    );
    expect(steps, steps).not.toMatch(/SCAN profiles(?! USING)/);
    expect(steps, steps).not.toMatch(/SCAN profile_interests/);
  });
});
