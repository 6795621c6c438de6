/**
 * The send pipeline of a conversation's object: every send, from the frame to the ack, through
 * decide, store, record and deliver (docs/decisions/0015, 0021, 0024, 0031).
 *
 * The sends waiting when a turn of the object starts are taken as one group (up to MAX_GROUP), in
 * arrival order. For each send (SendPipeline.take), in the order it happens:
 *
 *   1. decide   The rules (services/chat-rules.ts) on the D1 facts at hand (MemberFacts: cached, or
 *               read fresh) and the conversation's own (free messages used here, whether the other
 *               member wrote), less what the group's earlier sends take: decideInGroup
 *               (send-decision.ts) turns the facts into a decision value and writes nothing. A
 *               refusal is only ever given on facts read fresh; one on older facts sends the rest of
 *               the group to a later turn, each send alone on fresh facts. A client id used before is
 *               answered with the stored message (storedBefore).
 *   2. store    The accepted decision written (SendPipeline.store). Fast path: a paid send the
 *               member's credit hold here covers, with no send before it in the group waiting for D1
 *               (decided paid from the hold), is written in one write of the object's storage as
 *               recorded, counted unread and marked for the D1 journal; the hold it may spend goes
 *               down (CreditHolds). Slow path: every other send is written unrecorded (invisible,
 *               uncounted, unexported).
 *   3. record   Fast path: after the ack, the journal goes to D1 (D1Journal.recordSoon, at once or
 *               within GATHER_MS). Slow path: the group's D1 side is written in one batch after the
 *               journal, with the senders' holds given back and topped up (recordGroup); D1 refuses
 *               a group whole (the standing, the balance), and its messages are then deleted here.
 *   4. deliver  The call to the recipient's channel first (ConversationNotices), then the frames to the
 *               other sockets and the ack to the sender. The output gate holds all of them until
 *               the write of step 2 is durable. The one place a send is acknowledged.
 *   5. at the start of the object's next turn (finishEarlierSends), so they go in one write of the
 *               object's storage with that turn's own rather than delay this ack by a second write:
 *               a) the slow path's messages are marked recorded here (visible, counted unread);
 *               b) the journal's marks of messages D1 has recorded are cleared, some at a time;
 *               c) after a start or a D1 write whose outcome is unknown, the journal is caught up
 *                  with D1 and unrecorded messages are settled: recorded when D1 has them (they may
 *                  have been acknowledged), deleted when it has not (they never were).
 *
 * So no message is acknowledged and then lost, and none is shown without its charge.
 */
import type { ServerFrame } from "../../shared/chat";
import type { SiteSettings } from "../../shared/settings";
import { balanceOf } from "../db/ledger";
import { lastRecordedId, recordSends, type SendRecord, type SendRecordResult } from "../db/chat-ledger";
import {
  conversationFacts,
  discardUnrecorded,
  insertAcknowledged,
  insertUnrecorded,
  markRecorded,
  messageByClientId,
  unreadCountOf,
  unrecordedMessages,
  type NewStoredMessage,
  type StoredMessage,
} from "../db/conversation-store";
import type { Database } from "../db/database";
import { ownChatPhoto } from "../db/photos";
import { i18nFor } from "../translations";
import { messageView } from "../services/chat-message-views";
import { insufficientCredits } from "../services/chat-rules";
import { recallHeldCredits, type ConversationRooms } from "../services/chats";
import { loadSite } from "../edge/site";
import type { ConversationPair } from "./conversation-pair";
import { HOLD_IDLE_MS, type CreditHolds } from "./credit-holds";
import { d1SideOf, type D1Journal } from "./d1-journal";
import type { MemberFacts } from "./member-facts";
import type { ConversationNotices } from "../notices/conversation-notices";
import { refusalFrame, type RoomSockets, type SocketMember } from "./room-sockets";
import { decideInGroup, requestOf, type Accepted, type SendAtHand, type SendDecision } from "./send-decision";
import { closeEndedSockets, SESSION_ENDED, type SessionCheck } from "./session-check";
import { type SendFrame } from "../../shared/chat-frames";

/** Sends recorded in D1 in one batch at most. */
const MAX_GROUP = 50;

