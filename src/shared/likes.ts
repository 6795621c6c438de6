/** Likes, matches, the swipe game and the match-finder: shapes of their calls, shared by the Worker and the client. */
import * as v from "valibot";
import type { MainImage, ProfileCard } from "./api";
import { AGE_RANGE_REVERSED, ageRangeHolds } from "./ages";

export const LIKE_TYPES = ["received", "sent", "matches"] as const;
export type LikeType = (typeof LIKE_TYPES)[number];

export const LIKES_PAGE_SIZE = 24;
/** SPEC §6, §9: likes a member may give in the swipe game per day (of the site's time zone). */
export const SWIPE_LIKES_PER_DAY = 4;
/** The new-likes count is exact up to here; the badge shows 99+ from 100 on, so counting further costs for nothing. */
export const NEW_LIKES_CAP = 100;

const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
const intString = (min: number, max: number) =>
  v.pipe(v.string(), v.regex(/^[0-9]{1,6}$/), v.transform(Number), v.integer(), v.minValue(min), v.maxValue(max));

/** Body of POST and DELETE /api/like.php; `source` says the swipe game liked, which counts against its daily likes. */
export const LikeBody = v.object({
  profile: v.object({ id: Id }),
  source: v.optional(v.picklist(["profile", "swipe"])),
});

/** Query of GET /api/likes.php: the tab (received by default) and its page. */
export const LikesQuery = v.strictObject({
  type: v.optional(v.picklist(LIKE_TYPES)),
  page: v.optional(intString(1, 500)),
});

/** A profile in a likes tab: the card plus how the two members stand. */
export type LikeCard = ProfileCard & {
  /** The member has not opened this liker's profile since the like (SPEC §4). */
  like_new: boolean;
  /** The member likes this profile. */
  liked: boolean;
  /** This profile likes the member. */
  liked_me: boolean;
};

/** SPEC §3 liked-by item. */
type LikedBy = { id: number; like_new: boolean };

/**
 * GET /api/likes.php (SPEC §3, §7): `profiles` is one page of the tab, newest first; `liked_by` says
 * which of them like the member and whether that like is new; `new_likes` counts the member's unseen
 * likes (up to NEW_LIKES_CAP) for the badge, the title and the Received tab; `counts` what the Sent and
 * Matches tabs carry (each up to NEW_LIKES_CAP).
 */
export type LikesResponse = {
  profiles: LikeCard[];
  liked_by: LikedBy[];
  new_likes: number;
  counts: { sent: number; matches: number };
  type: LikeType;
  page: number;
  per_page: number;
  has_more: boolean;
};

/** Answer of POST and DELETE /api/like.php. */
export type LikeResult = {
  profile: { id: number };
  liked: boolean;
  /**
   * This like made the match: the match moment plays. True once per match, for the member whose like
   * completed it (the other hears of it on their member channel); liking again answers false.
   */
  match: boolean;
  /** The two members like each other now (a match, made by this like or before). */
  matched: boolean;
  /** Swipe-game likes left today, when the like came from the swipe game. */
  swipe_left?: number;
};

/** GET /api/auto-like.php: the newest unseen liker for the new-like popup, or null. */
export type AutoLikeResponse = { id: number; name: string; main_image: MainImage | null } | null;

/** GET /api/swipe.php: the next card of the swipe game (null when nobody is left today) and the likes left today. */
export type SwipeResponse = { profile: ProfileCard | null; likes_left: number };

/** Body of POST /api/swipe-pass.php. */
export const SwipePassBody = v.object({ profile: v.object({ id: Id }) });

export const MATCH_FINDER_MAX_INTERESTS = 5;

/** Query of GET /api/match-finder.php: whom, the age range, a region and a few interests (comma-separated slugs). */
export const MatchFinderQuery = v.pipe(
  v.object({
    gender: v.optional(v.picklist(["male", "female", "any"])),
    min_age: v.optional(intString(18, 99)),
    max_age: v.optional(intString(18, 99)),
    country_region: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/))),
    interests: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z0-9_-]{1,40}(,[a-z0-9_-]{1,40})*$/),
        v.transform((s) => [...new Set(s.split(","))]),
        v.maxLength(MATCH_FINDER_MAX_INTERESTS),
      ),
    ),
  }),
  v.forward(
    v.check((q) => ageRangeHolds(q), AGE_RANGE_REVERSED),
    ["max_age"],
  ),
);
export type MatchFinderQuery = v.InferOutput<typeof MatchFinderQuery>;

/** A match-finder result: the card, the interests it shares with the search and whether the member likes it. */
type MatchFinderCard = ProfileCard & { shared_interests: number; liked: boolean; matched: boolean };
export type MatchFinderResponse = { profiles: MatchFinderCard[] };

/** Body of POST /api/gift.php: a gift for a member from their profile, sent as a gift message in the pair's chat. */
export const GiftBody = v.object({
  profile: v.object({ id: Id }),
  gift: v.pipe(v.string(), v.regex(/^[a-z0-9_-]{1,32}$/)),
  client_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/)),
});
