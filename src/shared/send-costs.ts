/**
 * What a chat send costs and what the member sees before it (docs/decisions/0064): the price in
 * credits and in the site's currency, the balance after it, and whether the page asks once before
 * sending. The server fills the conversation's costs (GET /api/chat.php) from the same rules the
 * conversation's object charges by (services/chat-rules.ts); the page only reads them here.
 */
import type { ChatCosts, MessageKind } from "./chat";
import { formatMoney, type CreditValue } from "./payments";
import type { Translate } from "./translator";

/** A photo or gift above this many credits asks before it is sent, unless the site sets its own threshold. */
export const DEFAULT_CONFIRM_CREDITS_ABOVE = 5;

/**
 * The worth of a credit: what the member's last bundle cost per credit (discount included: what they
 * really paid), or the site's cheapest bundle per credit in their country when they bought none.
 */
export function creditValueOf(
  lastOrder: { amount: number; credits: number; currency: string } | null,
  pricing: { currency: string; bundles: readonly { amount: number; credits: number }[] },
): CreditValue {
  if (lastOrder && lastOrder.credits > 0)
    return { per_credit: lastOrder.amount / lastOrder.credits, currency: lastOrder.currency };
  const cheapest = Math.min(...pricing.bundles.map((bundle) => bundle.amount / bundle.credits));
  return { per_credit: cheapest, currency: pricing.currency };
}

/** Money in minor units of a currency. */
export type Money = { amount: number; currency: string };

/** Credits in money, whole minor units (rounded to the nearest); null when the site gives no worth of a credit. */
export function moneyOfCredits(credits: number, value: CreditValue | null): Money | null {
  return value && { amount: Math.round(credits * value.per_credit), currency: value.currency };
}

/** One send as the page shows it before it goes: null `money` when it is free or the site gives no worth of a credit. */
export type SendQuote = {
  kind: MessageKind;
  credits: number;
  free: boolean;
  money: Money | null;
  balance_after: number;
  affordable: boolean;
  /** The page asks once before this send (the member may have turned asking off). */
  confirm: boolean;
};

/** The costs a gift is quoted on outside a conversation (the profile's gift button): only the gift's own price counts. */
export function giftCosts(value: CreditValue | null, confirmAbove: number): ChatCosts {
  return {
    message: 0,
    photo: 0,
    free_messages_left: 0,
    minimum_message_costs: null,
    credit_value: value,
    confirm_above: confirmAbove,
    paid_here: true,
  };
}

/** What the page knows besides the costs: the balance, and what the member chose about asking. */
export type QuoteContext = {
  balance: number;
  /** The member turned the confirmation off. */
  confirmOff: boolean;
  /** The member already confirmed a paid message in this conversation (on this page). */
  confirmedHere: boolean;
};

/**
 * The quote of one send: a text message is free while free messages are left, then message credits;
 * a photo costs photo credits, a gift its own price. The first paid message of a conversation asks,
 * and so does every photo or gift above the site's threshold.
 */
export function quoteSend(
  costs: ChatCosts,
  send: { kind: MessageKind; credits?: number },
  context: QuoteContext,
): SendQuote {
  const free = send.kind === "text" && costs.free_messages_left > 0;
  const credits = free
    ? 0
    : send.kind === "text"
      ? costs.message
      : send.kind === "image"
        ? costs.photo
        : (send.credits ?? 0);
  const asks =
    send.kind === "text" ? credits > 0 && !costs.paid_here && !context.confirmedHere : credits > costs.confirm_above;
  return {
    kind: send.kind,
    credits,
    free,
    money: credits > 0 ? moneyOfCredits(credits, costs.credit_value) : null,
    balance_after: context.balance - credits,
    affordable: credits <= context.balance,
    confirm: asks && !context.confirmOff && credits <= context.balance,
  };
}

/**
 * Credits with their money beside them, in the locale's format: "5 credits ≈ €0.80" (`about`, a
 * price in credits), or "125 credits (€19.95)" (`exact`, what a bundle costs).
 */
export function creditsWithMoney(
  t: Translate,
  credits: number,
  money: Money | null,
  locale: string,
  form: "about" | "exact" = "about",
): string {
  if (!money) return t("spend.credits", { count: credits });
  const written = formatMoney(money.amount, money.currency, locale);
  return form === "exact"
    ? t("spend.exact", { count: credits, money: written })
    : t("spend.about", { count: credits, money: written });
}

/** A quote's price as the page writes it: "Free", or credits with their money. */
export function quotePrice(t: Translate, quote: SendQuote, locale: string): string {
  if (quote.credits === 0) return t("spend.free");
  return creditsWithMoney(t, quote.credits, quote.money, locale);
}

/** What the send footer says of the next text message: the free ones left, or its price and the balance after it. */
export function nextMessageLine(t: Translate, quote: SendQuote, freeLeft: number, locale: string): string {
  if (quote.free) return t("chat.free_left", { count: freeLeft });
  if (quote.credits === 0) return "";
  return t("spend.next_message", { price: quotePrice(t, quote, locale), count: Math.max(0, quote.balance_after) });
}
