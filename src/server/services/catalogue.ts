import { and, asc, eq, inArray } from "drizzle-orm";
import type { InterestsResponse, RegionsResponse } from "../../shared/api";
import type { Language } from "../../shared/locales";
import type { Database } from "../context";
import { interestNames, interests, regions } from "../db/schema";

/** Regions of the given countries, by country then name. */
export async function listRegions(db: Database, countries: readonly string[]): Promise<RegionsResponse> {
  const rows = await db
    .select({ code: regions.code, name: regions.name, country: regions.country })
    .from(regions)
    .where(inArray(regions.country, [...countries]))
    .orderBy(asc(regions.country), asc(regions.name));
  return { regions: rows };
}

/** The interests list with names in one language. */
export async function listInterests(db: Database, language: Language): Promise<InterestsResponse> {
  const rows = await db
    .select({ slug: interests.slug, name: interestNames.name })
    .from(interests)
    .innerJoin(interestNames, and(eq(interestNames.interestId, interests.id), eq(interestNames.language, language)))
    .orderBy(asc(interests.sort));
  return { interests: rows };
}
