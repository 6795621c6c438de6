/**
 * Where chat messages are kept (docs/decisions/0015): in each conversation's Durable Object, with
 * D1 holding the chat list's summary, the charge and the free allowance. What a member relies on:
 * history reads as before, a send is charged once and never lost across evictions, export and
 * erasure reach the objects, and the move of old messages out of D1 takes each message once.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChatMessage, ChatResponse } from "../../src/shared/chat";
import type { ConversationRoom } from "../../src/server/chat/conversation-room";
import { insertUnrecorded, unreadCountOf } from "../../src/server/db/conversation-store";
import { recordSends } from "../../src/server/db/chat-ledger";
import { databaseOf } from "../../src/server/db/database";
import { purgeDeletedAccounts } from "../../src/server/services/accounts";
import { chatErasureIn, conversationRooms, memberChangedInChats } from "../../src/server/services/chats";
import { ChatSocket, chatMember, clientId, creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { jpeg, picture } from "../images";
import { json } from "../http";
import { roomName } from "../../src/server/notices/object-names";

const ORIGIN = "http://chat-storage.test";
const MESSAGE = 5;

beforeAll(async () => {
  await putSites(
    site("chat-storage.test", {
      message_credits: MESSAGE,
      free_conversations: 1,
      free_messages: 3,
      message_length: 200,
    }),
  );
});

const premium = (credits = 1000) => chatMember(ORIGIN, { paid: true, credits });
const room = (a: Member, b: Member) =>
  env.CONVERSATIONS.getByName(roomName(a.id, b.id)) as DurableObjectStub<ConversationRoom>;

async function chat(member: Member, query: string): Promise<ChatResponse> {
  const res = await member.browser.fetch(`/api/chat.php?${query}`);
  expect(res.status).toBe(200);
  return json<ChatResponse>(res);
}

async function unreadInList(member: Member, peer: Member): Promise<number | undefined> {
  const list = await json<{ chats: { profile: { id: number }; num_unread_messages: number }[] }>(
    await member.browser.fetch("/api/chats.php"),
  );
  return list.chats.find((c) => c.profile.id === peer.id)?.num_unread_messages;
}

/** The member's rolled-up chat rows (docs/decisions/0033). */
async function ledgerOf(member: Member) {
  return (
    await env.DB.prepare(
      "SELECT delta, ref, messages FROM credit_ledger WHERE user_id = ? AND reason = 'chat' ORDER BY id",
    )
      .bind(member.userId)
      .all<{ delta: number; ref: string; messages: number }>()
  ).results;
}

async function send(socket: ChatSocket, body: string, id = clientId()): Promise<ChatMessage> {
  socket.sendText(id, body);
  return (await socket.ack(id)).message;
}

describe("history from the conversation's object", () => {
  it("answers pages of 30 with the messages exactly as their acks showed them, older pages by before=", async () => {
    const anna = await premium();
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    const sent: ChatMessage[] = [];
    for (let i = 0; i < 33; i++) sent.push(await send(socket, `line ${i}`));
    const newest = await chat(anna, `profile=${bram.id}`);
    expect(newest.messages).toEqual(sent.slice(3));
    expect(newest.has_more).toBe(true);
    expect(newest.conversation).toEqual({ id: sent[0]!.conversation_id });
    const older = await chat(anna, `profile=${bram.id}&before=${sent[3]!.id}`);
    expect(older.messages).toEqual(sent.slice(0, 3));
    expect(older.has_more).toBe(false);
    // The other member sees the same messages without the sender's client ids and costs.
    const theirs = await chat(bram, `conversation=${sent[0]!.conversation_id}`);
    expect(theirs.messages).toEqual(sent.slice(3).map((m) => ({ ...m, client_id: "", credits: 0 })));
    socket.close();
  });
});

