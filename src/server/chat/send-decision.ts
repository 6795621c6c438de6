/**
 * Step 1 of a send (send-pipeline.ts), decide: the send rules (services/chat-rules.ts) on the facts
 * at hand for one send of a group, less what the group's earlier sends take, and what that comes to
 * for the pipeline: refused, put off to a later turn, waiting for the credits the member's other
 * conversations hold, or accepted at a price paid from a free message, the credit hold here or the
 * balance. Pure: the pipeline reads the facts and stores what is accepted; this reads no storage and
 * writes nothing.
 */
import type { SendFrame } from "../../shared/chat-frames";
import type { SiteSettings } from "../../shared/settings";
import type { Refusal } from "../errors";
import { decideSend, type Price, type SendRequest } from "../services/chat-rules";
import { sendFacts, type MemberFactsRow } from "../services/chats";

/** What the rules need from the conversation's own messages (the object's storage). */
export type ConversationFacts = { freeUsedHere: number; recipientHasWritten: boolean };

/** A send of the same group before this one, written here unrecorded to wait for D1: what it takes. */
export type EarlierSend = { sender: number; free: boolean; credits: number };

/** The facts one send is decided on. */
export type SendAtHand = {
  site: SiteSettings;
  /** The sender's profile, and the other member's. */
  sender: number;
  peer: number;
  request: SendRequest;
  /** The sender's D1 facts (MemberFacts.read); `fresh`: read in D1 for this send. */
  read: { row: MemberFactsRow | undefined; fresh: boolean };
  /** The conversation's own facts, as recorded here. */
  recorded: ConversationFacts;
  /** The group's sends before this one that wait for D1, in arrival order. */
  before: readonly EarlierSend[];
  /** Whether the sender's hold here pays for a message of this price without asking D1 (CreditHolds.covers). */
  holdCovers: (credits: number) => boolean;
  /** Whether the member's other conversations have been asked for their holds back for this send already. */
  recalled: boolean;
};

/**
 * Where an accepted send's price comes from: a free message; the credit hold here (the fast path:
 * acknowledged at once, recorded in D1 after the ack); or the balance, through D1 with its group.
 */
export type PaidFrom = "free" | "hold" | "balance";

/** An accepted send: its price, where it is paid from, and what storing and recording it need. */
export type Accepted = {
  outcome: "accepted";
  price: Price;
  paidFrom: PaidFrom;
  /** The sender's credits as the rules counted them (less what other conversations hold and the group's earlier sends take). */
  credits: number;
  recipientName: string;
  /** The conversation's facts with the group's earlier sends counted in, which D1's guard reads again. */
  here: ConversationFacts;
};

/**
 * What deciding a send came to:
 * - refused: on facts read fresh, first of its group: the error frame, nothing stored;
 * - later: refused on facts that may be old, or with earlier sends of the group taking their part:
 *   taken again in a later turn, alone on fresh facts (a refusal is only ever given on fresh facts);
 * - recallHolds: refused for credits the member's other conversations hold: they give them back,
 *   then the send is decided again on fresh facts;
 * - accepted.
 */
export type SendDecision =
  | { outcome: "refused"; refusal: Refusal }
  | { outcome: "later" }
  | { outcome: "recallHolds" }
  | Accepted;

/**
 * Decide one send of a group on the facts at hand. Throws when the sender's facts are missing (no
 * account), as the rules do (sendFacts).
 */
export function decideInGroup(at: SendAtHand): SendDecision {
  const { read, recorded, before } = at;
  const mine = before.filter((s) => s.sender === at.sender);
  const freeBefore = mine.filter((s) => s.free).length;
  const here: ConversationFacts = {
    freeUsedHere: recorded.freeUsedHere + freeBefore,
    recipientHasWritten: recorded.recipientHasWritten || before.some((s) => s.sender === at.peer),
  };
  const row = read.row && {
    ...read.row,
    // Credits other conversations hold are not this one's to spend; this one's own hold is.
    credits: read.row.credits - read.row.heldElsewhere - mine.reduce((sum, s) => sum + s.credits, 0),
    // A free message earlier in the group started this free conversation.
    freeConversationsUsed: read.row.freeConversationsUsed + (recorded.freeUsedHere === 0 && freeBefore > 0 ? 1 : 0),
  };
  const facts = sendFacts(row, here);
  const decision = decideSend(at.site, facts, at.request);
  if ("refusal" in decision) {
    if (
      decision.refusal.code === "insufficient_credits" &&
      read.fresh &&
      !at.recalled &&
      (read.row?.heldElsewhere ?? 0) > 0
    )
      return { outcome: "recallHolds" };
    return read.fresh && before.length === 0 ? { outcome: "refused", refusal: decision.refusal } : { outcome: "later" };
  }
  const { price } = decision;
  // Never after a send of the group that waits for D1 (all of `before`): D1 records a conversation's messages in id order.
  const paidFrom: PaidFrom = price.free
    ? "free"
    : before.length === 0 && at.holdCovers(price.credits)
      ? "hold"
      : "balance";
  return {
    outcome: "accepted",
    price,
    paidFrom,
    credits: facts.credits,
    recipientName: facts.recipient?.name ?? "",
    here,
  };
}

/** What the rules see of a send frame. */
export function requestOf(frame: SendFrame): SendRequest {
  return frame.kind === "text"
    ? { kind: "text", body: frame.body }
    : frame.kind === "gift"
      ? { kind: "gift", gift: frame.gift }
      : { kind: "image" };
}
