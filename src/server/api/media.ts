import type { Context } from "hono";
import { readSessionCookie } from "../auth/session-cookie";
import { conversationRooms } from "../services/chats";
import { chatPhotoViewer, photoByObjectKey } from "../db/photos";
import { photoViewer } from "../db/sessions";
import type { AppEnv } from "../request-context";

const MEDIA_KEY = /^(c?)([ptb])\/[0-9a-f]{32}\.jpg$/;

/** How long a browser may keep a photo shown to one member only. */
const PRIVATE_MAX_AGE = 3600;

type Photo = NonNullable<Awaited<ReturnType<typeof photoByObjectKey>>>;

/** The column of each variant's key: p original, t thumbnail, b blurred. */
const VARIANT_COLUMN: Record<string, "key" | "thumbKey" | "blurKey"> = { p: "key", t: "thumbKey", b: "blurKey" };

/**
 * Who is asking, for a photo that is not public: read only then (public photos cost no session
 * lookup), from the session cookie and one query of the session's row with its member, whether the
 * owner of the photo blocked them.
 */
async function viewerOf(
  c: Context<AppEnv>,
  ownerProfileId: number,
): Promise<{ profileId: number; premium: boolean; blocked: boolean } | null> {
  const claims = await readSessionCookie(c);
  if (!claims) return null;
  return (await photoViewer(c.get("db"), claims.sessionId, claims.userId, ownerProfileId)) ?? null;
}

/**
 * Who may have a variant of a photo (SPEC §2, §6):
 * - "public": the original and thumbnail of an active main photo, and the blurred version of any
 *   active photo; the same bytes for everyone, so shared caches may keep them.
 * - "private": the original and thumbnail of any other active photo go to the owner and to premium
 *   members (not to one the owner blocked); the owner also gets every variant of their pending photos.
 * - null: no one else; they get a 404, never the original's bytes.
 */
async function access(c: Context<AppEnv>, photo: Photo, variant: string): Promise<"public" | "private" | null> {
  if (photo.profileStatus !== "active" || (photo.status !== "active" && photo.status !== "pending")) return null;
  if (photo.status === "active" && (variant === "b" || photo.id === photo.mainPhotoId)) return "public";
  const viewer = await viewerOf(c, photo.profileId);
  if (!viewer) return null;
  if (viewer.profileId === photo.profileId) return "private";
  if (photo.status === "active" && viewer.premium && !viewer.blocked) return "private";
  return null;
}

/**
 * GET /media/<key>: photos only ever leave R2 through here. The key's prefix says the variant
 * (p original, t thumbnail, b blurred). Keys are unguessable and unique per variant, so knowing a
 * blurred key says nothing about the original's. Routed before the session middleware: the session
 * is read here only for a photo that is not public.
 */
export async function serveMedia(c: Context<AppEnv>): Promise<Response> {
  const key = c.req.path.slice("/media/".length);
  const match = MEDIA_KEY.exec(key);
  if (!match) return c.notFound();
  const variant = match[2]!;
  if (match[1] === "c") return (await chatPhotoAccess(c, key)) ? serveObject(c, key, "private") : notFound(c);
  const photo = await photoByObjectKey(c.get("db"), VARIANT_COLUMN[variant]!, key);
  const allowed = photo ? await access(c, photo, variant) : null;
  if (!allowed) return notFound(c);
  return serveObject(c, key, allowed);
}

/**
 * Whether the viewer may have this variant of a chat photo: its sender may; the other member of a
 * conversation it was sent in may have the blurred version, and the original and thumbnail only when
 * premium (SPEC §6) and not blocked by the sender.
 */
async function chatPhotoAccess(c: Context<AppEnv>, key: string): Promise<boolean> {
  const claims = await readSessionCookie(c);
  if (!claims) return false;
  const blurred = key.startsWith("cb/");
  const row = await chatPhotoViewer(
    c.get("db"),
    claims.sessionId,
    claims.userId,
    blurred ? "blurKey" : key.startsWith("ct/") ? "thumbKey" : "key",
    key,
  );
  if (!row) return false;
  if (row.owner === row.profileId) return true;
  if (!row.sentToPair || row.blocked || (!blurred && !row.premium)) return false;
  // Whether it was sent to this viewer is known to their conversation's object, which keeps the messages.
  return conversationRooms(c.env.CONVERSATIONS)(row.owner, row.profileId).hasImage(
    row.photoId,
    row.owner,
    row.profileId,
  );
}

async function serveObject(c: Context<AppEnv>, key: string, allowed: "public" | "private"): Promise<Response> {
  const object = await c.env.PHOTOS.get(key);
  if (!object) return notFound(c);
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("etag", object.httpEtag);
  if (allowed === "public") {
    // The same bytes for every viewer: shared caches may keep them.
    headers.set("cache-control", "public, max-age=31536000, immutable");
  } else {
    // Only this member may see it: no shared cache may keep it or answer others with it.
    headers.set("cache-control", `private, max-age=${PRIVATE_MAX_AGE}`);
    headers.set("vary", "Cookie");
  }
  headers.set("x-content-type-options", "nosniff");
  return new Response(object.body, { headers });
}

/**
 * The 404 of a photo this viewer may not have, or that does not exist: the answer depends on the
 * cookie too, so it is kept by no cache (a shared cache must not serve one member's refusal, nor a
 * browser keep it after the member becomes premium).
 */
function notFound(c: Context<AppEnv>): Response {
  c.header("cache-control", "private, no-store");
  c.header("vary", "Cookie");
  return c.body(null, 404);
}
