import type { ProfileCard } from "../../shared/api";
import { mainImage } from "../../shared/photos";
import type { CardRow } from "../db/profiles";
import { ageOn } from "../../shared/ages";

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
