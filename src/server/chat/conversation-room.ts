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
  eraseMember,
  hasImageOf,
  historyPage,
  importMember,
  importMessages,
  insertUnrecorded,
  markRead,
  markRecorded,
  messageByClientId,
  migrateConversationStore,
  nextMessageId,
  readMarkOf,
  unreadCountOf,
  unrecordedMessages,
  type StoredMessage,
} from "../db/conversation-store";
import {
  conversationOf,
  creditsOf,
  ensureConversation,
  isPremium,
  lastRecordedId,
  legacyMessages,
  legacyReadMarks,
  markMessagesMoved,
  recordSends,
  sendFactsRow,
  setUnreadCount,
  type ConversationRecord,
  type SendFactsRow,
  type SendRecord,
  type SendRecordResult,
} from "../db/conversations";
import { refusalText, type Refusal } from "../errors";
import { i18nFor } from "../translations";
import { messageView } from "../services/chat-message-views";
import { decideSend, insufficientCredits, KIND_LEDGER_REASON, type SendRequest } from "../services/chat-rules";
import { sendFacts, type ConversationRoomCalls, type HistoryAnswer } from "../services/chats";
import { announceRead, announceSends } from "../services/member-news";
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
/** Messages moved from D1 per read while the object takes over a conversation's history. */
const MOVE_PAGE = 500;
/** Sends recorded in D1 in one batch at most. */
const MAX_GROUP = 50;

/** A send waiting in the object's queue; `alone`: to be taken by itself on fresh facts. */
type Send = { origin: WebSocket | null; member: SocketMember; frame: SendFrame; reply: (frame: ServerFrame) => void; alone?: boolean };
/** A send the rules allow, written here unrecorded, with its D1 side. */
type Planned = { send: Send; site: SiteSettings; peer: number; message: StoredMessage; recipientName: string; unread: number; record: SendRecord };
type Plan = Planned | { reply: ServerFrame } | { later: true };

/**
 * The Durable Object of one conversation (one pair of profiles), its single writer and the home of
 * its messages (db/conversation-store.ts). Every step (a group of sends, a read mark, a history
 * page, an export, an erasure) runs one after another in arrival order. Sends are decided by the
 * rules, written here unrecorded, recorded in D1 with their charges and the conversation's summary
 * in one batch, then acknowledged and fanned out, and then marked recorded here; a message whose D1
 * side is unknown (an eviction, a failed call) is settled against D1 before the next step
 * (docs/decisions/0015). Sockets use the hibernation API, so an idle conversation costs nothing.
 */
