/** GET /api/sessions.php (a page source): the member's logged-in devices; DELETE: log out one other, or all others. */
import { vValidator } from "@hono/valibot-validator";
import { Hono, type Context } from "hono";
import { EndSessionsBody } from "../../shared/sessions";
import { requireMember } from "../edge/signed-in-member";
import type { AppEnv } from "../request-context";
import { closeSessionSockets, endSessions, listSessions } from "../services/sessions";
import { invalidBody } from "./body";

export const loadSessions = async (c: Context<AppEnv>) => listSessions(c.get("db"), c.get("t"), requireMember(c));

export const sessionRoutes = new Hono<AppEnv>().delete(
  "/api/sessions.php",
  vValidator("json", EndSessionsBody, invalidBody),
  async (c) => {
    const session = requireMember(c);
    const ended = await endSessions(c.get("db"), session, c.req.valid("json"), Math.floor(Date.now() / 1000));
    // Before the answer: once the member reads "logged out", nothing those sessions opened still works.
    await closeSessionSockets(c.env.MEMBERS, session.profileId, ended);
    return c.json({ ended: ended.length });
  },
);
