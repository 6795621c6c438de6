import { CHUNK_RELOAD_KEY } from "../../shared/browser-storage";

/** SPEC §4, §9: a chunk that fails to load triggers one full reload, at most once per 60 s. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|Failed to fetch|error loading dynamically imported module|Unable to preload CSS/i.test(
    message,
  );
}

/** Reload the page unless that was done less than a minute ago; returns whether it reloads. */
export function reloadForChunkError(now = Date.now()): boolean {
  try {
    const last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0);
    if (now - last < CHUNK_RELOAD_GUARD_MS) return false;
    sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    // Storage blocked: still reload once; the browser's own loop guard takes over after that.
  }
  window.location.reload();
  return true;
}
