/**
 * The chat send path of docs/decisions/0021: a paid message the member's credit hold in the
 * conversation covers is acknowledged once the conversation's object has stored it, and D1 records
 * its charge, ledger row and summary right after, from the object's journal. What a member relies
 * on: the balance they see never shows a hold as spending, nothing acknowledged is lost or charged
 * twice when D1 fails or the object is evicted between the ack and D1's write, holds go back to the
 * balance when the conversation is idle, and conversations racing for the last credits stay exact.
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChatResponse } from "../../src/shared/chat";
import type { User } from "../../src/shared/api";
import type { ConversationRoom } from "../../src/server/chat/conversation-room";
import { ChatSocket, chatMember, clientId, creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { json } from "../http";
import { roomName } from "../../src/server/notices/object-names";

const ORIGIN = "http://chat-holds.test";
const MESSAGE = 5;
/** What a hold is topped up to: 20 messages (HOLD_MESSAGES), never more than half of the credits nobody holds. */
const FULL_HOLD = 20 * MESSAGE;

beforeAll(async () => {
  await putSites(
    site("chat-holds.test", { message_credits: MESSAGE, free_conversations: 1, free_messages: 3, message_length: 200 }),
  );
});

const premium = (credits = 1000, name?: string) =>
  chatMember(ORIGIN, { paid: true, credits, ...(name ? { name } : {}) });
const room = (a: Member, b: Member) =>
  env.CONVERSATIONS.getByName(roomName(a.id, b.id)) as DurableObjectStub<ConversationRoom>;

async function conversationId(a: Member, b: Member): Promise<number> {
  const [x, y] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
  return (await env.DB.prepare("SELECT id FROM conversations WHERE profile_a = ? AND profile_b = ?")
    .bind(x, y)
    .first<{ id: number }>())!.id;
}

async function holdOf(member: Member, conversation?: number): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT COALESCE(SUM(credits), 0) AS held FROM chat_credit_holds WHERE user_id = ? AND (? IS NULL OR conversation_id = ?)",
  )
    .bind(member.userId, conversation ?? null, conversation ?? null)
    .first<{ held: number }>();
  return row!.held;
}

async function ledgerOf(member: Member) {
  return (
    await env.DB.prepare(
      "SELECT delta, reason, ref, messages, through_message_id FROM credit_ledger WHERE user_id = ? ORDER BY id",
    )
      .bind(member.userId)
      .all<{ delta: number; reason: string; ref: string; messages: number | null; through_message_id: number | null }>()
  ).results;
}

/** The member's rolled-up chat rows (docs/decisions/0033): one per conversation and day. */
async function chatRows(member: Member) {
  return (await ledgerOf(member)).filter((r) => r.reason === "chat");
}

/** The ref of a member's rolled-up row of a conversation on some UTC day. */
const dayRef = (conversation: number, member: Member) =>
  expect.stringMatching(new RegExp(`^chat:${conversation}:${member.id}:\\d{4}-\\d{2}-\\d{2}$`));

/** What the ledger says chat cost the member (their balance was set by the test, without a ledger row). */
async function chatSpent(member: Member): Promise<number> {
  return -(await env.DB.prepare(
    "SELECT COALESCE(SUM(delta), 0) AS total FROM credit_ledger WHERE user_id = ? AND reason = 'chat'",
  )
    .bind(member.userId)
    .first<{ total: number }>())!.total;
}

async function unreadOf(member: Member, conversation: number): Promise<number> {
  return (await env.DB.prepare(
    "SELECT unread_count FROM conversation_members WHERE conversation_id = ? AND profile_id = ?",
  )
    .bind(conversation, member.id)
    .first<{ unread_count: number }>())!.unread_count;
}

async function storedCount(a: Member, b: Member): Promise<number> {
  return runInDurableObject(
    room(a, b),
    (_room, state) =>
      state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages WHERE recorded = 1").one().n,
  );
}

async function shownBalance(member: Member): Promise<number> {
  const { user } = await json<{ user: User }>(await member.browser.fetch("/api/user.php"));
  return user.credits;
}

async function sendText(socket: ChatSocket, body: string) {
  const id = clientId();
  socket.sendText(id, body);
  return socket.reply(id);
}

/** A member's first two paid messages to a peer: the second goes through D1 and takes the hold for the next ones. */
async function startPaying(socket: ChatSocket, credits: number) {
  expect(await sendText(socket, "one")).toMatchObject({ type: "ack", credits: credits - MESSAGE });
  expect(await sendText(socket, "two")).toMatchObject({ type: "ack", credits: credits - 2 * MESSAGE });
}

