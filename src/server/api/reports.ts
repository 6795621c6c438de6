/**
 * POST /api/report.php: a complaint from /complaints or a report from a profile, a photo or a chat
 * message. POST /api/report_contest.php: the notifier contests the dismissal of their report.
 */
import { vValidator } from "@hono/valibot-validator";
import { Hono } from "hono";
import { ContestBody, ReportBody, type ReportResponse } from "../../shared/reports";
import type { AppEnv } from "../request-context";
import { mailerFor } from "../mail/mailer";
import { conversationRooms } from "../services/chats";
import { contestDismissal } from "../services/notifier";
import { fileReport } from "../services/reports";
import { clientAddress } from "./account";
import { invalidBody } from "./body";

export const reportRoutes = new Hono<AppEnv>()
  .post("/api/report.php", vValidator("json", ReportBody, invalidBody), async (c) => {
    const session = c.get("session");
    const { id, queue } = await fileReport(
      {
        db: c.get("db"),
        rooms: conversationRooms(c.env.CONVERSATIONS),
        mailer: mailerFor(c.env),
        t: c.get("t"),
        language: c.get("locale"),
        site: c.get("site"),
        company: c.get("company"),
        origin: new URL(c.req.url).origin,
        clientAddress: clientAddress(c),
        now: Math.floor(Date.now() / 1000),
      },
      session ? { userId: session.userId, profileId: session.profileId } : null,
      c.req.valid("json"),
    );
    return c.json({ report: { id, status: "open", queue } } satisfies ReportResponse, 201);
  })
  .post("/api/report_contest.php", vValidator("json", ContestBody, invalidBody), async (c) => {
    const session = c.get("session");
    const { id } = await contestDismissal(
      c.env,
      c.get("db"),
      session ? { userId: session.userId } : null,
      c.req.valid("json"),
      Math.floor(Date.now() / 1000),
    );
    return c.json({ appeal: { id, status: "open" } }, 201);
  });
