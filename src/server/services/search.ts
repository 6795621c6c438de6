import { SEARCH_PAGE_SIZE, type SearchQuery, type SearchResponse } from "../../shared/api";
import { birthDateRange, MAX_AGE, MIN_AGE } from "../../shared/ages";
import type { SiteSettings } from "../../shared/settings";
import type { Database } from "../db/database";
import { regionIdOf } from "./catalogue";
import { findProfiles, type ProfileFilter } from "../db/profiles";
import { likeStandings } from "../db/likes";
import { invalidParameter } from "../errors";
import { toProfileCard } from "./profile-card";

/** Fewer results than this on the first page brings in similar profiles. */
const FEW_RESULTS = 6;
const SIMILAR_LIMIT = 12;
const SIMILAR_AGE_WIDENING = 10;

export type Criteria = {
  country: string;
  gender?: string;
  regionId?: number;
  minAge: number;
  maxAge: number;
  viewerId?: number;
  except?: number[];
  verified?: boolean;
};

/** The member searching: their profile is left out, and so is anyone either of them blocked. */
export type Searcher = { profileId: number; gender: string; sexuality: string; country: string };

/** The profile filter of search criteria on a given day (the age range as birth dates). */
export function filterOf(c: Criteria, today: Date): ProfileFilter {
  const { minAge, maxAge, ...filter } = c;
  const { from, to } = birthDateRange(minAge, maxAge, today);
  return { ...filter, bornFrom: from, bornTo: to };
}

/** Whom a member looks for when they have not said: hetero the other gender, gay men, lesbian women, bi everyone. */
export function preferredGender(searcher: Pick<Searcher, "gender" | "sexuality">): string | undefined {
  if (searcher.sexuality === "gay") return "male";
  if (searcher.sexuality === "lesbian") return "female";
  if (searcher.sexuality === "bi") return undefined;
  return searcher.gender === "male" ? "female" : "male";
}

/**
 * Member search (SPEC §2, §4): active, visible members of one of the site's countries, those with a
 * public main photo first, then newest activity, a page at a time. A first page with few results also carries similar profiles:
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
  const gender =
    query.gender === "any" ? undefined : (query.gender ?? (searcher ? preferredGender(searcher) : undefined));
  if (!site.countries.includes(country)) throw invalidParameter("country");
  let regionId: number | undefined;
  if (query.country_region) {
    regionId = await regionIdOf(db, query.country_region, country);
    if (regionId === undefined) throw invalidParameter("country_region");
  }
  const criteria: Criteria = {
    country,
    ...(gender ? { gender } : {}),
    ...(regionId !== undefined ? { regionId } : {}),
    minAge: query.min_age ?? MIN_AGE,
    maxAge: query.max_age ?? MAX_AGE,
    ...(searcher ? { viewerId: searcher.profileId } : {}),
    ...(query.verified ? { verified: true } : {}),
  };
  const page = query.page ?? 1;
  // One extra row tells whether another page exists without a COUNT over the whole match.
  const rows = await findProfiles(db, filterOf(criteria, today), SEARCH_PAGE_SIZE + 1, (page - 1) * SEARCH_PAGE_SIZE);
  const found = rows.slice(0, SEARCH_PAGE_SIZE).map((row) => toProfileCard(row, today));

  let similar: SearchResponse["similar"] = [];
  if (page === 1 && found.length < FEW_RESULTS) {
    const relaxed: Criteria = {
      country,
      ...(criteria.gender ? { gender: criteria.gender } : {}),
      ...(searcher ? { viewerId: searcher.profileId } : {}),
      minAge: Math.max(MIN_AGE, criteria.minAge - SIMILAR_AGE_WIDENING),
      maxAge: Math.min(MAX_AGE, criteria.maxAge + SIMILAR_AGE_WIDENING),
      except: found.map((p) => p.id),
      ...(criteria.verified ? { verified: true } : {}),
    };
    similar = (await findProfiles(db, filterOf(relaxed, today), SIMILAR_LIMIT, 0)).map((row) =>
      toProfileCard(row, today),
    );
  }

  // A member's cards say whom they like and match (one read of their likes), so no card offers a like again.
  const standings = searcher
    ? await likeStandings(
        db,
        searcher.profileId,
        [...found, ...similar].map((p) => p.id),
      )
    : null;
  const withStanding = (card: SearchResponse["profiles"][number]) => {
    if (!standings) return card;
    const standing = standings.get(card.id);
    return { ...card, liked: standing !== undefined, matched: standing?.matched ?? false };
  };
  return {
    profiles: found.map(withStanding),
    page,
    per_page: SEARCH_PAGE_SIZE,
    has_more: rows.length > SEARCH_PAGE_SIZE,
    similar: similar.map(withStanding),
    query: {
      gender: criteria.gender ?? null,
      country,
      country_region: query.country_region ?? null,
      min_age: criteria.minAge,
      max_age: criteria.maxAge,
      verified: criteria.verified === true,
    },
  };
}
