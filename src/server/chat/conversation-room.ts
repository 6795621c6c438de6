import { DurableObject } from "cloudflare:workers";
import * as v from "valibot";
import type { SendFrame, ServerFrame } from "../../shared/chat";
import { ClientFrame } from "../../shared/chat-frames";
import { isLanguage, type Language } from "../../shared/locales";
import type { SiteSettings } from "../../shared/settings";
import { loadSite } from "../edge/site";
import { i18nFor } from "../translations";
import { refusalText, type Refusal } from "../errors";
import { decideSend, insufficientCredits, type Price, type SendFacts, type SendRequest } from "../services/chat-rules";
import { findByClientId, messageView, storeMessage, type MessageRow } from "../services/chat-messages";
import { conversationIdOf, ensureConversation, loadSendFacts, markRead, readState } from "../services/chats";

/** Who is on a socket, set by the Worker that authorised it; kept with the socket through hibernation. */
export type SocketMember = {
  /** profile id, user id */
  p: number;
  u: number;
  /** the member's language, site domain and country */
  l: Language;
  s: string;
  c: string | null;
  /** premium when the socket opened: decides whether they see photos' originals */
  pr: boolean;
};

/** The header by which the Worker hands the authorised member to the object. */
export const MEMBER_HEADER = "x-chat-member";

const PAIR_KEY = "pair";
/**
 * How long the facts read for one send may decide the next ones. The write re-checks the standing
 * and the database the balance, so stale facts can only cause a second read, never a wrong write.
 */
const FACTS_TTL_MS = 30_000;

/**
 * The Durable Object of one conversation (one pair of profiles), its single writer: sends are taken
 * one at a time, checked against the rules, stored with their charge in one D1 batch, and only then
 * acknowledged to the sender and fanned out to every open socket of both members. Sockets use the
 * hibernation API, so an idle conversation costs nothing; everything the object needs after waking
 * is in its storage (the pair), in D1 (the conversation, messages, unread counts, read marks) or
 * in each socket's attachment (who is on it).
 */
export class ConversationRoom extends DurableObject<Env> {
  private pair: [number, number] | null = null;
  private conversationId: number | null = null;
  /** What the rules last read about each member of the pair, and when. */
  private facts = new Map<number, { facts: SendFacts; at: number }>();
  /** Sends and read marks run one after another, in arrival order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.pair = ctx.storage.kv.get<[number, number]>(PAIR_KEY) ?? null;
    // Keep-alive pings are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
  }

  /** A socket upgrade forwarded by the Worker, which has checked the member and the pair. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket", { status: 426 });
    const member = parseMember(request.headers.get(MEMBER_HEADER));
    const peer = Number(new URL(request.url).searchParams.get("peer"));
    if (!member || !Number.isInteger(peer) || peer < 1 || peer === member.p) return new Response("Bad member", { status: 400 });
    if (!this.claimPair(member.p, peer)) return new Response("Wrong conversation", { status: 400 });

    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(member);
    const conversationId = await this.conversation();
    const state = conversationId === null ? { unread: 0, peerReadId: null } : await readState(this.env.DB, conversationId, member.p, peer);
    this.send(server, { type: "ready", conversation_id: conversationId, peer_read_id: state.peerReadId, unread: state.unread });
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
        this.broadcast((other) => other.p !== member.p, () => ({ type: "typing", profile_id: member.p }));
        return;
      case "read":
        return this.enqueue(() => this.read(member, frame.message_id));
      case "send":
        return this.enqueue(async () => this.send(ws, await this.deliverSafely(ws, member, frame)));
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
   * A send that does not come over a socket (the message written at signup): the same rules, storage
   * and fan-out as a socket's send, answered with the ack or the error frame.
   */
  async post(member: SocketMember, peer: number, frame: SendFrame): Promise<ServerFrame> {
    if (!this.claimPair(member.p, peer)) throw new Error("wrong conversation");
    let reply: ServerFrame | undefined;
    await this.enqueue(async () => {
      reply = await this.deliverSafely(null, member, frame);
    });
    return reply!;
  }

