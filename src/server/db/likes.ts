/**
 * The SQL of likes, matches, the swipe game and the match-finder. Lists read one index range in
 * result order (likes_liked_idx, likes_liker_idx, likes_matches_idx, likes_new_idx) and stop after a
 * page; each profile they show is checked with `shownToOthers`.
 */
import {
  and,
  desc,
  eq,
  exists,
  gt,
  gte,
  inArray,
  isNotNull,
  lt,
  lte,
  ne,
  notExists,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import { accountIsLive } from "./accounts";
import { notBlockedWith } from "./blocks";
import type { Database } from "./database";
import { cardColumns, mainPhotoJoin, photoFirst, regionJoin } from "./profiles";
import {
  blocks,
  interests,
  likeRate,
  likes,
  photos,
  profileInterests,
  profiles,
  regions,
  swipeDays,
  swipePasses,
  users,
} from "./schema";

/**
 * A profile others may see in lists and like: an active profile of a live account that is not
 * invisible (SPEC §4). `searchable` says the same, but is checked against the account too, so an
 * account disabled without its profile following never shows.
 */
const shownToOthers: SQL = and(
  eq(profiles.status, "active"),
  eq(profiles.searchable, 1),
  accountIsLive(),
  eq(users.invisible, false),
)!;

/** A like of the pair the other way round, `theirs` inside subqueries over `likes`. */
const theirLike = (likerId: SQL | number, likedId: SQL | number) =>
  sql`(SELECT 1 FROM ${likes} theirs WHERE theirs.liker_id = ${likerId} AND theirs.liked_id = ${likedId})`;

/** What the like rules need to know about the profile a member wants to like, or null when it does not exist. */
export type LikeTarget = {
  name: string;
  profileStatus: string;
  accountStatus: string;
  invisible: boolean;
  blockedByMe: boolean;
  blockedMe: boolean;
  liked: boolean;
  likedMe: boolean;
};

export async function findLikeTarget(db: Database, viewerId: number, targetId: number): Promise<LikeTarget | null> {
  const row = await db
    .select({
      name: profiles.name,
      profileStatus: profiles.status,
      accountStatus: users.status,
      invisible: users.invisible,
      blockedByMe: sql<number>`EXISTS (SELECT 1 FROM ${blocks} WHERE ${blocks.blockerId} = ${viewerId} AND ${blocks.blockedId} = ${profiles.id})`,
      blockedMe: sql<number>`EXISTS (SELECT 1 FROM ${blocks} WHERE ${blocks.blockerId} = ${profiles.id} AND ${blocks.blockedId} = ${viewerId})`,
      liked: sql<number>`EXISTS (SELECT 1 FROM ${likes} WHERE ${likes.likerId} = ${viewerId} AND ${likes.likedId} = ${profiles.id})`,
      likedMe: sql<number>`EXISTS (SELECT 1 FROM ${likes} WHERE ${likes.likerId} = ${profiles.id} AND ${likes.likedId} = ${viewerId})`,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, targetId))
    .get();
  if (!row) return null;
  return {
    ...row,
    blockedByMe: row.blockedByMe === 1,
    blockedMe: row.blockedMe === 1,
    liked: row.liked === 1,
    likedMe: row.likedMe === 1,
  };
}

/**
 * Count one like against the member's rate limit: true when it fits (fewer than `max` in the
 * current window of `windowSeconds`), false when the member has to wait. One statement, so two
 * likes at once cannot both take the last place.
 */
export async function takeLikeRate(
  db: Database,
  profileId: number,
  now: number,
  windowSeconds: number,
  max: number,
): Promise<boolean> {
  const windowStart = now - (now % windowSeconds);
  const result = await db
    .insert(likeRate)
    .values({ profileId, windowStart, likes: 1 })
    .onConflictDoUpdate({
      target: likeRate.profileId,
      set: {
        windowStart: sql`excluded.window_start`,
        likes: sql`CASE WHEN ${likeRate.windowStart} = excluded.window_start THEN ${likeRate.likes} + 1 ELSE 1 END`,
      },
      setWhere: sql`${likeRate.windowStart} <> excluded.window_start OR ${likeRate.likes} < ${max}`,
    })
    .run();
  return result.meta.changes > 0;
}

/**
 * Store a like and, when the other already likes the member, mark both rows as a match. One batch,
 * and D1 runs batches one at a time, so the decision is made inside the write: of two members liking
 * each other at the same moment exactly one like finds the other's and makes the match, and of two
 * copies of the same like exactly one is stored. Answers what this call did: `stored` false when the
 * like was there already (nothing changed), `matched` true when this like made the match.
 */
export async function insertLike(
  db: Database,
  likerId: number,
  likedId: number,
  now: number,
): Promise<{ stored: boolean; matched: boolean }> {
  const theyLikeMe = sql`EXISTS ${theirLike(likedId, likerId)}`;
  const [inserted] = await db.batch([
    db
      .insert(likes)
      .values({
        likerId,
        likedId,
        isNew: true,
        createdAt: now,
        matchedAt: sql`CASE WHEN ${theyLikeMe} THEN ${now} END`,
      })
      .onConflictDoNothing()
      .returning({ matchedAt: likes.matchedAt }),
    db
      .update(likes)
      .set({ matchedAt: now })
      .where(
        and(
          eq(likes.likerId, likedId),
          eq(likes.likedId, likerId),
          sql`${likes.matchedAt} IS NULL`,
          exists(theirLike(likerId, likedId)),
        ),
      ),
  ]);
  const row = inserted[0];
  return { stored: row !== undefined, matched: row !== undefined && row.matchedAt !== null };
}

/** Take a like back: the match it made goes with it, the other's like stays. */
export async function deleteLike(db: Database, likerId: number, likedId: number): Promise<void> {
  await db.batch([
    db.delete(likes).where(and(eq(likes.likerId, likerId), eq(likes.likedId, likedId))),
    db
      .update(likes)
      .set({ matchedAt: null })
      .where(and(eq(likes.likerId, likedId), eq(likes.likedId, likerId))),
  ]);
}

/** The member opened the liker's profile: that like is no longer new (SPEC §4). True when it was. */
export async function markLikeSeen(db: Database, likerId: number, likedId: number): Promise<boolean> {
  const result = await db
    .update(likes)
    .set({ isNew: false })
    .where(and(eq(likes.likerId, likerId), eq(likes.likedId, likedId), eq(likes.isNew, true)))
    .run();
  return result.meta.changes > 0;
}

/** How two members stand in likes: whether the viewer likes the other, and the other the viewer (and whether that is new). */
export async function likeStanding(
  db: Database,
  viewerId: number,
  otherId: number,
): Promise<{ liked: boolean; likedMe: boolean; likeNew: boolean }> {
  const rows = await db
    .select({ likerId: likes.likerId, isNew: likes.isNew })
    .from(likes)
    .where(
      or(
        and(eq(likes.likerId, viewerId), eq(likes.likedId, otherId)),
        and(eq(likes.likerId, otherId), eq(likes.likedId, viewerId)),
      ),
    );
  const theirs = rows.find((r) => r.likerId === otherId);
  return {
    liked: rows.some((r) => r.likerId === viewerId),
    likedMe: theirs !== undefined,
    likeNew: theirs?.isNew ?? false,
  };
}

/**
 * How the viewer stands to each of these profiles (search cards): whom they like, and with whom that
 * like is a match (their own row carries the mark). One primary-key range of the viewer's likes.
 */
export async function likeStandings(
  db: Database,
  viewerId: number,
  ids: number[],
): Promise<Map<number, { matched: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: likes.likedId, matchedAt: likes.matchedAt })
    .from(likes)
    .where(and(eq(likes.likerId, viewerId), inArray(likes.likedId, ids)));
  return new Map(rows.map((r) => [r.id, { matched: r.matchedAt !== null }]));
}

