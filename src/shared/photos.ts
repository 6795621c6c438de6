/**
 * /api/photos.php: a member's own photos (SPEC §5: 3 for a free member, 25 for a premium one).
 *
 * POST uploads one photo as multipart/form-data with the file in the field `photo` (JPEG, PNG or
 * WebP; the server checks the content, not the name). PUT chooses the main photo, DELETE removes a
 * photo, GET lists the member's photos, pending ones included.
 */
import * as v from "valibot";
import type { MainImage } from "./api";

export const FREE_PHOTO_LIMIT = 3;
export const PREMIUM_PHOTO_LIMIT = 25;
/** The form field of an upload. */
export const PHOTO_FIELD = "photo";

const PhotoId = v.pipe(v.number(), v.integer(), v.minValue(1));

/** DELETE /api/photos.php */
export const PhotoDeleteBody = v.object({ photo_id: PhotoId });
/** PUT /api/photos.php: make this photo the main one, or move it to another place in the order (0 first). */
export const PhotoUpdateBody = v.pipe(
  v.object({
    photo_id: PhotoId,
    main: v.optional(v.literal(true)),
    position: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(PREMIUM_PHOTO_LIMIT - 1))),
  }),
  v.forward(
    v.check((body) => body.main !== undefined || body.position !== undefined, "main or position"),
    ["position"],
  ),
);

/** One of the member's own photos; paths are under the site's media prefix (null for a rejected photo). */
export type OwnPhoto = {
  id: number;
  /** pending (not public yet) | active | rejected */
  status: string;
  thumb: string | null;
  image: string | null;
  main: boolean;
  width: number;
  height: number;
};

export type PhotoUploadResponse = { photo: OwnPhoto };
export type PhotoListResponse = { photos: OwnPhoto[]; limit: number };

/** A profile's main photo as the API shows it: only a photo whose status is active (approved) is public. */
export function mainImage(key: string | null, thumbKey: string | null, status: string | null): MainImage | null {
  if (!key || !thumbKey || status !== "active") return null;
  return { filename: key, thumb_filename: thumbKey, status, match: key };
}
