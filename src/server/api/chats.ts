/**
 * Chat calls (SPEC §7):
 * - GET /api/chat-socket.php?profile=ID: the WebSocket of the conversation with that member. The
 *   Worker authorises it (a member, this site's own page, a profile that exists and has not blocked
 *   them) and hands it to the pair's Durable Object with who the member is.
 * - DELETE /api/chat.php `{ conversation: { id } }` or `{ profile: { id } }`: remove for the member.
 * - POST /api/chat-photo.php: a photo to send as an image message (multipart field `photo`).
 * GET /api/chats.php, /api/chat.php and /api/gifts.php are read sources (api/sources.ts), so pages
 * render from them too.
 */
import { vValidator } from "@hono/valibot-validator";
import { type Context, Hono } from "hono";
import * as v from "valibot";
import type { ServerFrame } from "../../shared/chat";
import type { AppEnv, Session } from "../request-context";
import { MEMBER_HEADER, type SocketMember } from "../chat/room-sockets";
import { AppError } from "../errors";
import { uploadChatPhoto } from "../services/chat-photos";
import { socketPeerRow } from "../db/conversations";
import { requestBookmark } from "../db/database";
import { conversationRooms, removeChats } from "../services/chats";
import { tellRead } from "../notices/tell";
import { invalidBody } from "./body";
import { photoUpload } from "./photo-upload";
import { objectHandshake, requireSocketUpgrade } from "./socket-handshake";
import { parseQuery } from "./query";
import { requireMember } from "../edge/signed-in-member";
import { roomName } from "../notices/object-names";
import { type SendFrame } from "../../shared/chat-frames";

const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
const RemoveChatBody = v.union([
  v.object({ conversation: v.object({ id: Id }) }),
  v.object({ profile: v.object({ id: Id }) }),
]);
const SocketQuery = v.object({ profile: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,9}$/), v.transform(Number), Id) });

/** SPEC §6: a visitor is told "You need to be logged in to chat" (and the 403 logs a stale client out). */
export const requireChatMember = (c: Context<AppEnv>): Session => requireMember(c, "login_needed.chat");

/**
 * Send a message for a member without a socket (the message written at signup, a gift), through the
 * pair's object like every other send. Answers the ack or the error frame.
 */
export async function postMessage(
  c: Context<AppEnv>,
  member: SocketMember,
  peer: number,
  frame: SendFrame,
): Promise<ServerFrame> {
  // The object reads at least what this request wrote (a signup, a gift's order), docs/decisions/0033.
  const bookmark = requestBookmark();
  return c.env.CONVERSATIONS.getByName(roomName(member.profileId, peer)).post(
    { ...member, ...(bookmark ? { bookmark } : {}) },
    peer,
    frame,
  );
}

export const chatRoutes = new Hono<AppEnv>()
  .get("/api/chat-socket.php", async (c) => {
    const session = requireChatMember(c);
    requireSocketUpgrade(c);
    const { profile: peer } = parseQuery(SocketQuery, new URL(c.req.url).searchParams);
    if (peer === session.profileId)
      throw new AppError({ status: 404, code: "not_found", key: "errors.profile_not_found", field: "profile" });
    const row = await socketPeerRow(c.get("db"), peer, session.profileId, session.userId);
    if (!row) throw new AppError({ status: 404, code: "not_found", key: "errors.profile_not_found", field: "profile" });
    if (row.blockedMe)
      throw new AppError({ status: 403, code: "blocked_by", key: "errors.blocked_by", values: { name: row.name } });
    const bookmark = requestBookmark();

    const member: SocketMember = {
      profileId: session.profileId,
      userId: session.userId,
      language: c.get("locale"),
      siteDomain: c.get("site").domain,
      country: c.get("country"),
      ...(session.publicId ? { session: session.publicId } : {}),
      premium: row.paid,
      name: row.ownName,
      // The object reads D1 at least as new as this request, so the member sees their own writes (docs/decisions/0033).
      ...(bookmark ? { bookmark } : {}),
    };
    const stub = c.env.CONVERSATIONS.getByName(roomName(session.profileId, peer));
    const forwarded = new Request(`https://conversation/socket?peer=${peer}`, {
      headers: { upgrade: "websocket", [MEMBER_HEADER]: JSON.stringify(member) },
    });
    return objectHandshake(stub, forwarded);
  })
  .delete("/api/chat.php", vValidator("json", RemoveChatBody, invalidBody), async (c) => {
    const { profileId } = requireChatMember(c);
    const body = c.req.valid("json");
    const removed = await removeChats(
      c.get("db"),
      conversationRooms(c.env.CONVERSATIONS),
      profileId,
      "conversation" in body ? { conversationId: body.conversation.id } : { profileId: body.profile.id },
    );
    // Everything in them counts as read: the member's other pages drop their badges.
    c.executionCtx.waitUntil(Promise.all(removed.map((chat) => tellRead(c.env, profileId, chat.peer, chat.id, 0))));
    return c.json({ removed: removed.length });
  })
  .post(
    "/api/chat-photo.php",
    ...photoUpload(requireChatMember, (c, bytes) =>
      uploadChatPhoto(
        { db: c.get("db"), bucket: c.env.PHOTOS },
        requireChatMember(c).profileId,
        bytes,
        c.get("site").cdn_prefix,
      ),
    ),
  );