const listColumns = { ...cardColumns, likedAt: likes.createdAt, matchedAt: likes.matchedAt };

/**
 * One page of a likes tab, newest first: received (who likes the member), sent (whom the member
 * likes) or matches (both), with what the cards need to say how the two stand.
 */
export function likesPage(
  db: Database,
  viewerId: number,
  type: "received" | "sent" | "matches",
  limit: number,
  offset: number,
) {
  const other = type === "received" ? likes.likerId : likes.likedId;
  const base = db
    .select({
      ...listColumns,
      isNew: likes.isNew,
      // On a sent or matched row, the new mark is the one of the other's like back.
      theirNew: sql<
        number | null
      >`(SELECT theirs.is_new FROM ${likes} theirs WHERE theirs.liker_id = ${likes.likedId} AND theirs.liked_id = ${likes.likerId})`,
    })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, other))
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(regions, regionJoin)
    .leftJoin(photos, mainPhotoJoin);
  const query =
    type === "received"
      ? base.where(and(eq(likes.likedId, viewerId), shownToOthers)).orderBy(desc(likes.createdAt))
      : type === "sent"
        ? base.where(and(eq(likes.likerId, viewerId), shownToOthers)).orderBy(desc(likes.createdAt))
        : base
            .where(and(eq(likes.likerId, viewerId), isNotNull(likes.matchedAt), shownToOthers))
            .orderBy(desc(likes.matchedAt));
  return query.limit(limit).offset(offset);
}

