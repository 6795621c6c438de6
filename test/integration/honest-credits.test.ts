/**
 * The price before every charge, in money too (docs/decisions/0064): what a credit is worth to the
 * member is their last bundle's price per credit, or the site's cheapest bundle when they bought
 * none, and it is the same in the chat, the gift list and the data export.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChatResponse, GiftsResponse } from "../../src/shared/chat";
import { ChatSocket, chatMember, clientId, creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { Browser, json } from "../http";

const DOMAIN = "honest-credits.test";
const ORIGIN = `http://${DOMAIN}`;
const SITE = site(DOMAIN, { free_conversations: 1, free_messages: 2, confirm_credits_above: 12 });
const BUNDLES = SITE.pricing.NL!.bundles;

beforeAll(async () => {
  await putSites(SITE);
});

const chatOf = async (member: Member, peer: Member) =>
  json<ChatResponse>(await member.browser.fetch(`/api/chat.php?profile=${peer.id}`));

async function send(member: Member, peer: Member, body: string) {
  const socket = await ChatSocket.open(member, peer.id);
  const id = clientId();
  socket.sendText(id, body);
  const reply = await socket.reply(id);
  socket.close();
  return reply;
}

async function buy(member: Member, bundle: (typeof BUNDLES)[number], at: number) {
  await env.DB.prepare(
    "INSERT INTO orders (user_id, site_domain, bundle_id, credits, amount_cents, currency, payment_method, country, status, credited_at) VALUES (?, ?, ?, ?, ?, 'EUR', 'ideal', 'NL', 'paid', ?)",
  )
    .bind(member.userId, DOMAIN, bundle.id, bundle.credits, bundle.amount, at)
    .run();
}

describe("money beside credits", () => {
  it("is the cheapest bundle's price per credit before a purchase, then the last bundle's, in the chat, the gifts and the export", async () => {
    const anna = await chatMember(ORIGIN, { credits: 100, name: "Anna" });
    const ben = await chatMember(ORIGIN, { credits: 100, name: "Ben" });
    const cheapest = Math.min(...BUNDLES.map((b) => b.amount / b.credits));

    const before = await chatOf(anna, ben);
    expect(before.costs.credit_value).toEqual({ per_credit: cheapest, currency: "EUR" });
    expect(before.costs).toMatchObject({ message: 5, photo: 10, free_messages_left: 2, confirm_above: 12 });
    expect(before.costs.paid_here).toBe(false);
    const gifts = await json<GiftsResponse>(await anna.browser.fetch("/api/gifts.php"));
    expect(gifts.credit_value).toEqual(before.costs.credit_value);
    expect(gifts.confirm_above).toBe(12);

    // She buys the popular bundle, then the smallest: the last one's price per credit counts.
    const now = Math.floor(Date.now() / 1000);
    const popular = BUNDLES.find((b) => b.popular)!;
    const smallest = BUNDLES[0]!;
    await buy(anna, popular, now - 60);
    await buy(anna, smallest, now);
    const after = await chatOf(anna, ben);
    expect(after.costs.credit_value).toEqual({ per_credit: smallest.amount / smallest.credits, currency: "EUR" });
    expect((await json<GiftsResponse>(await anna.browser.fetch("/api/gifts.php"))).credit_value).toEqual(
      after.costs.credit_value,
    );

    // Two free messages, then the price stays what the page showed: the message's credits.
    for (const body of ["one", "two"]) expect((await send(anna, ben, body)).type).toBe("ack");
    const spent = await chatOf(anna, ben);
    expect(spent.costs.free_messages_left).toBe(0);
    expect(spent.costs.message).toBe(SITE.message_credits);
    expect(spent.costs.paid_here).toBe(false);
    const paid = await send(anna, ben, "three");
    expect(paid.type === "ack" && paid.message.credits).toBe(SITE.message_credits);
    expect(await creditsOf(anna)).toBe(100 - SITE.message_credits);
    expect((await chatOf(anna, ben)).costs.paid_here).toBe(true);

    // The export has the same worth of a credit, and each charge's money beside its credits.
    const archive = await json<{
      credit_value: { per_credit: number; currency: string };
      chat_charges: { credits: number; money: { amount: number; currency: string } }[];
    }>(await anna.browser.fetch("/api/my-data.php"));
    expect(archive.credit_value).toEqual(after.costs.credit_value);
    expect(archive.chat_charges).toHaveLength(1);
    expect(archive.chat_charges[0]!.money).toEqual({
      amount: Math.round((SITE.message_credits * smallest.amount) / smallest.credits),
      currency: "EUR",
    });
  });

  it("tells a visitor the cheapest bundle's worth beside the gifts' prices", async () => {
    const cheapest = Math.min(...BUNDLES.map((b) => b.amount / b.credits));
    const answer = await json<GiftsResponse>(await new Browser(ORIGIN).fetch("/api/gifts.php"));
    expect(answer.credit_value).toEqual({ per_credit: cheapest, currency: "EUR" });
    expect(answer.gifts.length).toBeGreaterThan(0);
  });
});
