/** Places and reference data: regions, interests (with their names per language) and the places of the geocoder. */
import { and, asc, between, count, eq, inArray } from "drizzle-orm";
import type { Database } from "./database";
import { interests, places, regions } from "./schema";

/** Regions of the given countries, by country then name. */
export async function regionsOf(db: Database, countries: readonly string[]) {
  return db
    .select({ code: regions.code, name: regions.name, country: regions.country })
    .from(regions)
    .where(inArray(regions.country, [...countries]))
    .orderBy(asc(regions.country), asc(regions.name));
}

/** The ids of a country's regions by their ISO 3166-2 codes. */
export async function regionIdsOf(db: Database, country: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: regions.id, code: regions.code })
    .from(regions)
    .where(eq(regions.country, country));
  return new Map(rows.map((r) => [r.code, r.id]));
}

/** Every interest's slug, in the list's order (migration 0020 writes the rows; the names are in locales/). */
export async function interestSlugs(db: Database): Promise<string[]> {
  const rows = await db.select({ slug: interests.slug }).from(interests).orderBy(asc(interests.sort));
  return rows.map((r) => r.slug);
}

/** How many of these slugs name an interest. */
export async function knownInterestCount(db: Database, slugs: string[]): Promise<number> {
  return (await db.select({ n: count() }).from(interests).where(inArray(interests.slug, slugs)).get())?.n ?? 0;
}

export type Box = { south: number; north: number; west: number; east: number };

/** Places in these grid cells within a box, with their region (the query, so a test can read its plan). */
export function placesInBox(db: Database, cells: number[], box: Box) {
  return db
    .select({
      name: places.name,
      country: places.country,
      lat: places.lat,
      lon: places.lon,
      population: places.population,
      regionCode: regions.code,
      regionName: regions.name,
    })
    .from(places)
    .leftJoin(regions, eq(regions.id, places.regionId))
    .where(
      and(
        inArray(places.cell, cells),
        between(places.lat, box.south, box.north),
        between(places.lon, box.west, box.east),
      ),
    );
}

/** The places of a country with one of these names (several places may share one), for the map lander. */
export function placesNamed(db: Database, country: string, names: string[]) {
  return db
    .select({ name: places.name, lat: places.lat, lon: places.lon, population: places.population })
    .from(places)
    .where(and(eq(places.country, country), inArray(places.name, names)));
}