describe("a send between the two stores", () => {
  it("written in the object and charged in D1 when the object is evicted: shown once, charged once, counted once", async () => {
    const anna = await premium(100);
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    const first = await send(socket, "one");
    const stub = room(anna, bram);
    const retried = clientId();
    // A step of the object first marks what it acknowledged before ("one").
    await stub.messagesFor(anna.id, bram.id);
    // What the object does for a send, stopped after D1 has recorded it and before the object marks it.
    await runInDurableObject(stub, async (_instance, state) => {
      const row = {
        sender_id: anna.id,
        client_id: retried,
        kind: "text" as const,
        body: "two",
        gift: null,
        photo_id: null,
        photo_key: null,
        photo_thumb_key: null,
        photo_blur_key: null,
        photo_width: null,
        photo_height: null,
        credits_charged: MESSAGE,
        free: 0,
        created_at: first.created_at,
      };
      const { id } = insertUnrecorded(state.storage.sql, row)!;
      const recorded = await recordSends(databaseOf(env.DB), [
        {
          conversationId: first.conversation_id,
          messageId: id,
          write: crypto.randomUUID(),
          senderProfileId: anna.id,
          senderUserId: anna.userId,
          recipientProfileId: bram.id,
          kind: "text",
          preview: "two",
          credits: MESSAGE,
          free: false,
          photoId: null,
          recipientHasWritten: false,
          freeUsedHere: 0,
          allowance: { freeMessages: 3, freeConversations: 1 },
          recipientUnread: unreadCountOf(state.storage.sql, bram.id) + 1,
          now: first.created_at,
        },
      ]);
      expect(recorded).toEqual({ recorded: true, credits: [100 - 2 * MESSAGE] });
    });
    await evictDurableObject(stub);

    const history = await chat(bram, `profile=${anna.id}`);
    expect(history.messages.map((m) => m.body)).toEqual(["one", "two"]);
    expect(await unreadInList(bram, anna)).toBe(2);
    const bramSocket = await ChatSocket.open(bram, anna.id);
    // The object keeps the same count.
    expect(await runInDurableObject(stub, (_i, state) => unreadCountOf(state.storage.sql, bram.id))).toBe(2);
    // The sender never had the ack: their retry gets the same message, and no second charge.
    socket.sendText(retried, "two");
    const ack = await socket.ack(retried);
    expect(ack.message.id).toBe(history.messages[1]!.id);
    expect(ack.credits).toBe(100 - 2 * MESSAGE);
    expect(await creditsOf(anna)).toBe(100 - 2 * MESSAGE);
    expect(await ledgerOf(anna)).toEqual([expect.objectContaining({ delta: -2 * MESSAGE, messages: 2 })]);
    expect(await stub.messagesFor(anna.id, bram.id)).toHaveLength(2);
    // Counts go on from there.
    await send(socket, "three");
    expect(await unreadInList(bram, anna)).toBe(3);
    socket.close();
    bramSocket.close();
  });

  it("written in the object but not in D1 when the object is evicted: never shown nor charged, and the retry is stored and charged once", async () => {
    const anna = await premium(100);
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    await send(socket, "one");
    const stub = room(anna, bram);
    const retried = clientId();
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      insertUnrecorded(sql, {
        sender_id: anna.id,
        client_id: retried,
        kind: "text",
        body: "two",
        gift: null,
        photo_id: null,
        photo_key: null,
        photo_thumb_key: null,
        photo_blur_key: null,
        photo_width: null,
        photo_height: null,
        credits_charged: MESSAGE,
        free: 0,
        created_at: 1,
      });
    });
    await evictDurableObject(stub);

    expect((await chat(bram, `profile=${anna.id}`)).messages.map((m) => m.body)).toEqual(["one"]);
    expect(await creditsOf(anna)).toBe(100 - MESSAGE);
    expect(await unreadInList(bram, anna)).toBe(1);
    socket.sendText(retried, "two");
    expect((await socket.ack(retried)).credits).toBe(100 - 2 * MESSAGE);
    expect((await chat(bram, `profile=${anna.id}`)).messages.map((m) => m.body)).toEqual(["one", "two"]);
    expect(await unreadInList(bram, anna)).toBe(2);
    expect(await ledgerOf(anna)).toEqual([expect.objectContaining({ delta: -2 * MESSAGE, messages: 2 })]);
    socket.close();
  });

  it("takes a burst as one write; when D1 refuses the group, each send is decided again alone and a refused one stores nothing", async () => {
    const anna = await premium(100);
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    await send(socket, "warm");
    // The object still believes in 95 credits; D1 has 2 * MESSAGE.
    await env.DB.prepare("UPDATE users SET credits = ? WHERE id = ?")
      .bind(2 * MESSAGE, anna.userId)
      .run();
    const ids = Array.from({ length: 5 }, () => clientId());
    ids.forEach((id, i) => socket.sendText(id, `burst ${i}`));
    const replies = await Promise.all(ids.map((id) => socket.reply(id)));
    expect(replies.map((r) => r.type)).toEqual(["ack", "ack", "error", "error", "error"]);
    expect(replies.filter((r) => r.type === "error").map((r) => r.error)).toEqual([
      "insufficient_credits",
      "insufficient_credits",
      "insufficient_credits",
    ]);
    expect(await creditsOf(anna)).toBe(0);
    expect((await chat(bram, `profile=${anna.id}`)).messages.map((m) => m.body)).toEqual([
      "warm",
      "burst 0",
      "burst 1",
    ]);
    expect(await ledgerOf(anna)).toEqual([expect.objectContaining({ delta: -3 * MESSAGE, messages: 3 })]);
    expect(await unreadInList(bram, anna)).toBe(3);
    socket.close();
  });

  it("writes no D1 row for a free message, and one ledger row for the paid ones of a member, conversation and day", async () => {
    const count = async () =>
      (await env.DB.prepare(
        "SELECT (SELECT COUNT(*) FROM credit_ledger) + (SELECT COUNT(*) FROM conversations) + (SELECT COUNT(*) FROM conversation_members) AS n",
      ).first<{ n: number }>())!.n;
    const sender = await chatMember(ORIGIN, { credits: 0 });
    const recipient = await premium();
    const socket = await ChatSocket.open(sender, recipient.id);
    await send(socket, "free one");
    const afterFirst = await count();
    await send(socket, "free two");
    await send(socket, "free three");
    expect(await count()).toBe(afterFirst);
    await env.DB.prepare("UPDATE users SET credits = 10 WHERE id = ?").bind(sender.userId).run();
    await send(socket, "paid");
    expect(await count()).toBe(afterFirst + 1);
    await send(socket, "paid again");
    expect(await count()).toBe(afterFirst + 1);
    const conversation = (await env.DB.prepare("SELECT id FROM conversations WHERE ? IN (profile_a, profile_b)")
      .bind(sender.id)
      .first<{ id: number }>())!.id;
    const day = new Date().toISOString().slice(0, 10);
    expect(await ledgerOf(sender)).toEqual([
      { delta: -2 * MESSAGE, ref: `chat:${conversation}:${sender.id}:${day}`, messages: 2 },
    ]);
    socket.close();
  });
});

