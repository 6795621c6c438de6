/**
 * A member's moderation decisions (docs/decisions/0035): GET /api/decision.php?id=&key= (the
 * statement of reasons their page shows) and POST /api/appeal.php. The member is known by their
 * session, or by the key of the mailed link (a disabled member cannot log in, and may still appeal).
 */
import { vValidator } from "@hono/valibot-validator";
import { Hono, type Context } from "hono";
import * as v from "valibot";
import { RecordId } from "../../shared/api";
import { AppealBody, type Statement } from "../../shared/moderation";
import type { AppEnv } from "../request-context";
import { fileAppeal, readableDecision, statementOf, tellAppealReceived } from "../services/moderation";
import { invalidBody } from "./body";
import { parseQuery } from "./query";

const DecisionQuery = v.object({ id: RecordId, key: v.optional(v.pipe(v.string(), v.maxLength(200))) });

/** GET /api/decision.php: the statement, for the member it concerns only (others get 404, as if there were none). */
export async function loadDecision(c: Context<AppEnv>, params: URLSearchParams): Promise<{ decision: Statement }> {
  const { id, key } = parseQuery(DecisionQuery, params);
  const decision = await readableDecision(c.get("db"), c.env.SESSION_SECRET, id, {
    userId: c.get("session")?.userId ?? null,
    key: key ?? null,
  });
  return { decision: await statementOf(c.get("db"), decision, Math.floor(Date.now() / 1000), c.get("company")) };
}

export const decisionRoutes = new Hono<AppEnv>().post(
  "/api/appeal.php",
  vValidator("json", AppealBody, invalidBody),
  async (c) => {
    const body = c.req.valid("json");
    const db = c.get("db");
    const decision = await readableDecision(db, c.env.SESSION_SECRET, body.decision_id, {
      userId: c.get("session")?.userId ?? null,
      key: body.key ?? null,
    });
    const now = Math.floor(Date.now() / 1000);
    await fileAppeal(db, decision.userId!, body, now);
    // The receipt goes out before the answer: the member has it in writing that the appeal was taken.
    await tellAppealReceived(c.env, db, decision);
    return c.json({ decision: await statementOf(db, decision, now, c.get("company")) }, 201);
  },
);
