/**
 * Photo rows for demo profiles: one active main photo and up to four more (a few still pending),
 * each pointing at a pool portrait matching the profile's gender, hair and eye colour. R2 keys
 * are random and independent per variant, so no key can be derived from another.
 */
import { IMAGE_HEIGHT, IMAGE_WIDTH, poolIndex } from "./images";
import type { ProfileRow } from "./profiles";
import { Random, hashString } from "./random";

export interface PhotoRow {
  id: number;
  profile_id: number;
  key: string;
  thumb_key: string;
  blur_key: string;
  status: "active" | "pending";
  position: number;
  width: number;
  height: number;
  created_at: number;
}

export interface PlannedPhoto {
  row: PhotoRow;
  /** Index of its image in the ImagePool. */
  pool: number;
}

export function randomKey(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${prefix}/${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}.jpg`;
}

/** Assigns photos to `profiles`, with ids from `firstId` on, and sets each profile's main_photo_id. */
export function planPhotos(profiles: ProfileRow[], seed: number, firstId = 1): PlannedPhoto[] {
  const out: PlannedPhoto[] = [];
  for (const profile of profiles) {
    const rnd = new Random(hashString(`photos:${seed}:${profile.id}`));
    const count = 1 + Number(rnd.weighted({ 0: 62, 1: 18, 2: 10, 3: 6, 4: 4 }));
    const first = rnd.int(0, 4);
    for (let position = 0; position < count; position++) {
      const id = firstId + out.length;
      if (position === 0) profile.main_photo_id = id;
      out.push({
        pool: poolIndex(
          { gender: profile.gender, hairColor: profile.hair_color, eyeColor: profile.eye_color },
          first + position,
        ),
        row: {
          id,
          profile_id: profile.id,
          key: randomKey("p"),
          thumb_key: randomKey("t"),
          blur_key: randomKey("b"),
          status: position > 0 && rnd.chance(0.12) ? "pending" : "active",
          position,
          width: IMAGE_WIDTH,
          height: IMAGE_HEIGHT,
          created_at: Math.min(profile.last_active_at, profile.created_at + rnd.int(0, 3600 * 24 * 30)),
        },
      });
    }
  }
  return out;
}
