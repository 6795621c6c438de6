/**
 * The costs a conversation's page shows before a send (docs/decisions/0064): the same prices the
 * conversation's object charges (chat-rules.ts), with what a credit is worth to the member and when
 * the page asks before sending (src/shared/send-costs.ts).
 */
import type { ChatCosts } from "../../shared/chat";
import { pricingFor } from "../../shared/payments";
import { creditValueOf, DEFAULT_CONFIRM_CREDITS_ABOVE } from "../../shared/send-costs";
import type { CreditValue } from "../../shared/payments";
import type { SiteSettings } from "../../shared/settings";
import type { Database } from "../db/database";
import { latestPaidOrder } from "../db/orders";
import { freeMessagesLeft, type SendFacts } from "./chat-rules";

/** What a credit is worth to this member (null: a visitor): their last bundle's price per credit, or the site's cheapest bundle here. */
export async function creditValueFor(
  db: Database,
  site: Pick<SiteSettings, "pricing" | "countries">,
  userId: number | null,
  country: string | null,
): Promise<CreditValue> {
  const order = userId === null ? null : await latestPaidOrder(db, userId);
  const { pricing } = pricingFor(site.pricing, site.countries, country);
  return creditValueOf(
    order && { amount: order.amountCents, credits: order.credits, currency: order.currency },
    pricing,
  );
}

/** The conversation's costs for this member now. `paidHere`: an own message here was charged already. */
export function chatCosts(
  site: SiteSettings,
  facts: SendFacts,
  country: string,
  value: CreditValue,
  paidHere: boolean,
): ChatCosts {
  return {
    message: site.message_credits,
    photo: site.photo_credits,
    free_messages_left: freeMessagesLeft(site, facts),
    minimum_message_costs: site.minimum_message_costs[country] ?? null,
    credit_value: value,
    confirm_above: site.confirm_credits_above ?? DEFAULT_CONFIRM_CREDITS_ABOVE,
    paid_here: paidHere,
  };
}
