/**
 * Profiles: a member's own profile and its interests, and the searchable flag that follows from the
 * account (see the profiles table).
 */
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { accountIsLive } from "./accounts";
import type { Database } from "./database";
import { interests, profileInterests, profiles, regions, users } from "./schema";

export type Profile = typeof profiles.$inferSelect;

/** searchable follows from status and invisible: a live account that is not invisible. */
export async function refreshSearchable(db: Database, userId: number): Promise<void> {
  const searchable = db
    .select({ searchable: sql<number>`CASE WHEN ${accountIsLive()} AND ${users.invisible} = 0 THEN 1 ELSE 0 END` })
    .from(users)
    .where(eq(users.id, profiles.userId));
  await db.update(profiles).set({ searchable: sql`(${searchable})` }).where(eq(profiles.userId, userId));
}

/** Take a member out of search (the statement, for the deletion's batch). */
export function hideProfile(db: Database, userId: number) {
  return db.update(profiles).set({ searchable: 0 }).where(eq(profiles.userId, userId));
}

export async function profileOfMember(db: Database, userId: number): Promise<Pick<Profile, "id" | "country" | "gender"> | undefined> {
  return db.select({ id: profiles.id, country: profiles.country, gender: profiles.gender }).from(profiles).where(eq(profiles.userId, userId)).get();
}

/** An active profile's id, or undefined. */
export async function activeProfileId(db: Database, profileId: number): Promise<number | undefined> {
  return (await db.select({ id: profiles.id }).from(profiles).where(and(eq(profiles.id, profileId), eq(profiles.status, "active"))).get())?.id;
}

export async function regionIdOf(db: Database, code: string, country: string): Promise<number | undefined> {
  return (await db.select({ id: regions.id }).from(regions).where(and(eq(regions.code, code), eq(regions.country, country))).get())?.id;
}

export async function knownInterestCount(db: Database, slugs: string[]): Promise<number> {
  return (await db.select({ n: count() }).from(interests).where(inArray(interests.slug, slugs)).get())?.n ?? 0;
}

export type OwnProfileChange = Partial<Pick<Profile, "sexuality" | "relationshipStatus" | "bodyType" | "hairColor" | "eyeColor" | "tattoos" | "aboutMe" | "city" | "regionId">>;

/** Change a member's own profile and, when given, replace its interests whole: one batch. */
export async function updateOwnProfile(db: Database, profileId: number, change: OwnProfileChange, interestSlugs?: string[]): Promise<void> {
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
