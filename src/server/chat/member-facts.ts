/**
 * What a conversation's object knows of its two members between sends: the D1 facts the send rules
 * last read about each (kept FACTS_TTL_MS, kept right by the sends the object records), and whether
 * each has a recorded message here (read once from the object's storage, then kept right by every
 * write that records a message: the object is the only writer, so a send to a member who never wrote
 * reads nothing). Plain memory: a start forgets it all.
 */
import { sendFactsRow } from "../db/chat-ledger";
import { verificationGate } from "../db/verification";
import type { MemberFactsRow } from "../services/chats";
import { conversationFacts } from "../db/conversation-store";
import type { Database } from "../db/database";
import type { ConversationPair } from "./conversation-pair";

/**
 * How long the facts read in D1 for one send may decide the next ones. The write re-checks the
 * standing and the database the balance, so stale facts can only cause a second read, never a wrong write.
 */
export const FACTS_TTL_MS = 30_000;

export class MemberFacts {
  private readonly facts = new Map<number, { row: MemberFactsRow; at: number }>();
  private readonly wrote = new Map<number, boolean>();

  constructor(
    private readonly db: Database,
    private readonly sql: SqlStorage,
    private readonly pair: ConversationPair,
    private readonly now: () => number = Date.now,
  ) {}

  /** The D1 facts of a member: from the last read unless `fresh` or older than FACTS_TTL_MS. */
  async read(
    member: { profileId: number; userId: number },
    peer: number,
    fresh: boolean,
  ): Promise<{ row: MemberFactsRow | undefined; fresh: boolean }> {
    const hit = this.facts.get(member.profileId);
    if (!fresh && hit && this.now() - hit.at < FACTS_TTL_MS) return { row: hit.row, fresh: false };
    const [ledger, gate] = await Promise.all([
      sendFactsRow(this.db, member.userId, member.profileId, peer, this.pair.knownId),
      verificationGate(this.db, member.profileId, peer),
    ]);
    const row = ledger && { ...ledger, ...gate };
    if (row) this.facts.set(member.profileId, { row, at: this.now() });
    return { row, fresh: true };
  }

  /** The member's balance as last known (undefined when nothing is kept). */
  balanceOf(profileId: number): number | undefined {
    return this.facts.get(profileId)?.row.credits;
  }

  /** The member's balance changed by a send the object stored or D1 recorded. */
  setBalance(profileId: number, credits: number): void {
    const mine = this.facts.get(profileId)?.row;
    if (mine) mine.credits = credits;
  }

  /** Keep the facts in step with a recorded message: the balance; a free message may start a free conversation, so those are read again. */
  recorded(profileId: number, free: boolean, credits: number): void {
    if (free) this.facts.delete(profileId);
    this.setBalance(profileId, credits);
  }

  /** The member's facts are read again before their next send. */
  forget(profileId: number): void {
    this.facts.delete(profileId);
  }

  forgetAll(): void {
    this.facts.clear();
  }

  /** Whether a member of the pair has a recorded message here. */
  hasWritten(profileId: number): boolean {
    let known = this.wrote.get(profileId);
    if (known === undefined) {
      known = conversationFacts(this.sql, this.pair.otherOf(profileId), profileId, false).recipientHasWritten;
      this.wrote.set(profileId, known);
    }
    return known;
  }

  /** What a write or a read of the object's storage says of whether the member wrote here. */
  setWritten(profileId: number, written: boolean): void {
    this.wrote.set(profileId, written);
  }

  /** An erasure: who wrote here is read again. */
  forgetWriters(): void {
    this.wrote.clear();
  }
}
