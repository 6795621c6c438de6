/** PUT /api/profile.php: the member's own profile fields (SPEC §3 Profile). Every field is optional. */
import * as v from "valibot";
import { BODY_TYPES, EYE_COLORS, HAIR_COLORS, RELATIONSHIP_STATUSES, SEXUALITIES, TATTOOS } from "./api";

export const ABOUT_ME_MAX = 2000;
export const CITY_MAX = 80;
export const INTERESTS_MAX = 20;

export const ProfileUpdateBody = v.strictObject({
  sexuality: v.optional(v.picklist(SEXUALITIES)),
  relationship_status: v.optional(v.nullable(v.picklist(RELATIONSHIP_STATUSES))),
  body_type: v.optional(v.nullable(v.picklist(BODY_TYPES))),
  hair_color: v.optional(v.nullable(v.picklist(HAIR_COLORS))),
  eye_color: v.optional(v.nullable(v.picklist(EYE_COLORS))),
  tattoos: v.optional(v.nullable(v.picklist(TATTOOS))),
  interests: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/))), v.maxLength(INTERESTS_MAX))),
  about_me: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(ABOUT_ME_MAX)))),
  /** ISO 3166-2 code of a region of the member's country. */
  region: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/)))),
  city: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(CITY_MAX)))),
});
export type ProfileUpdateBody = v.InferOutput<typeof ProfileUpdateBody>;

/** POST and DELETE /api/block.php: block or unblock a member. */
export const BlockBody = v.object({ profile_id: v.pipe(v.number(), v.integer(), v.minValue(1)) });
