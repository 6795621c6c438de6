/**
 * The send rules exist twice: in TypeScript (services/chat-rules.ts, what the conversation's object
 * decides and what GET /api/chat.php shows) and as D1's guard in the batch that records a send
 * (db/chat-ledger.ts `sendAllowed`, the triggers on the balance). One table of cases runs through
 * both and fails wherever they disagree: the sender's and the recipient's standing, blocks either
 * way, invisible members and whether they wrote, free and paid members with the allowance used or
 * not here and in other conversations, balances just below, at and above the price with credits
 * held elsewhere, each kind, two sites with different prices and allowances. Rules only the
 * TypeScript side has (the message's length, a gift the site sells) are listed at the end: D1 is
 * never asked about those. The first-message rule of "only verified members may write to me" is
 * TypeScript only as well (docs/decisions/0040; test/integration/verification.test.ts).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SiteSettings } from "../../src/shared/settings";
import { recordSends, sendFactsRow, type SendRecord, type SendRecordResult } from "../../src/server/db/chat-ledger";
import { databaseOf } from "../../src/server/db/database";
import { decideSend, type SendRequest } from "../../src/server/services/chat-rules";
import { sendFacts } from "../../src/server/services/chats";
import { verificationGate } from "../../src/server/db/verification";
import { site } from "../fixtures";

const db = databaseOf(env.DB);

/** Two country sites: prices and allowances differ, so a rule read from the wrong setting shows. */
const SITES = {
  wide: site("rules-wide.test", {
    message_credits: 5,
    photo_credits: 10,
    gift_credits: 15,
    free_conversations: 2,
    free_messages: 3,
    message_length: 20,
  }),
  narrow: site("rules-narrow.test", {
    message_credits: 7,
    photo_credits: 12,
    gift_credits: 4,
    free_conversations: 1,
    free_messages: 1,
    message_length: 20,
  }),
} satisfies Record<string, SiteSettings>;

type Status = "active" | "not_confirmed" | "pending_deletion" | "disabled";
type Case = {
  site: keyof typeof SITES;
  sender?: {
    status?: Status;
    paid?: boolean;
    credits?: number;
    heldElsewhere?: number;
    freeConversationsUsed?: number;
  };
  recipient?:
    | { status?: Status; profileStatus?: "active" | "disabled"; invisible?: boolean; hasWritten?: boolean }
    | "gone";
  blocked?: "by_me" | "me";
  freeUsedHere?: number;
  /** An image of the sender's own, or of someone else. */
  request?: SendRequest | { kind: "image"; photo: "own" | "other" };
};

let serial = 0;

async function member(
  status: Status,
  paid: boolean,
  credits: number,
  invisible = false,
  profileStatus = "active",
): Promise<{ userId: number; profileId: number }> {
  serial++;
  const tag = `rules${serial}${Math.random().toString(36).slice(2, 8)}`;
  const user = await env.DB.prepare(
    "INSERT INTO users (email, username, status, credits, paid_user, site_domain, invisible) VALUES (?, ?, ?, ?, ?, 'rules-wide.test', ?) RETURNING id",
  )
    .bind(`${tag}@example.com`, tag, status, credits, paid ? 1 : 0, invisible ? 1 : 0)
    .first<{ id: number }>();
  const profile = await env.DB.prepare(
    "INSERT INTO profiles (user_id, name, country, gender, birth_date, status) VALUES (?, ?, 'NL', 'female', '1990-01-01', ?) RETURNING id",
  )
    .bind(user!.id, tag, profileStatus)
    .first<{ id: number }>();
  return { userId: user!.id, profileId: profile!.id };
}

/** A conversation row with the member rows that exist (ids of other conversations do not matter). */
async function conversation(a: number, b: number, members: { profileId: number; freeUsed: number }[]): Promise<number> {
  const [x, y] = a < b ? [a, b] : [b, a];
  const row = await env.DB.prepare(
    "INSERT INTO conversations (profile_a, profile_b, started_by) VALUES (?, ?, ?) RETURNING id",
  )
    .bind(x, y, a)
    .first<{ id: number }>();
  for (const m of members)
    await env.DB.prepare(
      "INSERT INTO conversation_members (conversation_id, profile_id, free_messages_used) VALUES (?, ?, ?)",
    )
      .bind(row!.id, m.profileId, m.freeUsed)
      .run();
  return row!.id;
}

