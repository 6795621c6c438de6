import { DurableObject } from "cloudflare:workers";
import * as v from "valibot";
import { HISTORY_PAGE_SIZE, type SendFrame, type ServerFrame } from "../../shared/chat";
import { ClientFrame } from "../../shared/chat-frames";
import { isLanguage, type Language } from "../../shared/locales";
import type { SiteSettings } from "../../shared/settings";
import { databaseOf, type Database } from "../db/database";
import { ownChatPhoto } from "../db/photos";
import {
  allMessages,
  conversationFacts,
  discardUnrecorded,
  dropJournal,
  eraseMember,
  hasImageOf,
  historyPage,
  insertAcknowledged,
  insertUnrecorded,
  journalCredits,
  journalEntries,
  markRead,
  markRecorded,
  messageByClientId,
  migrateConversationStore,
  readMarkOf,
  unreadCountOf,
  unrecordedMessages,
  type NewStoredMessage,
  type StoredMessage,
} from "../db/conversation-store";
import {
  conversationOf,
  creditsOf,
  ensureConversation,
  holdingConversations,
  isPremium,
  lastRecordedId,
  recordSends,
  returnHolds,
  sendFactsRow,
  setUnreadCount,
  type ConversationRecord,
  type HoldRequest,
  type HoldState,
  type SendFactsRow,
  type SendRecord,
  type SendRecordResult,
} from "../db/conversations";
import { refusalText, type Refusal } from "../errors";
import { i18nFor } from "../translations";
import { messageView } from "../services/chat-message-views";
import { decideSend, insufficientCredits, KIND_LEDGER_REASON, type SendRequest } from "../services/chat-rules";
import { conversationRooms, roomName, sendFacts, type ConversationRoomCalls, type HistoryAnswer } from "../services/chats";
import { announceMessage, announceRead, announceSenderBalance, type SentMessage } from "../services/member-news";
import type { Presence } from "../../shared/member-events";
import { PageHints } from "./page-hints";
import { closeEndedSockets, SESSION_ENDED, SESSION_ENDED_CLOSE, SessionCheck } from "./session-check";
import { publicSessionIsLive } from "../db/sessions";
import { memberChannelName } from "../member/member-channel";
import { loadSite } from "../services/site-settings";

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
};

/** The header by which the Worker hands the authorised member to the object. */
export const MEMBER_HEADER = "x-chat-member";

const PAIR_KEY = "pair";
/**
 * How long the facts read in D1 for one send may decide the next ones. The write re-checks the
 * standing and the database the balance, so stale facts can only cause a second read, never a wrong write.
 */
const FACTS_TTL_MS = 30_000;
/** After a message's push and mail notice, how long further messages to that member reach only their pages. */
const NOTICE_QUIET_MS = 10_000;
/** Sends recorded in D1 in one batch at most. */
const MAX_GROUP = 50;
/** A member's credit hold here covers up to this many of their messages (docs/decisions/0021). */
const HOLD_MESSAGES = 20;
/** A hold is given back after this long without a send. */
const HOLD_IDLE_MS = 60_000;
/** How long journaled messages may gather before D1 records them while a member writes fast. */
const FLUSH_GATHER_MS = 25;
/** Messages D1 has recorded have their pending D1 side cleared this many at a time. */
const JOURNAL_DROP_EVERY = 32;
/** How soon the journal is tried again after D1 failed to take it. */
const JOURNAL_RETRY_MS = 2_000;

/** A send waiting in the object's queue; `alone`: to be taken by itself on fresh facts. */
type Send = { origin: WebSocket | null; member: SocketMember; frame: SendFrame; reply: (frame: ServerFrame) => void; alone?: boolean };
/** A send the rules allow, written here unrecorded, with its D1 side. */
type Planned = { send: Send; site: SiteSettings; peer: number; message: StoredMessage; recipientName: string; unread: number; record: SendRecord };
type Plan = Planned | { reply: ServerFrame } | { later: true } | { acknowledged: true } | { answered: true };

/**
 * The Durable Object of one conversation (one pair of profiles), its single writer and the home of
 * its messages (db/conversation-store.ts). Every step (a group of sends, a read mark, a history
 * page, an export, an erasure) runs one after another in arrival order. A paid send the member's
 * credit hold here covers is stored with its D1 side in the object's journal, acknowledged and
 * fanned out, and recorded in D1 right after (docs/decisions/0021); other sends are written here
 * unrecorded, recorded in D1 with their charges and the conversation's summary in one batch, then
 * acknowledged and fanned out, and then marked recorded here; a message whose D1 side is unknown (an
 * eviction, a failed call) is settled against D1 before the next step (docs/decisions/0015). The
 * alarm retries the journal and gives idle holds back. Sockets use the hibernation API, so an idle
 * conversation costs nothing.
 */
