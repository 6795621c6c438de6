import { DurableObject } from "cloudflare:workers";
import * as v from "valibot";
import { HISTORY_PAGE_SIZE, type ServerFrame } from "../../shared/chat";
import { ClientFrame } from "../../shared/chat-frames";
import { forgetRemovedPreview, returnHolds, setUnreadCount } from "../db/chat-ledger";
import {
  allMessages,
  conversationFacts,
  eraseMember,
  hasImageOf,
  historyPage,
  markRead,
  migrateConversationStore,
  readMarkOf,
  removeMessage,
  restoreMessage,
  unreadCountOf,
  type RemovedContent,
  type StoredMessage,
} from "../db/conversation-store";
import { D1Reads, databaseOf, databaseOver, type Database } from "../db/database";
import { isPremiumProfile } from "../db/profiles";
import { conversationRooms, type ConversationRoomCalls, type HistoryAnswer } from "../services/chats";
import { tellMessage, tellRead, tellSenderBalance } from "../notices/tell";
import { ConversationPair } from "./conversation-pair";
import { CreditHolds } from "./credit-holds";
import { D1Journal, JOURNAL_RETRY_MS } from "./d1-journal";
import { MemberFacts } from "./member-facts";
import { ConversationNotices } from "../notices/conversation-notices";
import { refusalFrame, parseMember, RoomSockets, MEMBER_HEADER, type SocketMember } from "./room-sockets";
import { SendPipeline, type Send } from "./send-pipeline";
import { closeEndedSockets, SESSION_ENDED, SESSION_ENDED_CLOSE, SessionCheck } from "./session-check";
import { publicSessionIsLive } from "../db/sessions";
import { refusalText } from "../errors";
import { i18nFor } from "../translations";
import { memberChannelName, roomName } from "../notices/object-names";
import { type SendFrame } from "../../shared/chat-frames";

/**
 * The Durable Object of one conversation (one pair of profiles), its single writer and the home of
 * its messages (db/conversation-store.ts). A thin shell: the sockets (hibernation API, so an idle
 * conversation costs nothing), the calls the Worker makes (RPC), the alarm, and the queue of turns:
 * every turn (a group of sends, a read mark, a history page, an export, an erasure) runs after the
 * one before it has finished, and starts by finishing the earlier sends (SendPipeline.finishEarlierSends).
 * The work is done by plain parts with one job each (docs/decisions/0031):
 * - SendPipeline (send-pipeline.ts): every send from the frame to the ack, its effects in order,
 *   each send decided by decideInGroup (send-decision.ts, the send rules on the facts at hand, writing
 *   nothing) and then stored; its parts: the conversation it writes, what it reads of the members,
 *   their credits, the chat ledger in D1, the sockets, the notices and the object itself;
 * - CreditHolds (credit-holds.ts): what the object may spend of its members' holds in D1;
 * - D1Journal (d1-journal.ts): messages acknowledged from a hold, recorded in D1 after the ack;
 * - ConversationNotices (conversation-notices.ts): what the members' channels are told of each message;
 * - MemberFacts (member-facts.ts): the D1 facts the rules last read, and who wrote here;
 * - SessionCheck (session-check.ts): whether the login behind a socket is still live (docs/decisions/0025);
 * - ConversationPair (conversation-pair.ts) and RoomSockets (room-sockets.ts).
 */
