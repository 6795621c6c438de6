import { eq } from "drizzle-orm";
import type { MainImage, ProfileCard } from "../../shared/api";
import { photos, profiles, regions } from "../db/schema";
import { ageOn } from "../../shared/ages";

/** Columns a profile card needs; select them with the two joins of `withCardJoins`. */
export const cardColumns = {
  id: profiles.id,
  name: profiles.name,
  birthDate: profiles.birthDate,
  gender: profiles.gender,
  country: profiles.country,
  city: profiles.city,
  region: regions.name,
  fictional: profiles.fictional,
  lastActiveAt: profiles.lastActiveAt,
  photoKey: photos.key,
  photoThumbKey: photos.thumbKey,
  photoStatus: photos.status,
};

export const regionJoin = eq(regions.id, profiles.regionId);
export const mainPhotoJoin = eq(photos.id, profiles.mainPhotoId);

type CardRow = {
  id: number;
  name: string;
  birthDate: string;
  gender: string;
  country: string;
  city: string | null;
  region: string | null;
  fictional: boolean;
  lastActiveAt: number;
  photoKey: string | null;
  photoThumbKey: string | null;
  photoStatus: string | null;
};

export function mainImage(key: string | null, thumbKey: string | null, status: string | null): MainImage | null {
  if (!key || !thumbKey || status !== "active") return null;
  return { filename: key, thumb_filename: thumbKey, status, match: key };
}

export function toProfileCard(row: CardRow, today = new Date()): ProfileCard {
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.birthDate, today),
    gender: row.gender,
    country: row.country,
    region: row.region,
    city: row.city,
    main_image: mainImage(row.photoKey, row.photoThumbKey, row.photoStatus),
    fictional: row.fictional,
    last_active_at: row.lastActiveAt,
  };
}
