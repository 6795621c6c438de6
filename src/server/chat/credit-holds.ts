/**
 * What a conversation's object knows of its members' credit holds in D1 (docs/decisions/0021): how
 * much of each hold it may still spend without asking D1, what each hold is topped up to, and what
 * to ask D1 for with the next write. Plain bookkeeping: no storage, no D1, times are parameters.
 *
 * Never more than the truth: the spendable part is set only from a D1 answer (less what the journal
 * has yet to charge), lowered by each send paid from it, and forgotten (unknown, so zero) after a
 * start, a member change or a hold asked back.
 */
import type { HoldRequest, HoldState, SendRecord } from "../db/chat-ledger";

/** A member's credit hold here covers up to this many of their messages (docs/decisions/0021). */
export const HOLD_MESSAGES = 20;
/** A hold is given back after this long without a send. */
export const HOLD_IDLE_MS = 60_000;

/** A send of a group going through D1 with what its hold request needs. */
export type PaidFromBalance = { profileId: number; messageCredits: number; record: SendRecord };

export class CreditHolds {
  /** Credits of each member's hold the object may spend: D1's hold less what the journal has yet to charge. Absent: unknown. */
  private readonly spendable = new Map<number, number>();
  /** What a member's hold is topped up to and the least worth holding, from their last paid send here. */
  private readonly sizes = new Map<number, { want: number; least: number }>();
  /** Members who paid for a message here since the object started: their next paid send takes a hold. */
  private readonly paying = new Set<number>();
  /** Members whose hold another conversation asked back: not used or topped up until they pay here from the balance. */
  private readonly askedBack = new Set<number>();
  private lastSendAt = 0;
  /** Counts member changes: a D1 answer about holds asked for before the latest change is not believed. */
  private changes = 0;

  /** The count of member changes so far; `learn` is given the count from when D1 was asked. */
  get version(): number {
    return this.changes;
  }

  /** Whether the member's hold here pays for a message of this price without asking D1. */
  covers(profileId: number, price: number): boolean {
    return price > 0 && (this.spendable.get(profileId) ?? 0) >= price && !this.askedBack.has(profileId);
  }

  /** A message paid from the hold was stored. */
  spend(profileId: number, price: number, now: number): void {
    this.spendable.set(profileId, (this.spendable.get(profileId) ?? 0) - price);
    this.lastSendAt = now;
  }

  /**
   * The holds a group paid from the balance asks for: each paying sender's hold here given back and,
   * from their second paid message here on (a conversation in use, not a first message among many),
   * topped up to HOLD_MESSAGES of their messages. The caller sets the alarm (HOLD_IDLE_MS) before D1
   * is asked, so a hold never outlives the object's knowing of it.
   */
  forGroup(sends: readonly PaidFromBalance[], now: number): HoldRequest[] {
    const bySender = new Map<number, { last: PaidFromBalance; paidBefore: boolean }>();
    for (const s of sends) {
      if (s.record.credits === 0) continue;
      bySender.set(s.profileId, { last: s, paidBefore: bySender.has(s.profileId) || this.paying.has(s.profileId) });
    }
    const requests: HoldRequest[] = [];
    for (const [profileId, { last, paidBefore }] of bySender) {
      this.paying.add(profileId);
      this.askedBack.delete(profileId);
      this.spendable.set(profileId, 0);
      const least = Math.max(1, last.messageCredits, last.record.credits);
      this.sizes.set(profileId, { want: HOLD_MESSAGES * least, least });
      requests.push({
        conversationId: last.record.conversationId,
        userId: last.record.senderUserId,
        standing: last.record,
        release: true,
        want: paidBefore ? HOLD_MESSAGES * least : 0,
        least,
        now: last.record.now,
      });
    }
    if (requests.length) this.lastSendAt = now;
    return requests;
  }

  /** The top-ups a write of the journal carries: a hold once half of it is spent, so most writes carry none. */
  topUps(sends: readonly SendRecord[]): HoldRequest[] {
    const holds: HoldRequest[] = [];
    for (const s of sends) {
      const size = this.sizes.get(s.senderProfileId);
      const hold = this.spendable.get(s.senderProfileId);
      if (
        !size ||
        hold === undefined ||
        hold >= size.want / 2 ||
        this.askedBack.has(s.senderProfileId) ||
        holds.some((h) => h.userId === s.senderUserId)
      )
        continue;
      holds.push({
        conversationId: s.conversationId,
        userId: s.senderUserId,
        standing: s,
        release: false,
        want: size.want - hold,
        least: size.least,
        now: s.now,
      });
    }
    return holds;
  }

  /** Whether some member's hold is half spent (the journal then goes to D1 at once). */
  anyLow(): boolean {
    return [...this.sizes].some(([profileId, size]) => (this.spendable.get(profileId) ?? 0) < size.want / 2);
  }

  /**
   * What D1 says the holds are after a write asked for at `version`: less what the journal has yet to
   * charge (`waiting`), the object's to spend. Returns the members whose standing no longer allows a
   * send (their facts are to be read again, and the next send refused).
   */
  learn(
    states: readonly HoldState[],
    records: readonly SendRecord[],
    version: number,
    waiting: (profileId: number) => number,
  ): number[] {
    // A member changed while D1 answered: what it says may predate the change; the next send asks again.
    if (version !== this.changes) return [];
    const refused: number[] = [];
    for (const state of states) {
      const profileId = records.find((r) => r.senderUserId === state.userId)!.senderProfileId;
      const spendable = state.allowed && !this.askedBack.has(profileId) ? state.hold - waiting(profileId) : 0;
      this.spendable.set(profileId, Math.max(0, spendable));
      if (!state.allowed) refused.push(profileId);
    }
    return refused;
  }

  /** Another conversation of the member needs the credits: this hold is not used or topped up from now on. */
  askBack(profileId: number): void {
    this.askedBack.add(profileId);
    this.spendable.set(profileId, 0);
  }

  /** A member changed in D1: no hold is spent until D1 has looked at the standing again. */
  memberChanged(): void {
    this.spendable.clear();
    this.changes++;
  }

  /** The holds were given back in D1 (the conversation was idle). */
  givenBack(): void {
    this.spendable.clear();
  }

  /** When the holds go back if nothing is sent before then; null when the conversation is idle enough at `now`. */
  idleAt(now: number): number | null {
    if (this.lastSendAt && now - this.lastSendAt < HOLD_IDLE_MS) return this.lastSendAt + HOLD_IDLE_MS;
    return null;
  }
}
