import type { GeocodeResponse } from "../../shared/api";
import type { Database } from "../db/database";
import { placesInBox } from "../db/places";

/** Grid squares of 1/CELLS_PER_DEGREE degree on each side: small enough to read few places, large enough to need few squares. */
const CELLS_PER_DEGREE = 2;
/** A point farther than this from every town (the sea, a mountain top) has no town. */
const MAX_PLACE_DISTANCE_KM = 30;
const EARTH_RADIUS_KM = 6371;
const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM;
/** People per km² of a typical European town, to guess how far a town reaches from its centre. */
const TOWN_DENSITY = 3000;
const MIN_TOWN_RADIUS_KM = 1;
/**
 * No town lies nearer the poles than this (the northernmost, Alert, is at 82.5°N). Beyond it the
 * squares of longitude get so narrow that the box around a point would need more squares than one
 * query may name, so such a point simply has no town.
 */
const POLAR_LIMIT = 85;

/** The grid square of a point; the seed stores it with each place and the lookup reads the squares around a point. */
export function placeCell(lat: number, lon: number): number {
  // floor(lon * 2) stays within -360..359, so the two parts never overlap.
  return Math.floor(lat * CELLS_PER_DEGREE) * 1000 + Math.floor(lon * CELLS_PER_DEGREE);
}

/** The squares that a box from south-west to north-east touches. */
function cellsOf(south: number, west: number, north: number, east: number): number[] {
  const cells: number[] = [];
  for (let y = Math.floor(south * CELLS_PER_DEGREE); y <= Math.floor(north * CELLS_PER_DEGREE); y++) {
    for (let x = Math.floor(west * CELLS_PER_DEGREE); x <= Math.floor(east * CELLS_PER_DEGREE); x++)
      cells.push(y * 1000 + x);
  }
  return cells;
}

/** Distance in km by the equirectangular approximation: exact enough within a few tens of km. */
function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x = (lon2 - lon1) * Math.cos((((lat1 + lat2) / 2) * Math.PI) / 180);
  return Math.hypot(x, lat2 - lat1) * KM_PER_DEGREE;
}

/** How far a town of this size roughly reaches from its centre, as if it were a disc of TOWN_DENSITY. */
function townRadiusKm(population: number): number {
  return Math.max(MIN_TOWN_RADIUS_KM, Math.sqrt(population / (Math.PI * TOWN_DENSITY)));
}

/** Places in the box of MAX_PLACE_DISTANCE_KM around a point, read through the grid index (exported so a test can read its plan). */
export function placesNear(db: Database, lat: number, lon: number) {
  const dLat = MAX_PLACE_DISTANCE_KM / KM_PER_DEGREE;
  const dLon = Math.min(180, dLat / Math.max(0.01, Math.cos((Math.min(89, Math.abs(lat)) * Math.PI) / 180)));
  const [south, north, west, east] = [lat - dLat, lat + dLat, lon - dLon, lon + dLon];
  return placesInBox(db, cellsOf(south, west, north, east), { south, north, west, east });
}

export async function geocode(db: Database, lat: number, lon: number): Promise<GeocodeResponse | null> {
  if (Math.abs(lat) > POLAR_LIMIT) return null;
  const candidates = await placesNear(db, lat, lon);
  let best: { outside: number; depth: number; place: (typeof candidates)[number] } | null = null;
  for (const place of candidates) {
    const distance = distanceKm(lat, lon, place.lat, place.lon);
    if (distance > MAX_PLACE_DISTANCE_KM) continue;
    const radius = townRadiusKm(place.population);
    const outside = Math.max(0, distance - radius);
    const depth = distance / radius;
    if (!best || outside < best.outside || (outside === best.outside && depth < best.depth))
      best = { outside, depth, place };
  }
  if (!best) return null;
  const { place } = best;
  return {
    city: place.name,
    region:
      place.regionCode !== null && place.regionName !== null
        ? { code: place.regionCode, name: place.regionName }
        : null,
    country: place.country,
  };
}
