import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChatResponse, ChatsResponse, GiftsResponse } from "../../src/shared/chat";
import { purgeUnsentChatPhotos } from "../../src/server/services/chat-photos";
import { ChatSocket, chatMember, clientId, creditsOf, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { jpeg, picture } from "../images";
import type { User } from "../../src/shared/api";
import { Browser, fetchWorker, json } from "../http";
import { roomName } from "../../src/server/notices/object-names";

const ORIGIN = "http://chat.test";
const MESSAGE = 5;
const PHOTO = 10;
const GIFT = 15;

beforeAll(async () => {
  await putSites(
    site("chat.test", {
      message_credits: MESSAGE,
      photo_credits: PHOTO,
      gift_credits: GIFT,
      gifts: { ring: 40, teddy: 0 },
      free_conversations: 2,
      free_messages: 3,
      message_length: 200,
    }),
  );
});

const premium = (credits = 1000, name?: string) =>
  chatMember(ORIGIN, { paid: true, credits, ...(name ? { name } : {}) });
const free = (name?: string) => chatMember(ORIGIN, name ? { name } : {});

async function chat(member: Member, query: string): Promise<ChatResponse> {
  const res = await member.browser.fetch(`/api/chat.php?${query}`);
  expect(res.status).toBe(200);
  return json<ChatResponse>(res);
}

async function chats(member: Member): Promise<ChatsResponse> {
  return json<ChatsResponse>(await member.browser.fetch("/api/chats.php"));
}

/** Messages the pair's conversation holds (in its object). */
async function storedCount(a: Member, b: Member): Promise<number> {
  return (await env.CONVERSATIONS.getByName(roomName(a.id, b.id)).messagesFor(a.id, b.id)).length;
}

async function unreadOf(member: Member, peer: Member): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT cm.unread_count FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation_id
     WHERE cm.profile_id = ? AND c.profile_a = ? AND c.profile_b = ?`,
  )
    .bind(member.id, Math.min(member.id, peer.id), Math.max(member.id, peer.id))
    .first<{ unread_count: number }>();
  return row?.unread_count ?? 0;
}

describe("a visitor", () => {
  it("is told to log in to chat, on every chat call and the socket", async () => {
    const headers = { cookie: "locale=en", origin: ORIGIN, upgrade: "websocket" };
    for (const path of ["/api/chats.php", "/api/chat.php?profile=1", "/api/chat-socket.php?profile=1"]) {
      const res = await fetchWorker(ORIGIN + path, { headers });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        error: "authentication_required",
        message: "You need to be logged in to chat",
      });
    }
  });
});

describe("the conversation's object", () => {
  it("orders messages, acknowledges the sender once stored, and fans out to every socket of both members", async () => {
    const anna = await premium();
    const bram = await premium();
    const anna1 = await ChatSocket.open(anna, bram.id);
    const anna2 = await ChatSocket.open(anna, bram.id);
    const bram1 = await ChatSocket.open(bram, anna.id);

    const ids = Array.from({ length: 6 }, () => clientId());
    ids.forEach((id, i) => anna1.sendText(id, `message ${i}`));
    const acks = [];
    for (const id of ids) acks.push(await anna1.ack(id));
    const stored = acks.map((a) => a.message.id);
    expect(stored).toEqual(stored.toSorted((x, y) => x - y));
    expect(acks.map((a) => a.message.body)).toEqual(ids.map((_, i) => `message ${i}`));
    expect(acks.at(-1)!.credits).toBe(1000 - 6 * MESSAGE);

    for (const socket of [anna2, bram1]) {
      const received = [];
      for (let i = 0; i < ids.length; i++) received.push((await socket.message()).message);
      expect(received.map((m) => m.id)).toEqual(stored);
      expect(received.map((m) => m.body)).toEqual(ids.map((_, i) => `message ${i}`));
    }
    // The sender's other socket sees what it cost them; the recipient does not.
    const fresh = clientId();
    anna1.sendText(fresh, "one more");
    await anna1.ack(fresh);
    expect((await anna2.message()).message).toMatchObject({ client_id: fresh, credits: MESSAGE });
    expect((await bram1.message()).message).toMatchObject({ client_id: "", credits: 0 });
    expect(await bram1.next((f) => f.type === "unread" && f.count === 7)).toBeTruthy();
    expect(await storedCount(anna, bram)).toBe(7);
    for (const s of [anna1, anna2, bram1]) s.close();
  });

  it("stores and charges a retried send once, and answers the retry with the same message", async () => {
    const anna = await premium(100);
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    const id = clientId();
    socket.sendText(id, "hello once");
    const first = await socket.ack(id);
    socket.sendText(id, "hello once");
    const again = await socket.ack(id);
    expect(again.message.id).toBe(first.message.id);
    expect(again.credits).toBe(100 - MESSAGE);
    // A retry on a new socket (after a reconnect) too.
    socket.close();
    const reconnected = await ChatSocket.open(anna, bram.id);
    reconnected.sendText(id, "hello once");
    expect((await reconnected.ack(id)).message.id).toBe(first.message.id);
    expect(await storedCount(anna, bram)).toBe(1);
    expect(await creditsOf(anna)).toBe(100 - MESSAGE);
    const ledger = await env.DB.prepare(
      "SELECT delta, reason, messages FROM credit_ledger WHERE user_id = ? AND reason = 'chat'",
    )
      .bind(anna.userId)
      .all();
    expect(ledger.results).toEqual([{ delta: -MESSAGE, reason: "chat", messages: 1 }]);
    reconnected.close();
  });

  it("answers a retry with the message it stored even when the balance no longer covers a send", async () => {
    const anna = await premium(MESSAGE);
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    const id = clientId();
    socket.sendText(id, "my last credits");
    const first = await socket.ack(id);
    expect(first.credits).toBe(0);
    socket.sendText(id, "my last credits");
    const again = await socket.ack(id);
    expect(again.message.id).toBe(first.message.id);
    expect(again.credits).toBe(0);
    // A new message is refused: there is nothing left to pay it with.
    const next = clientId();
    socket.sendText(next, "one more");
    expect(await socket.reply(next)).toMatchObject({ type: "error", error: "insufficient_credits" });
    expect(await storedCount(anna, bram)).toBe(1);
    socket.close();
  });

  it("takes 20 concurrent sends with credit for one: exactly one stored and charged, the balance never below zero", async () => {
    const anna = await premium(MESSAGE, "Anna");
    const bram = await premium(0, "Bram");
    const cees = await premium(0, "Cees");
    // Two conversations, so two objects race for the same balance as well.
    const sockets = [
      await ChatSocket.open(anna, bram.id),
      await ChatSocket.open(anna, bram.id),
      await ChatSocket.open(anna, cees.id),
      await ChatSocket.open(anna, cees.id),
    ];
    const sends = Array.from({ length: 20 }, (_, i) => ({ socket: sockets[i % sockets.length]!, id: clientId() }));
    for (const { socket, id } of sends) socket.sendText(id, "only one of these can be paid");
    const replies = await Promise.all(sends.map(({ socket, id }) => socket.reply(id)));
    const acks = replies.filter((r) => r.type === "ack");
    const refusals = replies.filter((r) => r.type === "error");
    expect(acks).toHaveLength(1);
    expect(refusals).toHaveLength(19);
    for (const refusal of refusals) {
      expect(refusal.error).toBe("insufficient_credits");
      expect(refusal.message).toMatch(/^You do not have enough credits to send this message to (Bram|Cees)$/);
    }
    expect(await creditsOf(anna)).toBe(0);
    expect((await storedCount(anna, bram)) + (await storedCount(anna, cees))).toBe(1);
    const ledger = await env.DB.prepare(
      "SELECT SUM(delta) AS total, SUM(messages) AS n FROM credit_ledger WHERE user_id = ? AND reason = 'chat'",
    )
      .bind(anna.userId)
      .first();
    expect(ledger).toEqual({ total: -MESSAGE, n: 1 });
    for (const s of sockets) s.close();
  });

  it("loses nothing when it is evicted mid-conversation: hibernated sockets resume, closed ones reconnect, unread counts stay right", async () => {
    const anna = await premium();
    const bram = await premium();
    const stub = env.CONVERSATIONS.getByName(roomName(anna.id, bram.id));
    const annaSocket = await ChatSocket.open(anna, bram.id);
    const bramSocket = await ChatSocket.open(bram, anna.id);
    for (const body of ["one", "two"]) {
      const id = clientId();
      annaSocket.sendText(id, body);
      await annaSocket.ack(id);
      await bramSocket.message((b) => b === body);
    }

    // Evicted with its sockets hibernated: the same sockets go on working.
    await evictDurableObject(stub);
    const three = clientId();
    annaSocket.sendText(three, "three");
    expect((await annaSocket.ack(three)).message.body).toBe("three");
    expect((await bramSocket.message((b) => b === "three")).message.sender_id).toBe(anna.id);
    expect(await unreadOf(bram, anna)).toBe(3);

    // Evicted with its sockets closed: the clients reconnect and nothing is lost.
    const inFlight = clientId();
    annaSocket.sendText(inFlight, "four");
    await annaSocket.ack(inFlight);
    await evictDurableObject(stub, { webSockets: "close" });
    await expect(annaSocket.next(() => false, 2000)).rejects.toThrow(/closed/);
    const annaAgain = await ChatSocket.open(anna, bram.id);
    const bramAgain = await ChatSocket.open(bram, anna.id);
    // A send whose ack was lost is sent again with its client id: still stored once.
    annaAgain.sendText(inFlight, "four");
    await annaAgain.ack(inFlight);
    const five = clientId();
    annaAgain.sendText(five, "five");
    await annaAgain.ack(five);
    await bramAgain.message((b) => b === "five");

    const history = await chat(bram, `profile=${anna.id}`);
    expect(history.messages.map((m) => m.body)).toEqual(["one", "two", "three", "four", "five"]);
    expect(await unreadOf(bram, anna)).toBe(5);
    expect((await chats(bram)).chats.find((c) => c.profile.id === anna.id)?.num_unread_messages).toBe(5);

    // Reading sets the count to 0 and shows the sender the read mark.
    bramAgain.send({ type: "read", message_id: history.messages.at(-1)!.id });
    expect(await bramAgain.next((f) => f.type === "unread" && f.count === 0)).toBeTruthy();
    expect(
      await annaAgain.next(
        (f) => f.type === "read" && f.profile_id === bram.id && f.message_id === history.messages.at(-1)!.id,
      ),
    ).toBeTruthy();
    expect(await unreadOf(bram, anna)).toBe(0);
    expect((await chat(anna, `profile=${bram.id}`)).peer_read_id).toBe(history.messages.at(-1)!.id);
    // A read mark past the newest message stops at it: the next message is unread, not "seen".
    bramAgain.send({ type: "read", message_id: history.messages.at(-1)!.id + 1000 });
    await bramAgain.next((f) => f.type === "unread");
    const six = clientId();
    annaAgain.sendText(six, "six");
    await annaAgain.ack(six);
    expect(await unreadOf(bram, anna)).toBe(1);
    expect((await chat(anna, `profile=${bram.id}`)).peer_read_id).toBe(history.messages.at(-1)!.id);
    annaAgain.close();
    bramAgain.close();
  });

  it("passes typing to the other member only", async () => {
    const anna = await premium();
    const bram = await premium();
    const annaSocket = await ChatSocket.open(anna, bram.id);
    const bramSocket = await ChatSocket.open(bram, anna.id);
    annaSocket.send({ type: "typing" });
    expect(await bramSocket.next((f) => f.type === "typing")).toEqual({ type: "typing", profile_id: anna.id });
    await expect(annaSocket.next((f) => f.type === "typing", 300)).rejects.toThrow();
    annaSocket.close();
    bramSocket.close();
  });

  it("answers a frame it cannot read with a clear error and stores nothing", async () => {
    const anna = await premium();
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    socket.send("not json");
    expect(await socket.error(null)).toMatchObject({ error: "invalid_body", message: "The request could not be read" });
    socket.send({ type: "send", client_id: "x", kind: "text", body: "bad client id" });
    expect((await socket.error(null)).error).toBe("invalid_body");
    expect(await storedCount(anna, bram)).toBe(0);
    expect(await creditsOf(anna)).toBe(1000);
    socket.close();
  });
});

describe("the rules of sending", () => {
  it("lets a free member start the allowance of conversations with the allowance of free messages, then asks for credits", async () => {
    const sender = await free("Sanne");
    const first = await premium(0, "Bo");
    const second = await premium(0, "Kim");
    const third = await premium(0, "Lars");
    const toFirst = await ChatSocket.open(sender, first.id);
    // `message` is what a message costs once the free ones are used (docs/decisions/0064): the page says it beforehand.
    expect((await chat(sender, `profile=${first.id}`)).costs).toMatchObject({
      message: MESSAGE,
      free_messages_left: 3,
    });
    for (let i = 0; i < 3; i++) {
      const id = clientId();
      toFirst.sendText(id, `free ${i}`);
      expect((await toFirst.ack(id)).message.credits).toBe(0);
    }
    const fourth = clientId();
    toFirst.sendText(fourth, "not free any more");
    expect(await toFirst.error(fourth)).toMatchObject({
      error: "insufficient_credits",
      message: "You do not have enough credits to send this message to Bo",
    });
    expect((await chat(sender, `profile=${first.id}`)).costs).toMatchObject({
      message: MESSAGE,
      free_messages_left: 0,
    });

    const toSecond = await ChatSocket.open(sender, second.id);
    const id2 = clientId();
    toSecond.sendText(id2, "my second conversation");
    expect((await toSecond.ack(id2)).message.credits).toBe(0);

    const toThird = await ChatSocket.open(sender, third.id);
    const id3 = clientId();
    toThird.sendText(id3, "a third conversation is not free");
    expect(await toThird.error(id3)).toMatchObject({
      error: "insufficient_credits",
      message: "You do not have enough credits to send this message to Lars",
    });
    expect(await storedCount(sender, third)).toBe(0);

    // With credits, the same member pays per message.
    await env.DB.prepare("UPDATE users SET credits = 7 WHERE id = ?").bind(sender.userId).run();
    const paid = clientId();
    toThird.sendText(paid, "now paid");
    expect(await toThird.ack(paid)).toMatchObject({ credits: 7 - MESSAGE, message: { credits: MESSAGE } });
    for (const s of [toFirst, toSecond, toThird]) s.close();
  });

  it("gives the last free conversation once when a free member starts two at the same moment", async () => {
    const sender = await free();
    const [first, second, third] = [await premium(), await premium(), await premium()];
    const warm = await ChatSocket.open(sender, first.id);
    const hello = clientId();
    warm.sendText(hello, "my first conversation");
    await warm.ack(hello);
    const [toSecond, toThird] = [await ChatSocket.open(sender, second.id), await ChatSocket.open(sender, third.id)];
    const [a, b] = [clientId(), clientId()];
    toSecond.sendText(a, "which one is free?");
    toThird.sendText(b, "which one is free?");
    const replies = [await toSecond.reply(a), await toThird.reply(b)];
    expect(replies.map((r) => r.type).toSorted()).toEqual(["ack", "error"]);
    expect(replies.find((r) => r.type === "error")).toMatchObject({ error: "insufficient_credits" });
    expect((await storedCount(sender, second)) + (await storedCount(sender, third))).toBe(1);
    for (const s of [warm, toSecond, toThird]) s.close();
  });

  it("does not let anyone reply to a member whose e-mail is unconfirmed, and says why", async () => {
    const newcomer = await chatMember(ORIGIN, { status: "not_confirmed", name: "Noor" });
    const other = await premium();
    const fromNewcomer = await ChatSocket.open(newcomer, other.id);
    const hello = clientId();
    fromNewcomer.sendText(hello, "hi, I just signed up");
    await fromNewcomer.ack(hello);

    const view = await chat(other, `profile=${newcomer.id}`);
    expect(view.blocked_reason).toBe("not_confirmed");
    const reply = await ChatSocket.open(other, newcomer.id);
    const answer = clientId();
    reply.sendText(answer, "welcome!");
    expect(await reply.error(answer)).toMatchObject({
      error: "not_confirmed",
      message: "Noor has not confirmed their e-mail address yet. You can reply as soon as they do.",
    });
    expect(await storedCount(newcomer, other)).toBe(1);
    expect(await creditsOf(other)).toBe(1000);

    await env.DB.prepare("UPDATE users SET status = 'active' WHERE id = ?").bind(newcomer.userId).run();
    const later = clientId();
    reply.sendText(later, "welcome!");
    await reply.ack(later);
    fromNewcomer.close();
    reply.close();
  });

  it("does not let blocked members reach each other, nor anyone message an invisible member", async () => {
    const blocker = await premium(1000, "Iris");
    const blocked = await premium();
    const socket = await ChatSocket.open(blocked, blocker.id);
    // A message before the block: the object has read (and keeps) the facts of this pair.
    const before = clientId();
    socket.sendText(before, "hello Iris");
    await socket.ack(before);
    expect((await blocker.browser.post("/api/block.php", { profile_id: blocked.id })).status).toBe(200);

    const id = clientId();
    socket.sendText(id, "are you there?");
    expect(await socket.error(id)).toMatchObject({
      error: "blocked_by",
      message: "You're blocked by Iris. You do not have access to this page.",
    });
    const refused = await blocked.browser.fetch(`/api/chat-socket.php?profile=${blocker.id}`, {
      headers: { upgrade: "websocket", origin: ORIGIN },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: "blocked_by",
      message: "You're blocked by Iris. You do not have access to this page.",
    });
    expect((await blocked.browser.fetch(`/api/chat.php?profile=${blocker.id}`)).status).toBe(403);

    const fromBlocker = await ChatSocket.open(blocker, blocked.id);
    const id2 = clientId();
    fromBlocker.sendText(id2, "hello");
    expect((await fromBlocker.error(id2)).error).toBe("blocked");
    expect(await storedCount(blocker, blocked)).toBe(1);

    const shy = await premium(0, "Vera");
    await env.DB.prepare("UPDATE users SET invisible = 1 WHERE id = ?").bind(shy.userId).run();
    const toShy = await ChatSocket.open(blocked, shy.id);
    const id3 = clientId();
    toShy.sendText(id3, "hi");
    expect(await toShy.error(id3)).toMatchObject({ error: "not_found", message: "Vera is no longer available." });
    expect((await chat(blocked, `profile=${shy.id}`)).blocked_reason).toBe("unavailable");
    for (const s of [socket, fromBlocker, toShy]) s.close();
  });

  it("enforces the message length and refuses empty messages", async () => {
    const anna = await premium();
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    const long = clientId();
    socket.sendText(long, "x".repeat(201));
    expect(await socket.error(long)).toMatchObject({
      error: "message_too_long",
      message: "Your message is too long (at most 200 characters).",
    });
    const empty = clientId();
    socket.sendText(empty, "   \n ");
    expect(await socket.error(empty)).toMatchObject({ error: "message_empty" });
    const exact = clientId();
    socket.sendText(exact, "y".repeat(200));
    await socket.ack(exact);
    expect(await storedCount(anna, bram)).toBe(1);
    socket.close();
  });

  it("charges gifts at the site's prices and refuses gifts the site does not sell", async () => {
    const anna = await premium(50);
    const bram = await premium();
    const gifts = await json<GiftsResponse>(await anna.browser.fetch("/api/gifts.php"));
    expect(gifts.gifts.find((g) => g.slug === "rose")).toEqual({
      slug: "rose",
      name: "Rose",
      image: "/gifts/rose.svg",
      credits: GIFT,
    });
    expect(gifts.gifts.find((g) => g.slug === "ring")?.credits).toBe(40);
    expect(gifts.gifts.some((g) => g.slug === "teddy")).toBe(false);

    const socket = await ChatSocket.open(anna, bram.id);
    const bramSocket = await ChatSocket.open(bram, anna.id);
    const rose = clientId();
    socket.send({ type: "send", client_id: rose, kind: "gift", gift: "rose" });
    expect(await socket.ack(rose)).toMatchObject({
      credits: 50 - GIFT,
      message: { kind: "gift", gift: { slug: "rose", name: "Rose" }, credits: GIFT },
    });
    expect((await bramSocket.message()).message.gift?.slug).toBe("rose");
    const teddy = clientId();
    socket.send({ type: "send", client_id: teddy, kind: "gift", gift: "teddy" });
    expect(await socket.error(teddy)).toMatchObject({ error: "gift_not_found" });
    const ring = clientId();
    socket.send({ type: "send", client_id: ring, kind: "gift", gift: "ring" });
    // 35 credits left, the ring costs 40 on this site.
    expect(await socket.error(ring)).toMatchObject({ error: "insufficient_credits" });
    expect(await creditsOf(anna)).toBe(50 - GIFT);
    socket.close();
    bramSocket.close();
  });
});

describe("the message written at signup", () => {
  it("becomes the new member's first chat message, free, waiting unread for the member it was written to", async () => {
    const recipient = await premium(0, "Jet");
    const visitor = new Browser(ORIGIN);
    visitor.cookies.set("locale", "en");
    const res = await visitor.post("/api/signup.php", {
      email: `signup-message-${recipient.id}@example.com`,
      username: `sm${recipient.id}x`,
      password: "a good password",
      date_of_birth: "1990-01-01",
      gender: "male",
      terms: true,
      profile_id: recipient.id,
      signup_message: "  Hi Jet, I liked your profile!  ",
    });
    expect(res.status).toBe(201);
    const { user } = await json<{ user: User }>(res);
    const list = await chats(recipient);
    expect(list.chats.map((c) => [c.profile.id, c.num_unread_messages, c.last_message?.body])).toEqual([
      [user.profile.id, 1, "Hi Jet, I liked your profile!"],
    ]);
    const mine = await json<ChatResponse>(await visitor.fetch(`/api/chat.php?profile=${recipient.id}`));
    expect(mine.messages.map((m) => [m.body, m.credits])).toEqual([["Hi Jet, I liked your profile!", 0]]);
    // The new member's e-mail is unconfirmed: Jet is told why she cannot answer yet.
    expect((await chat(recipient, `profile=${user.profile.id}`)).blocked_reason).toBe("not_confirmed");
  });
});

describe("who may see what", () => {
  it("keeps a conversation to its two members: others cannot read it, remove it or use its photos", async () => {
    const anna = await premium();
    const bram = await premium();
    const eve = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    const id = clientId();
    socket.sendText(id, "private");
    const ack = await socket.ack(id);
    const conversation = ack.message.conversation_id;

    const read = await eve.browser.fetch(`/api/chat.php?conversation=${conversation}`);
    expect(read.status).toBe(404);
    expect(await read.json()).toMatchObject({ error: "not_found", message: "This conversation could not be found." });
    const removal = await eve.browser.delete("/api/chat.php", { conversation: { id: conversation } });
    expect(removal.status).toBe(404);
    expect((await chats(eve)).chats).toEqual([]);
    expect((await chat(anna, `conversation=${conversation}`)).messages.map((m) => m.body)).toEqual(["private"]);
    expect((await chats(bram)).chats.map((c) => c.conversation.id)).toEqual([conversation]);

    // Eve cannot send Anna's chat photo as her own.
    const photo = await env.DB.prepare(
      "INSERT INTO chat_photos (profile_id, key, thumb_key, blur_key, width, height) VALUES (?, ?, ?, ?, 10, 10) RETURNING id",
    )
      .bind(anna.id, `cp/${"1".repeat(32)}.jpg`, `ct/${"1".repeat(32)}.jpg`, `cb/${"1".repeat(32)}.jpg`)
      .first<{ id: number }>();
    const eveSocket = await ChatSocket.open(eve, bram.id);
    const stolen = clientId();
    eveSocket.send({ type: "send", client_id: stolen, kind: "image", photo_id: photo!.id });
    expect((await eveSocket.error(stolen)).error).toBe("not_found");
    socket.close();
    eveSocket.close();
  });

  it("shows an image message's original to its sender and premium members of the conversation only", async () => {
    const sender = await premium();
    const freeMember = await chatMember(ORIGIN, { credits: 0 });
    const premiumMember = await premium();
    const outsider = await premium();
    const form = new FormData();
    form.set("photo", new File([await jpeg(picture(64, 48))], "me.jpg", { type: "image/jpeg" }));
    const upload = await sender.browser.fetch("/api/chat-photo.php", { method: "POST", body: form });
    expect(upload.status).toBe(201);
    const { photo } = await json<{ photo: { id: number; image: string; thumb: string } }>(upload);

    for (const recipient of [freeMember, premiumMember]) {
      const socket = await ChatSocket.open(sender, recipient.id);
      const recipientSocket = await ChatSocket.open(recipient, sender.id);
      const id = clientId();
      socket.send({ type: "send", client_id: id, kind: "image", photo_id: photo.id });
      const ack = await socket.ack(id);
      expect(ack.message).toMatchObject({
        kind: "image",
        credits: PHOTO,
        image: { locked: false, image: photo.image },
      });
      const seen = (await recipientSocket.message()).message.image!;
      if (recipient === freeMember) {
        expect(seen.locked).toBe(true);
        expect(seen.image).not.toBe(photo.image);
        expect(seen.image).toMatch(/^\/media\/cb\//);
        expect((await recipient.browser.fetch(photo.image)).status).toBe(404);
        expect((await recipient.browser.fetch(seen.image)).status).toBe(200);
        expect((await chat(recipient, `profile=${sender.id}`)).messages[0]!.image!.locked).toBe(true);
      } else {
        expect(seen).toMatchObject({ locked: false, image: photo.image });
        const original = await recipient.browser.fetch(photo.image);
        expect(original.status).toBe(200);
        expect(original.headers.get("cache-control")).toMatch(/^private/);
      }
      socket.close();
      recipientSocket.close();
    }
    expect((await sender.browser.fetch(photo.image)).status).toBe(200);
    expect((await outsider.browser.fetch(photo.image)).status).toBe(404);
    expect((await fetchWorker(ORIGIN + photo.thumb)).status).toBe(404);
  });
});

describe("chat photos never sent", () => {
  it("are removed by the daily clock work after a day; sent ones stay", async () => {
    const sender = await premium();
    const recipient = await premium();
    const upload = async () => {
      const form = new FormData();
      form.set("photo", new File([await jpeg(picture(40, 40))], "p.jpg", { type: "image/jpeg" }));
      return (
        await json<{ photo: { id: number; image: string } }>(
          await sender.browser.fetch("/api/chat-photo.php", { method: "POST", body: form }),
        )
      ).photo;
    };
    const [sent, unsent] = [await upload(), await upload()];
    const socket = await ChatSocket.open(sender, recipient.id);
    const id = clientId();
    socket.send({ type: "send", client_id: id, kind: "image", photo_id: sent.id });
    await socket.ack(id);
    socket.close();
    await env.DB.prepare("UPDATE chat_photos SET created_at = created_at - 2 * 86400 WHERE id IN (?, ?)")
      .bind(sent.id, unsent.id)
      .run();
    expect(await purgeUnsentChatPhotos(env.DB, env.PHOTOS)).toBeGreaterThanOrEqual(1);
    expect((await sender.browser.fetch(sent.image)).status).toBe(200);
    expect((await sender.browser.fetch(unsent.image)).status).toBe(404);
    expect(await env.PHOTOS.head(unsent.image.slice("/media/".length))).toBeNull();
  });
});

describe("the chat list", () => {
  it("lists conversations newest first with unread counts and the last message, and removes them at the member's request", async () => {
    const me = await premium();
    const one = await premium(100, "One");
    const two = await premium(100, "Two");
    for (const [from, body] of [
      [one, "hi from one"],
      [two, "hi from two"],
      [two, "again from two"],
    ] as const) {
      const socket = await ChatSocket.open(from, me.id);
      const id = clientId();
      socket.sendText(id, body);
      await socket.ack(id);
      socket.close();
    }
    const list = await chats(me);
    expect(list.total_unread).toBe(3);
    expect(list.chats.map((c) => [c.profile.name, c.num_unread_messages, c.last_message?.body])).toEqual([
      ["Two", 2, "again from two"],
      ["One", 1, "hi from one"],
    ]);

    // Removing by conversation, then by profile; the other member keeps theirs.
    const removed = await me.browser.delete("/api/chat.php", { conversation: { id: list.chats[0]!.conversation.id } });
    expect(await removed.json()).toEqual({ removed: 1 });
    expect((await chats(me)).chats.map((c) => c.profile.name)).toEqual(["One"]);
    expect((await chats(two)).chats).toHaveLength(1);
    expect((await me.browser.delete("/api/chat.php", { profile: { id: one.id } })).status).toBe(200);
    expect((await chats(me)).chats).toEqual([]);

    // A new message brings it back, without the history removed before.
    const socket = await ChatSocket.open(two, me.id);
    const id = clientId();
    socket.sendText(id, "still there?");
    await socket.ack(id);
    expect((await chats(me)).chats.map((c) => [c.profile.name, c.num_unread_messages])).toEqual([["Two", 1]]);
    expect((await chat(me, `profile=${two.id}`)).messages.map((m) => m.body)).toEqual(["still there?"]);
    socket.close();

    const bad = await me.browser.delete("/api/chat.php", { conversation: { id: "x" } });
    expect(bad.status).toBe(400);
  });

  it("pages history backwards", async () => {
    const anna = await premium();
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    for (let i = 0; i < 35; i++) {
      const id = clientId();
      socket.sendText(id, `m${i}`);
      await socket.ack(id);
    }
    const newest = await chat(bram, `profile=${anna.id}`);
    expect(newest.messages).toHaveLength(30);
    expect(newest.messages[0]!.body).toBe("m5");
    expect(newest.has_more).toBe(true);
    const older = await chat(bram, `profile=${anna.id}&before=${newest.messages[0]!.id}`);
    expect(older.messages.map((m) => m.body)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    expect(older.has_more).toBe(false);
    socket.close();
  });
});
