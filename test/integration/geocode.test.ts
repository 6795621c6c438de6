import { drizzle } from "drizzle-orm/d1";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { parseGeoNames, placeRows, placeStatements, regionCodeOf } from "../../scripts/demo/places";
import { REGIONS } from "../../scripts/demo/regions";
import * as schema from "../../src/server/db/schema";
import { placesNear } from "../../src/server/services/geocode";
import type { GeocodeResponse } from "../../src/shared/api";
import { putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";

/** A line of GeoNames' cities file: real records, with the list of alternate names cut short. */
function geoNamesLine(
  id: number,
  name: string,
  alternates: string[],
  lat: number,
  lon: number,
  featureCode: string,
  country: string,
  admin1: string,
  admin2: string,
  population: number,
): string {
  return [
    id,
    name,
    name,
    alternates.join(","),
    lat,
    lon,
    "P",
    featureCode,
    country,
    "",
    admin1,
    admin2,
    "",
    "",
    population,
    "",
    "0",
    "Europe/Amsterdam",
    "2023-02-26",
  ].join("\t");
}

const GAZETTEER = [
  geoNamesLine(2759794, "Amsterdam", ["AMS", "Amsterdam"], 52.37403, 4.88969, "PPLC", "NL", "07", "0363", 741636),
  geoNamesLine(6544881, "Amsterdam-Zuidoost", [], 52.3075, 4.97222, "PPLX", "NL", "07", "0363", 84811),
  geoNamesLine(2756504, "Duivendrecht", ["Amsterdam-Duivendrecht"], 52.32941, 4.93964, "PPL", "NL", "07", "0437", 4720),
  geoNamesLine(2757220, "Den Helder", [], 52.95988, 4.75933, "PPL", "NL", "07", "0400", 59569),
  geoNamesLine(2803138, "Antwerpen", ["Antwerp", "Anvers"], 51.22047, 4.40026, "PPL", "BE", "VLG", "VAN", 529247),
  geoNamesLine(2801471, "Borgerhout", [], 51.20957, 4.43539, "PPL", "BE", "VLG", "VAN", 46087),
  geoNamesLine(
    2867714,
    "Munich",
    ["MUC", "Monaco di Baviera", "München", "Munich"],
    48.13743,
    11.57549,
    "PPLA",
    "DE",
    "02",
    "091",
    1260391,
  ),
  geoNamesLine(2657896, "Zürich", ["Zurich", "Zurigo"], 47.36667, 8.55, "PPLA", "CH", "ZH", "112", 341730),
  geoNamesLine(2964574, "Dublin", ["Baile Átha Cliath", "DUB"], 53.33306, -6.24889, "PPLC", "IE", "L", "33", 1024027),
  geoNamesLine(2643123, "Manchester", ["MAN", "Manceinion"], 53.48095, -2.23743, "PPLA2", "GB", "ENG", "I2", 395515),
  geoNamesLine(2638671, "Salford", [], 53.48771, -2.29042, "PPLA2", "GB", "ENG", "L5", 129794),
  // A village too small to be loaded.
  geoNamesLine(2747000, "Tiny", [], 52.372, 4.889, "PPL", "NL", "07", "0363", 600),
].join("\n");

const SITE = "http://nl.test";
const geocode = (query: string) => fetchWorker(`${SITE}/api/geocode.php?${query}`);

beforeAll(async () => {
  await putSites(site("nl.test"));
  const db = env.DB;
  await db.batch([db.prepare("DELETE FROM places"), db.prepare("DELETE FROM regions")]);
  await db.batch(
    REGIONS.map((r) =>
      db
        .prepare("INSERT INTO regions (id, country, code, name) VALUES (?, ?, ?, ?)")
        .bind(r.id, r.country, r.code, r.name),
    ),
  );
  // The seed's own loader, on a few real places.
  await db.batch(placeStatements(placeRows(parseGeoNames(GAZETTEER))).map((s) => db.prepare(s.sql).bind(...s.params)));
});

describe("GET /api/geocode.php", () => {
  const cases: [string, string, GeocodeResponse][] = [
    [
      "Amsterdam",
      "lat=52.37&lon=4.89",
      { city: "Amsterdam", region: { code: "NL-NH", name: "Noord-Holland" }, country: "NL" },
    ],
    [
      "Antwerp",
      "lat=51.2194&lon=4.4025",
      { city: "Antwerpen", region: { code: "BE-VAN", name: "Antwerpen" }, country: "BE" },
    ],
    [
      "Munich, under the name our regions use",
      "lat=48.1372&lon=11.5755",
      { city: "München", region: { code: "DE-BY", name: "Bayern" }, country: "DE" },
    ],
    ["Zürich", "lat=47.3769&lon=8.5417", { city: "Zürich", region: { code: "CH-ZH", name: "Zürich" }, country: "CH" }],
    [
      "Dublin",
      "lat=53.3498&lon=-6.2603",
      { city: "Dublin", region: { code: "IE-L", name: "Leinster" }, country: "IE" },
    ],
    [
      "Manchester, an English county mapped to its region",
      "lat=53.4808&lon=-2.2426",
      { city: "Manchester", region: { code: "GB-TLD", name: "North West England" }, country: "GB" },
    ],
  ];
  for (const [name, query, answer] of cases) {
    it(`answers the town, its region and country: ${name}`, async () => {
      const res = await geocode(query);
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual(answer);
    });
  }

  it("answers places in any of the demo countries, not only the site's own (nl.test is NL and BE)", async () => {
    expect(await json(await geocode("lat=48.1372&lon=11.5755"))).toMatchObject({ country: "DE" });
  });

  it("never echoes the coordinates", async () => {
    const text = await (await geocode("lat=52.3702157&lon=4.8951679")).text();
    expect(Object.keys(JSON.parse(text) as object).toSorted()).toEqual(["city", "country", "region"]);
    expect(text).not.toMatch(/52\.3|4\.89|lat|lon/);
  });

  it("names the town whose reach the point is in, not a part of a town nor the nearest village centre", async () => {
    // Amsterdam-Zuidoost: its own record is a section of Amsterdam; Duivendrecht's centre is nearer than Amsterdam's.
    expect(await json(await geocode("lat=52.3075&lon=4.97222"))).toMatchObject({ city: "Amsterdam" });
    // A town's own centre names that town, even inside a bigger city's reach.
    expect(await json(await geocode("lat=53.4877&lon=-2.2904"))).toMatchObject({
      city: "Salford",
      region: { code: "GB-TLD" },
    });
    expect(await json(await geocode("lat=51.2096&lon=4.4354"))).toMatchObject({ city: "Borgerhout" });
  });

  it("finds nothing at sea or farther than 30 km from every town: 404 with a message in the site's language", async () => {
    // Near the poles too, where the squares of longitude are narrow, and at the poles themselves.
    const polar = ["lat=89.5&lon=4.9", "lat=-89.5&lon=-170", "lat=90&lon=180", "lat=-90&lon=0", "lat=86&lon=0"];
    for (const query of ["lat=53.5&lon=3.5", "lat=52.67&lon=4.89", "lat=0&lon=0", "lat=-33.9&lon=151.2", ...polar]) {
      const res = await geocode(query);
      expect(res.status, query).toBe(404);
      expect(await json(res), query).toEqual({
        error: "not_found",
        message: "Geen plaats gevonden in de buurt van deze locatie",
      });
    }
  });

  it("refuses coordinates that are missing, not numbers or out of range, naming the field", async () => {
    const bad: [string, string][] = [
      ["lon=4.89", "lat"],
      ["lat=52.37", "lon"],
      ["", "lat"],
      ["lat=&lon=4.89", "lat"],
      ["lat=abc&lon=4.89", "lat"],
      ["lat=NaN&lon=4.89", "lat"],
      ["lat=Infinity&lon=4.89", "lat"],
      ["lat=1e1&lon=4.89", "lat"],
      ["lat=0x10&lon=4.89", "lat"],
      ["lat=91&lon=4.89", "lat"],
      ["lat=-90.5&lon=4.89", "lat"],
      ["lat=52.37&lon=180.01", "lon"],
      ["lat=52.37&lon=-181", "lon"],
      ["lat=52.37&lon=4,89", "lon"],
    ];
    for (const [query, field] of bad) {
      const res = await geocode(query);
      expect(res.status, query).toBe(400);
      expect(await json(res), query).toMatchObject({ error: "invalid_parameter", field });
    }
  });

  it("reads only the grid squares around the point through the index", async () => {
    const { sql, params } = placesNear(drizzle(env.DB, { schema }), 52.37, 4.89).toSQL();
    const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    const steps = rows.results.map((r) => r.detail).join("\n");
    expect(steps).toMatch(/SEARCH places USING INDEX places_cell_idx \(cell=\? AND lat>\? AND lat<\?\)/);
    expect(steps).toMatch(/SEARCH regions USING INTEGER PRIMARY KEY/);
  });
});

describe("the places loader", () => {
  it("keeps whole towns of 1,000 people or more and maps GeoNames' admin codes to our regions", () => {
    const rows = placeRows(parseGeoNames(GAZETTEER));
    expect(rows.map((r) => r.name)).not.toContain("Amsterdam-Zuidoost");
    expect(rows.map((r) => r.name)).not.toContain("Tiny");
    const codeOf = (id: number | null) => REGIONS.find((r) => r.id === id)?.code;
    expect(rows.map((r) => [r.name, codeOf(r.region_id)])).toContainEqual(["Salford", "GB-TLD"]);
  });

  it("maps each country's admin codes to an ISO 3166-2 region of ours (ITL1 in England)", () => {
    const cases: [string, string, string, string | null][] = [
      ["NL", "07", "0363", "NL-NH"],
      ["NL", "16", "0034", "NL-FL"],
      ["BE", "BRU", "BRU", "BE-BRU"],
      ["BE", "WAL", "WHT", "BE-WHT"],
      ["BE", "VLG", "VWV", "BE-VWV"],
      ["DE", "16", "00", "DE-BE"],
      ["DE", "01", "081", "DE-BW"],
      ["AT", "09", "900", "AT-9"],
      ["CH", "TI", "2105", "CH-TI"],
      ["IE", "M", "04", "IE-M"],
      ["GB", "ENG", "GLA", "GB-TLI"],
      ["GB", "ENG", "J1", "GB-TLF"],
      ["GB", "SCT", "V2", "GB-SCT"],
      ["GB", "NIR", "R3", "GB-NIR"],
      ["GB", "ENG", "ZZ", null],
      ["NL", "99", "", null],
      ["FR", "11", "75", "FR-IDF"],
      ["FR", "94", "2A", "FR-20R"],
      ["FI", "01", "011", "FI-18"],
      ["ES", "56", "B", "ES-CT"],
      ["IT", "07", "RM", "IT-62"],
      ["PT", "10", "31", "PT-30"],
      ["LU", "ES", "", "LU-ES"],
      ["IT", "99", "", null],
      ["US", "NY", "061", null],
    ];
    for (const [country, admin1, admin2, code] of cases) {
      expect(regionCodeOf({ country, admin1, admin2 }), `${country}.${admin1}.${admin2}`).toBe(code);
      if (code)
        expect(
          REGIONS.some((r) => r.code === code),
          code,
        ).toBe(true);
    }
  });
});
