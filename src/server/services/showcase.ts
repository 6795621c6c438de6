import { MAX_AGE, MIN_AGE } from "../../shared/ages";
import type { ProfileCard, ShowcaseResponse, ShowcaseTown } from "../../shared/api";
import type { Database } from "../db/database";
import { placesNamed } from "../db/places";
import { findProfiles } from "../db/profiles";
import { filterOf } from "./search";
import { toProfileCard } from "./profile-card";

/** Members a lander shows: enough for a swipe deck, a collage and a reel. */
const SHOWCASE_SIZE = 12;
/** The drawing's margin, so a town's dot and label stay inside it. */
const MARGIN = 12;

/**
 * Members of a country for the landers and the home page (SPEC §2): photo first, then recently
 * active, so no member without a public main photo shows while enough with one exist. With
 * `withTowns`, their towns placed on a small drawing (see placeTowns).
 */
export async function showcase(
  db: Database,
  country: string,
  withTowns: boolean,
  today = new Date(),
): Promise<ShowcaseResponse> {
  const shown = (
    await findProfiles(
      db,
      { ...filterOf({ country, minAge: MIN_AGE, maxAge: MAX_AGE }, today), promotable: true },
      SHOWCASE_SIZE,
      0,
    )
  ).map((row) => toProfileCard(row, today));
  return { profiles: shown, towns: withTowns ? await placeTowns(db, country, shown) : [] };
}

/**
 * The towns of these members on a 100 x 100 drawing: each town's position relative to the others,
 * rounded to whole units, so a lander shows where members live by town without ever sending
 * coordinates. Towns the gazetteer does not know are left off the drawing.
 */
async function placeTowns(db: Database, country: string, cards: ProfileCard[]): Promise<ShowcaseTown[]> {
  const names = [...new Set(cards.map((c) => c.city).filter((c): c is string => c !== null))];
  if (names.length === 0) return [];
  const found = await placesNamed(db, country, names);
  // Several places may share a name: the most populous one is the town people mean.
  const byName = new Map<string, { lat: number; lon: number; population: number }>();
  for (const place of found) {
    const known = byName.get(place.name);
    if (!known || known.population < place.population) byName.set(place.name, place);
  }
  const located = [...byName.values()];
  if (located.length === 0) return [];
  // An equirectangular drawing: longitude shrinks with the cosine of the latitude.
  const midLat = located.reduce((sum, p) => sum + p.lat, 0) / located.length;
  const scaleX = Math.cos((midLat * Math.PI) / 180);
  const xs = located.map((p) => p.lon * scaleX);
  const ys = located.map((p) => p.lat);
  const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1e-6);
  const usable = 100 - 2 * MARGIN;
  const minX = Math.min(...xs);
  const maxY = Math.max(...ys);
  return names.flatMap((name) => {
    const place = byName.get(name);
    if (!place) return [];
    const members = cards.filter((c) => c.city === name);
    return [
      {
        name,
        region: members[0]?.region ?? null,
        x: Math.round(MARGIN + ((place.lon * scaleX - minX) / span) * usable),
        y: Math.round(MARGIN + ((maxY - place.lat) / span) * usable),
        profile_ids: members.map((m) => m.id),
      },
    ];
  });
}
