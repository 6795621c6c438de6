import { DurableObject } from "cloudflare:workers";
import * as v from "valibot";
import type { MemberEvent, Presence } from "../../shared/member-events";
import { PageFrame, type MemberFrame } from "../../shared/member-frames";
import { D1Reads, databaseOver, type Database } from "../db/database";
import { badgeCounts, badgesAfter, readBadges, readNewLikes, type Badges } from "./badges";
import { CLOSED_ANSWER_MS } from "./page-hints";
import { chatSocketOpened, chatSocketsOfEnded, hasEnded } from "./session-sockets";
import { roomName } from "./object-names";

/** Whose channel it is, handed over by the Worker that checked the session; `session`: the public id of the login session that opened the socket. */
export type ChannelMember = { profileId: number; userId: number; session?: string };
/** What the Worker hands over with a page's socket: the member, and the bookmark of the page's request (docs/decisions/0033). */
type HandedMember = ChannelMember & { bookmark?: string };

/** The header by which the Worker hands the signed-in member to their channel. */
export const CHANNEL_MEMBER_HEADER = "x-channel-member";

/** Kept with each page's socket through hibernation: whether the page said it is in view, when it last said anything, and its login session. */
type PageState = { visible: boolean; at: number; session?: string; kept?: Kept };

const OWNER_KEY = "owner";
const BADGES_KEY = "badges";
/**
 * The badges a socket may keep, as JSON: the runtime takes 2,048 bytes per socket at most, and the
 * page's own state and the owner (under 200 bytes) come with them.
 */
const BADGES_BYTES = 1_600;
/** What the object keeps for its open pages: their owner and badges (see stored()). */
type Kept = { [OWNER_KEY]?: ChannelMember | undefined; [BADGES_KEY]?: Badges | undefined };
/**
 * A page pings every 30 s (answered without waking the object); a page silent for longer than two
 * pings is frozen or gone (a phone put it away without a word) and does not count as seen.
 */
const SILENT_AFTER_MS = 70_000;
/**
 * Badges read in D1 longer ago than this are read again after the next event: changes that send no
 * event (a chat removed on a page, a block, a like seen) are right on every page within a minute.
 */
const REREAD_AFTER_MS = 60_000;

/**
 * The Durable Object of one member: every open page of theirs holds one hibernating socket here.
 * Producers tell it what happened to the member (tell); it sends each page the event with the
 * badges after it, whole, and answers how many pages are open and in view, so push and mail know
 * whether the member already saw it. The badges (read again from D1 whenever a page connects) are
 * kept in memory and with each open page's socket, which eviction keeps, so an eviction loses none
 * and an event writes no storage (docs/decisions/0023). With no page open nothing runs and nothing
 * of the badges is kept: no alarm, only for a few seconds the names of the conversations told so, and
 * an event costs one call (docs/decisions/0022). Its storage holds one thing: which conversations
 * each login session opened a chat socket in, so ending the session closes them (docs/decisions/0025).
 */
