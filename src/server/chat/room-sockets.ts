/**
 * The sockets of a conversation's object: who is on each (kept with the socket through
 * hibernation), and frames sent to them. A socket that fails to take a frame never stops the others.
 */
import type { ServerFrame } from "../../shared/chat";
import { isLanguage, type Language } from "../../shared/locales";
import { refusalText, type Refusal } from "../errors";
import { i18nFor } from "../translations";

/** Who is on a socket, set by the Worker that authorised it; kept with the socket through hibernation. */
export type SocketMember = {
  profileId: number;
  userId: number;
  language: Language;
  /** The domain of the site the socket was opened on: its settings price the sends. */
  siteDomain: string;
  country: string | null;
  /** The public id of the login session that opened the socket: ending that session closes it (sessionsEnded). */
  session?: string;
  /** Whether they see photos' originals; read when the socket opened, refreshed by memberChanged. */
  premium: boolean;
  /** Their name, for what the other member is told of their messages (read when unknown). */
  name?: string;
  /** The D1 bookmark of the request that handed the member over (docs/decisions/0033); not kept with the socket. */
  bookmark?: string;
};

/** The header by which the Worker hands the authorised member to the object. */
export const MEMBER_HEADER = "x-chat-member";

export function parseMember(raw: string | null): SocketMember | null {
  if (!raw) return null;
  try {
    const m = JSON.parse(raw) as SocketMember;
    if (
      Number.isInteger(m.profileId) &&
      Number.isInteger(m.userId) &&
      isLanguage(m.language) &&
      typeof m.siteDomain === "string" &&
      typeof m.premium === "boolean" &&
      (m.bookmark === undefined || typeof m.bookmark === "string")
    )
      return m;
  } catch {
    // fall through
  }
  return null;
}

/** A refusal as the error frame a member reads, in their language. */
export function refusalFrame(member: SocketMember, clientId: string | null, refusal: Refusal): ServerFrame {
  return {
    type: "error",
    client_id: clientId,
    error: refusal.code,
    message: refusalText(i18nFor(member.language).t, refusal),
  };
}

export class RoomSockets {
  constructor(private readonly ctx: DurableObjectState) {}

  memberOf(ws: WebSocket): SocketMember | null {
    return ws.deserializeAttachment() as SocketMember | null;
  }

  /** Every socket of the object, with a member or not. */
  all(): WebSocket[] {
    return this.ctx.getWebSockets();
  }

  /** Every open socket with its member. */
  *members(): Generator<[WebSocket, SocketMember]> {
    for (const ws of this.ctx.getWebSockets()) {
      const member = this.memberOf(ws);
      if (member) yield [ws, member];
    }
  }

  send(ws: WebSocket, frame: ServerFrame): void {
    try {
      ws.send(JSON.stringify(frame));
    } catch {
      // The socket is closing; its client reconnects and reloads the newest page.
    }
  }

  /** Send a frame to every socket whose member passes `to`. */
  broadcast(to: (member: SocketMember) => boolean, frame: (member: SocketMember) => ServerFrame): void {
    for (const [ws, member] of this.members()) if (to(member)) this.send(ws, frame(member));
  }

  /** Close the sockets of members that pass `which`. */
  close(which: (member: SocketMember) => boolean, code: number, reason: string): void {
    for (const [ws, member] of this.members()) if (which(member)) ws.close(code, reason);
  }
}
