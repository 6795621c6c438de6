import { beforeAll, describe, expect, it } from "vitest";
import en from "../../locales/en.json";
import nl from "../../locales/nl.json";
import pl from "../../locales/pl.json";
import type { SearchResponse } from "../../src/shared/api";
import { type FixtureProfile, loadProfiles, putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";

const profiles: FixtureProfile[] = [];
// 30 women in NL aged 20..49 over two provinces, most recently active first by id.
for (let i = 0; i < 30; i++) {
  profiles.push({
    id: 100 + i,
    name: `Woman${i}`,
    country: "NL",
    gender: "female",
    age: 20 + i,
    region: i % 2 ? "NL-NH" : "NL-ZH",
    lastActiveAt: 2_000_000 - i,
    photos: [{ status: "active", main: true }],
  });
}
for (let i = 0; i < 10; i++)
  profiles.push({
    id: 200 + i,
    name: `Man${i}`,
    country: "NL",
    gender: "male",
    age: 30 + i,
    region: "NL-NH",
    lastActiveAt: 1_000_000 - i,
  });
for (let i = 0; i < 5; i++)
  profiles.push({ id: 300 + i, name: `Belgian${i}`, country: "BE", gender: "female", age: 25 + i, region: "BE-VAN" });
profiles.push({
  id: 400,
  name: "Disabled",
  country: "NL",
  gender: "female",
  age: 30,
  status: "disabled",
  searchable: 0,
});
profiles.push({ id: 401, name: "Invisible", country: "NL", gender: "female", age: 30, searchable: 0 });
profiles.push({ id: 402, name: "German", country: "DE", gender: "female", age: 30 });

beforeAll(async () => {
  await putSites(
    site("nl.test"),
    site("closed.test", { logged_out_search: "none", logged_out_search_trafficsource: "all" }),
    site("teaser.test", { logged_out_search: "first_page" }),
  );
  await loadProfiles(profiles);
});

const search = async (query = "", init: RequestInit = {}, host = "nl.test") =>
  fetchWorker(`http://${host}/api/search.php${query}`, init);
const results = async (query = "") => {
  const res = await search(query);
  expect(res.status, query).toBe(200);
  return json<SearchResponse>(res);
};
const ids = (r: SearchResponse) => r.profiles.map((p) => p.id);

describe("search filters", () => {
  it("finds active, visible members of the site's country, most recently active first", async () => {
    const r = await results();
    expect(r.per_page).toBe(24);
    expect(r.profiles).toHaveLength(24);
    expect(r.has_more).toBe(true);
    expect(ids(r).slice(0, 3)).toEqual([100, 101, 102]);
    expect(r.profiles.every((p) => p.country === "NL")).toBe(true);
    expect(ids(r)).not.toContain(400);
    expect(ids(r)).not.toContain(401);
    expect(r.query).toEqual({
      gender: null,
      country: "NL",
      country_region: null,
      min_age: 18,
      max_age: 99,
      verified: false,
    });
  });

  it("pages on without overlap until the last page", async () => {
    const first = await results();
    const second = await results("?page=2");
    expect(second.page).toBe(2);
    expect(second.profiles).toHaveLength(40 - 24);
    expect(second.has_more).toBe(false);
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(40);
    expect(second.similar).toEqual([]);
    const beyond = await results("?page=3");
    expect(beyond.profiles).toEqual([]);
  });

  it("filters by gender", async () => {
    const men = await results("?gender=male");
    expect(men.profiles).toHaveLength(10);
    expect(men.profiles.every((p) => p.gender === "male")).toBe(true);
  });

  it("filters by another country the site serves", async () => {
    const be = await results("?country=BE");
    expect(ids(be).toSorted()).toEqual([300, 301, 302, 303, 304]);
    expect(be.profiles[0]!.region).toBe("Antwerpen");
  });

  it("filters by region of the country", async () => {
    const nh = await results("?gender=female&country_region=NL-NH");
    expect(nh.profiles).toHaveLength(15);
    expect(nh.profiles.every((p) => p.region === "Noord-Holland")).toBe(true);
  });

  it("filters by age, both bounds included", async () => {
    const r = await results("?gender=female&min_age=25&max_age=29");
    expect(r.profiles.map((p) => p.age).toSorted()).toEqual([25, 26, 27, 28, 29]);
  });

  it("adds similar members when a search finds few", async () => {
    const r = await results("?gender=female&min_age=49&max_age=49");
    expect(ids(r)).toEqual([129]);
    expect(r.similar.length).toBeGreaterThan(0);
    expect(r.similar.map((p) => p.id)).not.toContain(129);
    expect(r.similar.every((p) => p.gender === "female" && p.country === "NL" && p.age >= 39)).toBe(true);
  });

  it("gives each card its main image under the media prefix", async () => {
    const r = await results("?gender=female");
    const image = r.profiles[0]!.main_image!;
    expect(image.status).toBe("active");
    expect(image.match).toMatch(/^p\/[0-9a-f]{32}\.jpg$/);
    expect(image.thumb_filename).toMatch(/^t\/[0-9a-f]{32}\.jpg$/);
    const men = await results("?gender=male");
    expect(men.profiles[0]!.main_image).toBeNull();
  });
});

describe("bad search input", () => {
  const cases: [string, string][] = [
    ["?min_age=abc", "min_age"],
    ["?min_age=17", "min_age"],
    ["?max_age=100", "max_age"],
    ["?gender=other", "gender"],
    ["?country=DE", "country"],
    ["?country=nl", "country"],
    ["?country_region=NL-XX", "country_region"],
    ["?country=NL&country_region=BE-VAN", "country_region"],
    ["?page=0", "page"],
    ["?page=501", "page"],
    ["?page=99999999999999", "page"],
    ["?page=-1", "page"],
  ];

  it("answers 400 naming the field, in the user's language", async () => {
    for (const [query, field] of cases) {
      const res = await search(query, { headers: { cookie: "locale=en" } });
      expect(res.status, query).toBe(400);
      const body = await json(res);
      expect(body, query).toMatchObject({ error: "invalid_parameter", field, message: `Invalid value for ${field}` });
    }
  });

  it("answers a minimum age above the maximum with the form's own text, in the user's language, naming no field", async () => {
    for (const [cookie, text] of [
      ["locale=en", en.validation.age_range_reversed],
      ["locale=nl", nl.validation.age_range_reversed],
      ["locale=pl", pl.validation.age_range_reversed],
    ] as const) {
      const res = await search("?min_age=40&max_age=30", { headers: { cookie } });
      expect(res.status).toBe(400);
      const body = await json(res);
      expect(body).toMatchObject({ error: "age_range_reversed", field: "max_age", message: text });
      expect(body.message).not.toMatch(/max_age|min_age/);
    }
    // The same age at both ends is a range, and an open end is too.
    expect((await search("?min_age=40&max_age=40")).status).toBe(200);
    expect((await search("?min_age=99")).status).toBe(200);
  });

  it("ignores parameters it does not know", async () => {
    expect((await search("?color=blue")).status).toBe(200);
  });
});

describe("visitors and logged_out_search", () => {
  it("refuses search where the site keeps it for members", async () => {
    const res = await search("", {}, "closed.test");
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({ error: "login_required" });
  });

  it("uses logged_out_search_trafficsource for a visitor with a traffic source", async () => {
    const page = await fetchWorker("http://closed.test/members?network=aff1&ref=x", { redirect: "manual" });
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect(cookie).toContain("trafficsource=");
    expect((await search("", { headers: { cookie } }, "closed.test")).status).toBe(200);
  });

  it("lets visitors see only the first page where the site says first_page", async () => {
    expect((await search("", {}, "teaser.test")).status).toBe(200);
    expect((await search("?page=2", {}, "teaser.test")).status).toBe(403);
  });
});

describe("the /members page", () => {
  it("renders the first page of results on the server", async () => {
    const html = await (await fetchWorker("http://nl.test/members?gender=female&min_age=25&max_age=29")).text();
    for (const age of [25, 26, 27, 28, 29]) expect(html).toContain(`Woman${age - 20}`);
    expect(html).not.toContain("Man0");
  });

  it("answers bad filters with the error page and the field", async () => {
    const res = await fetchWorker("http://nl.test/members?min_age=abc", { headers: { cookie: "locale=en" } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Invalid value for min_age");
  });

  it("asks a visitor to log in where search is for members", async () => {
    const res = await fetchWorker("http://closed.test/members", { headers: { cookie: "locale=en" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Log in to search members.");
    expect(html).not.toContain("Woman0");
  });
});
