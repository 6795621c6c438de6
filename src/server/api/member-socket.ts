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
import { CHANNEL_MEMBER_HEADER, type ChannelMember } from "../notices/member-channel";
import { requestBookmark } from "../db/database";
import { requireMember } from "../edge/signed-in-member";
import { AppError } from "../errors";
import type { AppEnv } from "../request-context";
import { invalidBody } from "./body";
import { objectHandshake, requireSocketUpgrade } from "./socket-handshake";
import { memberChannelName } from "../notices/object-names";

/** SPEC §7: the beacon's body is an empty JSON object; anything in it is a mistake. */
const PageHiddenBody = v.pipe(
  v.custom<object>((body) => typeof body === "object" && body !== null && !Array.isArray(body)),
  v.strictObject({}),
);

export const memberChannelRoutes = new Hono<AppEnv>()
  .get("/api/member-socket.php", async (c) => {
    const session = requireMember(c);
    requireSocketUpgrade(c);
    const bookmark = requestBookmark();
    // The page's bookmark goes with it: the channel reads the badges at least as new as this request (docs/decisions/0033).
    const member: ChannelMember & { bookmark?: string } = {
      profileId: session.profileId,
      userId: session.userId,
      ...(session.publicId ? { session: session.publicId } : {}),
      ...(bookmark ? { bookmark } : {}),
    };
    const visible = c.req.query("visible") === "0" ? "0" : "1";
    const forwarded = new Request(`https://member/socket?visible=${visible}`, {
      headers: { upgrade: "websocket", [CHANNEL_MEMBER_HEADER]: JSON.stringify(member) },
    });
    return objectHandshake(c.env.MEMBERS.getByName(memberChannelName(session.profileId)), forwarded);
  })
  .post(
    "/api/page-hidden.php",
    // Who asks comes before what they sent: a visitor is told to log in whatever the body.
    async (c, next) => {
      requireMember(c);
      // The body must be the empty JSON object (the validator would take any other type for one).
      if (!/^application\/json\b/i.test(c.req.header("content-type") ?? ""))
        throw new AppError({ status: 400, code: "invalid_body", key: "errors.invalid_body" });
      await next();
    },
    vValidator("json", PageHiddenBody, invalidBody),
    async (c) => {
      const { profileId } = requireMember(c);
      await c.env.MEMBERS.getByName(memberChannelName(profileId)).pageHidden();
      return c.body(null, 204);
    },
  );