/** A send waiting in the object's queue; `alone`: to be taken by itself on fresh facts. */
export type Send = {
  origin: WebSocket | null;
  member: SocketMember;
  frame: SendFrame;
  reply: (frame: ServerFrame) => void;
  alone?: boolean;
};
/** A send the rules allow, written here unrecorded, with its D1 side (the slow path). */
type Unrecorded = {
  send: Send;
  site: SiteSettings;
  peer: number;
  message: StoredMessage;
  recipientName: string;
  unread: number;
  record: SendRecord;
};
/** A send paid from its sender's hold, written here recorded with its journal mark (the fast path): acknowledged now, recorded in D1 after the ack. */
type Journaled = { message: StoredMessage; unread: number; credits: number };
/** What storing an accepted send came to; `usedBefore`: the insert found the client id used before and wrote nothing. */
type Stored = { journaled: Journaled } | { unrecorded: Unrecorded } | { usedBefore: true };
/** What taking one send came to: stored unrecorded, answered, put off to a later turn, or stored and acknowledged (the fast path). */
type Taken = Unrecorded | { reply: ServerFrame } | { later: true } | { acknowledged: true } | { answered: true };
/** The sender's own chat photo, for an image message. */
type ChatPhoto = NonNullable<Awaited<ReturnType<typeof ownChatPhoto>>>;

/** The conversation the sends are written to: its pair and D1 row, and its messages in the object's storage. */
export type Conversation = { pair: ConversationPair; storage: DurableObjectStorage };

/** What the pipeline reads of the members before deciding: their D1 facts, whether their logins are live, their sites' settings, their chat photos. */
export type Members = {
  facts: MemberFacts;
  sessions: SessionCheck;
  /** The sites' settings (loadSite): the site a socket was opened on prices its sends. */
  sites: KVNamespace;
  /** Where their chat photos are read (ownChatPhoto). */
  db: Database;
};

/** The members' credits: what the object may spend of their holds here, their balance in D1, and their other conversations, asked to give back what they hold. */
export type Credits = { holds: CreditHolds; elsewhere: ConversationRooms; db: Database };

/** The chat ledger in D1, where sends are recorded: the group's batch, the journal of sends paid from a hold, and the bookmark acks carry. */
export type Ledger = {
  db: Database;
  /** D1's primary, for what D1 has recorded after a start or a lost answer (docs/decisions/0033). */
  primary?: Database;
  journal: D1Journal;
  /** The newest D1 bookmark of the object's session, which acks carry (docs/decisions/0033). */
  bookmark?: () => string | null;
};

/** The Durable Object the pipeline runs in: its clock and alarm, its queue of turns, work kept going after a turn. */
export type RoomObject = {
  /** Run `takeWaiting` in a later turn of the object. */
  takeLater: () => void;
  /** An alarm of the object no later than `at`. */
  alarmBy: (at: number) => void;
  waitUntil: (work: Promise<unknown>) => void;
  now?: () => number;
};

/** The pipeline's collaborators, each named for its one job. */
export type PipelineParts = {
  conversation: Conversation;
  members: Members;
  credits: Credits;
  ledger: Ledger;
  /** The sockets it sends frames to. */
  sockets: RoomSockets;
  /** What it tells the members' channels of each message. */
  notices: ConversationNotices;
  object: RoomObject;
};

export class SendPipeline {
  /** Sends waiting for the next turn; a turn takes them as one group. */
  private readonly waiting: Send[] = [];
  /** Slow-path messages acknowledged and not yet marked recorded here (step 5a). */
  private acknowledgedUnmarked: { id: number; peer: number }[] = [];
  /** Whether messages written here unrecorded may have an unknown D1 side (after a start or a failed call). */
  private outcomeUnknown = true;
  private readonly now: () => number;

  constructor(private readonly parts: PipelineParts) {
    this.now = parts.object.now ?? Date.now;
  }

  enqueue(send: Send): void {
    this.waiting.push(send);
  }

  /**
   * Step 5 of the sends of earlier turns, at the start of every turn of the object: a) and b) are
   * plain writes of the object's storage, made before anything is awaited so they go out with this
   * turn's own; c) asks D1 only after a start or a failure.
   */
  async finishEarlierSends(): Promise<void> {
    this.markAcknowledgedRecorded();
    this.parts.ledger.journal.dropRecorded();
    await this.parts.ledger.journal.catchUp();
    await this.settleUnknown();
  }

