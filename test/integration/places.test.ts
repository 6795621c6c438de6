import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { PLACE_COUNTRIES, REGIONS, type PlaceCountry } from "../../scripts/demo/regions";
import type { GeocodeResponse, RegionsResponse } from "../../src/shared/api";
import { putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";

/** The statements `npm run places -- load --country XX` runs, from the real gazetteer (test/places-server.ts). */
async function placesStatements(country: PlaceCountry): Promise<string[]> {
  const res = await fetch(`${inject("placesUrl")}/${country}`);
  expect(res.status).toBe(200);
  return res.json<string[]>();
}

async function load(country: PlaceCountry): Promise<void> {
  const statements = await placesStatements(country);
  await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
}

/** Each country's capital (GeoNames' point for it), the town the geocoder must answer there and its region. */
const CAPITALS: Record<PlaceCountry, [lat: number, lon: number, city: string, region: string]> = {
  AT: [48.20849, 16.37208, "Wien", "AT-9"],
  BE: [50.85045, 4.34878, "Bruxelles", "BE-BRU"],
  CH: [46.94809, 7.44744, "Bern", "CH-BE"],
  DE: [52.52437, 13.41053, "Berlin", "DE-BE"],
  DK: [55.67594, 12.56553, "København", "DK-84"],
  ES: [40.4165, -3.70256, "Madrid", "ES-MD"],
  FI: [60.16952, 24.93545, "Helsinki", "FI-18"],
  FR: [48.85341, 2.3488, "Paris", "FR-IDF"],
  GB: [51.50853, -0.12574, "London", "GB-TLI"],
  IE: [53.33306, -6.24889, "Dublin", "IE-L"],
  IT: [41.89193, 12.51133, "Roma", "IT-62"],
  LU: [49.61167, 6.13, "Luxembourg", "LU-LU"],
  NL: [52.37403, 4.88969, "Amsterdam", "NL-NH"],
  NO: [59.91273, 10.74609, "Oslo", "NO-03"],
  PL: [52.22977, 21.01178, "Warszawa", "PL-MZ"],
  PT: [38.71667, -9.13333, "Lisboa", "PT-11"],
  SE: [59.33258, 18.0649, "Stockholm", "SE-AB"],
};

/** How many first-level subdivisions each country has in ISO 3166-2 (England by its nine ITL1 regions). */
const REGION_COUNTS: Record<PlaceCountry, number> = {
  AT: 9,
  BE: 11,
  CH: 26,
  DE: 16,
  DK: 5,
  ES: 19,
  FI: 19,
  FR: 13,
  GB: 12,
  IE: 4,
  IT: 20,
  LU: 12,
  NL: 12,
  NO: 11,
  PL: 16,
  PT: 20,
  SE: 21,
};

const SITE = "http://everywhere.test";

beforeAll(async () => {
  await putSites(site("everywhere.test", { countries: [...PLACE_COUNTRIES] }));
});

describe("regions as reference data (migration 0034)", () => {
  it("every database has the regions of the demo list, with the ids the seed used", async () => {
    const { results } = await env.DB.prepare("SELECT id, country, code, name FROM regions ORDER BY id").all();
    expect(results).toEqual(REGIONS.map(({ id, country, code, name }) => ({ id, country, code, name })));
  });

  it.each(PLACE_COUNTRIES)("GET /api/regions.php answers the regions of %s, by their ISO 3166-2 codes", async (c) => {
    const body = await json<RegionsResponse>(await fetchWorker(`${SITE}/api/regions.php?country=${c}`));
    expect(body.regions).toHaveLength(REGION_COUNTS[c]);
    for (const r of body.regions) expect(r.code).toMatch(new RegExp(`^${c}-[A-Z0-9]{1,3}$`));
  });

  it("lists a country's regions as its language sorts them, not byte by byte", async () => {
    const body = await json<RegionsResponse>(await fetchWorker(`${SITE}/api/regions.php?country=FR`));
    const names = body.regions.map((r) => r.name);
    expect(names.indexOf("Île-de-France")).toBe(names.indexOf("Hauts-de-France") + 1);
    expect(names.at(-1)).toBe("Provence-Alpes-Côte d'Azur");
  });
});

describe("towns by the places command", () => {
  it.each(PLACE_COUNTRIES)("loads the towns of %s and geocodes its capital to a town in it", async (c) => {
    const [lat, lon, city, region] = CAPITALS[c];
    const before = await fetchWorker(`${SITE}/api/geocode.php?lat=${lat}&lon=${lon}`);
    expect(before.status === 404 || (await before.json<GeocodeResponse>()).country !== c).toBe(true);
    await load(c);
    const body = await json<GeocodeResponse>(await fetchWorker(`${SITE}/api/geocode.php?lat=${lat}&lon=${lon}`));
    expect(body).toMatchObject({ city, country: c, region: { code: region } });
    const { results } = await env.DB.prepare(
      "SELECT count(*) AS towns, count(region_id) AS placed FROM places WHERE country = ?",
    )
      .bind(c)
      .all<{ towns: number; placed: number }>();
    expect(results[0]!.towns).toBeGreaterThan(80);
    // Every town lies in one of the country's regions.
    expect(results[0]!.placed).toBe(results[0]!.towns);
  });

  it("loading a country again changes nothing", async () => {
    const count = () => env.DB.prepare("SELECT count(*) AS n FROM places").first<{ n: number }>();
    await load("LU");
    const once = await count();
    await load("LU");
    expect(await count()).toEqual(once);
  });
});
