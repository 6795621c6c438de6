import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { PHOTO_FIELD } from "../../shared/photos";
import type { AppEnv } from "../request-context";
import { AppError } from "../errors";
import { MAX_PHOTO_BYTES } from "../services/images";

/** Room for the multipart framing around the file. */
const FORM_OVERHEAD = 64 * 1024;

const tooLarge = () =>
  new AppError({
    status: 413,
    code: "photo_too_large",
    key: "errors.photo_too_large",
    values: { max: MAX_PHOTO_BYTES / 1024 / 1024 },
    field: "photo",
  });
const missing = () =>
  new AppError({ status: 400, code: "invalid_photo", key: "errors.photo_missing", field: PHOTO_FIELD });

/**
 * The steps of a photo upload call (multipart/form-data, the file in the field `photo`): who may
 * upload is checked before any of the body is read, the body is cut off once it is larger than any
 * allowed upload, then `store` gets the file's bytes and its answer is sent with 201 as `{ [answer]: ... }`.
 */
export function photoUpload(
  authorise: (c: Context<AppEnv>) => unknown,
  store: (c: Context<AppEnv>, bytes: Uint8Array) => Promise<unknown>,
  answer = "photo",
): [MiddlewareHandler<AppEnv>, MiddlewareHandler<AppEnv>, (c: Context<AppEnv>) => Promise<Response>] {
  return [
    async (c, next) => {
      authorise(c);
      await next();
    },
    bodyLimit({ maxSize: MAX_PHOTO_BYTES + FORM_OVERHEAD, onError: () => Promise.reject(tooLarge()) }),
    async (c) => {
      if (!(c.req.header("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) throw missing();
      const form = await c.req.parseBody().catch(() => {
        throw missing();
      });
      const file = form[PHOTO_FIELD];
      if (!(file instanceof File) || file.size === 0) throw missing();
      if (file.size > MAX_PHOTO_BYTES) throw tooLarge();
      return c.json({ [answer]: await store(c, new Uint8Array(await file.arrayBuffer())) }, 201);
    },
  ];
}