  /**
   * Take the waiting sends as one group: each decided in arrival order on the facts at hand (with
   * the balance and allowance the group's earlier sends take), stored, and either acknowledged at
   * once (the fast path) or recorded in D1 with the rest of the group and then acknowledged.
   */
  async takeWaiting(): Promise<void> {
    const first = this.waiting.shift();
    if (!first) return;
    const alone = first.alone === true;
    const group = [first];
    const size = alone ? 1 : MAX_GROUP;
    while (group.length < size && this.waiting.length && !this.waiting[0]!.alone) group.push(this.waiting.shift()!);
    const unrecorded: Unrecorded[] = [];
    for (let i = 0; i < group.length; i++) {
      const send = group[i]!;
      let taken: Taken;
      try {
        taken = await this.take(send, unrecorded, alone);
      } catch (error) {
        send.reply(this.failure(send, error));
        continue;
      }
      if ("reply" in taken) {
        send.reply(taken.reply);
      } else if ("later" in taken) {
        this.putBack(group.slice(i).map((s) => ({ ...s, alone: true })));
        break;
      } else if ("send" in taken) {
        unrecorded.push(taken);
      }
    }
    if (unrecorded.length) await this.recordGroup(unrecorded, alone);
  }

  /**
   * One send of a group (`before`: the group's sends before it that wait for D1), in the order it
   * happens: the sender's login, 1. decide on the facts at hand (`fresh`: read in D1 now), 2. store
   * what is accepted, and on the fast path 4. deliver and 3. record at once; the slow path's 3 and
   * 4 are the group's (recordGroup).
   */
  private async take(send: Send, before: readonly Unrecorded[], fresh: boolean): Promise<Taken> {
    const { member, frame } = send;
    // 0. the sender's login: a send from an ended session is refused and its socket closed, nothing stored (docs/decisions/0025).
    if (!(await this.parts.members.sessions.live(member, this.now()))) {
      send.reply(refusalFrame(member, frame.client_id, SESSION_ENDED));
      closeEndedSockets(this.parts.sockets.all(), member.profileId, [member.session!]);
      return { answered: true };
    }
    const site = (await loadSite(this.parts.members.sites, member.siteDomain))?.settings ?? null;
    if (!site)
      return {
        reply: refusalFrame(member, frame.client_id, { status: 404, code: "unknown_site", key: "errors.unknown_site" }),
      };
    const peer = this.parts.conversation.pair.otherOf(member.profileId);
    // A client id used before is found by the insert, which then writes nothing (no read first on
    // the way of every send); a send that is not stored asks first (storedBefore).
    let photo: ChatPhoto | null = null;
    if (frame.kind === "image") {
      photo = (await ownChatPhoto(this.parts.members.db, frame.photo_id, member.profileId)) ?? null;
      if (!photo)
        return (
          (await this.storedBefore(member, frame.client_id, site)) ?? {
            reply: refusalFrame(member, frame.client_id, {
              status: 404,
              code: "not_found",
              key: "errors.photo_not_found",
            }),
          }
        );
    }

    // 1. decide
    const decision = await this.decide(member, peer, site, frame, before, fresh);
    if (decision.outcome !== "accepted") {
      const stored = await this.storedBefore(member, frame.client_id, site);
      if (stored) return stored;
      return decision.outcome === "refused"
        ? { reply: refusalFrame(member, frame.client_id, decision.refusal) }
        : { later: true };
    }

    // 2. store
    const stored = await this.store(send, site, peer, photo, decision, before);
    // The insert found the client id used before: answered as a retry.
    if ("usedBefore" in stored) return (await this.storedBefore(member, frame.client_id, site)) ?? { later: true };
    if ("unrecorded" in stored) return stored.unrecorded;
    // 4. deliver, then 3. record (the journal goes to D1 after the ack).
    const { message, unread, credits } = stored.journaled;
    this.deliver(send, site, message, peer, unread, credits);
    this.parts.ledger.journal.recordSoon();
    return { acknowledged: true };
  }

