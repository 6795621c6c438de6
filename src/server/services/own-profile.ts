import type { ProfileUpdateBody } from "../../shared/profile";
import { fieldError } from "../errors";

const COLUMNS = ["sexuality", "relationship_status", "body_type", "hair_color", "eye_color", "tattoos"] as const;

/**
 * Change the member's own profile. The region must belong to the member's country, interests must
 * exist, and the sexuality must fit the gender (lesbian is for women, gay for men). Interests are
 * replaced whole, in the same batch as the other fields.
 */
export async function updateOwnProfile(db: D1Database, userId: number, input: ProfileUpdateBody): Promise<number> {
  const profile = await db.prepare("SELECT id, country, gender FROM profiles WHERE user_id = ?").bind(userId).first<{ id: number; country: string; gender: string }>();
  if (!profile) throw fieldError({ status: 404, code: "not_found", key: "errors.profile_not_found", field: "profile" });

  if ((input.sexuality === "lesbian" && profile.gender !== "female") || (input.sexuality === "gay" && profile.gender !== "male")) {
    throw fieldError({ status: 400, code: "invalid_parameter", key: "errors.invalid_parameter", values: { field: "sexuality" }, field: "sexuality" });
  }
  const sets: string[] = [];
  const values: (string | number | null)[] = [];
  for (const column of COLUMNS) {
    if (input[column] !== undefined) {
      sets.push(`${column} = ?`);
      values.push(input[column]);
    }
  }
  if (input.about_me !== undefined) {
    sets.push("about_me = ?");
    values.push(input.about_me?.trim() || null);
  }
  if (input.city !== undefined) {
    sets.push("city = ?");
    values.push(input.city?.trim() || null);
  }
  if (input.region !== undefined) {
    let regionId: number | null = null;
    if (input.region !== null) {
      const region = await db.prepare("SELECT id FROM regions WHERE code = ? AND country = ?").bind(input.region, profile.country).first<{ id: number }>();
      if (!region) throw fieldError({ status: 400, code: "invalid_parameter", key: "errors.invalid_parameter", values: { field: "region" }, field: "region" });
      regionId = region.id;
    }
    sets.push("region_id = ?");
    values.push(regionId);
  }

  const statements: D1PreparedStatement[] = [];
  if (sets.length) statements.push(db.prepare(`UPDATE profiles SET ${sets.join(", ")} WHERE id = ?`).bind(...values, profile.id));
  if (input.interests !== undefined) {
    const slugs = [...new Set(input.interests)];
    if (slugs.length) {
      const known = await db.prepare(`SELECT count(*) AS n FROM interests WHERE slug IN (${slugs.map(() => "?").join(",")})`).bind(...slugs).first<{ n: number }>();
      if (known?.n !== slugs.length) throw fieldError({ status: 400, code: "invalid_parameter", key: "errors.invalid_parameter", values: { field: "interests" }, field: "interests" });
    }
    statements.push(db.prepare("DELETE FROM profile_interests WHERE profile_id = ?").bind(profile.id));
    for (const slug of slugs) {
      statements.push(db.prepare("INSERT INTO profile_interests (profile_id, interest_id) SELECT ?, id FROM interests WHERE slug = ?").bind(profile.id, slug));
    }
  }
  if (statements.length) await db.batch(statements);
  return profile.id;
}
