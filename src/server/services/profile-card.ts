import type { MainImage, ProfileCard } from "../../shared/api";
import type { CardRow } from "../db/profiles";
import { ageOn } from "../../shared/ages";

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
    premium: row.premium === true,
    verified: row.verified === true,
  };
}
