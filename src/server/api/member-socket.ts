/**
 * The member channel's calls (issue 13, SPEC §7):
 * - GET /api/member-socket.php?visible=0|1: the WebSocket of a page of a logged-in member to their own
 *   member channel. The Worker checks the session and the page's origin and hands the socket to the
 *   object named by the session's profile, never by anything the page says.
 * - POST /api/page-hidden.php `{}`: a page of the member became hidden (the beacon): their pages
 *   count as hidden from now, so push and mail are preferred. Answers 204.
 */
import { vValidator } from "@hono/valibot-validator";
import { Hono } from "hono";
import * as v from "valibot";
import { CHANNEL_MEMBER_HEADER, memberChannelName, type ChannelMember } from "../member/member-channel";
import { requireMember } from "../edge/signed-in-member";
import { AppError } from "../errors";
import type { AppEnv } from "../request-context";
import { invalidBody } from "./body";

/** SPEC §7: the beacon's body is an empty JSON object; anything in it is a mistake. */
const PageHiddenBody = v.pipe(
  v.custom<object>((body) => typeof body === "object" && body !== null && !Array.isArray(body)),
  v.strictObject({}),
);

export const memberChannelRoutes = new Hono<AppEnv>()
  .get("/api/member-socket.php", async (c) => {
    const session = requireMember(c);
    // A WebSocket is not covered by the CSRF check of state-changing calls: only this site's pages may open one.
    const origin = c.req.header("origin");
    if (!origin || origin !== new URL(c.req.url).origin) throw new AppError({ status: 403, code: "csrf", key: "errors.csrf" });
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw new AppError({ status: 426, code: "upgrade_required", key: "errors.invalid_body" });
    const member: ChannelMember = { profileId: session.profileId, userId: session.userId, ...(session.publicId ? { session: session.publicId } : {}) };
    const visible = c.req.query("visible") === "0" ? "0" : "1";
    const forwarded = new Request(`https://member/socket?visible=${visible}`, { headers: { upgrade: "websocket", [CHANNEL_MEMBER_HEADER]: JSON.stringify(member) } });
    const handshake = await c.env.MEMBERS.getByName(memberChannelName(session.profileId)).fetch(forwarded);
    // The object's answer has immutable headers; the edge middleware adds its own to a copy.
    return new Response(handshake.body, { status: handshake.status, headers: new Headers(handshake.headers), webSocket: handshake.webSocket });
  })
  .post(
    "/api/page-hidden.php",
    // Who asks comes before what they sent: a visitor is told to log in whatever the body.
    async (c, next) => {
      requireMember(c);
      // The body must be the empty JSON object (the validator would take any other type for one).
      if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) throw new AppError({ status: 400, code: "invalid_body", key: "errors.invalid_body" });
      await next();
    },
    vValidator("json", PageHiddenBody, invalidBody),
    async (c) => {
      const { profileId } = requireMember(c);
      await c.env.MEMBERS.getByName(memberChannelName(profileId)).pageHidden();
      return c.body(null, 204);
    },
  );
