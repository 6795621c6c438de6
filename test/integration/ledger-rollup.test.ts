/**
 * Chat charges rolled up in D1 (docs/decisions/0033): one ledger row per member, conversation and
 * UTC day, with the count, the sum and the highest message it charged. What a member relies on: their
 * balance always equals the sum of their ledger, whatever sends race in several conversations over
 * several days; a batch replayed after its answer was lost charges nothing twice; rows written
 * before the roll-up still add up; and the data export lists every single charge.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { chargeStatements, chatDayRef, recordSends, type SendRecord } from "../../src/server/db/chat-ledger";
import { ensureConversation } from "../../src/server/db/conversations";
import { databaseOf } from "../../src/server/db/database";
import { ChatSocket, chatMember, clientId, creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { json } from "../http";

const ORIGIN = "http://ledger-rollup.test";
const MESSAGE = 5;
const GIFT = 20;
const DAY = 86_400;
/** Two minutes before a UTC midnight, so each conversation's sends straddle days. */
const EVENING = Date.UTC(2026, 10, 20, 23, 58) / 1000;

beforeAll(async () => {
  await putSites(
    site("ledger-rollup.test", {
      message_credits: MESSAGE,
      free_conversations: 0,
      free_messages: 0,
      message_length: 200,
    }),
  );
});

const db = () => databaseOf(env.DB);

/** A premium member whose balance is a ledger row, as a purchase leaves it (chatMember sets the balance alone). */
async function member(credits: number): Promise<Member> {
  const m = await chatMember(ORIGIN, { paid: true, credits });
  await env.DB.batch([
    env.DB.prepare("DELETE FROM credit_ledger WHERE user_id = ?").bind(m.userId),
    env.DB.prepare(
      "INSERT INTO credit_ledger (user_id, delta, reason, ref, created_at) VALUES (?, ?, 'purchase', ?, ?)",
    ).bind(m.userId, credits, `order:test${m.userId}`, EVENING - DAY),
  ]);
  return m;
}

async function ledgerSum(m: Member): Promise<number> {
  return (await env.DB.prepare("SELECT COALESCE(SUM(delta), 0) AS total FROM credit_ledger WHERE user_id = ?")
    .bind(m.userId)
    .first<{ total: number }>())!.total;
}

type ChatRow = { ref: string; delta: number; messages: number; through_message_id: number; created_at: number };
async function chatRows(m: Member): Promise<ChatRow[]> {
  return (
    await env.DB.prepare(
      "SELECT ref, delta, messages, through_message_id, created_at FROM credit_ledger WHERE user_id = ? AND reason = 'chat' ORDER BY ref",
    )
      .bind(m.userId)
      .all<ChatRow>()
  ).results;
}

/** The D1 side of a paid message as the conversation's object writes it. */
function paid(
  conversationId: number,
  sender: Member,
  recipient: Member,
  messageId: number,
  now: number,
  credits = MESSAGE,
): SendRecord {
  return {
    conversationId,
    messageId,
    write: crypto.randomUUID(),
    senderProfileId: sender.id,
    senderUserId: sender.userId,
    recipientProfileId: recipient.id,
    kind: credits === GIFT ? "gift" : "text",
    preview: credits === GIFT ? null : `message ${messageId}`,
    credits,
    free: false,
    photoId: null,
    recipientHasWritten: true,
    freeUsedHere: 0,
    allowance: { freeMessages: 0, freeConversations: 0 },
    recipientUnread: 1,
    now,
  };
}

/** Runs statements of the chat ledger as one D1 batch, the way the module's own batch does. */
async function runStatements(statements: ReturnType<typeof chargeStatements>) {
  const dialect = new SQLiteAsyncDialect();
  await env.DB.batch(statements.map((s) => dialect.sqlToQuery(s)).map((q) => env.DB.prepare(q.sql).bind(...q.params)));
}

