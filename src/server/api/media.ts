import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../context";
import { photos, profiles } from "../db/schema";

const MEDIA_KEY = /^([ptb])\/[0-9a-f]{32}\.jpg$/;

/**
 * GET /media/<key>: photos only ever leave R2 through here. The key's prefix says the variant
 * (p original, t thumbnail, b blurred). A visitor gets the original and thumbnail of a main photo
 * and the blurred version of any active photo; nothing of a pending photo. Keys are unguessable and
 * unique per variant, so knowing a blurred key says nothing about the original's.
 */
export async function serveMedia(c: Context<AppEnv>): Promise<Response> {
  const key = c.req.path.slice("/media/".length);
  const variant = MEDIA_KEY.exec(key)?.[1];
  if (!variant) return c.notFound();
  const column = variant === "p" ? photos.key : variant === "t" ? photos.thumbKey : photos.blurKey;
  const photo = await c
    .get("db")
    .select({ id: photos.id, status: photos.status, mainPhotoId: profiles.mainPhotoId, profileStatus: profiles.status })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .where(eq(column, key))
    .get();
  if (!photo || photo.status !== "active" || photo.profileStatus !== "active") return c.notFound();
  if (variant !== "b" && photo.id !== photo.mainPhotoId) return c.notFound();

  const object = await c.env.PHOTOS.get(key);
  if (!object) return c.notFound();
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("etag", object.httpEtag);
  // Public variants only: the same bytes for every viewer, so shared caches may keep them.
  headers.set("cache-control", "public, max-age=31536000, immutable");
  headers.set("x-content-type-options", "nosniff");
  return new Response(object.body, { headers });
}