  /**
   * Step 1: the member's facts and the conversation's, with what the group's earlier sends take,
   * decided by the rules (decideInGroup). Nothing is stored; a send refused for credits the member's
   * other conversations hold has them given back (their write, in D1) and is decided again.
   */
  private async decide(
    member: SocketMember,
    peer: number,
    site: SiteSettings,
    frame: SendFrame,
    before: readonly Unrecorded[],
    fresh: boolean,
  ): Promise<SendDecision> {
    const { facts } = this.parts.members;
    const { pair, storage } = this.parts.conversation;
    let read = await facts.read(member, peer, fresh);
    // A member who has paid is not counted free messages: then whether the other member wrote here is all the rules need, and it is known.
    const countFree = read.row?.paid !== true;
    const recorded = countFree
      ? conversationFacts(storage.sql, member.profileId, peer, true)
      : { freeUsedHere: 0, recipientHasWritten: facts.hasWritten(peer) };
    facts.setWritten(peer, recorded.recipientHasWritten);
    const at: Omit<SendAtHand, "read" | "recalled"> = {
      site,
      sender: member.profileId,
      peer,
      request: requestOf(frame),
      recorded,
      before: before.map((u) => ({ sender: u.send.member.profileId, free: u.record.free, credits: u.record.credits })),
      // Asked before store makes sure of the D1 row: a hold is known only once the row is, and then
      // making sure takes no call, so nothing can change the hold in between.
      holdCovers: (credits) => this.parts.credits.holds.covers(member.profileId, credits),
    };
    const decision = decideInGroup({ ...at, read, recalled: false });
    if (decision.outcome !== "recallHolds") return decision;
    // The member's other conversations hold what this send needs: they give it back, then the send is decided again.
    await recallHeldCredits(this.parts.credits.db, this.parts.credits.elsewhere, member, pair.knownId);
    read = await facts.read(member, peer, true);
    return decideInGroup({ ...at, read, recalled: true });
  }

  /**
   * Step 2: an accepted send written to the object's storage. Paid from the hold (the fast path):
   * written recorded with its journal mark, the hold and the known balance down by its price, to be
   * acknowledged at once. Else (the slow path): written unrecorded, with the D1 side the group's
   * batch records.
   */
  private async store(
    send: Send,
    site: SiteSettings,
    peer: number,
    photo: ChatPhoto | null,
    decision: Accepted,
    before: readonly Unrecorded[],
  ): Promise<Stored> {
    const { member, frame } = send;
    const { pair, storage } = this.parts.conversation;
    const { facts } = this.parts.members;
    const sql = storage.sql;
    const conversationId = await pair.d1Id(member.profileId, peer);
    const fields: NewStoredMessage = {
      sender_id: member.profileId,
      client_id: frame.client_id,
      kind: frame.kind,
      body: frame.kind === "text" ? frame.body.trim() : null,
      gift: frame.kind === "gift" ? frame.gift : null,
      photo_id: photo?.id ?? null,
      photo_key: photo?.key ?? null,
      photo_thumb_key: photo?.thumbKey ?? null,
      photo_blur_key: photo?.blurKey ?? null,
      photo_width: photo?.width ?? null,
      photo_height: photo?.height ?? null,
      credits_charged: decision.price.credits,
      free: decision.price.free ? 1 : 0,
      created_at: Math.floor(this.now() / 1000),
    };
    const price = decision.price.credits;
    if (decision.paidFrom === "hold") {
      // The fast path: stored with its journal mark and acknowledged now, recorded in D1 next.
      const stored = insertAcknowledged(sql, fields, member.userId, peer);
      if (!stored) return { usedBefore: true };
      this.parts.credits.holds.spend(member.profileId, price, this.now());
      facts.setWritten(member.profileId, true);
      const balance = facts.balanceOf(member.profileId);
      if (balance !== undefined) facts.setBalance(member.profileId, balance - price);
      const credits = facts.balanceOf(member.profileId) ?? decision.credits - price;
      return { journaled: { message: stored.message, unread: stored.unread, credits } };
    }
    const message = insertUnrecorded(sql, fields);
    if (!message) return { usedBefore: true };
    const unread = unreadCountOf(sql, peer) + 1 + before.filter((u) => u.peer === peer).length;
    const record: SendRecord = {
      ...d1SideOf(message, conversationId, member.userId, peer, unread),
      free: decision.price.free,
      recipientHasWritten: decision.here.recipientHasWritten,
      freeUsedHere: decision.here.freeUsedHere,
      allowance: { freeMessages: site.free_messages, freeConversations: site.free_conversations },
    };
    return { unrecorded: { send, site, peer, message, recipientName: decision.recipientName, unread, record } };
  }