describe("chat charges rolled up in D1", () => {
  it("keep the balance equal to the sum of the ledger after concurrent paid sends across several conversations and days, one row per member, conversation and day", async () => {
    const anna = await member(10_000);
    const peers = [await member(10_000), await member(10_000), await member(10_000)];
    // A charge written before the roll-up, one row per message, stays valid beside the new rows.
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO credit_ledger (user_id, delta, reason, ref, created_at) VALUES (?, ?, 'message', 'chat:999999:1', ?)",
      ).bind(anna.userId, -MESSAGE, EVENING - DAY),
      env.DB.prepare("UPDATE users SET credits = credits - ? WHERE id = ?").bind(MESSAGE, anna.userId),
    ]);
    const conversations = await Promise.all(peers.map((peer) => ensureConversation(db(), anna.id, peer.id)));

    // Each conversation is its own object: its groups go to D1 one after another, in id order, while
    // the other conversations' groups race with them. Anna and each peer write both ways; each group
    // is followed by a replay of itself (its answer lost), racing the next group.
    type Sent = { conversation: number; sender: Member; id: number; now: number; credits: number };
    const sent: Sent[] = [];
    const replays: Promise<unknown>[] = [];
    const GROUPS = 8;
    await Promise.all(
      conversations.map(async (conversation, c) => {
        const peer = peers[c]!;
        let id = 0;
        for (let g = 0; g < GROUPS; g++) {
          // Every second group falls an hour later: eight groups run over three UTC days.
          const now = EVENING + Math.floor(g / 2) * 15 * 3600 + c;
          const group: SendRecord[] = [];
          for (let k = 0; k < 1 + ((g + c) % 4); k++) {
            const fromAnna = (k + g) % 3 !== 2;
            const credits = k === 1 ? GIFT : MESSAGE;
            group.push(
              fromAnna
                ? paid(conversation, anna, peer, ++id, now, credits)
                : paid(conversation, peer, anna, ++id, now, credits),
            );
          }
          const result = await recordSends(db(), group);
          expect(result).toMatchObject({ recorded: true });
          for (const s of group)
            sent.push({
              conversation,
              sender: s.senderUserId === anna.userId ? anna : peer,
              id: s.messageId,
              now: s.now,
              credits: s.credits,
            });
          replays.push(recordSends(db(), group));
        }
      }),
    );
    for (const replay of await Promise.all(replays)) expect(replay).toEqual({ alreadyRecorded: true });

    for (const m of [anna, ...peers]) {
      expect(await creditsOf(m)).toBe(await ledgerSum(m));
      const mine = sent.filter((s) => s.sender === m);
      expect(await creditsOf(m)).toBe(
        10_000 - mine.reduce((sum, s) => sum + s.credits, 0) - (m === anna ? MESSAGE : 0),
      );
      // One row per conversation and day with the count, the sum and the last message charged.
      const expected = new Map<string, ChatRow>();
      for (const s of mine) {
        const ref = chatDayRef(s.conversation, m.id, s.now);
        const row = expected.get(ref) ?? { ref, delta: 0, messages: 0, through_message_id: 0, created_at: s.now };
        expected.set(ref, {
          ...row,
          delta: row.delta - s.credits,
          messages: row.messages + 1,
          through_message_id: Math.max(row.through_message_id, s.id),
        });
      }
      expect(await chatRows(m)).toEqual([...expected.values()].toSorted((x, y) => x.ref.localeCompare(y.ref)));
    }
    // Anna's sends fall on three days in each of three conversations.
    expect(new Set((await chatRows(anna)).map((r) => r.ref.split(":").at(-1))).size).toBe(3);
    expect(await chatRows(anna)).toHaveLength(9);
  });

  it("charge a replayed batch once: the conversation refuses the replay, and the row's watermark alone makes each charge do nothing", async () => {
    const anna = await member(1_000);
    const bram = await member(1_000);
    const conversation = await ensureConversation(db(), anna.id, bram.id);
    const group = [paid(conversation, anna, bram, 1, EVENING), paid(conversation, anna, bram, 2, EVENING, GIFT)];
    expect(await recordSends(db(), group)).toEqual({
      recorded: true,
      credits: [1_000 - MESSAGE, 1_000 - MESSAGE - GIFT],
    });
    const after = { credits: await creditsOf(anna), rows: await chatRows(anna) };
    expect(after.rows).toEqual([
      {
        ref: chatDayRef(conversation, anna.id, EVENING),
        delta: -MESSAGE - GIFT,
        messages: 2,
        through_message_id: 2,
        created_at: EVENING,
      },
    ]);

    // The same batch again, as the object sends it when the first answer was lost: nothing changes.
    expect(await recordSends(db(), group)).toEqual({ alreadyRecorded: true });
    expect(await creditsOf(anna)).toBe(after.credits);
    expect(await chatRows(anna)).toEqual(after.rows);

    // The charges alone again (as if nothing else of the batch stood in the way): each does nothing.
    for (const s of group) await runStatements(chargeStatements(s, sql`1`));
    expect(await creditsOf(anna)).toBe(after.credits);
    expect(await chatRows(anna)).toEqual(after.rows);
    expect(await ledgerSum(anna)).toBe(after.credits);

    // The next message is charged into the same row.
    expect(await recordSends(db(), [paid(conversation, anna, bram, 3, EVENING + 60)])).toMatchObject({
      recorded: true,
    });
    expect(await chatRows(anna)).toEqual([
      expect.objectContaining({ delta: -2 * MESSAGE - GIFT, messages: 3, through_message_id: 3 }),
    ]);
    expect(await creditsOf(anna)).toBe(await ledgerSum(anna));
  });

  it("keep the balance equal to the ledger after concurrent sends through the conversations' objects, and the export lists each charge", async () => {
    const anna = await member(1_000);
    const peers = [await member(0), await member(0), await member(0)];
    const sockets = await Promise.all(peers.map((peer) => ChatSocket.open(anna, peer.id)));
    // Twelve sends in each conversation at once, the three conversations racing for one balance.
    const sends = sockets.flatMap((socket, c) =>
      Array.from({ length: 12 }, (_, i) => {
        const id = clientId();
        socket.sendText(id, `to ${c}: ${i}`);
        return { socket, id };
      }),
    );
    const replies = await Promise.all(sends.map(({ socket, id }) => socket.reply(id)));
    expect(replies.every((r) => r.type === "ack")).toBe(true);
    await expect.poll(() => creditsOf(anna)).toBe(1_000 - 36 * MESSAGE);
    await expect.poll(async () => (await chatRows(anna)).reduce((sum, r) => sum + r.messages, 0)).toBe(36);
    expect(await ledgerSum(anna)).toBe(await creditsOf(anna));
    const rows = await chatRows(anna);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatchObject({ delta: -12 * MESSAGE, messages: 12 });

    const archive = await json<{
      credits: { delta: number; reason: string; messages: number | null }[];
      chat_charges: {
        conversation_id: number;
        message_id: number;
        reason: string;
        credits: number;
        created_at: number;
      }[];
    }>(await anna.browser.fetch("/api/my-data.php"));
    // Every charge, each with its message; the ledger as D1 keeps it, adding up to the balance.
    const acked = replies.flatMap((r) => (r.type === "ack" ? [r.message] : []));
    expect(archive.chat_charges).toHaveLength(36);
    expect(archive.chat_charges.map((c) => `${c.conversation_id}:${c.message_id}`).toSorted()).toEqual(
      acked.map((m) => `${m.conversation_id}:${m.id}`).toSorted(),
    );
    for (const charge of archive.chat_charges) expect(charge).toMatchObject({ reason: "message", credits: MESSAGE });
    expect(archive.credits.reduce((sum, r) => sum + r.delta, 0)).toBe(await creditsOf(anna));
    expect(archive.credits.filter((r) => r.reason === "chat").map((r) => r.messages)).toEqual([12, 12, 12]);
    for (const s of sockets) s.close();
  });
});
