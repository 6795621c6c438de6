import { and, asc, desc, eq, gte, lte, ne } from "drizzle-orm";
import type { ProfilePhoto, ProfileResponse } from "../../shared/api";
import type { Language } from "../../shared/locales";
import type { Database } from "../context";
import { interestNames, interests, photos, profileInterests, profiles, regions, users } from "../db/schema";
import { AppError } from "../errors";
import { birthDateRange } from "../../shared/ages";
import { blockRelation, notBlockedWith } from "./blocking";
import { cardColumns, mainPhotoJoin, regionJoin, toProfileCard } from "./profile-card";

const RELATED_LIMIT = 8;
const LIVE_ACCOUNTS = ["active", "not_confirmed"];
const RELATED_AGE_SPAN = 5;

export function profileNotFound(): AppError {
  return new AppError(404, "not_found", "errors.profile_not_found");
}

/** How the viewer of a profile stands to its photos (SPEC §6). */
export type PhotoViewer = "owner" | "premium" | "other";

/**
 * Media paths of a profile's photos as this viewer may see them: the owner and premium members get
 * every photo in full; anyone else the main photo in full and every other photo only as its blurred
 * version with a lock. The answer therefore differs per viewer and is never cached publicly (API
 * answers are `private, no-store`, pages `private, no-cache`).
 */
export function visiblePhotos(
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

/** Whether the member with this profile is premium (paid_user). */
async function isPremium(db: Database, profileId: number): Promise<boolean> {
  const row = await db.select({ paid: users.paidUser }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(eq(profiles.id, profileId)).get();
  return row?.paid ?? false;
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
): Promise<ProfileResponse> {
  const row = await db
    .select({
      ...cardColumns,
      sexuality: profiles.sexuality,
      tattoos: profiles.tattoos,
      hairColor: profiles.hairColor,
      eyeColor: profiles.eyeColor,
      bodyType: profiles.bodyType,
      relationshipStatus: profiles.relationshipStatus,
      regionCode: regions.code,
      aboutMe: profiles.aboutMe,
      mainPhotoId: profiles.mainPhotoId,
      status: profiles.status,
      accountStatus: users.status,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(regions, regionJoin)
    .leftJoin(photos, mainPhotoJoin)
    .where(eq(profiles.id, id))
    .get();
  // A disabled profile, or an account its owner deleted (pending or not), is not found by anyone.
  if (!row || row.status !== "active" || !LIVE_ACCOUNTS.includes(row.accountStatus)) throw profileNotFound();
  const other = viewerId !== null && viewerId !== id;
  const [relation, premium] = other ? await Promise.all([blockRelation(db, viewerId, id), isPremium(db, viewerId)]) : [null, false];
  if (relation?.blockedMe) throw new AppError(403, "blocked", "errors.blocked_by", { name: row.name });

  const { from, to } = (() => {
    const age = toProfileCard(row, today).age;
    return birthDateRange(Math.max(18, age - RELATED_AGE_SPAN), age + RELATED_AGE_SPAN, today);
  })();

  // Three independent reads in parallel. (Not db.batch: drizzle maps the columns of a joined select
  // in a D1 batch by position and shifts them.)
  const [photoRows, interestRows, relatedRows] = await Promise.all([
    db
      .select({ id: photos.id, key: photos.key, thumbKey: photos.thumbKey, blurKey: photos.blurKey })
      .from(photos)
      .where(and(eq(photos.profileId, id), eq(photos.status, "active")))
      .orderBy(asc(photos.position), asc(photos.id)),
    db
      .select({ slug: interests.slug, name: interestNames.name })
      .from(profileInterests)
      .innerJoin(interests, eq(interests.id, profileInterests.interestId))
      .innerJoin(interestNames, and(eq(interestNames.interestId, interests.id), eq(interestNames.language, language)))
      .where(eq(profileInterests.profileId, id))
      .orderBy(asc(interests.sort)),
    db
      .select(cardColumns)
      .from(profiles)
      .leftJoin(regions, regionJoin)
      .leftJoin(photos, mainPhotoJoin)
      .where(
        and(
          eq(profiles.country, row.country),
          eq(profiles.searchable, 1),
          eq(profiles.gender, row.gender),
          gte(profiles.birthDate, from),
          lte(profiles.birthDate, to),
          ne(profiles.id, id),
          ...(viewerId !== null ? [ne(profiles.id, viewerId), notBlockedWith(viewerId)] : []),
        ),
      )
      .orderBy(desc(profiles.lastActiveAt))
      .limit(RELATED_LIMIT),
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
      interests: interestRows,
      about_me: row.aboutMe,
    },
    photos: visiblePhotos(photoRows, row.mainPhotoId, mediaPrefix, viewerId === id ? "owner" : premium ? "premium" : "other"),
    related: relatedRows.map((r) => toProfileCard(r, today)),
    ...(viewerId !== null ? { viewer: { own: viewerId === id, blocked: relation?.blockedByMe ?? false } } : {}),
  };
}
