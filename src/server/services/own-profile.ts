import type { ProfileUpdateBody } from "../../shared/profile";
import type { Database } from "../db/database";
import { knownInterestCount } from "../db/places";
import { regionIdOf } from "./catalogue";
import { type OwnProfileChange, profileOfMember, updateOwnProfile as storeOwnProfile } from "../db/profiles";
import { fieldError } from "../errors";

const invalid = (field: string) =>
  fieldError({ status: 400, code: "invalid_parameter", key: "errors.invalid_parameter", values: { field }, field });

/**
 * Change the member's own profile. The region must belong to the member's country, interests must
 * exist, and the sexuality must fit the gender (lesbian is for women, gay for men). Interests are
 * replaced whole, in the same batch as the other fields.
 */
export async function updateOwnProfile(db: Database, userId: number, input: ProfileUpdateBody): Promise<number> {
  const profile = await profileOfMember(db, userId);
  if (!profile) throw fieldError({ status: 404, code: "not_found", key: "errors.profile_not_found", field: "profile" });

  if (
    (input.sexuality === "lesbian" && profile.gender !== "female") ||
    (input.sexuality === "gay" && profile.gender !== "male")
  )
    throw invalid("sexuality");
  const change: OwnProfileChange = {};
  if (input.sexuality !== undefined) change.sexuality = input.sexuality;
  if (input.relationship_status !== undefined) change.relationshipStatus = input.relationship_status;
  if (input.body_type !== undefined) change.bodyType = input.body_type;
  if (input.hair_color !== undefined) change.hairColor = input.hair_color;
  if (input.eye_color !== undefined) change.eyeColor = input.eye_color;
  if (input.tattoos !== undefined) change.tattoos = input.tattoos;
  if (input.about_me !== undefined) change.aboutMe = input.about_me?.trim() || null;
  if (input.city !== undefined) change.city = input.city?.trim() || null;
  if (input.region !== undefined) {
    let regionId: number | null = null;
    if (input.region !== null) {
      const id = await regionIdOf(db, input.region, profile.country);
      if (id === undefined) throw invalid("region");
      regionId = id;
    }
    change.regionId = regionId;
  }

  let slugs: string[] | undefined;
  if (input.interests !== undefined) {
    slugs = [...new Set(input.interests)];
    if (slugs.length && (await knownInterestCount(db, slugs)) !== slugs.length) throw invalid("interests");
  }
  await storeOwnProfile(db, profile.id, change, slugs);
  return profile.id;
}