/**
 * A member has paid twice in a conversation (so it holds credits for her); then D1 refuses the
 * conversation's writes while she sends "three", acknowledged from the hold, and the object is
 * evicted before D1 has it.
 */
async function evictedBeforeD1Records() {
  const anna = await premium(1000);
  const bram = await premium();
  const stub = room(anna, bram);
  const socket = await ChatSocket.open(anna, bram.id);
  await startPaying(socket, 1000);
  const conversation = await conversationId(anna, bram);
  const trigger = `test_d1_down_${conversation}`;
  await env.DB.exec(
    `CREATE TRIGGER ${trigger} BEFORE UPDATE OF last_message_id ON conversations WHEN NEW.id = ${conversation} BEGIN SELECT RAISE(ABORT, 'd1 unavailable'); END`,
  );
  const threeId = clientId();
  try {
    socket.sendText(threeId, "three");
    expect(await socket.reply(threeId)).toMatchObject({
      type: "ack",
      credits: 1000 - 3 * MESSAGE,
      message: { body: "three" },
    });
    expect(await storedCount(anna, bram)).toBe(3);
    // D1 has not recorded it: no charge yet, the hold still covers it.
    expect(await creditsOf(anna)).toBe(1000 - 2 * MESSAGE);
    expect(await holdOf(anna, conversation)).toBe(FULL_HOLD);
    await evictDurableObject(stub, { webSockets: "close" });
  } finally {
    await env.DB.exec(`DROP TRIGGER ${trigger}`);
  }
  return { anna, bram, stub, conversation, threeId };
}

