/**
 * Whether the login session behind a chat socket is still live, as a conversation's object checks
 * it on every send (docs/decisions/0025). Ending a session tells the object at once (through the
 * member's channel, which records every chat socket a session opens); besides, the object believes
 * what it read of a session in D1 for SESSION_CHECK_MS at most, so a session that ended without the
 * object hearing of it (an operator's script writes only D1, an expiry) sends nothing after that.
 * A send that comes without a session (the message written at signup, a gift) was checked by the
 * request that made it.
 */

/** How long a session read live in D1 is believed without reading it again. */
export const SESSION_CHECK_MS = 5_000;

/** Who is on a socket, as far as the check needs it. */
export type SessionHolder = { profileId: number; userId: number; session?: string };

/** What the check asks outside the object: D1 (is the session live at `now`, in seconds?) and the member's channel (record this socket; is the session live?). */
export type SessionSources = {
  isLive(session: string, userId: number, nowSeconds: number): Promise<boolean>;
  socketOpened(holder: SessionHolder & { session: string }, peer: number): Promise<boolean>;
};

/** The refusal a send from an ended session gets: the page logs out, as after any 403 authentication_required. */
export const SESSION_ENDED = {
  status: 403,
  code: "authentication_required",
  key: "errors.authentication_required",
} as const;

/** The close code of a socket whose session ended (policy violation: it may not reconnect). */
export const SESSION_ENDED_CLOSE = 1008;

/** The sessions this object knows ended, and when it last read the others live; in memory (an eviction forgets, and the next send reads D1). */
export class SessionCheck {
  private readonly ended = new Set<string>();
  private readonly readAt = new Map<string, number>();
  private readonly rechecks = new Map<string, Promise<boolean>>();

  constructor(private readonly sources: SessionSources) {}

  /**
   * A socket of `holder` to `peer` opens: the member's channel records it, so that ending the
   * session reaches this object. False when the session has ended: the socket is refused. The
   * Worker read the session live just before, which counts as a read.
   */
  async admit(holder: SessionHolder, peer: number, now: number): Promise<boolean> {
    const session = holder.session;
    if (session === undefined) return true;
    if (this.ended.has(session)) return false;
    const live = await this.sources.socketOpened({ ...holder, session }, peer);
    if (live) this.readAt.set(session, now);
    else this.end([session]);
    return live;
  }

  /** Whether a frame of `holder` may be taken now: not once their session ended, as told or as read in D1 at most SESSION_CHECK_MS ago. */
  async live(holder: SessionHolder, now: number): Promise<boolean> {
    const session = holder.session;
    if (session === undefined) return true;
    if (this.ended.has(session)) return false;
    const at = this.readAt.get(session);
    if (at !== undefined && now - at < SESSION_CHECK_MS) return true;
    // Told of its end while D1 answered: the end stands.
    return (await this.read(session, holder.userId, now)) && !this.ended.has(session);
  }

  /** Whether the session is known to have ended (no read: for frames that change little, such as typing). */
  hasEnded(holder: SessionHolder): boolean {
    return holder.session !== undefined && this.ended.has(holder.session);
  }

  /**
   * A socket of `holder` is about to be sent something: when their session was last read longer
   * ago than SESSION_CHECK_MS, it is read again without holding the frame back; `onEnded` runs when
   * it turns out ended (the object closes the socket).
   */
  recheck(holder: SessionHolder, now: number, onEnded: () => void): Promise<void> | null {
    const session = holder.session;
    if (session === undefined || this.ended.has(session)) return null;
    const at = this.readAt.get(session);
    if (at !== undefined && now - at < SESSION_CHECK_MS) return null;
    if (this.rechecks.has(session)) return null;
    const read = this.read(session, holder.userId, now).finally(() => this.rechecks.delete(session));
    this.rechecks.set(session, read);
    return read.then(
      (live) => {
        if (!live) onEnded();
      },
      () => undefined,
    );
  }

  /** Sessions ended (told by the member's channel, or read so): their frames are refused from now on. */
  end(sessions: readonly string[]): void {
    for (const session of sessions) {
      this.ended.add(session);
      this.readAt.delete(session);
    }
  }

  private async read(session: string, userId: number, now: number): Promise<boolean> {
    const live = await this.sources.isLive(session, userId, Math.floor(now / 1000));
    if (live) this.readAt.set(session, now);
    else this.end([session]);
    return live;
  }
}

/** Close the sockets `profileId`'s ended sessions opened, of those given (a conversation's, a channel's). */
export function closeEndedSockets(sockets: Iterable<WebSocket>, profileId: number, sessions: readonly string[]): void {
  for (const ws of sockets) {
    const holder = ws.deserializeAttachment() as SessionHolder | null;
    if (holder?.profileId !== profileId || holder.session === undefined || !sessions.includes(holder.session)) continue;
    try {
      ws.close(SESSION_ENDED_CLOSE, "session ended");
    } catch {
      // already closed
    }
  }
}
