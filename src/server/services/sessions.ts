/**
 * The member's own sessions (settings screen): which devices are logged in, and ending the others.
 * Every query names the member, so nobody sees or ends another member's session.
 */
import type { i18n } from "i18next";
import { deviceNames } from "../../shared/devices";
import type { EndSessionsBody, SessionsResponse } from "../../shared/sessions";
import type { Database } from "../db/database";
import { conversationsOfProfiles } from "../db/conversations";
import { liveSessionsOf, revokeOtherSessions, revokeSessionByPublicId } from "../db/sessions";
import { AppError } from "../errors";
import type { Session } from "../request-context";
import type { ConversationRooms } from "./chats";

/** "Chrome on Android" in the member's language; the product names stay as they are. */
function deviceLabel(t: i18n["t"], device: string | null): string {
  if (device === null) return t("sessions.unknown_device");
  const { browser, system } = deviceNames(device);
  if (browser === null && system === null) return t("sessions.unknown_device");
  return t("sessions.device", { browser: browser ?? t("sessions.unknown_browser"), system: system ?? t("sessions.unknown_system") });
}

/** The member's live sessions, the one asking first and marked `current`, then the most recently used. */
export async function listSessions(db: Database, t: i18n["t"], session: Session): Promise<SessionsResponse> {
  const rows = await liveSessionsOf(db, session.userId);
  return {
    sessions: rows
      .filter((row) => row.publicId !== null)
      .map((row) => ({
        id: row.publicId!,
        device: deviceLabel(t, row.device),
        created_at: row.createdAt,
        last_used_at: row.lastUsedAt ?? row.createdAt,
        current: row.publicId === session.publicId,
      }))
      .toSorted((a, b) => Number(b.current) - Number(a.current)),
  };
}

/** The public ids of the member's live sessions (whose sockets a change that ends them all must close). */
export async function liveSessionIds(db: Database, userId: number): Promise<string[]> {
  return (await liveSessionsOf(db, userId)).flatMap((row) => (row.publicId === null ? [] : [row.publicId]));
}

/**
 * End one other session of the member, or all others; returns the public ids ended. The session
 * asking is never ended here (logging out does that); an id that is not one of the member's live
 * sessions is a 404.
 */
export async function endSessions(db: Database, session: Session, body: EndSessionsBody, now: number): Promise<string[]> {
  if ("others" in body) return revokeOtherSessions(db, session.userId, session.id, now);
  if (body.id === session.publicId) throw new AppError({ status: 400, code: "current_session", key: "sessions.current_refused", field: "id" });
  if (!(await revokeSessionByPublicId(db, session.userId, body.id, session.id, now))) {
    throw new AppError({ status: 404, code: "not_found", key: "sessions.not_found", field: "id" });
  }
  return [body.id];
}

/**
 * Close the sockets that ended sessions opened: the chat's, in every conversation of the member (each
 * conversation's object closes its own), and the member channel's (live badges); the page's reconnect
 * is refused. A failing object does not keep the others from closing theirs.
 */
export async function closeSessionSockets(db: Database, rooms: ConversationRooms, channel: { sessionsEnded(sessions: string[]): Promise<void> }, profileId: number, sessions: string[]): Promise<void> {
  if (sessions.length === 0) return;
  const conversations = await conversationsOfProfiles(db, [profileId]);
  const closed = await Promise.allSettled([
    channel.sessionsEnded(sessions),
    ...conversations.map(({ profileA, profileB }) => {
      const peer = profileA === profileId ? profileB : profileA;
      return rooms(profileId, peer).sessionsEnded(profileId, peer, sessions);
    }),
  ]);
  const failed = closed.filter((result) => result.status === "rejected").length;
  if (failed > 0) console.warn(JSON.stringify({ event: "session_sockets_not_closed", profileId, conversations: failed }));
}
