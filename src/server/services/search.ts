import { and, desc, eq, gte, lte, ne, notInArray, type SQL } from "drizzle-orm";
import { SEARCH_PAGE_SIZE, type SearchQuery, type SearchResponse } from "../../shared/api";
import { birthDateRange, MAX_AGE, MIN_AGE } from "../../shared/ages";
import type { SiteSettings } from "../../shared/settings";
import type { Database } from "../context";
import { photos, profiles, regions } from "../db/schema";
import { invalidParameter } from "../errors";
import { notBlockedWith } from "./blocking";
import { cardColumns, mainPhotoJoin, regionJoin, toProfileCard } from "./profile-card";

/** Fewer results than this on the first page brings in similar profiles. */
export const FEW_RESULTS = 6;
const SIMILAR_LIMIT = 12;
const SIMILAR_AGE_WIDENING = 10;

export type Criteria = { country: string; gender?: string; regionId?: number; minAge: number; maxAge: number; viewerId?: number };

/** The member searching: their profile is left out, and so is anyone either of them blocked. */
export type Searcher = { profileId: number; gender: string; sexuality: string; country: string };

export function conditions(c: Criteria, today: Date): SQL[] {
  const { from, to } = birthDateRange(c.minAge, c.maxAge, today);
  const where = [eq(profiles.country, c.country), eq(profiles.searchable, 1), gte(profiles.birthDate, from), lte(profiles.birthDate, to)];
  if (c.gender) where.push(eq(profiles.gender, c.gender));
  if (c.regionId !== undefined) where.push(eq(profiles.regionId, c.regionId));
  if (c.viewerId !== undefined) where.push(ne(profiles.id, c.viewerId), notBlockedWith(c.viewerId));
  return where;
}

/** Whom a member looks for when they have not said: hetero the other gender, gay men, lesbian women, bi everyone. */
export function preferredGender(searcher: Pick<Searcher, "gender" | "sexuality">): string | undefined {
  if (searcher.sexuality === "gay") return "male";
  if (searcher.sexuality === "lesbian") return "female";
  if (searcher.sexuality === "bi") return undefined;
  return searcher.gender === "male" ? "female" : "male";
}

/** The search query itself (exported so a test can read its query plan). */
export function findProfiles(db: Database, where: SQL[], limit: number, offset: number) {
  return db
    .select(cardColumns)
    .from(profiles)
    .leftJoin(regions, regionJoin)
    .leftJoin(photos, mainPhotoJoin)
    .where(and(...where))
    .orderBy(desc(profiles.lastActiveAt))
    .limit(limit)
    .offset(offset);
}

/**
 * Member search (SPEC §2, §4): active, visible members of one of the site's countries, newest
 * activity first, a page at a time. A first page with few results also carries similar profiles:
 * the same country and gender in any region, with the age range widened.
 */
export async function searchMembers(
  db: Database,
  site: SiteSettings,
  query: SearchQuery,
  defaultCountry: string,
  searcher: Searcher | null = null,
  today = new Date(),
): Promise<SearchResponse> {
  // A member's own country and preference are the defaults of their search.
  const ownCountry = searcher && site.countries.includes(searcher.country) ? searcher.country : defaultCountry;
  const country = query.country ?? ownCountry;
  const gender = query.gender === "any" ? undefined : (query.gender ?? (searcher ? preferredGender(searcher) : undefined));
  if (!site.countries.includes(country)) throw invalidParameter("country");
  let regionId: number | undefined;
  if (query.country_region) {
    const region = await db
      .select({ id: regions.id })
      .from(regions)
      .where(and(eq(regions.code, query.country_region), eq(regions.country, country)))
      .get();
    if (!region) throw invalidParameter("country_region");
    regionId = region.id;
  }
  const criteria: Criteria = {
    country,
    ...(gender ? { gender } : {}),
    ...(regionId !== undefined ? { regionId } : {}),
    minAge: query.min_age ?? MIN_AGE,
    maxAge: query.max_age ?? MAX_AGE,
    ...(searcher ? { viewerId: searcher.profileId } : {}),
  };
  const page = query.page ?? 1;
  // One extra row tells whether another page exists without a COUNT over the whole match.
  const rows = await findProfiles(db, conditions(criteria, today), SEARCH_PAGE_SIZE + 1, (page - 1) * SEARCH_PAGE_SIZE);
  const found = rows.slice(0, SEARCH_PAGE_SIZE).map((row) => toProfileCard(row, today));

  let similar: SearchResponse["similar"] = [];
  if (page === 1 && found.length < FEW_RESULTS) {
    const relaxed: Criteria = {
      country,
      ...(criteria.gender ? { gender: criteria.gender } : {}),
      ...(searcher ? { viewerId: searcher.profileId } : {}),
      minAge: Math.max(MIN_AGE, criteria.minAge - SIMILAR_AGE_WIDENING),
      maxAge: Math.min(MAX_AGE, criteria.maxAge + SIMILAR_AGE_WIDENING),
    };
    const where = conditions(relaxed, today);
    if (found.length) where.push(notInArray(profiles.id, found.map((p) => p.id)));
    similar = (await findProfiles(db, where, SIMILAR_LIMIT, 0)).map((row) => toProfileCard(row, today));
  }

  return {
    profiles: found,
    page,
    per_page: SEARCH_PAGE_SIZE,
    has_more: rows.length > SEARCH_PAGE_SIZE,
    similar,
    query: {
      gender: criteria.gender ?? null,
      country,
      country_region: query.country_region ?? null,
      min_age: criteria.minAge,
      max_age: criteria.maxAge,
    },
  };
}
