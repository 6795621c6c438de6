import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileResponse, User } from "../../src/shared/api";
import { birthDateForAge, loadProfiles, putSites, site } from "../fixtures";
import { Browser, json } from "../http";

const ORIGIN = "http://nl.test";
let n = 0;

async function member(gender: "male" | "female" = "female") {
  n++;
  const browser = new Browser(ORIGIN);
  const res = await browser.post("/api/signup.php", {
    email: `own${n}@example.com`,
    username: `own${n}`,
    password: "a good password",
    date_of_birth: birthDateForAge(40),
    gender,
    terms: true,
  });
  const { user } = await json<{ user: User }>(res);
  return { browser, user };
}

beforeAll(async () => {
  await putSites(site("nl.test"));
  await loadProfiles([]);
});

describe("PUT /api/profile.php", () => {
  it("changes the member's own profile fields, region, city, interests and about me", async () => {
    const { browser, user } = await member();
    const res = await browser.put("/api/profile.php", {
      sexuality: "bi",
      relationship_status: "divorced",
      body_type: "slim",
      hair_color: "red",
      eye_color: "green",
      tattoos: "some",
      interests: ["cooking", "travel", "cooking"],
      about_me: "  Likes long walks.  ",
      region: "NL-ZH",
      city: "Delft",
    });
    expect(res.status).toBe(200);
    const { profile } = await json<ProfileResponse>(res);
    expect(profile).toMatchObject({
      id: user.profile.id,
      sexuality: "bi",
      relationship_status: "divorced",
      body_type: "slim",
      hair_color: "red",
      eye_color: "green",
      tattoos: "some",
      about_me: "Likes long walks.",
      region: "Zuid-Holland",
      city: "Delft",
    });
    expect(profile.interests.map((i) => i.slug).toSorted()).toEqual(["cooking", "travel"]);

    const again = await json<ProfileResponse>(
      await browser.put("/api/profile.php", { interests: ["travel"], city: null }),
    );
    expect(again.profile.interests.map((i) => i.slug)).toEqual(["travel"]);
    expect(again.profile.city).toBeNull();
    expect(again.profile.hair_color).toBe("red");
  });

  it("refuses a region of another country, an unknown interest, a sexuality that does not fit, and unknown fields, changing nothing", async () => {
    const { browser, user } = await member("male");
    const before = await env.DB.prepare("SELECT * FROM profiles WHERE id = ?").bind(user.profile.id).first();
    const cases: [Record<string, unknown>, string][] = [
      [{ region: "BE-VAN" }, "region"],
      [{ interests: ["travel", "knitting-on-mars"] }, "interests"],
      [{ sexuality: "lesbian" }, "sexuality"],
      [{ name: "Someone else" }, "name"],
      [{ about_me: "x".repeat(2001) }, "about_me"],
      [{ hair_color: "purple" }, "hair_color"],
    ];
    for (const [body, field] of cases) {
      const res = await browser.put("/api/profile.php", body);
      expect(res.status, field).toBe(400);
      expect(await json(res), field).toMatchObject({ field });
    }
    expect(await env.DB.prepare("SELECT * FROM profiles WHERE id = ?").bind(user.profile.id).first()).toEqual(before);
  });

  it("refuses a field named like a property every object has, naming it, changing nothing", async () => {
    const { browser, user } = await member();
    const before = await env.DB.prepare("SELECT * FROM profiles WHERE id = ?").bind(user.profile.id).first();
    for (const field of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      const res = await browser.fetch("/api/profile.php", {
        method: "PUT",
        body: `{"${field}": 1}`,
        headers: { "content-type": "application/json" },
      });
      expect(res.status, field).toBe(400);
      expect(await json(res), field).toMatchObject({ error: "invalid_parameter", field });
    }
    expect(await env.DB.prepare("SELECT * FROM profiles WHERE id = ?").bind(user.profile.id).first()).toEqual(before);
  });

  it("is for members only, from this site's pages", async () => {
    expect((await new Browser(ORIGIN).put("/api/profile.php", { city: "Delft" })).status).toBe(403);
    const { browser } = await member();
    const foreign = await browser.fetch("/api/profile.php", {
      method: "PUT",
      json: { city: "Elsewhere" },
      headers: { origin: "http://evil.example" },
    });
    expect(foreign.status).toBe(403);
  });
});