  /**
   * A send under a client id its sender used here before (a page sending again what it got no ack
   * for): the stored message's ack again, nothing charged twice; or, when that message waits for D1
   * (the same client id twice in one group), a wait until it is recorded. Null: the id is new.
   */
  private async storedBefore(member: SocketMember, clientId: string, site: SiteSettings): Promise<Taken | null> {
    const stored = messageByClientId(this.parts.conversation.storage.sql, member.profileId, clientId);
    if (!stored) return null;
    if (stored.recorded !== 1) return { later: true };
    return {
      reply: {
        type: "ack",
        client_id: clientId,
        message: this.view(stored, member, site),
        credits: await this.balance(member.userId),
        ...this.bookmark(),
      },
    };
  }

  /**
   * Step 3 of the slow path: the D1 side of a group written here unrecorded, after the journal (so
   * D1 records messages in order), with the senders' holds given back and topped up. Once D1 has it,
   * step 4 at once; step 5a waits for the next turn, so the frames do not wait for a second write of
   * the object's storage (an eviction before that leaves them to settleUnknown, which finds them in
   * D1). When D1 refuses, the group's messages go here too. When the call fails, D1 is asked whether
   * it has the group; if even that fails, the messages wait unrecorded (never shown, never
   * acknowledged) to be settled at the start of the next turn.
   */
  private async recordGroup(group: Unrecorded[], fresh: boolean): Promise<void> {
    const { db, journal } = this.parts.ledger;
    const { holds } = this.parts.credits;
    const { facts } = this.parts.members;
    const sql = this.parts.conversation.storage.sql;
    const last = group.at(-1)!;
    const discard = () => {
      for (const u of group) discardUnrecorded(sql, u.message.id);
    };
    const now = this.now();
    const holdRequests = holds.forGroup(
      group.map((u) => ({
        profileId: u.send.member.profileId,
        messageCredits: u.site.message_credits,
        record: u.record,
      })),
      now,
    );
    // Before D1 is asked: a hold never outlives the object's knowing of it.
    if (holdRequests.length) this.parts.object.alarmBy(now + HOLD_IDLE_MS);
    const version = holds.version;
    let result: SendRecordResult;
    try {
      result = await journal.inOrder(async () => {
        await journal.record();
        if (journal.waiting()) throw new Error("chat send: messages before it wait to be recorded in D1");
        const records = group.map((u) => u.record);
        const recorded = await recordSends(db, records, holdRequests);
        // Learnt in D1's order, so a hold given back after this write is never believed again.
        if ("recorded" in recorded)
          for (const profileId of holds.learn(recorded.holds ?? [], records, version, (p) => journal.creditsWaiting(p)))
            facts.forget(profileId);
        return recorded;
      });
    } catch (error) {
      this.outcomeUnknown = true;
      let recorded = false;
      try {
        recorded =
          (await lastRecordedId(this.parts.ledger.primary ?? db, last.record.conversationId)) >= last.message.id;
        this.outcomeUnknown = false;
      } catch {
        // settled at the start of the next turn
      }
      if (!recorded) {
        if (!this.outcomeUnknown) discard();
        for (const u of group) u.send.reply(this.failure(u.send, error));
        return;
      }
      result = { alreadyRecorded: true };
    }
    if ("insufficientCredits" in result || "standingChanged" in result) {
      discard();
      if (fresh && group.length === 1) {
        facts.forget(last.send.member.profileId);
        last.send.reply(
          refusalFrame(last.send.member, last.send.frame.client_id, insufficientCredits(last.recipientName)),
        );
      } else {
        this.putBack(group.map((u) => ({ ...u.send, alone: true })));
      }
      return;
    }
    const credits =
      "recorded" in result ? result.credits : await Promise.all(group.map((u) => this.balance(u.send.member.userId)));
    for (const [i, u] of group.entries()) {
      facts.recorded(u.send.member.profileId, u.record.free, credits[i]!);
      this.deliver(u.send, u.site, u.message, u.peer, u.unread, credits[i]!);
    }
    this.acknowledgedUnmarked.push(...group.map((u) => ({ id: u.message.id, peer: u.peer })));
  }

