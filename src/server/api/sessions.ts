/** DELETE /api/sessions.php: end another of the member's sessions, or all others (GET is a page source). */
import { vValidator } from "@hono/valibot-validator";
import { Hono } from "hono";
import { EndSessionsBody } from "../../shared/sessions";
import { requireMember } from "../edge/signed-in-member";
import type { AppEnv } from "../request-context";
import { conversationRooms } from "../services/chats";
import { closeSessionSockets, endSessions } from "../services/sessions";
import { invalidBody } from "./body";

export const sessionRoutes = new Hono<AppEnv>().delete("/api/sessions.php", vValidator("json", EndSessionsBody, invalidBody), async (c) => {
  const session = requireMember(c);
  const ended = await endSessions(c.get("db"), session, c.req.valid("json"), Math.floor(Date.now() / 1000));
  // The chat sockets those sessions opened close after the answer; their next reconnect is refused anyway.
  c.executionCtx.waitUntil(closeSessionSockets(c.get("db"), conversationRooms(c.env.CONVERSATIONS), session.profileId, ended));
  return c.json({ ended: ended.length });
});
