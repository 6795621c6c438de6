/**
 * Likes and matches (SPEC §2, §4, §6): who may like whom, the rate limit, the swipe game's daily
 * likes, the likes tabs and the new-likes count. Time is a parameter (`now`), so tests set the clock.
 */
import { birthDateRange, MAX_AGE, MIN_AGE } from "../../shared/ages";
import {
  LIKES_PAGE_SIZE,
  NEW_LIKES_CAP,
  SWIPE_LIKES_PER_DAY,
  type AutoLikeResponse,
  type LikeCard,
  type LikeResult,
  type LikesResponse,
  type LikeType,
  type MatchFinderQuery,
  type MatchFinderResponse,
  type SwipeResponse,
} from "../../shared/likes";
import { dayIn, type SiteSettings } from "../../shared/settings";
import { isLiveAccountStatus } from "../db/accounts";
import type { Database } from "../db/database";
import { regionIdOf } from "./catalogue";
import {
  deleteLike,
  deleteSwipesBefore,
  findLikeTarget,
  insertLike,
  insertSwipePass,
  likesPage,
  likeTabCounts,
  likeStanding,
  likeStandings,
  markLikeSeen,
  matchFinderQuery,
  newestUnseenLiker,
  nextSwipeProfile,
  swipeLikesOn,
  takeLikeRate,
  returnSwipeLike,
  takeSwipeLike,
  type LikeTarget,
} from "../db/likes";
import { AppError, invalidParameter } from "../errors";
import { mainImage } from "../../shared/photos";
import { toProfileCard } from "./profile-card";
import { preferredGender, type Searcher } from "./search";

/** A burst of likes: at most this many per window per member; more is refused with a text (not dropped). */
export const LIKE_BURST = { likes: 20, seconds: 60 };

const seconds = (now: Date) => Math.floor(now.getTime() / 1000);

/** Why this member may not like that profile, as the error to answer; null when they may. */
function likeRefusal(viewerId: number, targetId: number, target: LikeTarget | null): AppError | null {
  if (targetId === viewerId)
    return new AppError({ status: 400, code: "own_profile", key: "likes.errors.own_profile", field: "profile" });
  // Deleted, disabled and invisible members are not found: liking must not tell that they exist.
  if (!target || target.profileStatus !== "active" || !isLiveAccountStatus(target.accountStatus) || target.invisible) {
    return new AppError({ status: 404, code: "not_found", key: "likes.errors.unavailable", field: "profile" });
  }
  if (target.blockedByMe)
    return new AppError({
      status: 403,
      code: "blocked",
      key: "likes.errors.blocked",
      values: { name: target.name },
      field: "profile",
    });
  if (target.blockedMe)
    return new AppError({
      status: 403,
      code: "blocked_by",
      key: "errors.blocked_by",
      values: { name: target.name },
      field: "profile",
    });
  return null;
}

type LikeContext = {
  db: Database;
  site: SiteSettings;
  now: Date;
  /** Told of a new like once it is stored (the liked member, or both on a match, hear of it); runs off the reply's path. */
  liked?: (like: { likerId: number; likedId: number; likedName: string; match: boolean }, now: number) => void;
};

/**
 * Like a profile (SPEC §2): refused for oneself, a blocked member (either way), an invisible,
 * deleted or disabled account; liking again changes nothing; a like back makes a match for both.
 * From the swipe game it counts against the day's SWIPE_LIKES_PER_DAY in the site's time zone.
 */