describe("a paid message covered by the member's hold", () => {
  it("is acknowledged from the hold, charged once in D1 right after, and the balance shown never counts the hold as spent", async () => {
    const anna = await premium(1000);
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    const bramSocket = await ChatSocket.open(bram, anna.id);
    // A first paid message sets nothing aside (it may be one first message among many) ...
    expect(await sendText(socket, "one")).toMatchObject({ type: "ack", credits: 1000 - MESSAGE });
    const conversation = await conversationId(anna, bram);
    expect(await holdOf(anna)).toBe(0);
    // ... the second sets the next ones' credits aside, still part of the balance shown.
    expect(await sendText(socket, "two")).toMatchObject({ type: "ack", credits: 1000 - 2 * MESSAGE });
    expect(await holdOf(anna, conversation)).toBe(FULL_HOLD);
    expect(await creditsOf(anna)).toBe(1000 - 2 * MESSAGE);
    expect(await shownBalance(anna)).toBe(1000 - 2 * MESSAGE);

    for (let i = 3; i <= 5; i++)
      expect(await sendText(socket, `message ${i}`)).toMatchObject({ type: "ack", credits: 1000 - i * MESSAGE });
    for (let i = 1; i <= 5; i++) await bramSocket.message();
    await expect.poll(() => creditsOf(anna)).toBe(1000 - 5 * MESSAGE);
    // Paid from the hold, which is topped up again once half of it is spent.
    expect(await holdOf(anna, conversation)).toBe(FULL_HOLD - 3 * MESSAGE);
    expect(await chatSpent(anna)).toBe(5 * MESSAGE);
    expect(await chatRows(anna)).toEqual([
      expect.objectContaining({ delta: -5 * MESSAGE, ref: dayRef(conversation, anna), messages: 5 }),
    ]);
    expect(await unreadOf(bram, conversation)).toBe(5);
    expect(await shownBalance(anna)).toBe(1000 - 5 * MESSAGE);
    socket.close();
    bramSocket.close();
  });

  it("answers a retry with the message it stored, charged once: the hold is not spent twice", async () => {
    const anna = await premium(1000);
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    await startPaying(socket, 1000);
    const conversation = await conversationId(anna, bram);
    const id = clientId();
    socket.sendText(id, "three");
    const first = await socket.reply(id);
    expect(first).toMatchObject({ type: "ack", credits: 1000 - 3 * MESSAGE, message: { body: "three" } });
    // The page got no ack (as far as it knows) and sends the same client id again, then once more after a reconnect.
    socket.sendText(id, "three");
    expect(await socket.reply(id)).toMatchObject({
      type: "ack",
      message: { id: first.type === "ack" ? first.message.id : -1, body: "three" },
    });
    socket.close();
    const again = await ChatSocket.open(anna, bram.id);
    again.sendText(id, "three");
    expect(await again.reply(id)).toMatchObject({
      type: "ack",
      message: { id: first.type === "ack" ? first.message.id : -1 },
    });
    // The next message is paid from the hold as usual, after the one stored.
    expect(await sendText(again, "four")).toMatchObject({
      type: "ack",
      credits: 1000 - 4 * MESSAGE,
      message: { id: first.type === "ack" ? first.message.id + 1 : -1 },
    });
    expect(await storedCount(anna, bram)).toBe(4);
    await expect.poll(() => chatSpent(anna)).toBe(4 * MESSAGE);
    expect(await creditsOf(anna)).toBe(1000 - 4 * MESSAGE);
    expect(await holdOf(anna, conversation)).toBe(FULL_HOLD - 2 * MESSAGE);
    again.close();
  });

  it("loses nothing when D1 fails after the ack and the object is evicted before D1 has it: counts and ledger right after", async () => {
    const { anna, bram, conversation, threeId } = await evictedBeforeD1Records();

    // The next contact with the object records the journal before anything else.
    const history = await json<ChatResponse>(await bram.browser.fetch(`/api/chat.php?profile=${anna.id}`));
    expect(history.messages.map((m) => m.body)).toEqual(["one", "two", "three"]);
    expect(await creditsOf(anna)).toBe(1000 - 3 * MESSAGE);
    expect(await chatRows(anna)).toEqual([
      expect.objectContaining({
        delta: -3 * MESSAGE,
        ref: dayRef(conversation, anna),
        messages: 3,
        through_message_id: history.messages.at(-1)!.id,
      }),
    ]);
    expect(await unreadOf(bram, conversation)).toBe(3);
    const list = await json<{
      chats: { profile: { id: number }; num_unread_messages: number; last_message: { body: string | null } | null }[];
    }>(await bram.browser.fetch("/api/chats.php"));
    expect(list.chats.find((c) => c.profile.id === anna.id)).toMatchObject({
      num_unread_messages: 3,
      last_message: { body: "three" },
    });
    // The hold is what the message left of it, and the ledger says what the balance lost.
    expect(await holdOf(anna, conversation)).toBe(FULL_HOLD - MESSAGE);
    expect(await chatSpent(anna)).toBe(1000 - (await creditsOf(anna)));

    // The client sends the message whose ack it may have missed again: the stored message, charged once.
    const again = await ChatSocket.open(anna, bram.id);
    again.sendText(threeId, "three");
    expect((await again.ack(threeId)).message.id).toBe(history.messages[2]!.id);
    expect(await sendText(again, "four")).toMatchObject({ type: "ack", credits: 1000 - 4 * MESSAGE });
    await expect.poll(() => creditsOf(anna)).toBe(1000 - 4 * MESSAGE);
    expect(await chatSpent(anna)).toBe(4 * MESSAGE);
    again.close();
  });

  it("is recorded after an update that moves the object's journal onto its messages: charged once, counted once", async () => {
    const { anna, bram, stub, conversation } = await evictedBeforeD1Records();
    // The object's storage as the version before kept it: "three"'s D1 side in the journal table.
    await runInDurableObject(stub, (_room, state) => {
      const sql = state.storage.sql;
      sql.exec(
        "CREATE TABLE d1_journal (message_id INTEGER PRIMARY KEY, sender_id INTEGER NOT NULL, credits INTEGER NOT NULL, record TEXT NOT NULL)",
      );
      sql.exec(
        "INSERT INTO d1_journal SELECT id, sender_id, credits_charged, json_object('messageId', id, 'senderUserId', d1_sender_user, 'credits', credits_charged, 'fromHold', json('true')) FROM messages WHERE d1_sender_user IS NOT NULL",
      );
      expect(sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM d1_journal").one().n).toBe(1);
      sql.exec("DROP INDEX messages_d1_pending_idx");
      sql.exec("DROP INDEX messages_photo_idx");
      sql.exec("ALTER TABLE messages DROP COLUMN d1_sender_user");
      sql.exec("ALTER TABLE messages DROP COLUMN removed_at");
      state.storage.kv.put("schema_version", 2);
    });
    await evictDurableObject(stub);

    const history = await json<ChatResponse>(await bram.browser.fetch(`/api/chat.php?profile=${anna.id}`));
    expect(history.messages.map((m) => m.body)).toEqual(["one", "two", "three"]);
    expect(await creditsOf(anna)).toBe(1000 - 3 * MESSAGE);
    expect(await chatRows(anna)).toEqual([
      expect.objectContaining({
        delta: -3 * MESSAGE,
        ref: dayRef(conversation, anna),
        messages: 3,
        through_message_id: history.messages.at(-1)!.id,
      }),
    ]);
    expect(await unreadOf(bram, conversation)).toBe(3);
    expect(await chatSpent(anna)).toBe(3 * MESSAGE);
    const names = await runInDurableObject(stub, (_room, state) =>
      state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")
        .toArray()
        .map((t) => t.name),
    );
    expect(names).not.toContain("d1_journal");
    // The later steps ran too: the index of the marked rows and that of the photos sent.
    expect(names).toEqual(expect.arrayContaining(["messages_d1_pending_idx", "messages_photo_idx"]));
    // Started again, the object finds D1 has the message and records nothing twice.
    await evictDurableObject(stub);
    expect(
      (await json<ChatResponse>(await bram.browser.fetch(`/api/chat.php?profile=${anna.id}`))).messages,
    ).toHaveLength(3);
    expect(await chatSpent(anna)).toBe(3 * MESSAGE);
  });

  it("is recorded by the alarm when nobody contacts the object again after an eviction", async () => {
    const { anna, bram, stub, conversation } = await evictedBeforeD1Records();
    expect(await creditsOf(anna)).toBe(1000 - 2 * MESSAGE);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await creditsOf(anna)).toBe(1000 - 3 * MESSAGE);
    expect(await chatRows(anna)).toEqual([expect.objectContaining({ delta: -3 * MESSAGE, messages: 3 })]);
    expect(await unreadOf(bram, conversation)).toBe(3);
    // The evicted object has not sent since: what is left of the hold went back too.
    expect(await holdOf(anna)).toBe(0);
    expect(await chatSpent(anna)).toBe(3 * MESSAGE);
  });
});

