import type { InterestsResponse, RegionsResponse } from "../../shared/api";
import { languagesForCountry, type Language } from "../../shared/locales";
import type { Database } from "../db/database";
import { interestSlugs, regionIdsOf, regionsOf } from "../db/places";
import { i18nFor } from "../translations";

/** Reference data changes with a deploy or a migration, not per request: keep it in the isolate a while. */
const REFERENCE_TTL_MS = 5 * 60_000;
const reference = new Map<string, { value: Promise<unknown>; expires: number }>();

function cached<T>(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  const hit = reference.get(key);
  if (hit && hit.expires > now) return hit.value as Promise<T>;
  const value = load();
  reference.set(key, { value, expires: now + REFERENCE_TTL_MS });
  // A failed read is not kept: the next request tries again.
  value.catch(() => reference.delete(key));
  return value;
}

/** Regions of the given countries, by country then name. */
export function listRegions(db: Database, countries: readonly string[]): Promise<RegionsResponse> {
  return cached(`regions:${countries.join(",")}`, () => loadRegions(db, countries));
}

/**
 * By country, then by name as the country's main language sorts it: SQLite compares bytes, which put
 * "Île-de-France" after "Provence" and "Åland" after "Österbotten".
 */
async function loadRegions(db: Database, countries: readonly string[]): Promise<RegionsResponse> {
  const rows = await regionsOf(db, countries);
  const collators = new Map<string, Intl.Collator>();
  const collator = (country: string) => {
    let c = collators.get(country);
    if (!c) collators.set(country, (c = new Intl.Collator(languagesForCountry(country)[0])));
    return c;
  };
  const regions = rows.toSorted((a, b) =>
    a.country === b.country ? collator(a.country).compare(a.name, b.name) : a.country < b.country ? -1 : 1,
  );
  return { regions };
}

/**
 * A region's id by its ISO 3166-2 code, when it belongs to this country. The country is a site's (search
 * and the match-finder check it first) or a member's own, so the cache holds a map per real country and
 * nothing a request makes up.
 */
export async function regionIdOf(db: Database, code: string, country: string): Promise<number | undefined> {
  return (await cached(`region-ids:${country}`, () => regionIdsOf(db, country))).get(code);
}

/** The interests list with names in one language, as a site of `country` (its own) words them. */
export function listInterests(db: Database, language: Language, country?: string): Promise<InterestsResponse> {
  return cached(`interests:${language}:${country ?? ""}`, () => loadInterests(db, language, country));
}

async function loadInterests(db: Database, language: Language, country?: string): Promise<InterestsResponse> {
  return { interests: namedInterests(await interestSlugs(db), language, country) };
}

/** Interests by slug with their names in one language (locales/<language>.json, interest_names). */
export function namedInterests(
  slugs: readonly string[],
  language: Language,
  country?: string,
): { slug: string; name: string }[] {
  const t = i18nFor(language, country).t;
  return slugs.map((slug) => ({ slug, name: t(`interest_names.${slug}`) }));
}
