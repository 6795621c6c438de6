/**
 * Profiles: a member's own profile and its interests, and the searchable flag that follows from the
 * account (see the profiles table).
 */
import {
  and,
  asc,
  Column,
  desc,
  eq,
  fillPlaceholders,
  gte,
  inArray,
  is,
  lte,
  ne,
  notInArray,
  or,
  sql,
} from "drizzle-orm";
import { accountIsLive } from "./accounts";
import type { Database } from "./database";
import { notBlockedWith } from "./blocks";
import { interests, photos, profileInterests, profiles, regions, users } from "./schema";
import { badgeShows } from "./verification";

export type Profile = typeof profiles.$inferSelect;

/** searchable follows from status, invisible and restriction: a live account, not invisible, not restricted by a moderation decision. */
export function refreshSearchableQuery(db: Database, userId: number) {
  const searchable = db
    .select({
      searchable: sql<number>`CASE WHEN ${accountIsLive()} AND ${users.invisible} = 0 AND ${users.restrictedAt} IS NULL THEN 1 ELSE 0 END`,
    })
    .from(users)
    .where(eq(users.id, profiles.userId));
  return db
    .update(profiles)
    .set({ searchable: sql`(${searchable})` })
    .where(eq(profiles.userId, userId));
}

export async function refreshSearchable(db: Database, userId: number): Promise<void> {
  await refreshSearchableQuery(db, userId);
}

/** Take a member out of search (the statement, for the deletion's batch). */
export function hideProfile(db: Database, userId: number) {
  return db.update(profiles).set({ searchable: 0 }).where(eq(profiles.userId, userId));
}

export async function profileOfMember(
  db: Database,
  userId: number,
): Promise<Pick<Profile, "id" | "country" | "gender"> | undefined> {
  return db
    .select({ id: profiles.id, country: profiles.country, gender: profiles.gender })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .get();
}

/** A profile's name, or null when it does not exist. */
export async function profileNameOf(db: Database, profileId: number): Promise<string | null> {
  return (
    (await db.select({ name: profiles.name }).from(profiles).where(eq(profiles.id, profileId)).get())?.name ?? null
  );
}

/** Names and main photos of these profiles (what a match moment shows of each). */
export async function profileFaces(db: Database, ids: number[]) {
  return db
    .select({
      id: profiles.id,
      name: profiles.name,
      verified: badgeShows(),
      photoKey: photos.key,
      photoThumbKey: photos.thumbKey,
      photoStatus: photos.status,
    })
    .from(profiles)
    .leftJoin(photos, mainPhotoJoin)
    .where(inArray(profiles.id, ids));
}

/** An active profile's id, or undefined. */
export async function activeProfileId(db: Database, profileId: number): Promise<number | undefined> {
  return (
    await db
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.id, profileId), eq(profiles.status, "active")))
      .get()
  )?.id;
}

export type OwnProfileChange = Partial<
  Pick<
    Profile,
    | "sexuality"
    | "relationshipStatus"
    | "bodyType"
    | "hairColor"
    | "eyeColor"
    | "tattoos"
    | "aboutMe"
    | "city"
    | "regionId"
  >
>;

/** Change a member's own profile and, when given, replace its interests whole: one batch. */
export async function updateOwnProfile(
  db: Database,
  profileId: number,
  change: OwnProfileChange,
  interestSlugs?: string[],
): Promise<void> {
  const statements = [];
  if (Object.keys(change).length) statements.push(db.update(profiles).set(change).where(eq(profiles.id, profileId)));
  if (interestSlugs !== undefined) {
    statements.push(db.delete(profileInterests).where(eq(profileInterests.profileId, profileId)));
    for (const slug of interestSlugs) {
      statements.push(
        db.insert(profileInterests).select(
          db
            .select({ profileId: sql<number>`${profileId}`.as("profile_id"), interestId: interests.id })
            .from(interests)
            .where(eq(interests.slug, slug)),
        ),
      );
    }
  }
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

/** Columns a profile card needs; select them with the two joins of `findProfiles`. */
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
  /** The owner's paid_user, for the premium badge (SPEC §6): the reads of cards join users. */
  premium: users.paidUser,
  /** The verified badge (docs/decisions/0040): only with an approved main photo (docs/decisions/0049). */
  verified: badgeShows(),
};

export const regionJoin = eq(regions.id, profiles.regionId);
export const mainPhotoJoin = eq(photos.id, profiles.mainPhotoId);

/** Which searchable profiles a list shows: birth dates as YYYY-MM-DD bounds, the viewer left out with anyone blocked either way. */
export type ProfileFilter = {
  country: string;
  gender?: string;
  regionId?: number;
  bornFrom: string;
  bornTo: string;
  viewerId?: number;
  except?: number[];
  verified?: boolean;
  /** Only profiles that may appear on the site's promotion pages: fictional ones, or members who chose it. */
  promotable?: boolean;
};

/**
 * The order of every list of members to meet (search, showcases, the swipe game, the match-finder's
 * pool): those with a public main photo first, then the most recently active. The search indexes end
 * in these two columns, so the rows come out in this order (docs/decisions/0038).
 */
export const photoFirst = [desc(profiles.hasPhoto), desc(profiles.lastActiveAt)] as const;

const p = sql.placeholder;

/**
 * A profile the site may show on its promotion pages (issue 37, docs/decisions/0052): a fictional one,
 * or a member who chose it in their settings. Only a profile that may be found at all (searchable).
 */
const promotable = and(
  eq(profiles.searchable, 1),
  or(
    eq(profiles.fictional, true),
    sql`(SELECT ${users.promotionPages} FROM ${users} WHERE ${users.id} = ${profiles.userId}) = 1`,
  ),
)!;

