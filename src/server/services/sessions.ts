/**
 * The member's own sessions (settings screen): which devices are logged in, and ending the others.
 * Every query names the member, so nobody sees or ends another member's session.
 */
import type { Translate } from "../../shared/translator";
import { deviceNames } from "../../shared/devices";
import type { EndSessionsBody, SessionsResponse } from "../../shared/sessions";
import type { Database } from "../db/database";
import { liveSessionsOf, revokeOtherSessions, revokeSessionByPublicId } from "../db/sessions";
import { AppError } from "../errors";
import type { Session } from "../request-context";
import { memberChannelName } from "../notices/object-names";

/** "Chrome on Android" in the member's language; the product names stay as they are. */
function deviceLabel(t: Translate, device: string | null): string {
  if (device === null) return t("sessions.unknown_device");
  const { browser, system } = deviceNames(device);
  if (browser === null && system === null) return t("sessions.unknown_device");
  return t("sessions.device", {
    browser: browser ?? t("sessions.unknown_browser"),
    system: system ?? t("sessions.unknown_system"),
  });
}

/** The member's live sessions, the one asking first and marked `current`, then the most recently used. */
export async function listSessions(db: Database, t: Translate, session: Session): Promise<SessionsResponse> {
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

/**
 * End one other session of the member, or all others; returns the public ids ended. The session
 * asking is never ended here (logging out does that); an id that is not one of the member's live
 * sessions is a 404.
 */
export async function endSessions(
  db: Database,
  session: Session,
  body: EndSessionsBody,
  now: number,
): Promise<string[]> {
  if ("others" in body) return revokeOtherSessions(db, session.userId, session.id, now);
  if (body.id === session.publicId)
    throw new AppError({ status: 400, code: "current_session", key: "sessions.current_refused", field: "id" });
  if (!(await revokeSessionByPublicId(db, session.userId, body.id, session.id, now))) {
    throw new AppError({ status: 404, code: "not_found", key: "sessions.not_found", field: "id" });
  }
  return [body.id];
}

/**
 * Close every socket the ended sessions of a member opened: the member channel's (live badges) and,
 * through the channel, which records them, the chat socket of each conversation, with or without a
 * message yet (docs/decisions/0025). The call that ended the sessions awaits it, so its answer comes
 * after the sockets closed. Should the channel fail, the conversations' objects still refuse the
 * sessions' sends within SESSION_CHECK_MS (chat/session-check.ts).
 */
export async function closeSessionSockets(
  members: Pick<Env["MEMBERS"], "getByName">,
  profileId: number,
  sessions: string[],
): Promise<void> {
  if (sessions.length === 0) return;
  try {
    await members.getByName(memberChannelName(profileId)).sessionsEnded(sessions);
  } catch (error) {
    console.warn(
      JSON.stringify({
        event: "session_sockets_not_closed",
        profileId,
        message: error instanceof Error ? error.message : String(error),
      }),
    );
  }
}