export async function like(
  ctx: LikeContext,
  viewerId: number,
  targetId: number,
  source: "profile" | "swipe" = "profile",
): Promise<LikeResult> {
  const target = await findLikeTarget(ctx.db, viewerId, targetId);
  const refusal = likeRefusal(viewerId, targetId, target);
  if (refusal) throw refusal;
  const day = dayIn(ctx.site.time_zone, ctx.now);
  // Liking again changes nothing and plays no match moment: the match was told when it was made.
  const again = async (): Promise<LikeResult> => {
    const left =
      source === "swipe" ? { swipe_left: SWIPE_LIKES_PER_DAY - (await swipeLikesOn(ctx.db, viewerId, day)) } : {};
    return { profile: { id: targetId }, liked: true, match: false, matched: target!.likedMe, ...left };
  };
  if (target!.liked) return again();
  const now = seconds(ctx.now);
  if (!(await takeLikeRate(ctx.db, viewerId, now, LIKE_BURST.seconds, LIKE_BURST.likes))) {
    throw new AppError({
      status: 429,
      code: "too_many_likes",
      key: "likes.errors.too_many",
      values: { count: LIKE_BURST.seconds },
    });
  }
  let left: { swipe_left?: number } = {};
  if (source === "swipe") {
    if (!(await takeSwipeLike(ctx.db, viewerId, day, SWIPE_LIKES_PER_DAY))) {
      throw new AppError({
        status: 429,
        code: "swipe_limit",
        key: "swipe.errors.limit",
        values: { count: SWIPE_LIKES_PER_DAY },
      });
    }
    left = { swipe_left: SWIPE_LIKES_PER_DAY - (await swipeLikesOn(ctx.db, viewerId, day)) };
  }
  // The match is decided by the write itself (not by the read above): a like back at the same
  // moment, or a second copy of this like, cannot make a second match or tell one twice.
  const { stored, matched } = await insertLike(ctx.db, viewerId, targetId, now);
  if (!stored) {
    // Another copy of this like was stored first and told what it made; it took the day's like, so
    // this copy gives back the one it took.
    if (source === "swipe") {
      await returnSwipeLike(ctx.db, viewerId, day);
      left = { swipe_left: SWIPE_LIKES_PER_DAY - (await swipeLikesOn(ctx.db, viewerId, day)) };
    }
    const standing = await likeStanding(ctx.db, viewerId, targetId);
    return { profile: { id: targetId }, liked: true, match: false, matched: standing.likedMe, ...left };
  }
  ctx.liked?.({ likerId: viewerId, likedId: targetId, likedName: target!.name, match: matched }, now);
  return { profile: { id: targetId }, liked: true, match: matched, matched, ...left };
}

/** Take a like back; its match goes too. Unliking what one never liked changes nothing. */
export async function unlike(db: Database, viewerId: number, targetId: number): Promise<LikeResult> {
  if (targetId === viewerId)
    throw new AppError({ status: 400, code: "own_profile", key: "likes.errors.own_profile", field: "profile" });
  await deleteLike(db, viewerId, targetId);
  return { profile: { id: targetId }, liked: false, match: false, matched: false };
}

/**
 * A member opens another's profile: how the two stand in likes, for its buttons; a new like of
 * theirs is seen now (SPEC §4: opening a profile clears like_new). Only a new like costs a write.
 */
export async function openProfile(
  db: Database,
  viewerId: number,
  profileId: number,
): Promise<{ liked: boolean; liked_me: boolean }> {
  const standing = await likeStanding(db, viewerId, profileId);
  if (standing.likeNew) await markLikeSeen(db, profileId, viewerId);
  return { liked: standing.liked, liked_me: standing.likedMe };
}

/** One page of a likes tab with the counts the tabs carry (GET /api/likes.php). */
export async function listLikes(
  db: Database,
  viewerId: number,
  type: LikeType,
  page: number,
  today = new Date(),
): Promise<LikesResponse> {
  const [rows, counts] = await Promise.all([
    likesPage(db, viewerId, type, LIKES_PAGE_SIZE + 1, (page - 1) * LIKES_PAGE_SIZE),
    likeTabCounts(db, viewerId, NEW_LIKES_CAP),
  ]);
  const profiles: LikeCard[] = rows.slice(0, LIKES_PAGE_SIZE).map((row) => {
    const matched = row.matchedAt !== null;
    const likedMe = type === "received" || matched;
    return {
      ...toProfileCard(row, today),
      like_new: type === "received" ? row.isNew : row.theirNew === 1,
      liked: type !== "received" || matched,
      liked_me: likedMe,
    };
  });
  return {
    profiles,
    liked_by: profiles.filter((p) => p.liked_me).map((p) => ({ id: p.id, like_new: p.like_new })),
    new_likes: counts.newLikes,
    counts: { sent: counts.sent, matches: counts.matches },
    type,
    page,
    per_page: LIKES_PAGE_SIZE,
    has_more: rows.length > LIKES_PAGE_SIZE,
  };
}