/** What each side says of one case: the TypeScript decision, and D1's answer to recording it. */
async function bothSides(c: Case) {
  const s = SITES[c.site];
  const sender = await member(c.sender?.status ?? "active", c.sender?.paid ?? true, c.sender?.credits ?? 100);
  const r = c.recipient === "gone" ? null : (c.recipient ?? {});
  const recipient = r
    ? await member(r.status ?? "active", false, 0, r.invisible ?? false, r.profileStatus ?? "active")
    : { userId: 0, profileId: 2_000_000_000 + serial };
  const hasWritten = r?.hasWritten ?? false;
  const freeUsedHere = c.freeUsedHere ?? 0;
  if (c.blocked) {
    const [blocker, blocked] =
      c.blocked === "by_me" ? [sender.profileId, recipient.profileId] : [recipient.profileId, sender.profileId];
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?, ?)").bind(blocker, blocked).run();
  }
  for (let i = 0; i < (c.sender?.freeConversationsUsed ?? 0); i++)
    await conversation(sender.profileId, 1_000_000_000 + serial * 10 + i, [
      { profileId: sender.profileId, freeUsed: 1 },
    ]);
  const here = await conversation(sender.profileId, recipient.profileId, [
    { profileId: sender.profileId, freeUsed: freeUsedHere },
    ...(r ? [{ profileId: recipient.profileId, freeUsed: 0 }] : []),
  ]);
  if (c.sender?.heldElsewhere) {
    await env.DB.prepare(
      "INSERT INTO chat_credit_holds (user_id, conversation_id, credits, updated_at) VALUES (?, ?, ?, 0)",
    )
      .bind(sender.userId, here + 100_000, c.sender.heldElsewhere)
      .run();
  }
  let photoId: number | null = null;
  const asked = c.request ?? { kind: "text", body: "hello" };
  if ("photo" in asked) {
    const owner = asked.photo === "own" ? sender.profileId : recipient.profileId;
    const key = `c${serial}${Math.random().toString(36).slice(2, 10)}`;
    const row = await env.DB.prepare(
      "INSERT INTO chat_photos (profile_id, key, thumb_key, blur_key, width, height) VALUES (?, ?, ?, ?, 10, 10) RETURNING id",
    )
      .bind(owner, `${key}o`, `${key}t`, `${key}b`)
      .first<{ id: number }>();
    photoId = row!.id;
  }
  const request: SendRequest = "photo" in asked ? { kind: "image" } : asked;

  // The TypeScript side, as the conversation's object reads and decides (an image of someone else's is refused before the rules).
  const row = (await sendFactsRow(db, sender.userId, sender.profileId, recipient.profileId, here))!;
  const gate = await verificationGate(db, sender.profileId, recipient.profileId);
  const facts = sendFacts(
    { ...row, ...gate, credits: row.credits - row.heldElsewhere },
    { freeUsedHere, recipientHasWritten: hasWritten },
  );
  const decision =
    "photo" in asked && asked.photo === "other" ? { refusal: { code: "not_found" } } : decideSend(s, facts, request);

  // D1's side: the send recorded as the object would record it, at a price.
  let messageId = 0;
  const record = (price: { credits: number; free: boolean }): Promise<SendRecordResult> => {
    messageId++;
    const send: SendRecord = {
      conversationId: here,
      messageId,
      write: crypto.randomUUID(),
      senderProfileId: sender.profileId,
      senderUserId: sender.userId,
      recipientProfileId: recipient.profileId,
      kind: request.kind,
      preview: null,
      credits: price.credits,
      free: price.free,
      photoId,
      recipientHasWritten: hasWritten,
      freeUsedHere,
      allowance: { freeMessages: s.free_messages, freeConversations: s.free_conversations },
      recipientUnread: 1,
      now: 1,
    };
    return recordSends(db, [send]);
  };
  const listPrice =
    request.kind === "text" ? s.message_credits : request.kind === "image" ? s.photo_credits : s.gift_credits;
  return { decision, record, listPrice };
}

