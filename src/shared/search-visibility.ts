import type { LoggedOutSearchMode } from "./settings";

/** Whether a visitor may see this page of search results (SPEC §1, §6: logged_out_search). */
export function visitorSearchAllowed(mode: LoggedOutSearchMode, page: number): boolean {
  return mode === "all" || (mode === "first_page" && page === 1);
}