export class ConversationRoom extends DurableObject<Env> implements ConversationRoomCalls {
  /** The object's D1 session (docs/decisions/0033): its reads are at least as new as its own writes and the bookmarks it is handed. */
  private readonly reads: D1Reads;
  private readonly db: Database;
  private readonly pair: ConversationPair;
  private readonly sockets: RoomSockets;
  private readonly holds = new CreditHolds();
  private readonly known: MemberFacts;
  private readonly journal: D1Journal;
  private readonly notices: ConversationNotices;
  private readonly sends: SendPipeline;
  private readonly sessions: SessionCheck;
  private turns: Promise<void> = Promise.resolve();
  private alarmAt: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.reads = new D1Reads(env.DB, null, "first-primary");
    this.db = databaseOver(this.reads);
    void ctx.blockConcurrencyWhile(async () => {
      migrateConversationStore(ctx.storage);
      this.alarmAt = await ctx.storage.getAlarm();
    });
    // Outside a request the binding's database reads the primary: what D1 has recorded is settled there,
    // never on a replica that may not have an answer the object lost (docs/decisions/0033).
    const primary = databaseOf(env.DB);
    this.pair = new ConversationPair(ctx.storage, primary);
    this.sockets = new RoomSockets(ctx);
    this.known = new MemberFacts(this.db, ctx.storage.sql, this.pair);
    this.sessions = new SessionCheck({
      isLive: (session, userId, now) => publicSessionIsLive(this.db, session, userId, now),
      socketOpened: (holder, peer) =>
        env.MEMBERS.getByName(memberChannelName(holder.profileId)).chatSocketOpened(
          holder.profileId,
          holder.session,
          peer,
        ),
    });
    const alarmBy = (at: number) => this.alarmBy(at);
    this.journal = new D1Journal({
      sql: ctx.storage.sql,
      db: this.db,
      primary,
      pair: this.pair,
      holds: this.holds,
      known: this.known,
      alarmBy,
    });
    this.notices = new ConversationNotices((kind, sent) => {
      const asker = roomName(...this.pair.members);
      return kind === "message" ? tellMessage(env, sent, asker) : tellSenderBalance(env, sent, asker);
    });
    this.sends = new SendPipeline({
      conversation: { pair: this.pair, storage: ctx.storage },
      members: { facts: this.known, sessions: this.sessions, sites: env.SETTINGS, db: this.db },
      credits: { holds: this.holds, elsewhere: conversationRooms(env.CONVERSATIONS), db: this.db },
      ledger: { db: this.db, primary, journal: this.journal, bookmark: () => this.reads.bookmark() },
      sockets: this.sockets,
      notices: this.notices,
      object: {
        alarmBy,
        waitUntil: (work) => ctx.waitUntil(work),
        takeLater: () => void this.turn(() => this.sends.takeWaiting()).catch(() => undefined),
      },
    });
    // Keep-alive pings are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
  }

  /** A socket upgrade forwarded by the Worker, which has checked the member and the pair: admitted here. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket")
      return new Response("Expected a WebSocket", { status: 426 });
    const handed = parseMember(request.headers.get(MEMBER_HEADER));
    const peer = Number(new URL(request.url).searchParams.get("peer"));
    if (!handed || !Number.isInteger(peer) || peer < 1 || peer === handed.profileId)
      return new Response("Bad member", { status: 400 });
    // The page's bookmark is not kept with the socket: from here on the object reads at least that.
    const { bookmark, ...member } = handed;
    this.reads.catchUp(bookmark);
    if (!this.pair.claim(member.profileId, peer)) return new Response("Wrong conversation", { status: 400 });
    // The member's channel records the socket, so that ending its session reaches this object; an ended one is refused.
    if (!(await this.sessions.admit(member, peer, Date.now())))
      return Response.json(
        { error: SESSION_ENDED.code, message: refusalText(i18nFor(member.language).t, SESSION_ENDED) },
        { status: 403 },
      );

    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(member);
    await this.turn(async () => {
      const record = await this.pair.d1Record();
      const sql = this.ctx.storage.sql;
      this.sockets.send(server, {
        type: "ready",
        conversation_id: record?.id ?? null,
        peer_read_id: record ? readMarkOf(sql, peer) : null,
        unread: record ? unreadCountOf(sql, member.profileId) : 0,
      });
    });
    return new Response(null, { status: 101, webSocket: client });
  }

  /** A frame from a member's socket. */
  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const member = this.sockets.memberOf(ws);
    if (!member) return;
    if (this.sessions.hasEnded(member)) return ws.close(SESSION_ENDED_CLOSE, "session ended");
    let frame: ClientFrame;
    try {
      frame = v.parse(ClientFrame, JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data)));
    } catch {
      this.sockets.send(
        ws,
        refusalFrame(member, null, { status: 400, code: "invalid_body", key: "errors.invalid_body" }),
      );
      return;
    }
    switch (frame.type) {
      case "typing":
        this.sockets.broadcast(
          (other) => other.profileId !== member.profileId,
          () => ({ type: "typing", profile_id: member.profileId }),
        );
        return;
      case "read":
        return this.turn(() => this.read(member, frame.message_id));
      case "send":
        return this.send({ origin: ws, member, frame, reply: (reply) => this.sockets.send(ws, reply) });
    }
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    // 1005/1006 are reserved: they may not be sent back in a close frame.
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {
      // already closed
    }
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    try {
      ws.close(1011, "error");
    } catch {
      // already closed
    }
  }

  /**
   * A send that does not come over a socket (the message written at signup, a gift from the likes):
   * the same rules, storage and fan-out as a socket's send, answered with the ack or the error frame.
   */
  async post(member: SocketMember, peer: number, frame: SendFrame): Promise<ServerFrame> {
    if (!this.pair.claim(member.profileId, peer)) throw new Error("wrong conversation");
    this.reads.catchUp(member.bookmark);
    return new Promise<ServerFrame>((resolve, reject) => {
      this.send({ origin: null, member, frame, reply: resolve }).catch(reject);
    });
  }

  /** A page of history for GET /api/chat.php, with the other member's read mark and what the send rules need from here. */
  async history(viewer: number, peer: number, before: number | null, hiddenBeforeId: number): Promise<HistoryAnswer> {
    this.pair.mustBe(viewer, peer);
    return this.answer(() => {
      const sql = this.ctx.storage.sql;
      const page = historyPage(sql, hiddenBeforeId, before, HISTORY_PAGE_SIZE);
      return { ...page, peerReadId: readMarkOf(sql, peer), here: conversationFacts(sql, viewer, peer) };
    });
  }

  /** The member removed the conversation (DELETE /api/chat.php): everything so far counts as read. */
  async markAllRead(profileId: number, peer: number): Promise<void> {
    this.pair.mustBe(profileId, peer);
    await this.turn(async () => {
      const { unread } = markRead(this.ctx.storage, profileId, Number.MAX_SAFE_INTEGER);
      this.sockets.broadcast(
        (viewer) => viewer.profileId === profileId,
        () => ({ type: "unread", count: unread }),
      );
    });
  }

  /** Whether the chat photo was sent in this conversation (who may see it: api/media.ts). */
  async hasImage(photoId: number, one: number, other: number): Promise<boolean> {
    this.pair.mustBe(one, other);
    return this.answer(() => hasImageOf(this.ctx.storage.sql, photoId));
  }

  /** Every message of the conversation, for a member's data export. */
  async messagesFor(profileId: number, peer: number): Promise<StoredMessage[]> {
    this.pair.mustBe(profileId, peer);
    return this.answer(() => allMessages(this.ctx.storage.sql));
  }

  /** An erased member (account erasure): their messages and read mark go, their sockets close. Returns how many messages went. */
  async eraseMember(profileId: number, peer: number): Promise<number> {
    this.pair.mustBe(profileId, peer);
    return this.answer(() => {
      const erased = eraseMember(this.ctx.storage, profileId);
      this.known.forgetWriters();
      this.sockets.close((member) => member.profileId === profileId, 1008, "gone");
      return erased;
    });
  }

  /**
   * A moderator removed a message (docs/decisions/0041): its text, gift and photo are replaced by the
   * removed mark, its charge stays, both members' open pages are told at once, and the chat list's
   * preview forgets its text. Once: what this call removed (the decision keeps it, so a reversed
   * appeal can put it back), null when it was removed before or never stored (nothing changes).
   */
  async removeMessage(one: number, other: number, messageId: number, now: number): Promise<RemovedContent | null> {
    this.pair.mustBe(one, other);
    let removed: RemovedContent | null = null;
    await this.turn(async () => {
      removed = removeMessage(this.ctx.storage.sql, messageId, now);
      if (removed === null) return;
      this.sockets.broadcast(
        () => true,
        () => ({ type: "removed", message_id: messageId }),
      );
      const record = await this.pair.d1Record();
      // After the journal's writes, which may still carry the message's preview.
      if (record) await this.journal.inOrder(() => forgetRemovedPreview(this.db, record.id, messageId));
    });
    return removed;
  }

  /**
   * An appeal reversed a removal: the message's text, gift and photo are back as they were kept
   * (docs/decisions/0059). The pages open now show it on their next load. False when it is not removed.
   */
  async restoreMessage(one: number, other: number, kept: RemovedContent): Promise<boolean> {
    this.pair.mustBe(one, other);
    let restored = false;
    await this.turn(async () => {
      restored = restoreMessage(this.ctx.storage.sql, kept);
    });
    return restored;
  }

  /**
   * Some of a member's login sessions ended: their sends are refused from now on, and the sockets
   * they opened here close once the turn under way is done (its acks go out first); a reconnect is
   * refused at the Worker and here.
   */
  async sessionsEnded(profileId: number, peer: number, sessions: string[]): Promise<void> {
    this.pair.mustBe(profileId, peer);
    this.sessions.end(sessions);
    const close = () => closeEndedSockets(this.ctx.getWebSockets(), profileId, sessions);
    // Closed even when the turn fails (D1 unreachable): the sends were refused already.
    await this.turn(async () => close()).catch(close);
  }

  /**
   * Something about a member changed in D1 (a purchase made them premium, a block, going invisible,
   * a deletion): forget what the object read about both members and stop paying sends from the holds
   * until D1 has looked at the standing again (the next send goes through D1), and let the member's
   * open sockets see photo originals if now premium. `bookmark`: the D1 state of the change, which
   * every read from now on sees (docs/decisions/0033).
   */
  async memberChanged(profileId: number, bookmark?: string | null): Promise<void> {
    this.reads.catchUp(bookmark);
    this.known.forgetAll();
    this.holds.memberChanged();
    const premium = await isPremiumProfile(this.db, profileId);
    for (const [ws, member] of this.sockets.members()) {
      if (member.profileId === profileId && member.premium !== premium) ws.serializeAttachment({ ...member, premium });
    }
  }

  /**
   * Another conversation of the member needs the credits held here: the hold is not used from now
   * on, and once D1 has every message it paid for, what is left goes back to the balance.
   */
  async returnHold(profileId: number, userId: number): Promise<void> {
    this.holds.askBack(profileId);
    const record = await this.pair.d1Record();
    if (!record) return;
    await this.journal.inOrder(async () => {
      await this.journal.record();
      // Again, after the D1 writes before this one: only D1's order learns holds, so none comes back until D1 has answered.
      this.holds.askBack(profileId);
      if (this.journal.creditsWaiting(profileId) === 0) await returnHolds(this.db, record.id, userId);
    });
  }

  /** The member's channel: a page of theirs opened after it told this object that none was (MemberChannel.tellPageOpened). */
  async pageOpened(profileId: number): Promise<void> {
    if (!this.pair.includes(profileId)) return;
    await this.notices.pageOpened(profileId);
  }

  override async alarm(): Promise<void> {
    this.alarmAt = null;
    await this.clockWork(Date.now());
  }

  /** The clock work at `now`: the journal tried again, and the holds given back once the conversation has been idle HOLD_IDLE_MS. */
  async clockWork(now: number): Promise<void> {
    await this.turn(async () => {
      if (this.journal.waiting()) return this.alarmBy(now + JOURNAL_RETRY_MS);
      const idleAt = this.holds.idleAt(now);
      if (idleAt !== null) return this.alarmBy(idleAt);
      const record = await this.pair.d1Record();
      if (!record) return;
      await this.journal.inOrder(async () => {
        this.holds.givenBack();
        await returnHolds(this.db, record.id);
      });
    });
  }

  /** An alarm no later than `at` (a stored alarm outlives an eviction). */
  private alarmBy(at: number): void {
    if (this.alarmAt !== null && this.alarmAt <= at) return;
    this.alarmAt = at;
    void this.ctx.storage.setAlarm(at);
  }

  /** A send joins the waiting ones; the next turn takes them as one group. */
  private send(send: Send): Promise<void> {
    this.sends.enqueue(send);
    return this.turn(() => this.sends.takeWaiting());
  }

  /**
   * Run one turn after every turn before it has finished (a failing turn does not stop the queue),
   * once the earlier sends are finished: marked recorded here, and their D1 side known.
   */
  private turn(work: () => Promise<void>): Promise<void> {
    const run = this.turns.then(async () => {
      await this.sends.finishEarlierSends();
      await work();
    });
    this.turns = run.catch(() => undefined);
    return run;
  }

  /** A turn that answers a call with what it read or did. */
  private async answer<T>(work: () => T): Promise<T> {
    let result: T | undefined;
    await this.turn(async () => {
      result = work();
    });
    return result as T;
  }

  /** The member has seen the conversation up to a message: their unread count goes down (here and in the chat list), the other member sees the mark. */
  private async read(member: SocketMember, messageId: number): Promise<void> {
    const record = await this.pair.d1Record();
    if (record === null) return;
    const { unread, readId } = markRead(this.ctx.storage, member.profileId, messageId);
    // After the journal's writes, which carry the count as it was.
    await this.journal.inOrder(() => setUnreadCount(this.db, record.id, member.profileId, unread));
    if (unread === 0) this.notices.readAll(member.profileId);
    this.ctx.waitUntil(tellRead(this.env, member.profileId, this.pair.otherOf(member.profileId), record.id, unread));
    this.sockets.broadcast(
      () => true,
      (viewer) =>
        viewer.profileId === member.profileId
          ? { type: "unread", count: unread }
          : { type: "read", profile_id: member.profileId, message_id: readId },
    );
  }
}
