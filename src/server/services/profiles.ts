import type { ProfilePhoto, ProfileResponse } from "../../shared/api";
import type { Language } from "../../shared/locales";
import type { Database } from "../db/database";
import { isLiveAccountStatus } from "../db/accounts";
import { blockRelation } from "../db/blocks";
import { namedInterests } from "./catalogue";
import { activePhotosOf, findProfiles, interestSlugsOfProfile, isPremiumProfile, profileDetails } from "../db/profiles";
import { AppError } from "../errors";
import { birthDateRange } from "../../shared/ages";
import { toProfileCard } from "./profile-card";

const RELATED_LIMIT = 8;
const RELATED_AGE_SPAN = 5;

function profileNotFound(): AppError {
  return new AppError({ status: 404, code: "not_found", key: "errors.profile_not_found" });
}

/** How the viewer of a profile stands to its photos (SPEC §6). */
type PhotoViewer = "owner" | "premium" | "other";

/**
 * Media paths of a profile's photos as this viewer may see them: the owner and premium members get
 * every photo in full; anyone else the main photo in full and every other photo only as its blurred
 * version with a lock. The answer therefore differs per viewer and is never cached publicly (API
 * answers are `private, no-store`, pages `private, no-cache`).
 */
function visiblePhotos(
  rows: { id: number; key: string; thumbKey: string; blurKey: string }[],
  mainPhotoId: number | null,
  prefix: string,
  viewer: PhotoViewer,
): ProfilePhoto[] {
  return rows.map((photo) => {
    const main = photo.id === mainPhotoId;
    return main || viewer !== "other"
      ? { id: photo.id, thumb: prefix + photo.thumbKey, image: prefix + photo.key, locked: false, main }
      : { id: photo.id, thumb: prefix + photo.blurKey, image: prefix + photo.blurKey, locked: true, main };
  });
}

/**
 * A profile for its own page: details, photos and related profiles. Disabled profiles are not found.
 * A signed-in viewer whom the profile's owner blocked is refused (SPEC §6); related profiles leave out
 * the viewer and anyone blocked either way.
 */
export async function getProfile(
  db: Database,
  id: number,
  language: Language,
  mediaPrefix: string,
  viewerId: number | null = null,
  today = new Date(),
  country?: string,
): Promise<ProfileResponse> {
  const row = await profileDetails(db, id);
  // A disabled profile, or an account its owner deleted (pending or not), is not found by anyone.
  if (!row || row.status !== "active" || !isLiveAccountStatus(row.accountStatus)) throw profileNotFound();
  const other = viewerId !== null && viewerId !== id;
  const [relation, premium] = other
    ? await Promise.all([blockRelation(db, viewerId, id), isPremiumProfile(db, viewerId)])
    : [null, false];
  if (relation?.blockedMe)
    throw new AppError({ status: 403, code: "blocked", key: "errors.blocked_by", values: { name: row.name } });

  const { from, to } = (() => {
    const age = toProfileCard(row, today).age;
    return birthDateRange(Math.max(18, age - RELATED_AGE_SPAN), age + RELATED_AGE_SPAN, today);
  })();

  // Three independent reads in parallel. (Not db.batch: drizzle maps the columns of a joined select
  // in a D1 batch by position and shifts them.)
  const [photoRows, interestRows, relatedRows] = await Promise.all([
    activePhotosOf(db, id),
    interestSlugsOfProfile(db, id),
    findProfiles(
      db,
      {
        country: row.country,
        gender: row.gender,
        bornFrom: from,
        bornTo: to,
        except: [id],
        ...(viewerId !== null ? { viewerId } : {}),
      },
      RELATED_LIMIT,
      0,
    ),
  ]);

  const card = toProfileCard(row, today);
  return {
    profile: {
      ...card,
      sexuality: row.sexuality,
      birth_date: row.birthDate,
      tattoos: row.tattoos,
      hair_color: row.hairColor,
      eye_color: row.eyeColor,
      body_type: row.bodyType,
      relationship_status: row.relationshipStatus,
      region_code: row.regionCode,
      interests: namedInterests(interestRows, language, country),
      about_me: row.aboutMe,
    },
    photos: visiblePhotos(
      photoRows,
      row.mainPhotoId,
      mediaPrefix,
      viewerId === id ? "owner" : premium ? "premium" : "other",
    ),
    related: relatedRows.map((r) => toProfileCard(r, today)),
    ...(viewerId !== null ? { viewer: { own: viewerId === id, blocked: relation?.blockedByMe ?? false } } : {}),
    // Invisible (SPEC §4): not found in search, so not in search engines either, whoever asks.
    ...(row.invisible ? { noindex: true as const, invisible: true as const } : {}),
  };
}
