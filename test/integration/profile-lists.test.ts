import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { findProfiles, profileListQuery, type ProfileFilter } from "../../src/server/db/profiles";
import { birthDateForAge, type FixtureProfile, loadProfiles } from "../fixtures";

// Lists of members (search, similar and related profiles, showcases) run SQL that drizzle builds once
// per shape of filter (docs/decisions/0044). Each must give exactly what drizzle's own query with the
// same values gives, and no value of one list may stay behind in the next list of that shape.
const db = databaseOf(env.DB);

const profiles: FixtureProfile[] = Array.from({ length: 30 }, (_, i): FixtureProfile => ({
  id: 100 + i,
  name: `Member${i}`,
  country: i % 5 === 4 ? "BE" : "NL",
  gender: i % 2 ? "male" : "female",
  age: 20 + i * 2,
  ...(i % 3 === 0 ? {} : { region: i % 3 === 1 ? "NL-NH" : "NL-ZH" }),
  ...(i % 4 === 0 ? { city: `Town${i}` } : {}),
  lastActiveAt: 1_000_000 + ((i * 7) % 30),
  ...(i % 2 === 0 ? { photos: [{ status: i % 6 === 0 ? "pending" : "active", main: true }] } : {}),
}));
const VIEWER = 100;

beforeAll(async () => {
  await loadProfiles(profiles);
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET paid_user = 1 WHERE id % 3 = 0"),
    // Approved; the badge shows only with an approved main photo (docs/decisions/0049).
    env.DB.prepare("UPDATE profiles SET verified = 1 WHERE id % 4 = 2"),
    env.DB.prepare("UPDATE profiles SET fictional = 0 WHERE id % 5 = 2"),
    env.DB.prepare("DELETE FROM blocks"),
    env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?, 102), (107, ?)").bind(VIEWER, VIEWER),
  ]);
});

const all = { country: "NL", bornFrom: birthDateForAge(99), bornTo: birthDateForAge(18) };
const filters: [string, ProfileFilter, number, number][] = [
  ["a country", all, 25, 0],
  ["a country, second page", all, 5, 5],
  ["a gender", { ...all, gender: "female" }, 25, 0],
  ["the other gender", { ...all, gender: "male" }, 25, 0],
  ["an age range", { ...all, bornFrom: birthDateForAge(40), bornTo: birthDateForAge(25) }, 25, 0],
  ["a region", { ...all, regionId: 1 }, 25, 0],
  ["another region and a gender", { ...all, regionId: 2, gender: "male" }, 25, 0],
  ["a viewer, blocked either way", { ...all, viewerId: VIEWER }, 25, 0],
  ["profiles left out", { ...all, except: [101, 103] }, 25, 0],
  ["other profiles left out", { ...all, except: [104, 105] }, 25, 0],
  ["verified only", { ...all, verified: true }, 25, 0],
  [
    "everything at once",
    { ...all, gender: "female", regionId: 1, viewerId: VIEWER, except: [101], verified: true },
    25,
    0,
  ],
  ["another country", { ...all, country: "BE" }, 25, 0],
];

describe("lists of profile cards", () => {
  for (const [name, filter, limit, offset] of filters) {
    it(`give what drizzle's own query gives: ${name}`, async () => {
      const values: Record<string, unknown> = { ...filter, limit, offset };
      filter.except?.forEach((id, i) => (values[`except${i}`] = id));
      const expected = await profileListQuery(db, filter).prepare().all(values);
      const rows = await findProfiles(db, filter, limit, offset);
      expect(rows).toEqual(expected);
      expect(rows.length).toBeGreaterThan(0);
    });
  }

  it("read each column as its own type: flags as true or false, a missing region or photo as null", async () => {
    const rows = await findProfiles(db, all, 50, 0);
    expect(rows.map((r) => r.id).toSorted((a, b) => a - b)).toEqual(
      profiles.filter((p) => p.country === "NL").map((p) => p.id),
    );
    for (const row of rows) {
      const i = row.id - 100;
      expect(row).toMatchObject({
        name: `Member${i}`,
        birthDate: birthDateForAge(20 + i * 2),
        premium: row.id % 3 === 0,
        verified: row.id % 4 === 2 && i % 6 !== 0,
        fictional: row.id % 5 !== 2,
        region: i % 3 === 0 ? null : i % 3 === 1 ? "Noord-Holland" : "Zuid-Holland",
        city: i % 4 === 0 ? `Town${i}` : null,
      });
      expect(row.photoKey === null).toBe(i % 2 === 1);
      if (row.photoKey !== null) expect(row.photoStatus).toBe(i % 6 === 0 ? "pending" : "active");
    }
  });

  it("of one shape follow each filter's own values, in turn and at once", async () => {
    const female = { ...all, gender: "female" };
    const male = { ...all, gender: "male" };
    const [a, b, c] = await Promise.all([
      findProfiles(db, female, 25, 0),
      findProfiles(db, male, 25, 0),
      findProfiles(db, female, 25, 0),
    ]);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(a.every((r) => r.gender === "female")).toBe(true);
    expect(b.every((r) => r.gender === "male")).toBe(true);
    expect(c).toEqual(a);
    // The viewer's blocks, both ways, and the viewer's own profile.
    const seen = (await findProfiles(db, { ...all, viewerId: VIEWER }, 50, 0)).map((r) => r.id);
    expect(seen).not.toContain(VIEWER);
    expect(seen).not.toContain(102);
    expect(seen).not.toContain(107);
    expect((await findProfiles(db, { ...all, viewerId: 101 }, 50, 0)).map((r) => r.id)).toContain(102);
  });
});
