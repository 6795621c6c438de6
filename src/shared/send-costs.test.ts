import { describe, expect, it } from "vitest";
import type { ChatCosts } from "./chat";
import { creditValueOf, moneyOfCredits, quoteSend } from "./send-costs";

const BUNDLES = [
  { amount: 995, credits: 50 },
  { amount: 1995, credits: 125 },
  { amount: 7995, credits: 750 },
];
const costs = (over: Partial<ChatCosts> = {}): ChatCosts => ({
  message: 5,
  photo: 10,
  free_messages_left: 0,
  minimum_message_costs: null,
  credit_value: { per_credit: 1995 / 125, currency: "EUR" },
  confirm_above: 5,
  paid_here: false,
  ...over,
});
const calm = { balance: 100, confirmOff: false, confirmedHere: false };

describe("what a credit is worth", () => {
  it("is the last bundle's price per credit, or the cheapest bundle's before a purchase", () => {
    expect(
      creditValueOf({ amount: 1995, credits: 125, currency: "EUR" }, { currency: "EUR", bundles: BUNDLES }),
    ).toEqual({ per_credit: 15.96, currency: "EUR" });
    expect(creditValueOf(null, { currency: "CHF", bundles: BUNDLES })).toEqual({
      per_credit: 7995 / 750,
      currency: "CHF",
    });
    expect(moneyOfCredits(5, { per_credit: 15.96, currency: "EUR" })).toEqual({ amount: 80, currency: "EUR" });
    expect(moneyOfCredits(5, null)).toBeNull();
  });
});

describe("the quote of a send", () => {
  it("is free while free messages are left, then the message's price with money and the balance after it", () => {
    expect(quoteSend(costs({ free_messages_left: 1 }), { kind: "text" }, calm)).toMatchObject({
      credits: 0,
      free: true,
      money: null,
      confirm: false,
    });
    expect(quoteSend(costs(), { kind: "text" }, calm)).toMatchObject({
      credits: 5,
      free: false,
      money: { amount: 80, currency: "EUR" },
      balance_after: 95,
      affordable: true,
    });
  });

  it("asks once for the first paid message of a conversation, unless turned off", () => {
    expect(quoteSend(costs(), { kind: "text" }, calm).confirm).toBe(true);
    expect(quoteSend(costs({ paid_here: true }), { kind: "text" }, calm).confirm).toBe(false);
    expect(quoteSend(costs(), { kind: "text" }, { ...calm, confirmedHere: true }).confirm).toBe(false);
    expect(quoteSend(costs(), { kind: "text" }, { ...calm, confirmOff: true }).confirm).toBe(false);
  });

  it("asks for every photo or gift above the threshold, and never for what the balance cannot pay", () => {
    expect(quoteSend(costs(), { kind: "gift", credits: 5 }, calm).confirm).toBe(false);
    expect(quoteSend(costs(), { kind: "gift", credits: 15 }, calm).confirm).toBe(true);
    expect(quoteSend(costs({ paid_here: true }), { kind: "image" }, calm).confirm).toBe(true);
    const short = quoteSend(costs(), { kind: "image" }, { ...calm, balance: 4 });
    expect(short).toMatchObject({ affordable: false, confirm: false });
  });
});