export class MemberChannel extends DurableObject<Env> {
  private readonly reads: D1Reads;
  private readonly db: Database;
  /**
   * The conversations' objects told lately that no page is open, and until when that answer stands
   * (CLOSED_ANSWER_MS): they keep news for the pages back meanwhile and are told when a page opens.
   * In memory only: the answer runs out sooner than an idle object is put away.
   */
  private readonly toldClosed = new Map<string, number>();
  /** The kept values read or written since the object started (stored()); null: known to be none. */
  private readonly memory: { [K in keyof Kept]?: Kept[K] | null } = {};

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Its own D1 session: the badges it reads on a page's connect are at least as new as that page's request.
    this.reads = new D1Reads(env.DB, null, "first-primary");
    this.db = databaseOver(this.reads);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
  }

  /** A page's socket, forwarded by the Worker after checking the session: the page gets the badges from D1 at once. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket")
      return new Response("Expected a WebSocket", { status: 426 });
    const handed = parseMember(request.headers.get(CHANNEL_MEMBER_HEADER));
    if (!handed) return new Response("Wrong member", { status: 400 });
    const { bookmark, ...member } = handed;
    this.reads.catchUp(bookmark);
    // Its session ended while the Worker handed the socket over.
    if (member.session !== undefined && hasEnded(this.ctx.storage.kv, member.session))
      return new Response("Session ended", { status: 403 });
    if (!this.claim(member)) return new Response("Wrong member", { status: 400 });
    const visible = new URL(request.url).searchParams.get("visible") !== "0";

    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({
      visible,
      at: Date.now(),
      ...(member.session ? { session: member.session } : {}),
      kept: this.keptNow(),
    } satisfies PageState);
    this.tellPageOpened(member.profileId);
    // Read again on every connect: whatever happened while no page was open (or on no socket, such
    // as a like seen on another page) is right again, on every open page.
    await this.reread(member, true);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * Something happened to the member (stored already by the caller): every open page hears of it
   * with the badges after it. Answers the pages open and in view as the event arrived.
   */
  async tell(event: MemberEvent, asker?: string): Promise<Presence> {
    if (this.ctx.getWebSockets().length === 0) return this.noPage(asker);
    const owner = this.stored(OWNER_KEY);
    if (!owner) return this.presence();
    // A like carries no count: the new-likes count is read again (likes are seen on pages without an event).
    const newLikes =
      event.kind === "like" || event.kind === "match" ? await readNewLikes(this.db, owner.profileId) : null;
    // Read, changed and stored with no wait in between, so events arriving together each see the other's change.
    let badges =
      this.stored(BADGES_KEY) ?? (await this.ctx.blockConcurrencyWhile(() => readBadges(this.db, owner, Date.now())));
    if (newLikes !== null) badges = { ...badges, new_likes: newLikes };
    badges = badgesAfter(badges, event);
    this.remember(BADGES_KEY, badges);
    this.broadcast({ type: "event", event, counts: badgeCounts(badges) });
    // The runtime sends the frame once this turn ends: the sockets' copy of the badges is written
    // in the next one, so the pages do not wait for it (an event arriving meanwhile sees the memory).
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.keepWithPages(BADGES_KEY);
    if (Date.now() - badges.read_at > REREAD_AFTER_MS) this.ctx.waitUntil(this.reread(owner, false));
    const presence = this.presence();
    return presence.open === 0 ? this.noPage(asker) : presence;
  }

  /**
   * Something that sends no event changed what the badges count (a block either way, an unblock):
   * they are read from D1 again, and every open page gets the counts when they changed. With no
   * page open nothing is read.
   */
  async badgesChanged(): Promise<void> {
    if (this.ctx.getWebSockets().length === 0) return;
    const owner = this.stored(OWNER_KEY);
    if (owner) await this.reread(owner, false);
  }

  /**
   * A page of the member went hidden (POST /api/page-hidden.php, the beacon a phone still sends when
   * it puts a page away): every page counts as hidden from now on, and each is asked whether it is
   * in view; those that are say so at once, a frozen or closed one says nothing.
   */
  async pageHidden(): Promise<Presence> {
    const now = Date.now();
    for (const ws of this.ctx.getWebSockets()) this.seen(ws, false, now);
    this.broadcast({ type: "visibility_check" });
    return this.presence();
  }

  /**
   * Read the badges in D1 again (with no event in between: producers store before they tell) and
   * give them to every page; `always`: even when they did not change (a page just connected).
   */
  private async reread(owner: ChannelMember, always: boolean): Promise<void> {
    const fresh = await this.ctx.blockConcurrencyWhile(() => readBadges(this.db, owner, Date.now()));
    const before = this.stored(BADGES_KEY);
    this.store(BADGES_KEY, fresh);
    const counts = badgeCounts(fresh);
    if (always || !before || JSON.stringify(badgeCounts(before)) !== JSON.stringify(counts))
      this.broadcast({ type: "counts", counts });
  }

  /**
   * What the object keeps (its owner, the badges), in memory and with every open page's socket (the
   * socket's attachment, which hibernation and eviction keep while the socket is open). So an event
   * touches no storage at all, and a member with no open page has nothing kept anywhere.
   */
  private stored<K extends keyof Kept>(key: K): Kept[K] | undefined {
    if (!(key in this.memory)) this.memory[key] = this.fromPages(key) ?? null;
    return this.memory[key] ?? undefined;
  }

  /**
   * Keep a value (null: forget it), in memory and with every open page's socket. Badges longer than
   * BADGES_BYTES (a member with unread messages in very many conversations) stay in memory only,
   * and after an eviction are read from D1 again.
   */
  private store<K extends keyof Kept>(key: K, value: Kept[K] | null): void {
    this.remember(key, value);
    this.keepWithPages(key);
  }

  /** A value kept in memory only, for now (keepWithPages gives it to the sockets). */
  private remember<K extends keyof Kept>(key: K, value: Kept[K] | null): void {
    this.memory[key] = value;
  }

  /** The value in memory, given to every open page's socket (see store). */
  private keepWithPages<K extends keyof Kept>(key: K): void {
    const value = this.memory[key] ?? null;
    const kept =
      value === null || (key === BADGES_KEY && JSON.stringify(value).length > BADGES_BYTES) ? undefined : value;
    for (const ws of this.ctx.getWebSockets()) {
      const page = ws.deserializeAttachment() as PageState | null;
      if (!page) continue;
      try {
        ws.serializeAttachment({ ...page, kept: { ...page.kept, [key]: kept } } satisfies PageState);
      } catch {
        // closing
      }
    }
  }

  /** A value the pages' sockets keep (all keep the same; a socket opened since the last change has it too). */
  private fromPages<K extends keyof Kept>(key: K): Kept[K] | undefined {
    for (const ws of this.ctx.getWebSockets()) {
      const value = (ws.deserializeAttachment() as PageState | null)?.kept?.[key];
      if (value !== undefined) return value as Kept[K];
    }
    return undefined;
  }

  /** Everything kept now, for a page's new socket. */
  private keptNow(): Kept {
    return { [OWNER_KEY]: this.stored(OWNER_KEY), [BADGES_KEY]: this.stored(BADGES_KEY) };
  }

  /** The answer that no page is open, remembered for the conversation's object that asked (`asker`, its name). */
  private noPage(asker: string | undefined): Presence {
    if (asker !== undefined) this.toldClosed.set(asker, Date.now() + CLOSED_ANSWER_MS);
    return { open: 0, visible: 0 };
  }

  /** A page opened: the conversations' objects told lately that none was, hear that one is (and send what they kept back). */
  private tellPageOpened(profileId: number): void {
    const now = Date.now();
    for (const [name, until] of this.toldClosed) {
      if (until <= now) continue;
      this.ctx.waitUntil(
        this.env.CONVERSATIONS.getByName(name)
          .pageOpened(profileId)
          .catch((error: unknown) =>
            console.error(
              JSON.stringify({
                event: "page_opened_failed",
                message: error instanceof Error ? error.message : String(error),
              }),
            ),
          ),
      );
    }
    this.toldClosed.clear();
  }

  /** Pages open and in view now. */
  async presenceNow(): Promise<Presence> {
    return this.presence();
  }

  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    let frame: PageFrame;
    try {
      frame = v.parse(PageFrame, JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data)));
    } catch {
      return;
    }
    this.seen(ws, frame.visible, Date.now());
  }

  /**
   * Some of the member's login sessions ended (logout, logged out elsewhere, a new password, a
   * deletion): the pages they opened lose their socket here, and so does every chat socket they
   * opened, in each conversation's object the channel recorded (session-sockets.ts). Answers once
   * every object has closed them; a failing object does not keep the others from closing theirs.
   */
  async sessionsEnded(sessions: string[]): Promise<void> {
    const conversations = chatSocketsOfEnded(this.ctx.storage.kv, sessions, Date.now());
    for (const ws of this.ctx.getWebSockets()) {
      const page = ws.deserializeAttachment() as PageState | null;
      if (page?.session !== undefined && sessions.includes(page.session)) ws.close(1008, "session ended");
    }
    const closed = await Promise.allSettled(
      conversations.map(({ profileId, peer }) =>
        this.env.CONVERSATIONS.getByName(roomName(profileId, peer)).sessionsEnded(profileId, peer, sessions),
      ),
    );
    const failed = closed.filter((result) => result.status === "rejected").length;
    if (failed > 0) console.warn(JSON.stringify({ event: "session_sockets_not_closed", conversations: failed }));
  }

  /**
   * A conversation's object takes a chat socket of one of the member's sessions: it is recorded, so
   * ending the session closes it. False when the session has ended (the object refuses the socket).
   */
  async chatSocketOpened(profileId: number, session: string, peer: number): Promise<boolean> {
    return chatSocketOpened(this.ctx.storage.kv, profileId, session, peer, Date.now());
  }

  /** What the page said of its visibility, and when. */
  private seen(ws: WebSocket, visible: boolean, at: number): void {
    const page = ws.deserializeAttachment() as PageState | null;
    try {
      ws.serializeAttachment({ ...page, visible, at } satisfies PageState);
    } catch {
      // closing
    }
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    // 1005/1006 are reserved: they may not be sent back in a close frame.
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // already closed
    }
    this.forgetWhenAlone(ws);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    try {
      ws.close(1011, "error");
    } catch {
      // already closed
    }
    this.forgetWhenAlone(ws);
  }

  /** The member's last page went: nothing is kept (the next page reads everything from D1 again). */
  private forgetWhenAlone(closed: WebSocket): void {
    if (this.ctx.getWebSockets().some((ws) => ws !== closed && ws.readyState === WebSocket.OPEN)) return;
    this.store(BADGES_KEY, null);
    this.store(OWNER_KEY, null);
    // What an older version of this object kept in its storage goes too.
    if (this.ctx.storage.kv.get(OWNER_KEY) !== undefined) {
      this.ctx.storage.kv.delete(OWNER_KEY);
      this.ctx.storage.kv.delete(BADGES_KEY);
    }
  }

  /**
   * A page counts as open while its socket is; as visible when it last said it is in view and has
   * given a sign of life (a ping, a frame) lately. One visible page is enough: a hidden tab in one
   * window does not hide the member who reads in another.
   */
  private presence(): Presence {
    const now = Date.now();
    let open = 0;
    let visible = 0;
    for (const ws of this.ctx.getWebSockets()) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      open++;
      const page = ws.deserializeAttachment() as PageState | null;
      if (!page?.visible) continue;
      const lastSign = Math.max(page.at, this.ctx.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? 0);
      if (now - lastSign < SILENT_AFTER_MS) visible++;
    }
    return { open, visible };
  }

  /** The object belongs to one member: the first page names them, and no other member's page is let in. */
  private claim(member: ChannelMember): boolean {
    const owner = this.stored(OWNER_KEY);
    if (owner && owner.profileId !== member.profileId) return false;
    if (!owner || owner.userId !== member.userId)
      this.store(OWNER_KEY, { profileId: member.profileId, userId: member.userId });
    return true;
  }

  /** One frame to every open page; one failing socket never stops the others. */
  private broadcast(frame: MemberFrame): void {
    const text = JSON.stringify(frame);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // The socket is closing; its page reconnects and gets the badges again.
      }
    }
  }
}

function parseMember(raw: string | null): HandedMember | null {
  if (!raw) return null;
  try {
    const m = JSON.parse(raw) as HandedMember;
    const optionalText = (value: unknown) => value === undefined || typeof value === "string";
    if (
      Number.isInteger(m.profileId) &&
      m.profileId > 0 &&
      Number.isInteger(m.userId) &&
      m.userId > 0 &&
      optionalText(m.session) &&
      optionalText(m.bookmark)
    )
      return m;
  } catch {
    // fall through
  }
  return null;
}