describe("a standing change", () => {
  it("stops sends paid from the hold at once: a block, the recipient going invisible", async () => {
    const anna = await premium(1000);
    const iris = await premium(0, "Iris");
    const vera = await premium(0, "Vera");
    const toIris = await ChatSocket.open(anna, iris.id);
    const toVera = await ChatSocket.open(anna, vera.id);
    await startPaying(toIris, 1000);
    await startPaying(toVera, 1000 - 2 * MESSAGE);
    expect(await holdOf(anna)).toBe(2 * FULL_HOLD);

    expect((await iris.browser.post("/api/block.php", { profile_id: anna.id })).status).toBe(200);
    expect(await sendText(toIris, "are you there?")).toMatchObject({ type: "error", error: "blocked_by" });
    expect((await vera.browser.put("/api/user.php", { invisible: true })).status).toBe(200);
    expect(await sendText(toVera, "hello?")).toMatchObject({ type: "error", error: "not_found" });

    expect(await storedCount(anna, iris)).toBe(2);
    expect(await storedCount(anna, vera)).toBe(2);
    expect(await creditsOf(anna)).toBe(1000 - 4 * MESSAGE);
    expect(await chatSpent(anna)).toBe(4 * MESSAGE);
    toIris.close();
    toVera.close();
  });
});