describe("a member who becomes premium", () => {
  it("sees photo originals on a chat socket opened before, once the purchase tells their conversations", async () => {
    const sender = await premium();
    const member = await chatMember(ORIGIN, { credits: 0 });
    const photo = async () => {
      const form = new FormData();
      form.set("photo", new File([await jpeg(picture(32, 24))], "p.jpg", { type: "image/jpeg" }));
      return (
        await json<{ photo: { id: number; image: string } }>(
          await sender.browser.fetch("/api/chat-photo.php", { method: "POST", body: form }),
        )
      ).photo;
    };
    const socket = await ChatSocket.open(sender, member.id);
    const memberSocket = await ChatSocket.open(member, sender.id);
    const sendPhoto = async (id: number) => {
      const cid = clientId();
      socket.send({ type: "send", client_id: cid, kind: "image", photo_id: id });
      await socket.ack(cid);
      return (await memberSocket.message()).message.image!;
    };
    const before = await photo();
    expect((await sendPhoto(before.id)).locked).toBe(true);
    await env.DB.prepare("UPDATE users SET paid_user = 1 WHERE id = ?").bind(member.userId).run();
    await memberChangedInChats(databaseOf(env.DB), conversationRooms(env.CONVERSATIONS), member.id);
    const after = await photo();
    expect(await sendPhoto(after.id)).toMatchObject({ locked: false, image: after.image });
    socket.close();
    memberSocket.close();
  });
});

describe("a member's data", () => {
  it("is exported with the messages of every conversation, and erased from every conversation object with the account", async () => {
    const leaving = await premium();
    const bram = await premium();
    const cees = await premium();
    const toBram = await ChatSocket.open(leaving, bram.id);
    const toCees = await ChatSocket.open(leaving, cees.id);
    await send(toBram, "hello Bram");
    await send(toCees, "hello Cees");
    const fromBram = await ChatSocket.open(bram, leaving.id);
    await send(fromBram, "hello back");

    const archive = await json<{ messages: { body: string; sender_id: number }[] }>(
      await leaving.browser.fetch("/api/my-data.php"),
    );
    expect(archive.messages.map((m) => m.body).toSorted()).toEqual(["hello Bram", "hello Cees", "hello back"]);
    for (const s of [toBram, toCees, fromBram]) s.close();

    expect((await leaving.browser.delete("/api/user.php", { password: "a good password" })).status).toBe(200);
    const later = Math.floor(Date.now() / 1000) + 15 * 86400;
    expect(await purgeDeletedAccounts(databaseOf(env.DB), env.PHOTOS, chatErasureIn(env), later)).toBe(1);
    expect((await room(leaving, bram).messagesFor(bram.id, leaving.id)).map((m) => m.body)).toEqual(["hello back"]);
    expect(await room(leaving, cees).messagesFor(cees.id, leaving.id)).toEqual([]);
  });
});
