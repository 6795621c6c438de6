/**
 * The swr keys each screen reads. The server loads them before rendering and embeds the answers
 * as swr's fallback, so the first paint needs no request; the client uses the same keys.
 */
import { unstable_serialize } from "swr/infinite";
import type { LoggedOutSearchMode } from "../shared/settings";
import type { RouteMatch } from "./routes";

/** key: what is fetched; fallbackKey: where swr looks for it (an infinite list keeps its pages elsewhere). */
export type DataKey = { key: string; fallbackKey: string; infinite: boolean };

const SEARCH_PARAMS = ["gender", "country", "country_region", "min_age", "max_age"] as const;

/** The search filters of a members URL, in a fixed order so equal searches share a key. */
export function searchFilters(query: URLSearchParams): URLSearchParams {
  const filters = new URLSearchParams();
  for (const name of SEARCH_PARAMS) {
    const value = query.get(name);
    if (value) filters.set(name, value);
  }
  return filters;
}

/** Key of one page of a search. */
export function searchPageKey(filters: URLSearchParams, page: number): string {
  const params = new URLSearchParams(filters);
  if (page > 1) params.set("page", String(page));
  const qs = params.toString();
  return `/api/search.php${qs ? `?${qs}` : ""}`;
}

/** The swr infinite key under which a search's pages live. */
export function searchInfiniteKey(filters: URLSearchParams): string {
  return unstable_serialize((index: number) => searchPageKey(filters, index + 1));
}

export const profileKey = (id: string | number) => `/api/profile.php?id=${id}`;
export const REGIONS_KEY = "/api/regions.php";

const plain = (key: string): DataKey => ({ key, fallbackKey: key, infinite: false });

/** Whether a visitor may see this page of search results (SPEC §1, §6: logged_out_search). */
export function visitorSearchAllowed(mode: LoggedOutSearchMode, page: number): boolean {
  return mode === "all" || (mode === "first_page" && page === 1);
}

export function pageDataKeys(match: RouteMatch, query: URLSearchParams, searchMode: LoggedOutSearchMode): DataKey[] {
  switch (match.route.screen) {
    case "members": {
      const filters = searchFilters(query);
      const search = { key: searchPageKey(filters, 1), fallbackKey: searchInfiniteKey(filters), infinite: true };
      return visitorSearchAllowed(searchMode, 1) ? [search, plain(REGIONS_KEY)] : [plain(REGIONS_KEY)];
    }
    case "member":
      return [plain(profileKey(match.params.id!))];
    case "signup":
      // /members/{id}/signup names the member the visitor signs up for.
      return match.params.id ? [plain(profileKey(match.params.id))] : [];
    default:
      return [];
  }
}
