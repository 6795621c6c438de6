/** Shapes of the /api/*.php calls, shared by the Worker and the client. */
import * as v from "valibot";
import { AGE_RANGE_REVERSED, ageRangeHolds, MAX_AGE, MIN_AGE } from "./ages";

const intString = (min: number, max: number) =>
  v.pipe(v.string(), v.regex(/^[0-9]{1,6}$/), v.transform(Number), v.integer(), v.minValue(min), v.maxValue(max));

const MAX_SEARCH_PAGE = 500;
export const SEARCH_PAGE_SIZE = 24;

export const GENDERS = ["male", "female"] as const;
export const SEXUALITIES = ["hetero", "gay", "lesbian", "bi"] as const;
export const BODY_TYPES = ["slim", "normal", "fat"] as const;
export const RELATIONSHIP_STATUSES = [
  "single",
  "married",
  "divorced",
  "widowed",
  "living_together",
  "unmarried",
] as const;
export const HAIR_COLORS = ["black", "brown", "blonde", "red", "grey", "other"] as const;
export const EYE_COLORS = ["blue", "brown", "green", "grey", "hazel"] as const;
export const TATTOOS = ["none", "some", "many"] as const;

/** Query of GET /api/search.php. Every field is optional; the site and member give defaults. */
export const SearchQuery = v.pipe(
  v.object({
    /** "any" asks for everyone; leaving it out lets a member's own preference decide. */
    gender: v.optional(v.picklist([...GENDERS, "any"])),
    country: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/))),
    country_region: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/))),
    min_age: v.optional(intString(MIN_AGE, MAX_AGE)),
    max_age: v.optional(intString(MIN_AGE, MAX_AGE)),
    page: v.optional(intString(1, MAX_SEARCH_PAGE)),
    /** "1": verified members only (docs/decisions/0040). */
    verified: v.optional(v.literal("1")),
  }),
  v.forward(
    v.check((q) => ageRangeHolds(q), AGE_RANGE_REVERSED),
    ["max_age"],
  ),
);
export type SearchQuery = v.InferOutput<typeof SearchQuery>;

/**
 * The id of a record in a URL or query: what the route table's {id} accepts (1 to 10 digits, no
 * leading zero). An id that names nothing is "not found", never "invalid", however large it is.
 */
export const RecordId = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,9}$/), v.transform(Number));

/** GET /api/profile.php: `for=landing` asks for a member landing page, which only a promotable profile has. */
export const ProfileQuery = v.object({ id: RecordId, for: v.optional(v.literal("landing")) });

export const RegionsQuery = v.object({ country: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/))) });

/** A decimal coordinate in degrees ("52.37", "-6.26"): no exponent, no NaN or Infinity. */
const degrees = (limit: number) =>
  v.pipe(
    v.string(),
    v.regex(/^-?[0-9]{1,3}(\.[0-9]{1,20})?$/),
    v.transform(Number),
    v.minValue(-limit),
    v.maxValue(limit),
  );

/** Query of GET /api/geocode.php: the browser's position. */
export const GeocodeQuery = v.object({ lat: degrees(90), lon: degrees(180) });

/** Answer of GET /api/geocode.php: the town only, never coordinates. */
export type GeocodeResponse = { city: string; region: { code: string; name: string } | null; country: string };

export type MainImage = {
  filename: string;
  thumb_filename: string;
  status: string;
  /** Path appended to the site's media prefix (cdn_prefix). */
  match: string;
};

export type ProfileCard = {
  id: number;
  name: string;
  age: number;
  gender: string;
  country: string;
  region: string | null;
  city: string | null;
  main_image: MainImage | null;
  fictional: boolean;
  last_active_at: number;
  /** The member is premium (paid_user): a badge and a bordered main photo (SPEC §6). */
  premium: boolean;
  /** A moderator saw the member's main photo beside their pose selfie (docs/decisions/0040). */
  verified: boolean;
};

/** A search card; for a signed-in member also how they stand: `liked` (they like it), `matched` (both like each other). */
export type SearchCard = ProfileCard & { liked?: boolean; matched?: boolean };

export type SearchResponse = {
  profiles: SearchCard[];
  page: number;
  per_page: number;
  has_more: boolean;
  /** Profiles close to the search when it finds few (first page only). */
  similar: SearchCard[];
  query: {
    gender: string | null;
    country: string;
    country_region: string | null;
    min_age: number;
    max_age: number;
    verified: boolean;
  };
};

export type ProfilePhoto = {
  id: number;
  /** Thumbnail path, or the blurred version when the viewer may not see this photo. */
  thumb: string;
  /** Full-size path: the original when allowed, else the blurred version. */
  image: string;
  locked: boolean;
  main: boolean;
};

export type ProfileDetail = ProfileCard & {
  sexuality: string;
  birth_date: string;
  tattoos: string | null;
  hair_color: string | null;
  eye_color: string | null;
  body_type: string | null;
  relationship_status: string | null;
  region_code: string | null;
  interests: { slug: string; name: string }[];
  about_me: string | null;
};

export type ProfileResponse = {
  profile: ProfileDetail;
  photos: ProfilePhoto[];
  related: ProfileCard[];
  /** How the signed-in viewer stands to this profile (absent for visitors). */
  viewer?: {
    own: boolean;
    blocked: boolean;
    liked?: boolean;
    liked_me?: boolean;
    /** The viewer may like this member (false for an invisible member; docs/decisions/0051). */
    can_like?: boolean;
    /** The viewer may write to this member (an invisible member only where they wrote to the viewer). */
    can_message?: boolean;
  };
  /** Present when the member chose to be invisible: the profile's pages ask search engines not to index them, and give link previews no photo. */
  noindex?: true;
  /** Present when the member is invisible: nobody can like them or start a chat with them (docs/decisions/0051). */
  invisible?: true;
};

export type Region = { code: string; name: string; country: string };
export type RegionsResponse = { regions: Region[] };
export type Interest = { slug: string; name: string };
export type InterestsResponse = { interests: Interest[] };

/**
 * Body of every error answer: a code, a message in the user's language, and the field at fault.
 * A form with several faulty fields gets each field's message in `fields`.
 */
export type ApiError = { error: string; message: string; field?: string; fields?: Record<string, string> };

/** The signed-in member (SPEC §3 User), as GET /api/user.php answers it under `user`. */
export type User = {
  /** active | not_confirmed | pending_deletion */
  status: string;
  email: string;
  invisible: boolean;
  /** The member chose to appear on the site's promotion pages (off unless chosen). */
  promotion_pages: boolean;
  credits: number;
  paid_user: boolean;
  language: string;
  signup_date: number;
  notifications_disabled: string[];
  profile: { id: number; name: string; main_image: MainImage | null };
};

/** Query of GET /api/showcase.php: `towns=1` adds the map of the members' towns. */
export const ShowcaseQuery = v.object({ towns: v.optional(v.picklist(["1"])) });

/**
 * A town on a lander's map: its name and a place on a 100 x 100 drawing (rounded, relative to the
 * other towns shown), never its coordinates.
 */
export type ShowcaseTown = { name: string; region: string | null; x: number; y: number; profile_ids: number[] };

/** Answer of GET /api/showcase.php: recently active members with a photo, for the landers and the home page. */
export type ShowcaseResponse = { profiles: ProfileCard[]; towns: ShowcaseTown[] };
