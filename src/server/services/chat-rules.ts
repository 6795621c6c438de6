/**
 * The rules of sending a chat message (SPEC §1, §4, §6, §9), as one pure decision over what the
 * conversation's object read about both members. The object applies it to every send; GET
 * /api/chat.php applies the same rules to tell a member beforehand what writing costs and whether
 * they may write at all.
 */
import type { ChatBlockedReason, MessageKind } from "../../shared/chat";
import { siteGifts } from "../../shared/gifts";
import type { SiteSettings } from "../../shared/settings";
import { isLiveAccountStatus } from "../db/accounts";
import type { Refusal } from "../errors";
import { measureRefusal } from "../measure-refusal";

/** What the rules need to know about the sender, the recipient and their conversation. */
export type SendFacts = {
  senderStatus: string;
  senderPaid: boolean;
  credits: number;
  /** Null when the recipient's account or profile no longer exists. */
  recipient: {
    name: string;
    status: string;
    profileStatus: string;
    invisible: boolean;
    hasWritten: boolean;
    verifiedOnly: boolean;
  } | null;
  /** The sender carries the verified badge (docs/decisions/0040). */
  senderVerified: boolean;
  /** The pair has a message already (either member's): a conversation under way continues whatever the settings. */
  conversationStarted: boolean;
  blockedByMe: boolean;
  blockedMe: boolean;
  /** Free messages the sender already sent in this conversation. */
  freeUsedHere: number;
  /** Conversations in which the sender has used free messages. */
  freeConversationsUsed: number;
  /** Until when a moderator restricted the sender's chat or suspended them (docs/decisions/0061). */
  chatRestrictedUntil?: number | null;
  suspendedUntil?: number | null;
};

export type SendRequest = { kind: "text"; body: string } | { kind: "image" } | { kind: "gift"; gift: string };

export type Price = { credits: number; free: boolean };

/** Why the sender cannot write to this member at all, whatever the message; null when they can. */
export function blockedReason(facts: SendFacts): ChatBlockedReason | null {
  const recipient = facts.recipient;
  if (!recipient || !isLiveAccountStatus(recipient.status) || recipient.profileStatus !== "active")
    return "unavailable";
  if (facts.blockedByMe) return "blocked";
  if (facts.blockedMe) return "blocked_by";
  // Invisible members cannot be messaged (SPEC §4), except in a conversation they wrote in themselves.
  if (recipient.invisible && !recipient.hasWritten) return "unavailable";
  // An unconfirmed e-mail address: the other side cannot reply until it is confirmed (SPEC §4).
  if (recipient.status === "not_confirmed") return "not_confirmed";
  // "Only verified members may write to me": a first message only (docs/decisions/0040).
  if (recipient.verifiedOnly && !facts.senderVerified && !facts.conversationStarted) return "verified_only";
  return null;
}

const REASON_TEXT: Record<ChatBlockedReason, { status: 403 | 404; key: string }> = {
  unavailable: { status: 404, key: "errors.chat_unavailable" },
  blocked: { status: 403, key: "errors.chat_blocked" },
  blocked_by: { status: 403, key: "errors.blocked_by" },
  not_confirmed: { status: 403, key: "errors.chat_not_confirmed" },
  verified_only: { status: 403, key: "verification.chat_refused" },
};

/** What a text message costs this sender here: free within a free member's allowance, else message_credits. */
export function textPrice(
  site: Pick<SiteSettings, "message_credits" | "free_conversations" | "free_messages">,
  facts: SendFacts,
): Price {
  const withinAllowance =
    !facts.senderPaid &&
    facts.freeUsedHere < site.free_messages &&
    (facts.freeUsedHere > 0 || facts.freeConversationsUsed < site.free_conversations);
  return withinAllowance ? { credits: 0, free: true } : { credits: site.message_credits, free: false };
}

/** Free text messages the sender has left in this conversation. */
export function freeMessagesLeft(
  site: Pick<SiteSettings, "message_credits" | "free_conversations" | "free_messages">,
  facts: SendFacts,
): number {
  if (!textPrice(site, facts).free) return 0;
  return site.free_messages - facts.freeUsedHere;
}

/** The price of a gift on this site, or null when the site does not sell it. */
function giftPrice(site: Pick<SiteSettings, "gift_credits" | "gifts">, slug: string): number | null {
  return siteGifts(site).find((gift) => gift.slug === slug)?.credits ?? null;
}

/**
 * Decide one send: its price, or why it is refused. Nothing is stored here; the object stores the
 * message and its charge together, and the database refuses a charge below zero on its own.
 */
export function decideSend(
  site: SiteSettings,
  facts: SendFacts,
  request: SendRequest,
  now = Math.floor(Date.now() / 1000),
): { price: Price } | { refusal: Refusal } {
  const name = facts.recipient?.name ?? "";
  if (!isLiveAccountStatus(facts.senderStatus))
    return { refusal: { status: 403, code: "authentication_required", key: "login_needed.chat" } };
  const restricted = measureRefusal(facts, now);
  if (restricted) return { refusal: restricted };
  const reason = blockedReason(facts);
  if (reason) {
    const { status, key } = REASON_TEXT[reason];
    return { refusal: { status, code: reason === "unavailable" ? "not_found" : reason, key, values: { name } } };
  }
  let price: Price;
  switch (request.kind) {
    case "text": {
      const length = [...request.body.trim()].length;
      if (length === 0) return { refusal: { status: 400, code: "message_empty", key: "errors.chat_empty" } };
      if (length > site.message_length)
        return {
          refusal: {
            status: 400,
            code: "message_too_long",
            key: "errors.chat_too_long",
            values: { count: site.message_length },
          },
        };
      price = textPrice(site, facts);
      break;
    }
    case "image":
      price = { credits: site.photo_credits, free: false };
      break;
    case "gift": {
      const credits = giftPrice(site, request.gift);
      if (credits === null)
        return { refusal: { status: 404, code: "gift_not_found", key: "errors.chat_gift_not_found" } };
      price = { credits, free: false };
      break;
    }
  }
  if (price.credits > facts.credits) return { refusal: insufficientCredits(name) };
  return { price };
}

/** SPEC §8: "You do not have enough credits to send this message to {name}". */
export function insufficientCredits(name: string): Refusal {
  return { status: 402, code: "insufficient_credits", key: "errors.not_enough_credits", values: { name } };
}

export const KIND_LEDGER_REASON: Record<MessageKind, string> = { text: "message", image: "photo", gift: "gift" };