export class ConversationRoom extends DurableObject<Env> implements ConversationRoomCalls {
  private readonly db: Database;
  private pair: [number, number] | null = null;
  /** The conversation's D1 record once it exists (the object creates it on the first message). */
  private record: ConversationRecord | null = null;
  /** What the rules last read in D1 about each member of the pair, and when. */
  private facts = new Map<number, { row: SendFactsRow; at: number }>();
  private queue: Promise<void> = Promise.resolve();
  /** When each member of the pair was last told of a message by push and mail (recentlyNoticed). */
  private noticedAt = new Map<number, number>();
  /** Whether each member of the pair has a page open, as their channel last said (announce). */
  private readonly pages = new PageHints<"message" | "balance", SentMessage>();
  /** Whether messages may wait to be settled against D1 (after a start or a failed call). */
  private unsettled = true;
  /** Sends waiting for the next step; a step takes them as one group (sendWaiting). */
  private outbox: Send[] = [];
  /** Messages acknowledged and not yet marked recorded here (markDelivered). */
  private delivered: { id: number; peer: number }[] = [];
  /**
   * Credits of each member's hold in D1 the object may still spend without asking D1: the hold less
   * what the journal has yet to charge. Never more than that; unknown (absent) after a start.
   */
  private holds = new Map<number, number>();
  /** What a member's hold is topped up to and the least worth holding, from their last paid send here. */
  private holdSizes = new Map<number, { want: number; least: number }>();
  /** Members who paid for a message here since the object started: their next paid send takes a hold. */
  private paying = new Set<number>();
  /** Members whose hold another conversation asked back: not used or topped up until they send here on the slow path. */
  private holdsAskedBack = new Set<number>();
  private lastSendAt = 0;
  /**
   * Whether each member of the pair has a recorded message here: read once, then kept right by every
   * write that records a message (the object is the only writer), so a send to a member who never
   * wrote reads nothing (hasWritten). An erasure or a move from D1 forgets it.
   */
  private wrote = new Map<number, boolean>();
  /** Counts memberChanged calls: a D1 answer about holds read before the latest change is not believed. */
  private standing = 0;
  /** The object's writes to D1 about sends, one after another, so D1 records messages in order. */
  private d1: Promise<void> = Promise.resolve();
  private flushWanted = false;
  private lastFlushAt = 0;
  /** Whether journal entries may be in D1 already (after a start, or a write whose outcome is unknown). */
  private journalUnsettled = true;
  /** D1 has every journaled message up to this id; their rows go with the next step's write (dropRecordedJournal). */
  private journaledUpTo = 0;
  private journalDroppedUpTo = 0;
  private alarmAt: number | null = null;
  /** Whether the login sessions of the sockets' members are still live (session-check.ts). */
  private readonly sessions: SessionCheck;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = databaseOf(env.DB);
    this.sessions = new SessionCheck({
      isLive: (session, userId, now) => publicSessionIsLive(this.db, session, userId, now),
      socketOpened: (holder, peer) => env.MEMBERS.getByName(memberChannelName(holder.profileId)).chatSocketOpened(holder.profileId, holder.session, peer),
    });
    void ctx.blockConcurrencyWhile(async () => {
      migrateConversationStore(ctx.storage);
      this.alarmAt = await ctx.storage.getAlarm();
    });
    this.pair = ctx.storage.kv.get<[number, number]>(PAIR_KEY) ?? null;
    // Keep-alive pings are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
  }

  /** A socket upgrade forwarded by the Worker, which has checked the member and the pair. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket", { status: 426 });
    const member = parseMember(request.headers.get(MEMBER_HEADER));
    const peer = Number(new URL(request.url).searchParams.get("peer"));
    if (!member || !Number.isInteger(peer) || peer < 1 || peer === member.profileId) return new Response("Bad member", { status: 400 });
    if (!this.claimPair(member.profileId, peer)) return new Response("Wrong conversation", { status: 400 });
    if (!(await this.sessions.admit(member, peer, Date.now()))) return Response.json({ error: SESSION_ENDED.code, message: refusalText(i18nFor(member.language).t, SESSION_ENDED) }, { status: 403 });

    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(member);
    await this.step(async () => {
      const record = await this.conversation();
      const sql = this.ctx.storage.sql;
      this.send(server, {
        type: "ready",
        conversation_id: record?.id ?? null,
        peer_read_id: record ? readMarkOf(sql, peer) : null,
        unread: record ? unreadCountOf(sql, member.profileId) : 0,
      });
    });
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const member = ws.deserializeAttachment() as SocketMember | null;
    if (!member) return;
    if (this.sessions.hasEnded(member)) return ws.close(SESSION_ENDED_CLOSE, "session ended");
    let frame: ClientFrame;
    try {
      frame = v.parse(ClientFrame, JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data)));
    } catch {
      this.send(ws, this.refusal(member, null, { status: 400, code: "invalid_body", key: "errors.invalid_body" }));
      return;
    }
    switch (frame.type) {
      case "typing":
        this.broadcast((other) => other.profileId !== member.profileId, () => ({ type: "typing", profile_id: member.profileId }));
        return;
      case "read":
        return this.step(() => this.read(member, frame.message_id));
      case "send":
        return this.enqueueSend({ origin: ws, member, frame, reply: (reply) => this.send(ws, reply) });
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
    if (!this.claimPair(member.profileId, peer)) throw new Error("wrong conversation");
    return new Promise<ServerFrame>((resolve, reject) => {
      this.enqueueSend({ origin: null, member, frame, reply: resolve }).catch(reject);
    });
  }

  /** A page of history for GET /api/chat.php, with the other member's read mark and what the send rules need from here. */
  async history(viewer: number, peer: number, before: number | null, hiddenBeforeId: number): Promise<HistoryAnswer> {
    this.mustBePair(viewer, peer);
    let answer: HistoryAnswer | undefined;
    await this.step(async () => {
      const sql = this.ctx.storage.sql;
      const page = historyPage(sql, hiddenBeforeId, before, HISTORY_PAGE_SIZE);
      answer = { ...page, peerReadId: readMarkOf(sql, peer), here: conversationFacts(sql, viewer, peer) };
    });
    return answer!;
  }

  /** The member removed the conversation (DELETE /api/chat.php): everything so far counts as read. */
  async markAllRead(profileId: number, peer: number): Promise<void> {
    this.mustBePair(profileId, peer);
    await this.step(async () => {
      const { unread } = markRead(this.ctx.storage, profileId, Number.MAX_SAFE_INTEGER);
      this.broadcast((viewer) => viewer.profileId === profileId, () => ({ type: "unread", count: unread }));
    });
  }

  /** Whether the chat photo was sent in this conversation (who may see it: api/media.ts). */
  async hasImage(photoId: number, one: number, other: number): Promise<boolean> {
    this.mustBePair(one, other);
    let found = false;
    await this.step(async () => {
      found = hasImageOf(this.ctx.storage.sql, photoId);
    });
    return found;
  }

  /** Every message of the conversation, for a member's data export. */
  async messagesFor(profileId: number, peer: number): Promise<StoredMessage[]> {
    this.mustBePair(profileId, peer);
    let rows: StoredMessage[] = [];
    await this.step(async () => {
      rows = allMessages(this.ctx.storage.sql);
    });
    return rows;
  }

  /** An erased member (account erasure): their messages and read mark go, their sockets close. Returns how many messages went. */
  async eraseMember(profileId: number, peer: number): Promise<number> {
    this.mustBePair(profileId, peer);
    let erased = 0;
    await this.step(async () => {
      erased = eraseMember(this.ctx.storage, profileId);
      this.wrote.clear();
      for (const ws of this.ctx.getWebSockets()) {
        if ((ws.deserializeAttachment() as SocketMember | null)?.profileId === profileId) ws.close(1008, "gone");
      }
    });
    return erased;
  }

  /**
   * Some of a member's login sessions ended: their sends are refused from now on, and the sockets
   * they opened here close once the step under way is done (its acks go out first); a reconnect is
   * refused at the Worker.
   */
  async sessionsEnded(profileId: number, peer: number, sessions: string[]): Promise<void> {
    this.mustBePair(profileId, peer);
    this.sessions.end(sessions);
    const close = () => closeEndedSockets(this.ctx.getWebSockets(), profileId, sessions);
    // Closed even when the step fails (D1 unreachable): the sends were refused already.
    await this.step(async () => close()).catch(close);
  }

  /**
   * Something about a member changed in D1 (a purchase made them premium, a block, going invisible,
   * a deletion): forget what the object read about both members and stop paying sends from the holds
   * until D1 has looked at the standing again (the next send goes through D1), and let the member's
   * open sockets see photo originals if now premium.
   */
  async memberChanged(profileId: number): Promise<void> {
    this.facts.clear();
    this.holds.clear();
    this.standing++;
    const premium = await isPremium(this.db, profileId);
    for (const ws of this.ctx.getWebSockets()) {
      const member = ws.deserializeAttachment() as SocketMember | null;
      if (member?.profileId === profileId && member.premium !== premium) ws.serializeAttachment({ ...member, premium });
    }
  }

  /**
   * Another conversation of the member needs the credits held here: the hold is not used from now
   * on, and once D1 has every message it paid for, what is left goes back to the balance.
   */
  async returnHold(profileId: number, userId: number): Promise<void> {
    this.holdsAskedBack.add(profileId);
    this.holds.set(profileId, 0);
    const record = await this.conversation();
    if (!record) return;
    await this.onD1(async () => {
      await this.flushOnce();
      // Again, after the D1 writes before this one: only this queue learns holds, so none comes back until D1 has answered.
      this.holdsAskedBack.add(profileId);
      this.holds.set(profileId, 0);
      if (journalCredits(this.ctx.storage.sql, profileId, this.journaledUpTo) === 0) await returnHolds(this.db, record.id, userId);
    });
  }

  override async alarm(): Promise<void> {
    this.alarmAt = null;
    await this.clockWork(Date.now());
  }

  /** The clock work at `now`: the journal tried again, and the holds given back once the conversation has been idle HOLD_IDLE_MS. */
  async clockWork(now: number): Promise<void> {
    await this.step(async () => {
      if (journalEntries(this.ctx.storage.sql, this.journaledUpTo).length) return this.alarmBy(now + JOURNAL_RETRY_MS);
      if (this.lastSendAt && now - this.lastSendAt < HOLD_IDLE_MS) return this.alarmBy(this.lastSendAt + HOLD_IDLE_MS);
      const record = await this.conversation();
      if (!record) return;
      await this.onD1(async () => {
        this.holds.clear();
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

  /** Run a write to D1 about sends after the ones before it. */
  private onD1<T>(work: () => Promise<T>): Promise<T> {
    const run = this.d1.then(work);
    this.d1 = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private enqueueSend(send: Send): Promise<void> {
    this.outbox.push(send);
    return this.step(() => this.sendWaiting());
  }

  /** The object belongs to one pair: the first caller names it, later callers must be of it. */
  private claimPair(profileId: number, peer: number): boolean {
    const pair: [number, number] = profileId < peer ? [profileId, peer] : [peer, profileId];
    if (!this.pair) {
      this.pair = pair;
      this.ctx.storage.kv.put(PAIR_KEY, pair);
    }
    return this.pair[0] === pair[0] && this.pair[1] === pair[1];
  }

  private mustBePair(one: number, other: number): void {
    if (!this.claimPair(one, other)) throw new Error("wrong conversation");
  }

  /**
   * Run one step after every step before it has finished (a failing step does not stop the queue),
   * once the conversation's history is here and every message's D1 side is known.
   */
  private step(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(async () => {
      this.markDelivered();
      this.dropRecordedJournal();
      // After a start or a failed write, the journal is settled against D1 before anything else.
      if (this.journalUnsettled) await this.onD1(() => this.flushOnce());
      await this.settle();
      await work();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Messages written here whose D1 side is unknown: recorded when D1 has it, dropped when it has not (never acknowledged either way). */
  private async settle(): Promise<void> {
    if (!this.unsettled) return;
    const sql = this.ctx.storage.sql;
    const waiting = unrecordedMessages(sql);
    const record = waiting.length ? await this.conversation() : null;
    const recordedUpTo = record ? await lastRecordedId(this.db, record.id) : 0;
    for (const message of waiting) {
      if (message.id <= recordedUpTo) {
        markRecorded(this.ctx.storage, message.id, this.otherOf(message.sender_id));
        this.wrote.set(message.sender_id, true);
      } else discardUnrecorded(sql, message.id);
    }
    this.unsettled = false;
  }

  private async conversation(): Promise<ConversationRecord | null> {
    if (this.record === null && this.pair) this.record = await conversationOf(this.db, this.pair[0], this.pair[1]);
    return this.record;
  }

  private otherOf(profileId: number): number {
    const [a, b] = this.pair!;
    return profileId === a ? b : a;
  }

  private async site(member: SocketMember): Promise<SiteSettings | null> {
    return (await loadSite(this.env.SETTINGS, member.siteDomain))?.settings ?? null;
  }

  /**
   * Take the waiting sends as one group: each decided in arrival order on the facts at hand (with
   * the balance and allowance the group's earlier sends take). A paid send the member's hold here
   * covers is stored, acknowledged and fanned out at once, its D1 side journaled for the next write
   * (docs/decisions/0021); from the first send that needs D1 on, the rest are written here
   * unrecorded, then recorded in D1 in one batch: one commit for the group, however fast a member
   * writes. A send refused on facts that were not read fresh, and every send of a group D1 refused,
   * waits for the next step and goes alone on fresh facts; a refusal is only ever given on facts read fresh.
   */
  private async sendWaiting(): Promise<void> {
    const first = this.outbox.shift();
    if (!first) return;
    const alone = first.alone === true;
    const group = [first];
    const size = alone ? 1 : MAX_GROUP;
    while (group.length < size && this.outbox.length && !this.outbox[0]!.alone) group.push(this.outbox.shift()!);
    const planned: Planned[] = [];
    for (let i = 0; i < group.length; i++) {
      const send = group[i]!;
      let plan: Plan;
      try {
        plan = await this.plan(send, planned, alone);
      } catch (error) {
        send.reply(this.failure(send, error));
        continue;
      }
      if ("reply" in plan) {
        send.reply(plan.reply);
      } else if ("later" in plan) {
        this.putBack(group.slice(i).map((s) => ({ ...s, alone: true })));
        break;
      } else if ("send" in plan) {
        planned.push(plan);
      }
    }
    if (planned.length) await this.commit(planned, alone);
  }

  /** Sends to take again in a later step, before those that came after them. */
  private putBack(sends: Send[]): void {
    for (const send of sends) this.facts.delete(send.member.profileId);
    this.outbox.unshift(...sends);
    this.step(() => this.sendWaiting()).catch(() => undefined);
  }

  private failure(send: Send, error: unknown): ServerFrame {
    // Nothing was acknowledged: the client may send the same client id again.
    console.error(JSON.stringify({ event: "chat_send_failed", message: error instanceof Error ? error.message : String(error) }));
    return this.refusal(send.member, send.frame.client_id, { status: 400, code: "internal_error", key: "errors.try_again_later" });
  }

  /**
   * One send of a group: a retried client id gets its stored message back; otherwise the rules on
   * the facts at hand (`fresh`: read in D1 now) and, when they allow it, the message stored and
   * acknowledged at once when the member's hold covers it (and no send before it in the group waits
   * for D1), else written here unrecorded with the D1 side it needs.
   */
  private async plan(send: Send, planned: readonly Planned[], fresh: boolean): Promise<Plan> {
    const { member, frame } = send;
    if (!(await this.sessions.live(member, Date.now()))) {
      send.reply(this.refusal(member, frame.client_id, SESSION_ENDED));
      closeEndedSockets(this.ctx.getWebSockets(), member.profileId, [member.session!]);
      return { answered: true };
    }
    const site = await this.site(member);
    if (!site) return { reply: this.refusal(member, frame.client_id, { status: 404, code: "unknown_site", key: "errors.unknown_site" }) };
    const sql = this.ctx.storage.sql;
    const peer = this.otherOf(member.profileId);
    // A client id used before is found by the insert, which then writes nothing (no read first on
    // the way of every send); a send that is not stored asks first (retried).
    let photo: Awaited<ReturnType<typeof ownChatPhoto>> | null = null;
    if (frame.kind === "image") {
      photo = (await ownChatPhoto(this.db, frame.photo_id, member.profileId)) ?? null;
      if (!photo) return (await this.retried(member, frame.client_id, site)) ?? { reply: this.refusal(member, frame.client_id, { status: 404, code: "not_found", key: "errors.photo_not_found" }) };
    }
    const request: SendRequest = frame.kind === "text" ? { kind: "text", body: frame.body } : frame.kind === "gift" ? { kind: "gift", gift: frame.gift } : { kind: "image" };

    // The member's facts and the conversation's, with what the group's earlier sends take.
    let read = await this.factsOf(member, peer, fresh);
    // A member who has paid is not counted free messages: then whether the other member wrote here is all the rules need, and it is known (hasWritten).
    const countFree = read.row?.paid_user !== 1;
    const recorded = countFree ? conversationFacts(sql, member.profileId, peer, true) : { freeUsedHere: 0, recipientHasWritten: this.hasWritten(peer) };
    this.wrote.set(peer, recorded.recipientHasWritten);
    const mine = planned.filter((p) => p.send.member.profileId === member.profileId);
    const freeBefore = mine.filter((p) => p.record.free).length;
    const here = { freeUsedHere: recorded.freeUsedHere + freeBefore, recipientHasWritten: recorded.recipientHasWritten || planned.some((p) => p.send.member.profileId === peer) };
    const decide = (answer: { row: SendFactsRow | undefined }) => {
      const row = answer.row && {
        ...answer.row,
        // Credits other conversations hold are not this one's to spend; this one's own hold is.
        credits: answer.row.credits - answer.row.held_elsewhere - mine.reduce((sum, p) => sum + p.record.credits, 0),
        free_conversations_used: answer.row.free_conversations_used + (recorded.freeUsedHere === 0 && freeBefore > 0 ? 1 : 0),
      };
      const facts = sendFacts(row, here);
      return { facts, decision: decideSend(site, facts, request) };
    };
    let { facts, decision } = decide(read);
    if ("refusal" in decision && decision.refusal.code === "insufficient_credits" && read.fresh && (read.row?.held_elsewhere ?? 0) > 0) {
      // The member's other conversations hold what this send needs: they give it back, then the send is decided again.
      await this.recallHolds(member);
      read = await this.factsOf(member, peer, true);
      ({ facts, decision } = decide(read));
    }
    if ("refusal" in decision) {
      const retried = await this.retried(member, frame.client_id, site);
      if (retried) return retried;
      return read.fresh && planned.length === 0 ? { reply: this.refusal(member, frame.client_id, decision.refusal) } : { later: true };
    }

    const conversationId = (await this.conversation())?.id ?? (await this.createConversation(member.profileId, peer));
    const body = frame.kind === "text" ? frame.body.trim() : null;
    const fields: NewStoredMessage = {
      sender_id: member.profileId,
      client_id: frame.client_id,
      kind: frame.kind,
      body,
      gift: frame.kind === "gift" ? frame.gift : null,
      photo_id: photo?.id ?? null,
      photo_key: photo?.key ?? null,
      photo_thumb_key: photo?.thumbKey ?? null,
      photo_blur_key: photo?.blurKey ?? null,
      photo_width: photo?.width ?? null,
      photo_height: photo?.height ?? null,
      credits_charged: decision.price.credits,
      free: decision.price.free ? 1 : 0,
      created_at: Math.floor(Date.now() / 1000),
    };
    const record = (message: StoredMessage, unread: number): SendRecord => ({
      ...sendRecordOf(message, conversationId, member.userId, peer, unread),
      free: decision.price.free,
      recipientHasWritten: here.recipientHasWritten,
      freeUsedHere: here.freeUsedHere,
      allowance: { freeMessages: site.free_messages, freeConversations: site.free_conversations },
    });
    const price = decision.price.credits;
    const hold = this.holds.get(member.profileId) ?? 0;
    if (planned.length === 0 && price > 0 && hold >= price && !this.holdsAskedBack.has(member.profileId)) {
      // Paid from the hold: stored (with its D1 side on its row, the journal) and acknowledged now, recorded in D1 next.
      const stored = insertAcknowledged(sql, fields, member.userId, peer);
      // The insert found the client id used before: answered as a retry.
      if (!stored) return (await this.retried(member, frame.client_id, site)) ?? { later: true };
      const { message, unread } = stored;
      this.holds.set(member.profileId, hold - price);
      this.wrote.set(member.profileId, true);
      const mineNow = this.facts.get(member.profileId)?.row;
      if (mineNow) mineNow.credits -= price;
      this.lastSendAt = Date.now();
      this.deliver(send, site, message, peer, unread, mineNow?.credits ?? facts.credits - price);
      this.flush();
      return { acknowledged: true };
    }
    const message = insertUnrecorded(sql, fields);
    if (!message) return (await this.retried(member, frame.client_id, site)) ?? { later: true };
    const unread = unreadCountOf(sql, peer) + 1 + planned.filter((p) => p.peer === peer).length;
    return { send, site, peer, message, recipientName: facts.recipient?.name ?? "", unread, record: record(message, unread) };
  }

  /**
   * A send under a client id its sender used here before (a page sending again what it got no ack
   * for): the stored message's ack again, nothing charged twice; or, when that message waits for D1
   * (the same client id twice in one group), a wait until it is recorded. Null: the id is new.
   */
  private async retried(member: SocketMember, clientId: string, site: SiteSettings): Promise<Plan | null> {
    const stored = messageByClientId(this.ctx.storage.sql, member.profileId, clientId);
    if (!stored) return null;
    if (stored.recorded !== 1) return { later: true };
    return { reply: { type: "ack", client_id: clientId, message: this.view(stored, member, site), credits: await creditsOf(this.db, member.userId) } };
  }

  /** Whether a member of the pair has a recorded message here (see `wrote`). */
  private hasWritten(profileId: number): boolean {
    let known = this.wrote.get(profileId);
    if (known === undefined) {
      known = conversationFacts(this.ctx.storage.sql, this.otherOf(profileId), profileId, false).recipientHasWritten;
      this.wrote.set(profileId, known);
    }
    return known;
  }

  /** Ask the member's other conversations holding their credits to give them back. */
  private async recallHolds(member: SocketMember): Promise<void> {
    const rooms = conversationRooms(this.env.CONVERSATIONS);
    const holding = await holdingConversations(this.db, member.userId, this.record?.id ?? null);
    await Promise.all(holding.map(({ profileA, profileB }) => rooms(profileA, profileB).returnHold(member.profileId, member.userId)));
  }

  /**
   * The D1 side of a group written here unrecorded, after the journal (so D1 records messages in
   * order), with the senders' holds given back and topped up. Once D1 has it, the acks and the
   * fan-out go out at once; the messages' flags here are set after them (markDelivered), so the
   * frames do not wait for a second write of the object's storage: an eviction before that leaves
   * them to settle(), which finds them in D1. When D1 refuses, the group's messages go here too.
   * When the call fails, D1 is asked whether it has the group; if even that fails, the messages wait
   * unrecorded (never shown, never acknowledged) to be settled before the next step.
   */
  private async commit(planned: Planned[], fresh: boolean): Promise<void> {
    const sql = this.ctx.storage.sql;
    const last = planned.at(-1)!;
    const discard = () => {
      for (const p of planned) discardUnrecorded(sql, p.message.id);
    };
    const holds = this.holdRequests(planned);
    const standing = this.standing;
    let result: SendRecordResult;
    try {
      result = await this.onD1(async () => {
        await this.flushOnce();
        if (journalEntries(sql, this.journaledUpTo).length) throw new Error("chat send: messages before it wait to be recorded in D1");
        const records = planned.map((p) => p.record);
        const recorded = await recordSends(this.db, records, holds);
        // Learnt on the D1 queue, so a hold given back after this write is never believed again.
        if ("recorded" in recorded) this.learnHolds(recorded.holds ?? [], records, standing);
        return recorded;
      });
    } catch (error) {
      this.unsettled = true;
      let recorded = false;
      try {
        recorded = (await lastRecordedId(this.db, last.record.conversationId)) >= last.message.id;
        this.unsettled = false;
      } catch {
        // settled before the next step
      }
      if (!recorded) {
        if (!this.unsettled) discard();
        for (const p of planned) p.send.reply(this.failure(p.send, error));
        return;
      }
      result = { alreadyRecorded: true };
    }
    if ("insufficientCredits" in result || "standingChanged" in result) {
      discard();
      if (fresh && planned.length === 1) {
        this.facts.delete(last.send.member.profileId);
        last.send.reply(this.refusal(last.send.member, last.send.frame.client_id, insufficientCredits(last.recipientName)));
      } else {
        this.putBack(planned.map((p) => ({ ...p.send, alone: true })));
      }
      return;
    }
    const credits = "recorded" in result ? result.credits : await Promise.all(planned.map((p) => creditsOf(this.db, p.send.member.userId)));
    for (const [i, p] of planned.entries()) {
      this.remember(p.send.member, p.record.free, credits[i]!);
      this.deliver(p.send, p.site, p.message, p.peer, p.unread, credits[i]!);
    }
    this.delivered.push(...planned.map((p) => ({ id: p.message.id, peer: p.peer })));
  }

  /**
   * A stored message goes out: to every other socket of the conversation (with the recipient's
   * unread count) and the ack to its sender. The one place a send is acknowledged.
   */
  private deliver(send: Send, site: SiteSettings, message: StoredMessage, peer: number, unread: number, credits: number): void {
    // The members' other pages (badges, chat list), push and mail hear of it once it is stored: the
    // call to the recipient's channel is made first (the output gate holds it, like the frames, until
    // the write is durable), so the badge's longer way starts first.
    const record = { conversationId: this.record!.id, kind: message.kind, preview: message.kind === "text" ? (message.body ?? "").slice(0, 140) : null, credits: message.credits_charged, now: message.created_at };
    const pagesOnly = this.recentlyNoticed(peer);
    this.ctx.waitUntil(this.announce({ sender: send.member, recipient: peer, messageId: message.id, unread, balance: credits, record, pagesOnly }));
    for (const other of this.ctx.getWebSockets()) {
      if (other === send.origin) continue;
      const viewer = other.deserializeAttachment() as SocketMember | null;
      if (!viewer || this.sessions.hasEnded(viewer)) continue;
      // A session ended without this object hearing of it reads at most the messages until D1 says so.
      const recheck = this.sessions.recheck(viewer, Date.now(), () => closeEndedSockets([other], viewer.profileId, [viewer.session!]));
      if (recheck) this.ctx.waitUntil(recheck);
      this.send(other, { type: "message", message: this.view(message, viewer, site) });
      if (viewer.profileId === peer) this.send(other, { type: "unread", count: unread });
    }
    send.reply({ type: "ack", client_id: send.frame.client_id, message: this.view(message, send.member, site), credits });
  }

  /**
   * A stored send, told to the recipient (the badge first) and, when it was paid, the sender's
   * balance to the sender. News only pages would hear of skips a member whose channel lately had no
   * page open: it is kept and sent when a page opens (chat/page-hints.ts, docs/decisions/0023).
   */
  private async announce(sent: SentMessage): Promise<void> {
    const now = Date.now();
    const calls: Promise<void>[] = [];
    const tell = (profileId: number, kind: "message" | "balance", pagesOnly: boolean) => {
      if (pagesOnly && this.pages.closed(profileId, now)) {
        this.pages.keep(profileId, kind, sent, now);
        return;
      }
      calls.push(this.tellChannel(profileId, kind, sent));
    };
    tell(sent.recipient, "message", sent.pagesOnly === true);
    if (sent.record.credits > 0) tell(sent.sender.profileId, "balance", true);
    await Promise.all(calls);
  }

  /** One call to a member's channel; what it says of their pages decides the next ones. */
  private async tellChannel(profileId: number, kind: "message" | "balance", sent: SentMessage): Promise<void> {
    const asked = this.pages.ask(profileId, Date.now());
    const name = roomName(...this.pair!);
    const presence: Presence = kind === "message" ? await announceMessage(this.env, sent, name) : await announceSenderBalance(this.env, sent, name);
    await this.sendKept(profileId, this.pages.learn(asked, presence.open, Date.now()));
  }

  /** News kept back for a member whose page has opened, as news for pages only. */
  private async sendKept(profileId: number, kept: SentMessage[]): Promise<void> {
    await Promise.all(kept.map((sent) => this.tellChannel(profileId, sent.recipient === profileId ? "message" : "balance", { ...sent, pagesOnly: true })));
  }

  /** The member's channel: a page of theirs opened after it told this object that none was (MemberChannel.tellPageOpened). */
  async pageOpened(profileId: number): Promise<void> {
    if (!this.pair?.includes(profileId)) return;
    await this.sendKept(profileId, this.pages.opened(profileId, Date.now()));
  }

  /**
   * Whether the recipient was told of a message here by push and mail less than NOTICE_QUIET_MS ago:
   * then the next ones reach only their open pages (the notification already shown stands for the
   * conversation, and mail goes once per unread conversation anyway), so a fast exchange does not
   * cost push and mail work on every message. Kept in memory: an eviction at worst notifies once more.
   */
  private recentlyNoticed(recipient: number): boolean {
    const now = Date.now();
    const last = this.noticedAt.get(recipient);
    if (last !== undefined && now - last < NOTICE_QUIET_MS) return true;
    this.noticedAt.set(recipient, now);
    return false;
  }

  /**
   * The holds a group paid from the balance asks for: each paying sender's hold here given back and,
   * from their second paid message here on (a conversation in use, not a first message among many),
   * topped up to HOLD_MESSAGES of their messages. The alarm is set first, so a hold never outlives
   * the object's knowing of it.
   */
  private holdRequests(planned: readonly Planned[]): HoldRequest[] {
    const bySender = new Map<number, { last: Planned; paidBefore: boolean }>();
    for (const p of planned) {
      if (p.record.credits === 0) continue;
      const profileId = p.send.member.profileId;
      bySender.set(profileId, { last: p, paidBefore: bySender.has(profileId) || this.paying.has(profileId) });
    }
    const requests: HoldRequest[] = [];
    for (const [profileId, { last: p, paidBefore }] of bySender) {
      this.paying.add(profileId);
      this.holdsAskedBack.delete(profileId);
      this.holds.set(profileId, 0);
      const least = Math.max(1, p.site.message_credits, p.record.credits);
      this.holdSizes.set(profileId, { want: HOLD_MESSAGES * least, least });
      requests.push({
        conversationId: p.record.conversationId,
        userId: p.record.senderUserId,
        standing: p.record,
        release: true,
        want: paidBefore ? HOLD_MESSAGES * least : 0,
        least,
        now: p.record.now,
      });
    }
    if (requests.length) {
      this.lastSendAt = Date.now();
      this.alarmBy(this.lastSendAt + HOLD_IDLE_MS);
    }
    return requests;
  }

  /** What D1 says the holds are after a write: less what the journal has yet to charge, the object's to spend. */
  private learnHolds(states: readonly HoldState[], records: readonly SendRecord[], standing: number): void {
    const sql = this.ctx.storage.sql;
    // A member changed while D1 answered: what it says may predate the change; the next send asks again.
    if (standing !== this.standing) return;
    for (const state of states) {
      const profileId = records.find((r) => r.senderUserId === state.userId)!.senderProfileId;
      const spendable = state.allowed && !this.holdsAskedBack.has(profileId) ? state.hold - journalCredits(sql, profileId, this.journaledUpTo) : 0;
      this.holds.set(profileId, Math.max(0, spendable));
      // The standing no longer allows sends: the next send reads the facts again (and is refused).
      if (!state.allowed) this.facts.delete(profileId);
    }
  }

  /**
   * Have the journal recorded in D1 soon, once (a write already waiting takes whatever is journaled
   * by then): at once after a quiet spell or when a hold runs low, else after FLUSH_GATHER_MS, so a
   * member writing fast costs D1 one write for several messages.
   */
  private flush(): void {
    if (this.flushWanted) return;
    this.flushWanted = true;
    const run = () =>
      void this.onD1(async () => {
        this.flushWanted = false;
        this.lastFlushAt = Date.now();
        await this.flushOnce();
      });
    const low = [...this.holdSizes].some(([profileId, size]) => (this.holds.get(profileId) ?? 0) < size.want / 2);
    if (low || Date.now() - this.lastFlushAt >= FLUSH_GATHER_MS) run();
    else setTimeout(run, FLUSH_GATHER_MS);
  }

  /**
   * Record the journal in D1 in one batch (on the D1 queue): each message as it was acknowledged,
   * charged from its sender's hold, the summary with the recipient's unread count as it is now, and
   * the senders' holds topped up. After a start or an unknown outcome, what D1 already has is dropped
   * first (D1 records ids in order, groups whole). A failure leaves the journal for the alarm or the
   * next step; it never throws.
   */
  private async flushOnce(): Promise<void> {
    const sql = this.ctx.storage.sql;
    let entries = journalEntries(sql, this.journaledUpTo);
    try {
      if (this.journalUnsettled && entries.length) {
        const record = await this.conversation();
        const upTo = record ? await lastRecordedId(this.db, record.id) : 0;
        this.journaledUpTo = Math.max(this.journaledUpTo, upTo);
        entries = entries.filter((e) => e.id > upTo);
      }
      this.journalUnsettled = false;
      if (!entries.length) return;
      const conversationId = (await this.conversation())!.id;
      // The recipients' unread counts as they are now, read once each (a pair has two at most).
      const unreadNow = new Map<number, number>();
      const unreadOf = (recipient: number) => unreadNow.get(recipient) ?? unreadNow.set(recipient, unreadCountOf(sql, recipient)).get(recipient)!;
      const sends = entries.map((e): SendRecord => {
        const recipient = this.otherOf(e.sender_id);
        return {
          ...sendRecordOf(e, conversationId, e.sender_user_id, recipient, unreadOf(recipient)),
          // Paid from the hold: recorded whatever the standing is now; a top-up's guard reads the conversation as it is now.
          fromHold: true,
          free: false,
          recipientHasWritten: this.hasWritten(recipient),
          freeUsedHere: 0,
          allowance: { freeMessages: 0, freeConversations: 0 },
        };
      });
      const holds: HoldRequest[] = [];
      for (const s of sends) {
        const size = this.holdSizes.get(s.senderProfileId);
        const hold = this.holds.get(s.senderProfileId);
        // Topped up once half is spent: most writes carry no top-up and no standing check.
        if (!size || hold === undefined || hold >= size.want / 2 || this.holdsAskedBack.has(s.senderProfileId) || holds.some((h) => h.userId === s.senderUserId)) continue;
        holds.push({ conversationId: s.conversationId, userId: s.senderUserId, standing: s, release: false, want: size.want - hold, least: size.least, now: s.now });
      }
      if (holds.length) this.alarmBy(Date.now() + HOLD_IDLE_MS);
      const standing = this.standing;
      const result = await recordSends(this.db, sends, holds);
      if (!("recorded" in result)) throw new Error(`chat journal: D1 did not record it (${Object.keys(result)[0]})`);
      this.journaledUpTo = entries.at(-1)!.id;
      this.learnHolds(result.holds ?? [], sends, standing);
      for (const [i, s] of sends.entries()) {
        const mine = this.facts.get(s.senderProfileId)?.row;
        if (mine && sends.findLast((x) => x.senderProfileId === s.senderProfileId) === s) mine.credits = result.credits[i]! - journalCredits(sql, s.senderProfileId, this.journaledUpTo);
      }
    } catch (error) {
      this.journalUnsettled = true;
      this.alarmBy(Date.now() + JOURNAL_RETRY_MS);
      console.warn(JSON.stringify({ event: "chat_journal_waits", messages: entries.length, message: error instanceof Error ? error.message : String(error) }));
    }
  }

  /**
   * Mark the messages acknowledged since the last step as recorded here. Done at the start of the
   * next step, so it goes in one write of the object's storage with that step's own (a send's
   * unrecorded messages); until then (and after an eviction, through settle) D1 holds what they are.
   */
  private markDelivered(): void {
    if (!this.delivered.length) return;
    const marks = this.delivered;
    this.delivered = [];
    this.ctx.storage.transactionSync(() => {
      for (const mark of marks) markRecorded(this.ctx.storage, mark.id, mark.peer);
    });
    for (const mark of marks) this.wrote.set(this.otherOf(mark.peer), true);
  }

  /**
   * Messages D1 has recorded lose their pending D1 side, some at a time, in one write with a step's own (a separate
   * write would delay the next ack); until then they are skipped by id.
   */
  private dropRecordedJournal(): void {
    if (this.journaledUpTo - this.journalDroppedUpTo < JOURNAL_DROP_EVERY) return;
    dropJournal(this.ctx.storage.sql, this.journaledUpTo);
    this.journalDroppedUpTo = this.journaledUpTo;
  }

  /** The D1 facts of a member: from the last read unless `fresh` or older than FACTS_TTL_MS. */
  private async factsOf(member: SocketMember, peer: number, fresh: boolean): Promise<{ row: SendFactsRow | undefined; fresh: boolean }> {
    const hit = this.facts.get(member.profileId);
    if (!fresh && hit && Date.now() - hit.at < FACTS_TTL_MS) return { row: hit.row, fresh: false };
    const row = await sendFactsRow(this.db, member.userId, member.profileId, peer, this.record?.id ?? null);
    if (row) this.facts.set(member.profileId, { row, at: Date.now() });
    return { row, fresh: true };
  }

  /** Keep the remembered facts in step with a recorded message: the balance; a free message may start a free conversation, so those are read again. */
  private remember(member: SocketMember, free: boolean, credits: number): void {
    if (free) this.facts.delete(member.profileId);
    const mine = this.facts.get(member.profileId)?.row;
    if (mine) mine.credits = credits;
  }

  private async createConversation(sender: number, recipient: number): Promise<number> {
    const id = await ensureConversation(this.db, sender, recipient);
    this.record = { id };
    return id;
  }

  /** The member has seen the conversation up to a message: their unread count goes down (here and in the chat list), the other member sees the mark. */
  private async read(member: SocketMember, messageId: number): Promise<void> {
    const record = await this.conversation();
    if (record === null) return;
    const { unread, readId } = markRead(this.ctx.storage, member.profileId, messageId);
    // After the journal's writes, which carry the count as it was.
    await this.onD1(() => setUnreadCount(this.db, record.id, member.profileId, unread));
    // Once read, the next message is news for push and mail again.
    if (unread === 0) this.noticedAt.delete(member.profileId);
    this.ctx.waitUntil(announceRead(this.env, member.profileId, this.otherOf(member.profileId), record.id, unread));
    this.broadcast(
      () => true,
      (viewer) => (viewer.profileId === member.profileId ? { type: "unread", count: unread } : { type: "read", profile_id: member.profileId, message_id: readId }),
    );
  }

  private view(row: StoredMessage, viewer: SocketMember, site: SiteSettings) {
    return messageView(row, this.record!.id, { profileId: viewer.profileId, premium: viewer.premium }, site.cdn_prefix, i18nFor(viewer.language).t);
  }

  private refusal(member: SocketMember, clientId: string | null, refusal: Refusal): ServerFrame {
    return { type: "error", client_id: clientId, error: refusal.code, message: refusalText(i18nFor(member.language).t, refusal) };
  }

  /** Send a frame to every socket whose member passes `to`; one failing socket never stops the others. */
  private broadcast(to: (member: SocketMember) => boolean, frame: (member: SocketMember) => ServerFrame): void {
    for (const ws of this.ctx.getWebSockets()) {
      const member = ws.deserializeAttachment() as SocketMember | null;
      if (member && to(member)) this.send(ws, frame(member));
    }
  }

  private send(ws: WebSocket, frame: ServerFrame): void {
    try {
      ws.send(JSON.stringify(frame));
    } catch {
      // The socket is closing; its client reconnects and reloads the newest page.
    }
  }
}

/** The D1 side of a message, as far as the stored message says it (the rest is the send's to add). */
function sendRecordOf(
  message: Pick<StoredMessage, "id" | "sender_id" | "kind" | "body" | "photo_id" | "credits_charged" | "created_at">,
  conversationId: number,
  senderUserId: number,
  recipientProfileId: number,
  recipientUnread: number,
): Omit<SendRecord, "free" | "recipientHasWritten" | "freeUsedHere" | "allowance"> {
  return {
    conversationId,
    messageId: message.id,
    // Unique to this attempt at D1 (a retry after an unknown outcome first drops what D1 has).
    write: crypto.randomUUID(),
    senderProfileId: message.sender_id,
    senderUserId,
    recipientProfileId,
    kind: message.kind,
    preview: message.kind === "text" ? (message.body ?? "").slice(0, 140) : null,
    credits: message.credits_charged,
    reason: KIND_LEDGER_REASON[message.kind],
    photoId: message.photo_id,
    recipientUnread,
    now: message.created_at,
  };
}

function parseMember(raw: string | null): SocketMember | null {
  if (!raw) return null;
  try {
    const m = JSON.parse(raw) as SocketMember;
    if (Number.isInteger(m.profileId) && Number.isInteger(m.userId) && isLanguage(m.language) && typeof m.siteDomain === "string" && typeof m.premium === "boolean") return m;
  } catch {
    // fall through
  }
  return null;
}
