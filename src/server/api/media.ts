import { eq, sql } from "drizzle-orm";
import { conversationRooms } from "../services/chats";
import type { Context } from "hono";
import { LIVE_SESSION_FROM, readSessionCookie } from "../auth/session";
import type { AppEnv } from "../context";
import { photos, profiles, users } from "../db/schema";

const MEDIA_KEY = /^(c?)([ptb])\/[0-9a-f]{32}\.jpg$/;

/** How long a browser may keep a photo shown to one member only. */
const PRIVATE_MAX_AGE = 3600;

type Photo = { id: number; status: string; profileId: number; mainPhotoId: number | null; profileStatus: string };

/**
 * Who is asking, for a photo that is not public: read only then (public photos cost no session
 * lookup), from the session cookie and one query of the session's row with its member, whether the
 * owner of the photo blocked them.
 */
async function viewerOf(c: Context<AppEnv>, ownerProfileId: number): Promise<{ profileId: number; premium: boolean; blocked: boolean } | null> {
  const claims = await readSessionCookie(c);
  if (!claims) return null;
  const row = await c.env.DB.prepare(
    `SELECT p.id AS profile_id, u.paid_user,
            EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?3 AND b.blocked_id = p.id) AS blocked
     ${LIVE_SESSION_FROM}`,
  )
    .bind(claims.sessionId, claims.userId, ownerProfileId)
    .first<{ profile_id: number; paid_user: number; blocked: number }>();
  return row ? { profileId: row.profile_id, premium: row.paid_user === 1, blocked: row.blocked === 1 } : null;
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
  const column = variant === "p" ? photos.key : variant === "t" ? photos.thumbKey : photos.blurKey;
  const photo = await c
    .get("db")
    .select({
      id: photos.id,
      status: photos.status,
      profileId: photos.profileId,
      mainPhotoId: profiles.mainPhotoId,
      // A deleted account's photos go with its profile: its profile counts as not active.
      profileStatus: sql<string>`CASE WHEN ${users.status} IN ('active', 'not_confirmed') THEN ${profiles.status} ELSE 'gone' END`,
    })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(column, key))
    .get();
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
  const column = blurred ? "blur_key" : key.startsWith("ct/") ? "thumb_key" : "key";
  const row = await c.env.DB.prepare(
    `SELECT v.profile_id, v.paid_user, cp.id AS photo_id, cp.profile_id AS owner,
            EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = cp.profile_id AND b.blocked_id = v.profile_id) AS blocked,
            cp.sent_in_conversation_id IS NOT NULL AND EXISTS (SELECT 1 FROM conversations c
              WHERE c.profile_a = MIN(cp.profile_id, v.profile_id) AND c.profile_b = MAX(cp.profile_id, v.profile_id)) AS sent
     FROM chat_photos cp, (SELECT p.id AS profile_id, u.paid_user ${LIVE_SESSION_FROM}) v
     WHERE cp.${column} = ?3`,
  )
    .bind(claims.sessionId, claims.userId, key)
    .first<{ profile_id: number; paid_user: number; photo_id: number; owner: number; blocked: number; sent: number }>();
  if (!row) return false;
  if (row.owner === row.profile_id) return true;
  if (row.sent !== 1 || row.blocked === 1 || (!blurred && row.paid_user !== 1)) return false;
  // Whether it was sent to this viewer is known to their conversation's object, which keeps the messages.
  return conversationRooms(c.env.CONVERSATIONS)(row.owner, row.profile_id).hasImage(row.photo_id, row.owner, row.profile_id);
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
