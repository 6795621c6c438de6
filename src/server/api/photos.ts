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
import { bodyLimit } from "hono/body-limit";
import { PHOTO_FIELD, PhotoDeleteBody, PhotoUpdateBody } from "../../shared/photos";
import type { AppEnv } from "../context";
import { requireMember } from "../edge/session";
import { AppError } from "../errors";
import { MAX_PHOTO_BYTES } from "../services/images";
import { deletePhoto, listOwnPhotos, type PhotoStore, movePhoto, setMainPhoto, uploadPhoto } from "../services/photos";
import { invalidBody } from "./body";

/** Room for the multipart framing around the file. */
const FORM_OVERHEAD = 64 * 1024;

const tooLarge = () => new AppError(413, "photo_too_large", "errors.photo_too_large", { max: MAX_PHOTO_BYTES / 1024 / 1024 }, "photo");

const store = (c: Context<AppEnv>): PhotoStore => ({ db: c.env.DB, bucket: c.env.PHOTOS });

async function ownList(c: Context<AppEnv>) {
  const { userId, profileId } = requireMember(c);
  return c.json(await listOwnPhotos(c.env.DB, userId, profileId, c.get("site").cdn_prefix));
}

export const photoRoutes = new Hono<AppEnv>()
  .get("/api/photos.php", ownList)
  .post(
    "/api/photos.php",
    async (c, next) => {
      requireMember(c); // before reading any of the body
      await next();
    },
    // The body is cut off once it is larger than any allowed upload, before it is all read.
    bodyLimit({ maxSize: MAX_PHOTO_BYTES + FORM_OVERHEAD, onError: () => Promise.reject(tooLarge()) }),
    async (c) => {
      const { userId, profileId } = requireMember(c);
      if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
        throw new AppError(400, "invalid_photo", "errors.photo_missing", {}, PHOTO_FIELD);
      }
      const form = await c.req.parseBody().catch(() => {
        throw new AppError(400, "invalid_photo", "errors.photo_missing", {}, PHOTO_FIELD);
      });
      const file = form[PHOTO_FIELD];
      if (!(file instanceof File) || file.size === 0) throw new AppError(400, "invalid_photo", "errors.photo_missing", {}, PHOTO_FIELD);
      if (file.size > MAX_PHOTO_BYTES) throw tooLarge();
      const bytes = new Uint8Array(await file.arrayBuffer());
      const photo = await uploadPhoto(store(c), userId, profileId, bytes, c.get("site").cdn_prefix);
      return c.json({ photo }, 201);
    },
  )
  .put("/api/photos.php", vValidator("json", PhotoUpdateBody, invalidBody), async (c) => {
    const { profileId } = requireMember(c);
    const { photo_id, main, position } = c.req.valid("json");
    if (main) await setMainPhoto(c.env.DB, profileId, photo_id);
    if (position !== undefined) await movePhoto(c.env.DB, profileId, photo_id, position);
    return ownList(c);
  })
  .delete("/api/photos.php", vValidator("json", PhotoDeleteBody, invalidBody), async (c) => {
    await deletePhoto(store(c), requireMember(c).profileId, c.req.valid("json").photo_id);
    return ownList(c);
  });
