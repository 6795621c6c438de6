import { TRACKING_FIELDS } from "./tracking";

/**
 * The named variants a lander or member landing page can take from its optional slug
 * (/landers/gallery/tonight): each gives the page its own headline and colour theme. A slug not
 * listed here is a 404 (the route table checks it).
 */
export const LANDER_VARIANTS = ["tonight", "nearby", "discreet", "mature", "romance"] as const;
export type LanderVariant = (typeof LANDER_VARIANTS)[number];

/** A path with the traffic source of the current query kept, so signup is credited to it. */
export function withTracking(path: string, query: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of TRACKING_FIELDS) {
    const value = query.get(name);
    if (value) kept.set(name, value);
  }
  const qs = kept.toString();
  return qs ? `${path}?${qs}` : path;
}