describe("a credit hold", () => {
  it("serves a burst longer than itself: topped up as it goes, every message stored, charged and counted once, in order", async () => {
    const anna = await premium(1000);
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    await startPaying(socket, 1000);
    const ids = Array.from({ length: 30 }, () => clientId());
    ids.forEach((id, i) => socket.sendText(id, `burst ${i}`));
    const acks = [];
    for (const id of ids) acks.push(await socket.ack(id));
    expect(acks.map((a) => a.message.id)).toEqual(acks.map((a) => a.message.id).toSorted((x, y) => x - y));
    expect(acks.at(-1)!.credits).toBe(1000 - 32 * MESSAGE);
    await expect.poll(() => creditsOf(anna)).toBe(1000 - 32 * MESSAGE);
    const conversation = await conversationId(anna, bram);
    expect(await chatRows(anna)).toEqual([
      expect.objectContaining({
        delta: -32 * MESSAGE,
        ref: dayRef(conversation, anna),
        messages: 32,
        through_message_id: acks.at(-1)!.message.id,
      }),
    ]);
    expect(await storedCount(anna, bram)).toBe(32);
    expect(await unreadOf(bram, conversation)).toBe(32);
    const held = await holdOf(anna, conversation);
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(FULL_HOLD);
    socket.close();
  });

  it("goes back to the balance when the conversation has been idle, not while it is in use", async () => {
    const anna = await premium(1000);
    const bram = await premium();
    const stub = room(anna, bram);
    const socket = await ChatSocket.open(anna, bram.id);
    await startPaying(socket, 1000);
    expect((await sendText(socket, "three")).type).toBe("ack");
    await expect.poll(() => creditsOf(anna)).toBe(1000 - 3 * MESSAGE);
    expect(await holdOf(anna)).toBe(FULL_HOLD - MESSAGE);

    await runInDurableObject(stub, (instance) => instance.clockWork(Date.now() + 1_000));
    expect(await holdOf(anna)).toBe(FULL_HOLD - MESSAGE);
    await runInDurableObject(stub, (instance) => instance.clockWork(Date.now() + 61_000));
    expect(await holdOf(anna)).toBe(0);
    // The hold never left the balance: no ledger row for it, the balance is what the messages cost.
    expect(await creditsOf(anna)).toBe(1000 - 3 * MESSAGE);
    expect((await ledgerOf(anna)).filter((r) => r.reason !== "signup").map((r) => [r.reason, r.messages])).toEqual([
      ["chat", 3],
    ]);
    expect(await chatSpent(anna)).toBe(3 * MESSAGE);

    // The next paid message goes through D1 again and takes a new hold.
    expect(await sendText(socket, "four")).toMatchObject({ type: "ack", credits: 1000 - 4 * MESSAGE });
    expect(await holdOf(anna)).toBe(FULL_HOLD);
    socket.close();
  });

  it("is given back when another conversation of the member needs the credits", async () => {
    const anna = await premium(6 * MESSAGE, "Anna");
    const bram = await premium(0, "Bram");
    const cees = await premium(0, "Cees");
    const toBram = await ChatSocket.open(anna, bram.id);
    const toCees = await ChatSocket.open(anna, cees.id);
    await startPaying(toBram, 6 * MESSAGE);
    // Half of what nobody holds at most: 10 of the 20 left.
    expect(await holdOf(anna)).toBe(10);
    for (let i = 1; i <= 4; i++)
      expect(await sendText(toCees, `hi Cees ${i}`)).toMatchObject({ type: "ack", credits: (4 - i) * MESSAGE });
    expect(await sendText(toCees, "one too many")).toMatchObject({ type: "error", error: "insufficient_credits" });
    expect(await creditsOf(anna)).toBe(0);
    expect(await holdOf(anna)).toBe(0);
    expect(await storedCount(anna, cees)).toBe(4);
    expect(await chatSpent(anna)).toBe(6 * MESSAGE);
    toBram.close();
    toCees.close();
  });

  it("keeps two conversations racing for the member's last credits exact", async () => {
    const anna = await premium(5 * MESSAGE, "Anna");
    const bram = await premium(0, "Bram");
    const cees = await premium(0, "Cees");
    const toBram = await ChatSocket.open(anna, bram.id);
    const toCees = await ChatSocket.open(anna, cees.id);
    await startPaying(toBram, 5 * MESSAGE);
    expect(await holdOf(anna)).toBe(7);
    // Credits for three more messages; six sent at once, three to each.
    const sends = Array.from({ length: 6 }, (_, i) => ({ socket: i % 2 ? toCees : toBram, id: clientId() }));
    for (const { socket, id } of sends) socket.sendText(id, "the last credits");
    const replies = await Promise.all(sends.map(({ socket, id }) => socket.reply(id)));
    expect(replies.filter((r) => r.type === "ack")).toHaveLength(3);
    for (const refusal of replies.filter((r) => r.type === "error"))
      expect(refusal).toMatchObject({ error: "insufficient_credits" });
    await expect.poll(() => creditsOf(anna)).toBe(0);
    expect((await storedCount(anna, bram)) + (await storedCount(anna, cees))).toBe(5);
    expect(await holdOf(anna)).toBe(0);
    // One row per conversation of the day, five charges between them.
    const rows = await chatRows(anna);
    expect(rows).toHaveLength(2);
    expect(rows.reduce((sum, r) => sum + r.messages!, 0)).toBe(5);
    expect(await chatSpent(anna)).toBe(5 * MESSAGE);
    toBram.close();
    toCees.close();
  });
});