/** GET /api/auto-like.php: the newest liker the member has not seen, for the new-like popup; null when there is none. */
export async function autoLike(db: Database, viewerId: number): Promise<AutoLikeResponse> {
  const row = await newestUnseenLiker(db, viewerId);
  if (!row) return null;
  return { id: row.id, name: row.name, main_image: mainImage(row.photoKey, row.photoThumbKey, row.photoStatus) };
}

/** The swipe game's next card from the member's search preferences, and the likes left today. */
export async function nextSwipe(ctx: LikeContext, searcher: Searcher): Promise<SwipeResponse> {
  const day = dayIn(ctx.site.time_zone, ctx.now);
  const country = ctx.site.countries.includes(searcher.country) ? searcher.country : ctx.site.countries[0]!;
  const [row, used] = await Promise.all([
    nextSwipeProfile(ctx.db, searcher.profileId, country, preferredGender(searcher), day),
    swipeLikesOn(ctx.db, searcher.profileId, day),
  ]);
  return { profile: row ? toProfileCard(row, ctx.now) : null, likes_left: Math.max(0, SWIPE_LIKES_PER_DAY - used) };
}

/**
 * Daily clock work: the swipe game's counts and passes only matter on their own day. Days two or
 * more days before `now` (UTC) are past in every site's time zone.
 */
export async function forgetPastSwipes(db: Database, now: Date): Promise<void> {
  await deleteSwipesBefore(db, new Date(now.getTime() - 2 * 86_400_000).toISOString().slice(0, 10));
}

/** Pass a profile in the swipe game: it does not come back today. */
export async function pass(ctx: LikeContext, viewerId: number, targetId: number): Promise<void> {
  if (targetId === viewerId)
    throw new AppError({ status: 400, code: "own_profile", key: "likes.errors.own_profile", field: "profile" });
  const target = await findLikeTarget(ctx.db, viewerId, targetId);
  if (!target)
    throw new AppError({ status: 404, code: "not_found", key: "likes.errors.unavailable", field: "profile" });
  await insertSwipePass(ctx.db, viewerId, targetId, dayIn(ctx.site.time_zone, ctx.now));
}

const MATCH_FINDER_RESULTS = 24;

/** The match-finder (SPEC §2): profiles of the guided search, ranked by shared interests, region and recent activity. */
export async function findMatches(
  db: Database,
  site: SiteSettings,
  searcher: Searcher,
  query: MatchFinderQuery,
  today = new Date(),
): Promise<MatchFinderResponse> {
  // A chosen region decides the country (one of the site's); otherwise the member's own.
  const regionCountry = query.country_region?.slice(0, 2);
  const country = regionCountry ?? (site.countries.includes(searcher.country) ? searcher.country : site.countries[0]!);
  let regionId: number | undefined;
  if (query.country_region) {
    regionId = site.countries.includes(country) ? await regionIdOf(db, query.country_region, country) : undefined;
    if (regionId === undefined) throw invalidParameter("country_region");
  }
  const gender = query.gender === "any" ? undefined : (query.gender ?? preferredGender(searcher));
  const { from, to } = birthDateRange(query.min_age ?? MIN_AGE, query.max_age ?? MAX_AGE, today);
  const rows = await matchFinderQuery(db, {
    viewerId: searcher.profileId,
    country,
    ...(gender ? { gender } : {}),
    birthFrom: from,
    birthTo: to,
    ...(regionId !== undefined ? { regionId } : {}),
    interestSlugs: query.interests ?? [],
    limit: MATCH_FINDER_RESULTS,
  });
  // Like search's cards, these know whom the member matched: no card offers a like that replays the moment.
  const standings = await likeStandings(
    db,
    searcher.profileId,
    rows.map((row) => row.id),
  );
  return {
    profiles: rows.map((row) => ({
      ...toProfileCard(row, today),
      shared_interests: row.shared,
      liked: row.liked === 1,
      matched: standings.get(row.id)?.matched ?? false,
    })),
  };
}