/** Refusals of rules D1 does not repeat (nothing of such a send reaches it). */
const TYPESCRIPT_ONLY = ["message_empty", "message_too_long", "gift_not_found"];

async function expectAgreement(c: Case): Promise<void> {
  const { decision, record, listPrice } = await bothSides(c);
  const label = JSON.stringify({ ...c, decision });
  if ("price" in decision) {
    // A paid text must not get through D1 as free: D1's allowance agrees it is not free.
    if (!decision.price.free && (c.request === undefined || c.request.kind === "text"))
      expect(await record({ credits: 0, free: true }), label).toEqual({ standingChanged: true });
    expect(await record(decision.price), label).toMatchObject({ recorded: true });
    return;
  }
  const code = decision.refusal.code;
  if (TYPESCRIPT_ONLY.includes(code)) return;
  if (code === "insufficient_credits") {
    expect(await record({ credits: listPrice, free: false }), label).toEqual({ insufficientCredits: true });
    return;
  }
  // Refused for the members' standing: D1 refuses even a send that costs nothing.
  expect(await record({ credits: 0, free: false }), label).toEqual({ standingChanged: true });
}

const STATUSES: Status[] = ["active", "not_confirmed", "pending_deletion", "disabled"];

// Many cases, each a few D1 writes: more time than a single test's default on a shared machine.
describe("the send rules in TypeScript and in D1's guard", { timeout: 60_000 }, () => {
  it("agree on the sender's standing, the recipient's and blocks either way", async () => {
    const cases: Case[] = [];
    for (const status of STATUSES) cases.push({ site: "wide", sender: { status } });
    for (const status of STATUSES)
      for (const profileStatus of ["active", "disabled"] as const)
        for (const invisible of [false, true])
          for (const hasWritten of [false, true])
            cases.push({ site: "wide", recipient: { status, profileStatus, invisible, hasWritten } });
    cases.push(
      { site: "wide", recipient: "gone" },
      { site: "wide", blocked: "by_me" },
      { site: "wide", blocked: "me" },
      { site: "narrow", blocked: "me", recipient: { hasWritten: true } },
    );
    for (const c of cases) await expectAgreement(c);
  });

  it("agree on free messages: free and paid members, the allowance used here and in other conversations, with and without credits", async () => {
    for (const name of ["wide", "narrow"] as const) {
      const s = SITES[name];
      for (const paid of [false, true])
        for (const credits of [0, 100])
          for (const freeUsedHere of new Set([0, 1, s.free_messages - 1, s.free_messages]))
            for (const freeConversationsUsed of new Set([0, s.free_conversations - 1, s.free_conversations])) {
              await expectAgreement({ site: name, sender: { paid, credits, freeConversationsUsed }, freeUsedHere });
            }
    }
  });

  it("agree on the balance just below, at and above each kind's price, with credits held by other conversations", async () => {
    for (const name of ["wide", "narrow"] as const) {
      const s = SITES[name];
      const kinds: { request: Case["request"]; price: number }[] = [
        { request: { kind: "text", body: "hello" }, price: s.message_credits },
        { request: { kind: "image", photo: "own" }, price: s.photo_credits },
        { request: { kind: "gift", gift: "rose" }, price: s.gift_credits },
      ];
      for (const { request, price } of kinds)
        for (const heldElsewhere of [0, 10])
          for (const credits of [price - 1, price, price + 1])
            await expectAgreement({ site: name, request, sender: { credits: credits + heldElsewhere, heldElsewhere } });
    }
  });

  it("agree that a photo of someone else's is never sent, and leave the message's content to the TypeScript rules", async () => {
    await expectAgreement({ site: "wide", request: { kind: "image", photo: "other" } });
    for (const request of [
      { kind: "text", body: "   " },
      { kind: "text", body: "x".repeat(21) },
      { kind: "gift", gift: "no-such-gift" },
    ] as const) {
      const { decision } = await bothSides({ site: "wide", request });
      expect("refusal" in decision && TYPESCRIPT_ONLY.includes(decision.refusal.code)).toBe(true);
    }
  });
});