/** Whether this profile may appear on a promotion page (a member landing page). */
export async function isPromotable(db: Database, profileId: number): Promise<boolean> {
  const row = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), promotable))
    .get();
  return row !== undefined;
}

/**
 * The query of profile cards matching a filter of this one's shape, with placeholders for its values:
 * the conditions in the order the search indexes need them, photo first then most recently active.
 */
export function profileListQuery(db: Database, f: ProfileFilter) {
  const where = [
    eq(profiles.country, p("country")),
    eq(profiles.searchable, 1),
    gte(profiles.birthDate, p("bornFrom")),
    lte(profiles.birthDate, p("bornTo")),
  ];
  if (f.gender) where.push(eq(profiles.gender, p("gender")));
  if (f.regionId !== undefined) where.push(eq(profiles.regionId, p("regionId")));
  if (f.viewerId !== undefined) where.push(ne(profiles.id, p("viewerId")), notBlockedWith(p("viewerId")));
  if (f.except?.length)
    where.push(
      notInArray(
        profiles.id,
        f.except.map((_, i) => p(`except${i}`)),
      ),
    );
  if (f.verified) where.push(badgeShows());
  if (f.promotable) where.push(promotable);
  return (
    db
      .select(cardColumns)
      .from(profiles)
      .leftJoin(regions, regionJoin)
      .leftJoin(photos, mainPhotoJoin)
      // A left join, so the planner keeps reading profiles first through the search indexes.
      .leftJoin(users, eq(users.id, profiles.userId))
      .where(and(...where))
      .orderBy(...photoFirst)
      .limit(p("limit"))
      .offset(p("offset"))
  );
}

export type CardRow = Awaited<ReturnType<typeof profileListQuery>>[number];

/** The shape of a filter: which conditions it has (and how many profiles it leaves out), not their values. */
const shapeOf = (f: ProfileFilter) =>
  `${f.gender ? "g" : ""}${f.regionId !== undefined ? "r" : ""}${f.viewerId !== undefined ? "v" : ""}${f.verified ? "V" : ""}${f.promotable ? "P" : ""}:${f.except?.length ?? 0}`;

/**
 * The SQL of each shape of filter, made by drizzle once per isolate. Building the query, turning it
 * into SQL and mapping its rows cost drizzle 0.25-0.3 ms in workerd on every list, more than SQLite
 * takes to answer it (docs/decisions/0044). Few shapes exist: the optional conditions, and the few
 * ids a thin first page leaves out of its similar profiles (or the one a profile's related list does).
 */
const statements = new Map<string, ReturnType<ReturnType<typeof profileListQuery>["toSQL"]>>();

/** The SQL and parameters that list the profile cards of a filter, a page at a time. */
export function profileListStatement(
  db: Database,
  f: ProfileFilter,
  limit: number,
  offset: number,
): { sql: string; params: unknown[] } {
  const shape = shapeOf(f);
  let statement = statements.get(shape);
  if (!statement) {
    statement = profileListQuery(db, f).toSQL();
    statements.set(shape, statement);
  }
  // The placeholders are named after the filter's own fields.
  const values: Record<string, unknown> = { ...f, limit, offset };
  f.except?.forEach((id, i) => (values[`except${i}`] = id));
  return { sql: statement.sql, params: fillPlaceholders(statement.params, values) };
}

/**
 * The card's columns in the order the statement selects them, each with what reads its value from
 * D1 (the one computed field, the badge, is a flag).
 */
const cardFields = Object.entries(cardColumns).map(([key, field]): [keyof CardRow, (value: unknown) => unknown] => [
  key as keyof CardRow,
  is(field, Column) ? (value) => field.mapFromDriverValue(value) : (value) => Boolean(value),
]);

/** Profile cards matching a filter, photo first then most recently active. */
export async function findProfiles(db: Database, f: ProfileFilter, limit: number, offset: number): Promise<CardRow[]> {
  const { sql: text, params } = profileListStatement(db, f, limit, offset);
  const rows = await db.$client
    .prepare(text)
    .bind(...params)
    .raw();
  return rows.map((raw) => {
    const row: Record<string, unknown> = {};
    cardFields.forEach(([key, read], i) => (row[key] = raw[i] === null ? null : read(raw[i])));
    return row as CardRow;
  });
}

/** A profile for its own page: the card, the details, and what decides whether it may be shown. */
export async function profileDetails(db: Database, id: number) {
  return db
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
      invisible: users.invisible,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(regions, regionJoin)
    .leftJoin(photos, mainPhotoJoin)
    .where(eq(profiles.id, id))
    .get();
}

/** Whether the member with this profile is premium (paid_user). */
export async function isPremiumProfile(db: Database, profileId: number): Promise<boolean> {
  const row = await db
    .select({ paid: users.paidUser })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, profileId))
    .get();
  return row?.paid ?? false;
}

/** A profile's active photos in their order (what others may be shown). */
export async function activePhotosOf(db: Database, profileId: number) {
  return db
    .select({ id: photos.id, key: photos.key, thumbKey: photos.thumbKey, blurKey: photos.blurKey })
    .from(photos)
    .where(and(eq(photos.profileId, profileId), eq(photos.status, "active")))
    .orderBy(asc(photos.position), asc(photos.id));
}

/** A profile's interests (their slugs; the names are in locales/ under interest_names), in the list's order. */
export async function interestSlugsOfProfile(db: Database, profileId: number): Promise<string[]> {
  const rows = await db
    .select({ slug: interests.slug })
    .from(profileInterests)
    .innerJoin(interests, eq(interests.id, profileInterests.interestId))
    .where(eq(profileInterests.profileId, profileId))
    .orderBy(asc(interests.sort));
  return rows.map((r) => r.slug);
}
