/**
 * The D1 journal of a conversation's object (docs/decisions/0021): messages paid from a credit hold
 * are acknowledged after the object's own write and marked there as waiting for D1; this part has
 * D1 record them (charged from the hold, the summary, the holds topped up), in order, in batches,
 * and catches up after a start or a write whose outcome is unknown by asking D1 what it has.
 *
 * Every D1 write about sends goes through `inOrder`, one after another, so D1 records ids in order.
 * A failure never throws out of here: the journal stays, the alarm tries again (JOURNAL_RETRY_MS).
 */
import { lastRecordedId, recordSends, type SendRecord } from "../db/chat-ledger";
import {
  dropJournal,
  journalCredits,
  journalEntries,
  unreadCountOf,
  type StoredMessage,
} from "../db/conversation-store";
import type { Database } from "../db/database";
import type { ConversationPair } from "./conversation-pair";
import { HOLD_IDLE_MS, type CreditHolds } from "./credit-holds";
import type { MemberFacts } from "./member-facts";

/** How long journaled messages may gather before D1 records them while a member writes fast. */
export const GATHER_MS = 25;
/** Messages D1 has recorded lose their mark this many at a time. */
const DROP_EVERY = 32;
/** How soon the journal is tried again after D1 failed to take it. */
export const JOURNAL_RETRY_MS = 2_000;

export type JournalParts = {
  sql: SqlStorage;
  db: Database;
  /**
   * D1's primary, for what D1 has recorded after a start or a lost answer: a replica, or the
   * object's session that never saw the lost answer's bookmark, may not have it yet (docs/decisions/0033).
   */
  primary?: Database;
  pair: ConversationPair;
  holds: CreditHolds;
  known: MemberFacts;
  /** An alarm of the object no later than `at`. */
  alarmBy: (at: number) => void;
  now?: () => number;
};

export class D1Journal {
  /** The object's writes to D1 about sends, one after another. */
  private writes: Promise<void> = Promise.resolve();
  private recordWanted = false;
  private lastRecordAt = 0;
  /** Whether journaled messages may be in D1 already (after a start, or a write whose outcome is unknown). */
  private mayBeInD1 = true;
  /** D1 has every journaled message up to this id. */
  private recordedUpTo = 0;
  /** Marks cleared here up to this id (dropRecorded). */
  private droppedUpTo = 0;
  private readonly now: () => number;

  constructor(private readonly parts: JournalParts) {
    this.now = parts.now ?? Date.now;
  }

  /** Run a write to D1 about sends after the ones before it. */
  inOrder<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writes.then(work);
    this.writes = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Whether messages wait for D1. */
  waiting(): boolean {
    return journalEntries(this.parts.sql, this.recordedUpTo).length > 0;
  }

  /** Credits of a member's journaled messages D1 has yet to charge from their hold. */
  creditsWaiting(profileId: number): number {
    return journalCredits(this.parts.sql, profileId, this.recordedUpTo);
  }

  /**
   * Have the journal recorded in D1 soon, once (a write already waiting takes whatever is journaled
   * by then): at once after a quiet spell or when a hold runs low, else after GATHER_MS, so a member
   * writing fast costs D1 one write for several messages.
   */
  recordSoon(): void {
    if (this.recordWanted) return;
    this.recordWanted = true;
    const run = () =>
      void this.inOrder(async () => {
        this.recordWanted = false;
        this.lastRecordAt = this.now();
        await this.record();
      });
    if (this.parts.holds.anyLow() || this.now() - this.lastRecordAt >= GATHER_MS) run();
    else setTimeout(run, GATHER_MS);
  }

  /** After a start or a failed write: the journal is settled against D1 (in order) before anything else. */
  async catchUp(): Promise<void> {
    if (this.mayBeInD1) await this.inOrder(() => this.record());
  }

  /**
   * Clear the marks of messages D1 has recorded, some at a time, in one write of the object's storage
   * with a turn's own (a separate write would delay the next ack); until then they are skipped by id.
   */
  dropRecorded(): void {
    if (this.recordedUpTo - this.droppedUpTo < DROP_EVERY) return;
    dropJournal(this.parts.sql, this.recordedUpTo);
    this.droppedUpTo = this.recordedUpTo;
  }

  /**
   * Record the journal in D1 in one batch (call it in `inOrder`): each message as it was acknowledged,
   * charged from its sender's hold, the summary with the recipient's unread count as it is now, and
   * the senders' holds topped up. After a start or an unknown outcome, what D1 already has is dropped
   * first (D1 records ids in order, groups whole). A failure leaves the journal for the alarm or the
   * next turn; it never throws.
   */
  async record(): Promise<void> {
    const { sql, db, pair, holds, known } = this.parts;
    let entries = journalEntries(sql, this.recordedUpTo);
    try {
      if (this.mayBeInD1 && entries.length) {
        const d1 = await pair.d1Record();
        const upTo = d1 ? await lastRecordedId(this.parts.primary ?? db, d1.id) : 0;
        this.recordedUpTo = Math.max(this.recordedUpTo, upTo);
        entries = entries.filter((e) => e.id > upTo);
      }
      this.mayBeInD1 = false;
      if (!entries.length) return;
      const conversationId = (await pair.d1Record())!.id;
      // The recipients' unread counts as they are now, read once each (a pair has two at most).
      const unreadNow = new Map<number, number>();
      const unreadOf = (recipient: number) =>
        unreadNow.get(recipient) ?? unreadNow.set(recipient, unreadCountOf(sql, recipient)).get(recipient)!;
      const sends = entries.map((e): SendRecord => {
        const recipient = pair.otherOf(e.sender_id);
        return {
          ...d1SideOf(e, conversationId, e.sender_user_id, recipient, unreadOf(recipient)),
          // Paid from the hold: recorded whatever the standing is now; a top-up's guard reads the conversation as it is now.
          fromHold: true,
          free: false,
          recipientHasWritten: known.hasWritten(recipient),
          freeUsedHere: 0,
          allowance: { freeMessages: 0, freeConversations: 0 },
        };
      });
      const topUps = holds.topUps(sends);
      if (topUps.length) this.parts.alarmBy(this.now() + HOLD_IDLE_MS);
      const version = holds.version;
      const result = await recordSends(db, sends, topUps);
      if (!("recorded" in result)) throw new Error(`chat journal: D1 did not record it (${Object.keys(result)[0]})`);
      this.recordedUpTo = entries.at(-1)!.id;
      for (const profileId of holds.learn(result.holds ?? [], sends, version, (p) => this.creditsWaiting(p)))
        known.forget(profileId);
      for (const [i, s] of sends.entries()) {
        if (
          sends.findLast((x) => x.senderProfileId === s.senderProfileId) === s &&
          known.balanceOf(s.senderProfileId) !== undefined
        ) {
          known.setBalance(s.senderProfileId, result.credits[i]! - this.creditsWaiting(s.senderProfileId));
        }
      }
    } catch (error) {
      this.mayBeInD1 = true;
      this.parts.alarmBy(this.now() + JOURNAL_RETRY_MS);
      console.warn(
        JSON.stringify({
          event: "chat_journal_waits",
          messages: entries.length,
          message: error instanceof Error ? error.message : String(error),
        }),
      );
    }
  }
}

/** The D1 side of a message, as far as the stored message says it (the rest is the send's to add). */
export function d1SideOf(
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
    photoId: message.photo_id,
    recipientUnread,
    now: message.created_at,
  };
}
