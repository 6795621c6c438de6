/**
 * /api/photos.php: the signed-in member's own photos.
 *
 * - POST: upload one photo as multipart/form-data, the file in the field `photo` (any file name and
 *   content type: the server reads the content). Answers 201 `{ photo: { id, status, thumb, image, main, width, height } }`.
 * - GET: `{ photos, limit }`, pending and rejected photos included.
 * - PUT `{ photo_id, main: true }`: choose the main photo; DELETE `{ photo_id }`: remove a photo.
 *   Both answer like GET.
 */
import { vValidator } from "@hono/valibot-validator";
import { type Context, Hono } from "hono";
import { PhotoDeleteBody, PhotoUpdateBody } from "../../shared/photos";
import type { AppEnv } from "../request-context";
import { requireMember } from "../edge/signed-in-member";
import { deletePhoto, listOwnPhotos, type PhotoStore, movePhoto, setMainPhoto, uploadPhoto } from "../services/photos";
import { invalidBody } from "./body";
import { photoUpload } from "./photo-upload";

const store = (c: Context<AppEnv>): PhotoStore => ({ db: c.get("db"), bucket: c.env.PHOTOS });

async function ownList(c: Context<AppEnv>) {
  const { userId, profileId } = requireMember(c);
  return c.json(await listOwnPhotos(c.get("db"), userId, profileId, c.get("site").cdn_prefix));
}

export const photoRoutes = new Hono<AppEnv>()
  .get("/api/photos.php", ownList)
  .post(
    "/api/photos.php",
    ...photoUpload(requireMember, (c, bytes) => {
      const { userId, profileId } = requireMember(c);
      return uploadPhoto(store(c), userId, profileId, bytes, c.get("site").cdn_prefix);
    }),
  )
  .put("/api/photos.php", vValidator("json", PhotoUpdateBody, invalidBody), async (c) => {
    const { profileId } = requireMember(c);
    const { photo_id, main, position } = c.req.valid("json");
    if (main) await setMainPhoto(c.get("db"), profileId, photo_id);
    if (position !== undefined) await movePhoto(c.get("db"), profileId, photo_id, position);
    return ownList(c);
  })
  .delete("/api/photos.php", vValidator("json", PhotoDeleteBody, invalidBody), async (c) => {
    await deletePhoto(store(c), requireMember(c).profileId, c.req.valid("json").photo_id);
    return ownList(c);
  });