/** A capped count of one likes list: the rows of `where` whose other profile (joined on `other`) is shown to others, up to `cap`. */
function cappedLikes(db: Database, other: typeof likes.likerId | typeof likes.likedId, where: SQL, cap: number) {
  const rows = db
    .select({ one: sql`1` })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, other))
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(where, shownToOthers))
    .limit(cap);
  return sql<number>`(SELECT count(*) FROM ${rows})`;
}

/** The member's unseen likes from profiles they may see, as a capped count (the badge and the Received tab). */
const newLikesOf = (db: Database, profileId: number, cap: number) =>
  cappedLikes(db, likes.likerId, and(eq(likes.likedId, profileId), eq(likes.isNew, true))!, cap);

/**
 * The counts the likes tabs carry, each up to `cap` (the badge says 99+ beyond): the member's unseen
 * likes (Received), the members they like (Sent) and their matches, counted over the same rows the
 * tabs list (profiles shown to others). One statement, each count reading its own index range.
 */
export async function likeTabCounts(
  db: Database,
  profileId: number,
  cap: number,
): Promise<{ newLikes: number; sent: number; matches: number }> {
  const row = await db.get<{ new_likes: number; sent: number; matches: number }>(sql`SELECT
    ${newLikesOf(db, profileId, cap)} AS new_likes,
    ${cappedLikes(db, likes.likedId, eq(likes.likerId, profileId), cap)} AS sent,
    ${cappedLikes(db, likes.likedId, and(eq(likes.likerId, profileId), isNotNull(likes.matchedAt))!, cap)} AS matches`);
  return { newLikes: row.new_likes, sent: row.sent, matches: row.matches };
}

/**
 * The likes the member received, for their data export: only from profiles they may see now, by the
 * rule the Received tab lists them by (a liker who went invisible or left is not named).
 */
export function likesReceivedForExport(db: Database, profileId: number | SQL) {
  return db
    .select({ profile_id: likes.likerId, created_at: likes.createdAt })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likerId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(likes.likedId, profileId), shownToOthers))
    .orderBy(desc(likes.createdAt));
}

/** The member's unseen likes from profiles they may see, counted up to `cap`. */
export async function countNewLikes(db: Database, profileId: number, cap: number): Promise<number> {
  const row = await db.get<{ n: number }>(sql`SELECT ${newLikesOf(db, profileId, cap)} AS n`);
  return row.n;
}

/** The newest liker whose like the member has not seen, for the new-like popup. */
export async function newestUnseenLiker(db: Database, profileId: number) {
  return db
    .select({
      id: profiles.id,
      name: profiles.name,
      photoKey: photos.key,
      photoThumbKey: photos.thumbKey,
      photoStatus: photos.status,
    })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likerId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(photos, mainPhotoJoin)
    .where(and(eq(likes.likedId, profileId), eq(likes.isNew, true), shownToOthers))
    .orderBy(desc(likes.createdAt))
    .limit(1)
    .get();
}

/** The swipe-game likes the member gave on `day`. */
export async function swipeLikesOn(db: Database, profileId: number, day: string): Promise<number> {
  const row = await db
    .select({ likes: swipeDays.likes })
    .from(swipeDays)
    .where(and(eq(swipeDays.profileId, profileId), eq(swipeDays.day, day)))
    .get();
  return row?.likes ?? 0;
}

/** Count one swipe-game like on `day` if fewer than `max` were given: false when none are left. One statement. */
export async function takeSwipeLike(db: Database, profileId: number, day: string, max: number): Promise<boolean> {
  const result = await db
    .insert(swipeDays)
    .values({ profileId, day, likes: 1 })
    .onConflictDoUpdate({
      target: [swipeDays.profileId, swipeDays.day],
      set: { likes: sql`${swipeDays.likes} + 1` },
      setWhere: sql`${swipeDays.likes} < ${max}`,
    })
    .run();
  return result.meta.changes > 0;
}

/** Give back a swipe-game like taken on `day` for a like that was not stored (another copy of it was). */
export async function returnSwipeLike(db: Database, profileId: number, day: string): Promise<void> {
  await db
    .update(swipeDays)
    .set({ likes: sql`${swipeDays.likes} - 1` })
    .where(and(eq(swipeDays.profileId, profileId), eq(swipeDays.day, day), gt(swipeDays.likes, 0)));
}