export class ConversationRoom extends DurableObject<Env> implements ConversationRoomCalls {
  private readonly db: Database;
  private pair: [number, number] | null = null;
  /** The conversation's D1 record once it exists (the object creates it on the first message). */
  private record: ConversationRecord | null = null;
  /** What the rules last read in D1 about each member of the pair, and when. */
  private facts = new Map<number, { row: SendFactsRow; at: number }>();
  private queue: Promise<void> = Promise.resolve();
  /** Whether messages may wait to be settled against D1 (after a start or a failed call). */
  private unsettled = true;
  /** Sends waiting for the next step; a step takes them as one group (sendWaiting). */
  private outbox: Send[] = [];
  /** Messages acknowledged and not yet marked recorded here (markDelivered). */
  private delivered: { id: number; peer: number }[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = databaseOf(env.DB);
    void ctx.blockConcurrencyWhile(async () => migrateConversationStore(ctx.storage));
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
      for (const ws of this.ctx.getWebSockets()) {
        if ((ws.deserializeAttachment() as SocketMember | null)?.profileId === profileId) ws.close(1008, "gone");
      }
    });
    return erased;
  }

  /** Some of a member's login sessions were ended (logged out elsewhere): the sockets they opened here close; a reconnect is refused at the Worker. */
  async sessionsEnded(profileId: number, peer: number, sessions: string[]): Promise<void> {
    this.mustBePair(profileId, peer);
    for (const ws of this.ctx.getWebSockets()) {
      const member = ws.deserializeAttachment() as SocketMember | null;
      if (member?.profileId === profileId && member.session !== undefined && sessions.includes(member.session)) ws.close(1008, "session ended");
    }
  }

  /** Take the conversation's messages over from D1 now (npm run chat-move, the daily clock work); idempotent. Returns how many came. */
  async moveMessages(one: number, other: number): Promise<number> {
    this.mustBePair(one, other);
    let moved = 0;
    await this.step(async () => {
      moved = this.lastMove;
      this.lastMove = 0;
    });
    return moved;
  }

  /**
   * Something about a member changed in D1 (a purchase made them premium, a block, credits): forget
   * what the object read about them, and let their open sockets see photo originals if now premium.
   */
  async memberChanged(profileId: number): Promise<void> {
    this.facts.delete(profileId);
    const premium = await isPremium(this.db, profileId);
    for (const ws of this.ctx.getWebSockets()) {
      const member = ws.deserializeAttachment() as SocketMember | null;
      if (member?.profileId === profileId && member.premium !== premium) ws.serializeAttachment({ ...member, premium });
    }
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
      await this.moveFromD1();
      await this.settle();
      await work();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** How many messages the last move brought (0 when there was nothing to move). */
  private lastMove = 0;

  /**
   * A conversation from before messages lived in the objects: its messages (ids kept) and read
   * marks come over from D1's old table, page by page, resumable after an eviction; then D1 is told.
   */
  private async moveFromD1(): Promise<void> {
    const record = await this.conversation();
    if (!record || record.messagesMoved) return;
    const sql = this.ctx.storage.sql;
    let moved = 0;
    for (let after = nextMessageId(sql) - 1; ; ) {
      const rows = await legacyMessages(this.db, record.id, after, MOVE_PAGE);
      moved += this.ctx.storage.transactionSync(() => importMessages(sql, rows));
      if (rows.length < MOVE_PAGE) break;
      after = rows.at(-1)!.id;
    }
    for (const mark of await legacyReadMarks(this.db, record.id)) importMember(sql, mark.profile_id, mark.last_read_message_id ?? 0, mark.unread_count);
    await markMessagesMoved(this.db, record.id);
    record.messagesMoved = true;
    this.lastMove = moved;
    console.info(JSON.stringify({ event: "chat_messages_moved", conversation_id: record.id, moved }));
  }

  /** Messages written here whose D1 side is unknown: recorded when D1 has it, dropped when it has not (never acknowledged either way). */
  private async settle(): Promise<void> {
    if (!this.unsettled) return;
    const sql = this.ctx.storage.sql;
    const waiting = unrecordedMessages(sql);
    const record = waiting.length ? await this.conversation() : null;
    const recordedUpTo = record ? await lastRecordedId(this.db, record.id) : 0;
    for (const message of waiting) {
      if (message.id <= recordedUpTo) markRecorded(this.ctx.storage, message.id, this.otherOf(message.sender_id));
      else discardUnrecorded(sql, message.id);
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
   * the balance and allowance the group's earlier sends take), written here unrecorded, then
   * recorded in D1 in one batch: one commit for the group, however fast a member writes. A send
   * refused on facts that were not read fresh, and every send of a group D1 refused, waits for the
   * next step and goes alone on fresh facts; a refusal is only ever given on facts read fresh.
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
      } else {
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
   * the facts at hand (`fresh`: read in D1 now) and, when they allow it, the message written here
   * unrecorded with the D1 side it needs.
   */
  private async plan(send: Send, planned: readonly Planned[], fresh: boolean): Promise<Plan> {
    const { member, frame } = send;
    const site = await this.site(member);
    if (!site) return { reply: this.refusal(member, frame.client_id, { status: 404, code: "unknown_site", key: "errors.unknown_site" }) };
    const sql = this.ctx.storage.sql;
    const peer = this.otherOf(member.profileId);
    const retried = messageByClientId(sql, member.profileId, frame.client_id);
    if (retried?.recorded === 1) return { reply: { type: "ack", client_id: frame.client_id, message: this.view(retried, member, site), credits: await creditsOf(this.db, member.userId) } };
    // The same client id twice in one group: the second waits for the first to be recorded.
    if (retried) return { later: true };

    let photo: Awaited<ReturnType<typeof ownChatPhoto>> | null = null;
    if (frame.kind === "image") {
      photo = (await ownChatPhoto(this.db, frame.photo_id, member.profileId)) ?? null;
      if (!photo) return { reply: this.refusal(member, frame.client_id, { status: 404, code: "not_found", key: "errors.photo_not_found" }) };
    }
    const request: SendRequest = frame.kind === "text" ? { kind: "text", body: frame.body } : frame.kind === "gift" ? { kind: "gift", gift: frame.gift } : { kind: "image" };

    // The conversation's facts and the member's, with what the group's earlier sends take.
    const recorded = conversationFacts(sql, member.profileId, peer);
    const mine = planned.filter((p) => p.send.member.profileId === member.profileId);
    const freeBefore = mine.filter((p) => p.record.free).length;
    const here = { freeUsedHere: recorded.freeUsedHere + freeBefore, recipientHasWritten: recorded.recipientHasWritten || planned.some((p) => p.send.member.profileId === peer) };
    const read = await this.factsOf(member, peer, fresh);
    const row = read.row && {
      ...read.row,
      credits: read.row.credits - mine.reduce((sum, p) => sum + p.record.credits, 0),
      free_conversations_used: read.row.free_conversations_used + (recorded.freeUsedHere === 0 && freeBefore > 0 ? 1 : 0),
    };
    const facts = sendFacts(row, here);
    const decision = decideSend(site, facts, request);
    if ("refusal" in decision) return read.fresh && planned.length === 0 ? { reply: this.refusal(member, frame.client_id, decision.refusal) } : { later: true };

    const conversationId = (await this.conversation())?.id ?? (await this.createConversation(member.profileId, peer));
    const body = frame.kind === "text" ? frame.body.trim() : null;
    const message = insertUnrecorded(sql, nextMessageId(sql), {
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
    });
    const unread = unreadCountOf(sql, peer) + 1 + planned.filter((p) => p.peer === peer).length;
    return {
      send,
      site,
      peer,
      message,
      recipientName: facts.recipient?.name ?? "",
      unread,
      record: {
        conversationId,
        messageId: message.id,
        write: crypto.randomUUID(),
        senderProfileId: member.profileId,
        senderUserId: member.userId,
        recipientProfileId: peer,
        kind: message.kind,
        preview: message.kind === "text" ? (body ?? "").slice(0, 140) : null,
        credits: decision.price.credits,
        free: decision.price.free,
        reason: KIND_LEDGER_REASON[message.kind],
        photoId: message.photo_id,
        recipientHasWritten: here.recipientHasWritten,
        freeUsedHere: here.freeUsedHere,
        allowance: { freeMessages: site.free_messages, freeConversations: site.free_conversations },
        recipientUnread: unread,
        now: message.created_at,
      },
    };
  }

  /**
   * The D1 side of a group written here unrecorded. Once D1 has it, the acks and the fan-out go
   * out at once; the messages' flags here are set after them (markDelivered), so the frames do not
   * wait for a second write of the object's storage: an eviction before that leaves them to
   * settle(), which finds them in D1. When D1 refuses, the group's messages go here too. When the
   * call fails, D1 is asked whether it has the group; if even that fails, the messages wait
   * unrecorded (never shown, never acknowledged) to be settled before the next step.
   */
  private async commit(planned: Planned[], fresh: boolean): Promise<void> {
    const sql = this.ctx.storage.sql;
    const last = planned.at(-1)!;
    const discard = () => {
      for (const p of planned) discardUnrecorded(sql, p.message.id);
    };
    let result: SendRecordResult;
    try {
      result = await recordSends(
        this.db,
        planned.map((p) => p.record),
      );
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
      const { send, site, message, peer } = p;
      this.remember(send.member, p.record.free, credits[i]!);
      for (const other of this.ctx.getWebSockets()) {
        if (other === send.origin) continue;
        const viewer = other.deserializeAttachment() as SocketMember | null;
        if (!viewer) continue;
        this.send(other, { type: "message", message: this.view(message, viewer, site) });
        if (viewer.profileId === peer) this.send(other, { type: "unread", count: p.unread });
      }
      send.reply({ type: "ack", client_id: send.frame.client_id, message: this.view(message, send.member, site), credits: credits[i]! });
    }
    // The members' other pages (badges, chat list), push and mail hear of the group once it is stored.
    this.ctx.waitUntil(announceSends(this.env, planned.map((p, i) => ({ sender: p.send.member, recipient: p.peer, messageId: p.message.id, unread: p.unread, balance: credits[i]!, record: p.record }))));
    this.delivered.push(...planned.map((p) => ({ id: p.message.id, peer: p.peer })));
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
  }

  /** The D1 facts of a member: from the last read unless `fresh` or older than FACTS_TTL_MS. */
  private async factsOf(member: SocketMember, peer: number, fresh: boolean): Promise<{ row: SendFactsRow | undefined; fresh: boolean }> {
    const hit = this.facts.get(member.profileId);
    if (!fresh && hit && Date.now() - hit.at < FACTS_TTL_MS) return { row: hit.row, fresh: false };
    const row = await sendFactsRow(this.db, member.userId, member.profileId, peer);
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
    this.record = { id, messagesMoved: true };
    return id;
  }

  /** The member has seen the conversation up to a message: their unread count goes down (here and in the chat list), the other member sees the mark. */
  private async read(member: SocketMember, messageId: number): Promise<void> {
    const record = await this.conversation();
    if (record === null) return;
    const { unread, readId } = markRead(this.ctx.storage, member.profileId, messageId);
    await setUnreadCount(this.db, record.id, member.profileId, unread);
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