  /**
   * Step 4: a stored message goes out: the recipient's channel is called first (the output gate
   * holds the call, like the frames, until the write is durable, so the badge's longer way starts
   * first), then to every other socket of the conversation (with the recipient's unread count), and
   * the ack to its sender. The one place a send is acknowledged.
   */
  private deliver(
    send: Send,
    site: SiteSettings,
    message: StoredMessage,
    peer: number,
    unread: number,
    credits: number,
  ): void {
    const { notices, sockets } = this.parts;
    const { sessions } = this.parts.members;
    const record = {
      conversationId: this.parts.conversation.pair.knownId!,
      kind: message.kind,
      preview: message.kind === "text" ? (message.body ?? "").slice(0, 140) : null,
      credits: message.credits_charged,
      now: message.created_at,
    };
    const pagesOnly = notices.recentlyNoticed(peer);
    this.parts.object.waitUntil(
      notices.tell({
        sender: send.member,
        recipient: peer,
        messageId: message.id,
        unread,
        balance: credits,
        record,
        pagesOnly,
      }),
    );
    for (const [other, viewer] of sockets.members()) {
      if (other === send.origin || sessions.hasEnded(viewer)) continue;
      // A session that ended without this object hearing of it reads at most the messages until D1 says so.
      const recheck = sessions.recheck(viewer, this.now(), () =>
        closeEndedSockets([other], viewer.profileId, [viewer.session!]),
      );
      if (recheck) this.parts.object.waitUntil(recheck);
      sockets.send(other, { type: "message", message: this.view(message, viewer, site) });
      if (viewer.profileId === peer) sockets.send(other, { type: "unread", count: unread });
    }
    send.reply({
      type: "ack",
      client_id: send.frame.client_id,
      message: this.view(message, send.member, site),
      credits,
      ...this.bookmark(),
    });
  }

  /** Step 5a: the slow path's messages acknowledged since the last turn become recorded here. */
  private markAcknowledgedRecorded(): void {
    if (!this.acknowledgedUnmarked.length) return;
    const marks = this.acknowledgedUnmarked;
    this.acknowledgedUnmarked = [];
    const { pair, storage } = this.parts.conversation;
    storage.transactionSync(() => {
      for (const mark of marks) markRecorded(storage, mark.id, mark.peer);
    });
    for (const mark of marks) this.parts.members.facts.setWritten(pair.otherOf(mark.peer), true);
  }

  /** Step 5c: messages written here whose D1 side is unknown: recorded when D1 has them, dropped when it has not. */
  private async settleUnknown(): Promise<void> {
    if (!this.outcomeUnknown) return;
    const { pair, storage } = this.parts.conversation;
    const { db, primary } = this.parts.ledger;
    const waiting = unrecordedMessages(storage.sql);
    const d1 = waiting.length ? await pair.d1Record() : null;
    const recordedUpTo = d1 ? await lastRecordedId(primary ?? db, d1.id) : 0;
    for (const message of waiting) {
      if (message.id <= recordedUpTo) {
        markRecorded(storage, message.id, pair.otherOf(message.sender_id));
        this.parts.members.facts.setWritten(message.sender_id, true);
      } else discardUnrecorded(storage.sql, message.id);
    }
    this.outcomeUnknown = false;
  }

  /** Sends to take again in a later turn, before those that came after them. */
  private putBack(sends: Send[]): void {
    for (const send of sends) this.parts.members.facts.forget(send.member.profileId);
    this.waiting.unshift(...sends);
    this.parts.object.takeLater();
  }

  private failure(send: Send, error: unknown): ServerFrame {
    // Nothing was acknowledged: the client may send the same client id again.
    console.error(
      JSON.stringify({ event: "chat_send_failed", message: error instanceof Error ? error.message : String(error) }),
    );
    return refusalFrame(send.member, send.frame.client_id, {
      status: 400,
      code: "internal_error",
      key: "errors.try_again_later",
    });
  }

  /** The ack's bookmark: the object's D1 state after its last write (a send paid from a hold is not in D1 yet). */
  private bookmark(): { bookmark?: string } {
    const bookmark = this.parts.ledger.bookmark?.();
    return bookmark ? { bookmark } : {};
  }

  private async balance(userId: number): Promise<number> {
    return (await balanceOf(this.parts.credits.db, userId))?.credits ?? 0;
  }

  private view(row: StoredMessage, viewer: SocketMember, site: SiteSettings) {
    return messageView(
      row,
      this.parts.conversation.pair.knownId!,
      { profileId: viewer.profileId, premium: viewer.premium },
      site.cdn_prefix,
      i18nFor(viewer.language, site.countries[0]).t,
    );
  }
}
