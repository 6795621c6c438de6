/**
 * Like calls (SPEC §2, §7):
 * - POST /api/like.php `{ profile: { id }, source? }`: like; DELETE /api/like.php `{ profile: { id } }`: unlike.
 * - POST /api/swipe-pass.php `{ profile: { id } }`: pass a card of the swipe game.
 * - POST /api/gift.php `{ profile: { id }, gift, client_id }`: a gift from the profile, sent as a gift
 *   message through the pair's conversation object (chat's own prices, refusals and texts).
 * GET /api/likes.php, /api/auto-like.php, /api/swipe.php and /api/match-finder.php are read sources
 * (api/sources.ts), so pages render from them too.
 */
import { vValidator } from "@hono/valibot-validator";
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { GiftBody, LikeBody, SwipePassBody } from "../../shared/likes";
import type { AppEnv, Session } from "../request-context";
import { requireMember } from "../edge/signed-in-member";
import { like, pass, unlike } from "../services/likes";
import { tellLike } from "../notices/tell";
import { invalidBody } from "./body";
import { postMessage } from "./chats";

/** SPEC §6: a visitor is told "You need to be logged in to like" (and the 403 logs a stale client out). */
export const requireLikeMember = (c: Context<AppEnv>): Session => requireMember(c, "login_needed.like");

/** The statuses of chat's refusals, which reach us as error frames without one. */
const GIFT_REFUSAL_STATUS: Record<string, ContentfulStatusCode> = {
  authentication_required: 403,
  not_found: 404,
  gift_not_found: 404,
  blocked: 403,
  blocked_by: 403,
  not_confirmed: 403,
  insufficient_credits: 402,
  unknown_site: 404,
};

const likeContext = (c: Context<AppEnv>) => ({
  db: c.get("db"),
  site: c.get("site"),
  now: new Date(),
  liked: (news: Parameters<typeof tellLike>[1], now: number) => c.executionCtx.waitUntil(tellLike(c.env, news, now)),
});

export const likeRoutes = new Hono<AppEnv>()
  .post("/api/like.php", vValidator("json", LikeBody, invalidBody), async (c) => {
    const { profileId } = requireLikeMember(c);
    const body = c.req.valid("json");
    return c.json(await like(likeContext(c), profileId, body.profile.id, body.source ?? "profile"));
  })
  .delete("/api/like.php", vValidator("json", LikeBody, invalidBody), async (c) => {
    const { profileId } = requireLikeMember(c);
    return c.json(await unlike(c.get("db"), profileId, c.req.valid("json").profile.id));
  })
  .post("/api/swipe-pass.php", vValidator("json", SwipePassBody, invalidBody), async (c) => {
    const { profileId } = requireLikeMember(c);
    await pass(likeContext(c), profileId, c.req.valid("json").profile.id);
    return c.json({ passed: true });
  })
  .post("/api/gift.php", vValidator("json", GiftBody, invalidBody), async (c) => {
    const session = requireMember(c, "login_needed.gift");
    const { profile, gift, client_id } = c.req.valid("json");
    if (profile.id === session.profileId)
      return c.json({ error: "own_profile", message: c.get("t")("likes.errors.own_gift"), field: "profile" }, 400);
    // `premium` only shapes what a socket is shown of photos; this send has no socket.
    const member = {
      profileId: session.profileId,
      userId: session.userId,
      language: c.get("locale"),
      siteDomain: c.get("site").domain,
      country: c.get("country"),
      premium: false,
    };
    const reply = await postMessage(c, member, profile.id, { type: "send", client_id, kind: "gift", gift });
    if (reply.type === "ack") return c.json({ message: reply.message, credits: reply.credits });
    if (reply.type === "error")
      return c.json({ error: reply.error, message: reply.message }, GIFT_REFUSAL_STATUS[reply.error] ?? 400);
    return c.json({ error: "internal_error", message: c.get("t")("errors.try_again_later") }, 500);
  });
