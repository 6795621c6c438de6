/** DELETE /api/sessions.php: end another of the member's sessions, or all others (GET is a page source). */
import { vValidator } from "@hono/valibot-validator";
import { Hono } from "hono";
import { EndSessionsBody } from "../../shared/sessions";
import { requireMember } from "../edge/signed-in-member";
import type { AppEnv } from "../request-context";
import { endSessions } from "../services/sessions";
import { invalidBody } from "./body";

export const sessionRoutes = new Hono<AppEnv>().delete("/api/sessions.php", vValidator("json", EndSessionsBody, invalidBody), async (c) => {
  const session = requireMember(c);
  return c.json(await endSessions(c.get("db"), session, c.req.valid("json"), Math.floor(Date.now() / 1000)));
});