  /**
   * The member has just become premium (their first paid order): their sockets opened before see
   * photos' originals from now on, and the rules re-read their facts. Called by the payment webhook.
   */
  async memberBecamePremium(profileId: number): Promise<void> {
    for (const ws of this.ctx.getWebSockets()) {
      const member = ws.deserializeAttachment() as SocketMember | null;
      if (member?.p === profileId && !member.pr) ws.serializeAttachment({ ...member, pr: true });
    }
    this.facts.delete(profileId);
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

  private async deliverSafely(origin: WebSocket | null, member: SocketMember, frame: SendFrame): Promise<ServerFrame> {
    try {
      return await this.deliver(origin, member, frame);
    } catch (error) {
      // Nothing was acknowledged: the client may send the same client id again.
      console.error(JSON.stringify({ event: "chat_send_failed", message: error instanceof Error ? error.message : String(error) }));
      return this.refusal(member, frame.client_id, { status: 400, code: "internal_error", key: "errors.try_again_later" });
    }
  }

  /** Run one step after every step before it has finished; a failing step does not stop the queue. */
  private enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async conversation(): Promise<number | null> {
    if (this.conversationId === null && this.pair) {
      // Looked up in D1 (the record) after each start, never kept apart from it: a purged account
      // takes its conversations with it.
      this.conversationId = await conversationIdOf(this.env.DB, this.pair[0], this.pair[1]);
    }
    return this.conversationId;
  }

  private peerOf(member: SocketMember): number {
    const [a, b] = this.pair!;
    return member.p === a ? b : a;
  }

  private async site(member: SocketMember): Promise<SiteSettings | null> {
    return (await loadSite(this.env.SETTINGS, member.s))?.settings ?? null;
  }

  /**
   * One send: rules, then the message and its charge in one batch, then the ack to the sending
   * socket and the message to every other socket. A retried client id gets the stored message back.
   */
  private async deliver(origin: WebSocket | null, member: SocketMember, frame: SendFrame): Promise<ServerFrame> {
    const site = await this.site(member);
    if (!site) return this.refusal(member, frame.client_id, { status: 404, code: "unknown_site", key: "errors.unknown_site" });
    const peer = this.peerOf(member);
    let photoId: number | null = null;
    if (frame.kind === "image") {
      const photo = await this.env.DB.prepare("SELECT id FROM chat_photos WHERE id = ? AND profile_id = ?").bind(frame.photo_id, member.p).first<{ id: number }>();
      if (!photo) return this.refusal(member, frame.client_id, { status: 404, code: "not_found", key: "errors.photo_not_found" });
      photoId = photo.id;
    }
    const request: SendRequest = frame.kind === "text" ? { kind: "text", body: frame.body } : frame.kind === "gift" ? { kind: "gift", gift: frame.gift } : { kind: "image" };

    // First from the facts this object read a moment ago (the write checks the standing again);
    // a refusal is only ever given on facts read fresh.
    for (const fresh of [false, true]) {
      const conversationId = await this.conversation();
      const facts = await this.factsOf(member, peer, conversationId, fresh);
      const decision = decideSend(site, facts.value, request);
      if ("refusal" in decision) {
        if (!facts.fresh) continue;
        // A retry of a message already stored is answered with it, even if it could not be paid again now.
        const stored = conversationId === null ? null : await findByClientId(this.env.DB, { conversationId, senderProfileId: member.p, clientId: frame.client_id });
        if (stored) return { type: "ack", client_id: frame.client_id, message: this.view(stored, member, site), credits: facts.value.credits };
        return this.refusal(member, frame.client_id, decision.refusal);
      }
      const id = conversationId ?? (await this.createConversation(member.p, peer));
      const result = await storeMessage(this.env.DB, {
        conversationId: id,
        senderProfileId: member.p,
        senderUserId: member.u,
        recipientProfileId: peer,
        clientId: frame.client_id,
        kind: frame.kind,
        body: frame.kind === "text" ? frame.body.trim() : null,
        photoId,
        gift: frame.kind === "gift" ? frame.gift : null,
        price: decision.price,
        allowance: { freeMessages: site.free_messages, freeConversations: site.free_conversations },
      });
      if ("insufficientCredits" in result || "standingChanged" in result) {
        this.facts.delete(member.p);
        if (!facts.fresh) continue;
        return this.refusal(member, frame.client_id, insufficientCredits(facts.value.recipient?.name ?? ""));
      }
      if (result.stored) {
        this.remember(member, peer, decision.price, result.credits);
        for (const other of this.ctx.getWebSockets()) {
          if (other === origin) continue;
          const viewer = other.deserializeAttachment() as SocketMember | null;
          if (!viewer) continue;
          this.send(other, { type: "message", message: this.view(result.row, viewer, site) });
          if (viewer.p === peer) this.send(other, { type: "unread", count: result.recipientUnread });
        }
      }
      return { type: "ack", client_id: frame.client_id, message: this.view(result.row, member, site), credits: result.credits };
    }
    throw new Error("unreachable");
  }

  /** The send facts of a member: from the last read unless `fresh` or older than FACTS_TTL_MS. */
  private async factsOf(member: SocketMember, peer: number, conversationId: number | null, fresh: boolean): Promise<{ value: SendFacts; fresh: boolean }> {
    const hit = this.facts.get(member.p);
    if (!fresh && hit && Date.now() - hit.at < FACTS_TTL_MS) return { value: hit.facts, fresh: false };
    const value = await loadSendFacts(this.env.DB, member.u, member.p, peer, conversationId);
    this.facts.set(member.p, { facts: value, at: Date.now() });
    return { value, fresh: true };
  }

  /** Keep the remembered facts in step with a stored message: the balance, the allowance used, who has written. */
  private remember(member: SocketMember, peer: number, price: Price, credits: number): void {
    const mine = this.facts.get(member.p)?.facts;
    if (mine) {
      mine.credits = credits;
      if (price.free) {
        if (mine.freeUsedHere === 0) mine.freeConversationsUsed++;
        mine.freeUsedHere++;
      }
    }
    const theirs = this.facts.get(peer)?.facts;
    if (theirs?.recipient) theirs.recipient.hasWritten = true;
  }

  private async createConversation(sender: number, recipient: number): Promise<number> {
    const id = await ensureConversation(this.env.DB, sender, recipient);
    this.conversationId = id;
    return id;
  }

  /** The member has seen the conversation up to a message: their unread count goes down, the other member sees the mark. */
  private async read(member: SocketMember, messageId: number): Promise<void> {
    const conversationId = await this.conversation();
    if (conversationId === null) return;
    const { unread, readId } = await markRead(this.env.DB, conversationId, member.p, messageId);
    this.broadcast(
      () => true,
      (viewer) => (viewer.p === member.p ? { type: "unread", count: unread } : { type: "read", profile_id: member.p, message_id: readId }),
    );
  }

  private view(row: MessageRow, viewer: SocketMember, site: SiteSettings) {
    return messageView(row, { profileId: viewer.p, premium: viewer.pr }, site.cdn_prefix, i18nFor(viewer.l).t);
  }

  private refusal(member: SocketMember, clientId: string | null, refusal: Refusal): ServerFrame {
    return { type: "error", client_id: clientId, error: refusal.code, message: refusalText(i18nFor(member.l).t, refusal) };
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
    if (Number.isInteger(m.p) && Number.isInteger(m.u) && isLanguage(m.l) && typeof m.s === "string") return m;
  } catch {
    // fall through
  }
  return null;
}