/** Forget the swipe game's counts and passes of days before `day` (YYYY-MM-DD); one batch. */
export async function deleteSwipesBefore(db: Database, day: string): Promise<void> {
  await db.batch([
    db.delete(swipeDays).where(lt(swipeDays.day, day)),
    db.delete(swipePasses).where(lt(swipePasses.day, day)),
  ]);
}

/** The member passed this profile in the swipe game on `day`. */
export async function insertSwipePass(db: Database, profileId: number, passedId: number, day: string): Promise<void> {
  await db
    .insert(swipePasses)
    .values({ profileId, passedId, day })
    .onConflictDoUpdate({ target: [swipePasses.profileId, swipePasses.passedId], set: { day } });
}

/**
 * The swipe game's next card: the first profile of the member's search (country, gender, shown to
 * others, not blocked either way; photo first, then most recently active) that they neither like
 * nor passed today.
 */
export async function nextSwipeProfile(
  db: Database,
  viewerId: number,
  country: string,
  gender: string | undefined,
  day: string,
) {
  return db
    .select(cardColumns)
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(regions, regionJoin)
    .leftJoin(photos, mainPhotoJoin)
    .where(
      and(
        eq(profiles.country, country),
        eq(profiles.searchable, 1),
        ...(gender ? [eq(profiles.gender, gender)] : []),
        ne(profiles.id, viewerId),
        shownToOthers,
        notBlockedWith(viewerId),
        notExists(
          sql`(SELECT 1 FROM ${likes} WHERE ${likes.likerId} = ${viewerId} AND ${likes.likedId} = ${profiles.id})`,
        ),
        notExists(
          sql`(SELECT 1 FROM ${swipePasses} WHERE ${swipePasses.profileId} = ${viewerId} AND ${swipePasses.passedId} = ${profiles.id} AND ${swipePasses.day} = ${day})`,
        ),
      ),
    )
    .orderBy(...photoFirst)
    .limit(1)
    .get();
}

/** How many candidates (photo first, then most recently active) the match-finder ranks. */
const MATCH_FINDER_POOL = 500;

type MatchFinderCriteria = {
  viewerId: number;
  country: string;
  gender?: string;
  birthFrom: string;
  birthTo: string;
  regionId?: number;
  interestSlugs: string[];
  limit: number;
};

/**
 * The match-finder's ranked list (exported so a test can read its plan): the first MATCH_FINDER_POOL
 * profiles of the search (photo first, then most recently active), read through the search index in
 * that order, ranked photo first, then by shared interests (a primary-key lookup per candidate), the
 * chosen region, then recent activity.
 */
export function matchFinderQuery(db: Database, c: MatchFinderCriteria) {
  const pool = db
    .select({ id: profiles.id, hasPhoto: profiles.hasPhoto, lastActiveAt: profiles.lastActiveAt })
    .from(profiles)
    .where(
      and(
        eq(profiles.country, c.country),
        eq(profiles.searchable, 1),
        ...(c.gender ? [eq(profiles.gender, c.gender)] : []),
        gte(profiles.birthDate, c.birthFrom),
        lte(profiles.birthDate, c.birthTo),
        ne(profiles.id, c.viewerId),
        notBlockedWith(c.viewerId),
      ),
    )
    .orderBy(...photoFirst)
    .limit(MATCH_FINDER_POOL)
    .as("pool");
  const shared = c.interestSlugs.length
    ? sql<number>`(SELECT count(*) FROM ${profileInterests} JOIN ${interests} ON ${interests.id} = ${profileInterests.interestId} WHERE ${profileInterests.profileId} = ${pool.id} AND ${inArray(interests.slug, c.interestSlugs)})`
    : sql<number>`0`;
  const inRegion = c.regionId !== undefined ? sql<number>`(${profiles.regionId} = ${c.regionId})` : sql<number>`0`;
  return db
    .select({
      ...cardColumns,
      shared: shared.as("shared"),
      inRegion: inRegion.as("in_region"),
      liked: sql<number>`EXISTS (SELECT 1 FROM ${likes} WHERE ${likes.likerId} = ${c.viewerId} AND ${likes.likedId} = ${profiles.id})`,
    })
    .from(pool)
    .innerJoin(profiles, eq(profiles.id, pool.id))
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(regions, regionJoin)
    .leftJoin(photos, mainPhotoJoin)
    .where(shownToOthers)
    .orderBy(desc(pool.hasPhoto), sql`shared DESC`, sql`in_region DESC`, desc(pool.lastActiveAt))
    .limit(c.limit);
}
