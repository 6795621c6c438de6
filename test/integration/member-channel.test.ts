import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import * as v from "valibot";
import { CLOSED_ANSWER_MS, PageHints } from "../../src/server/notices/page-hints";
import { tellMember } from "../../src/server/notices/tell";
import type { MemberEvent } from "../../src/shared/member-events";
import { MemberFrame } from "../../src/shared/member-frames";
import { ChatSocket, FrameSocket, chatMember, clientId, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { Browser, fetchWorker, json } from "../http";
import { memberChannelName, roomName } from "../../src/server/notices/object-names";

const ORIGIN = "http://channel.test";
const MESSAGE = 5;

beforeAll(async () => {
  await putSites(site("channel.test", { message_credits: MESSAGE, free_conversations: 2, free_messages: 3 }));
});

type Frame = MemberFrame;
type EventFrame = Extract<Frame, { type: "event" }>;

/** A page's member socket, keeping every frame (checked with the schema the page uses) in order. */
class MemberSocket extends FrameSocket<Frame> {
  private constructor(ws: WebSocket) {
    super(ws, (data) => v.parse(MemberFrame, JSON.parse(data)));
  }

  static async open(member: Member, visible = true): Promise<MemberSocket> {
    const res = await member.browser.fetch(`/api/member-socket.php?visible=${visible ? 1 : 0}`, {
      headers: { upgrade: "websocket", origin: member.browser.origin },
    });
    if (!res.webSocket) throw new Error(`no socket: ${res.status} ${await res.text()}`);
    res.webSocket.accept();
    const socket = new MemberSocket(res.webSocket);
    await socket.next((f) => f.type === "counts");
    return socket;
  }

  /** The next event frame of a kind. */
  event<K extends MemberEvent["kind"]>(kind: K): Promise<EventFrame & { event: Extract<MemberEvent, { kind: K }> }> {
    return this.next((f) => f.type === "event" && f.event.kind === kind) as Promise<
      EventFrame & { event: Extract<MemberEvent, { kind: K }> }
    >;
  }

  say(visible: boolean) {
    this.send({ type: "visibility", visible });
  }
}

const channel = (member: Member) => env.MEMBERS.getByName(memberChannelName(member.id));
const premium = (credits = 1000, name?: string) =>
  chatMember(ORIGIN, { paid: true, credits, ...(name ? { name } : {}) });
const CREDITS_EVENT: MemberEvent = { kind: "credits", credits: 7, paid_user: true };
const now = () => Math.floor(Date.now() / 1000);

async function send(socket: ChatSocket, body: string) {
  const id = clientId();
  socket.sendText(id, body);
  return socket.ack(id);
}

/** A visibility frame is answered by nothing: the presence shows it has arrived. */
async function presenceBecomes(member: Member, visible: number) {
  for (let i = 0; i < 100; i++) {
    if ((await channel(member).presenceNow()).visible === visible) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`presence never became visible=${visible}`);
}

describe("the member socket", () => {
  it("refuses a visitor (403, told to log in), on the socket and the beacon", async () => {
    const socket = await fetchWorker(`${ORIGIN}/api/member-socket.php`, {
      headers: { cookie: "locale=en", origin: ORIGIN, upgrade: "websocket" },
    });
    expect(socket.status).toBe(403);
    expect(await socket.json()).toMatchObject({ error: "authentication_required" });
    const beacon = await fetchWorker(`${ORIGIN}/api/page-hidden.php`, {
      method: "POST",
      headers: { cookie: "locale=en", origin: ORIGIN, "x-request-type": "client", "content-type": "application/json" },
      body: "{}",
    });
    expect(beacon.status).toBe(403);
    expect(await beacon.json()).toMatchObject({ error: "authentication_required" });
  });

  it("refuses another site's page and a request that is not a socket", async () => {
    const anna = await premium();
    const foreign = await anna.browser.fetch("/api/member-socket.php", {
      headers: { upgrade: "websocket", origin: "http://evil.test" },
    });
    expect(foreign.status).toBe(403);
    const plain = await anna.browser.fetch("/api/member-socket.php", { headers: { origin: ORIGIN } });
    expect(plain.status).toBe(426);
  });

  it("connects each member only to their own channel: another member's events never reach them", async () => {
    const anna = await premium();
    const bram = await premium();
    const annaPage = await MemberSocket.open(anna);
    const bramPage = await MemberSocket.open(bram);
    await tellMember(env, bram.id, { kind: "credits", credits: 42, paid_user: true }, now());
    expect((await bramPage.event("credits")).counts.credits).toBe(42);
    await tellMember(env, anna.id, { kind: "credits", credits: 9, paid_user: true }, now());
    expect((await annaPage.event("credits")).counts.credits).toBe(9);
    expect(annaPage.frames).toEqual([]);
    expect(bramPage.frames).toEqual([]);
    // A page that names another member to the object is not let in.
    const forged = await channel(anna).fetch(
      new Request("https://member/socket", {
        headers: {
          upgrade: "websocket",
          "x-channel-member": JSON.stringify({ profileId: bram.id, userId: bram.userId }),
        },
      }),
    );
    expect(forged.status).toBe(400);
    annaPage.close();
    bramPage.close();
  });

  it("gives a page the badges from the database when it connects", async () => {
    const anna = await premium(1000, "Anna");
    const bram = await premium(300);
    const chat = await ChatSocket.open(anna, bram.id);
    await send(chat, "one");
    await send(chat, "two");
    const like = await anna.browser.fetch("/api/like.php", { method: "POST", json: { profile: { id: bram.id } } });
    expect(like.status).toBe(200);
    const page = await MemberSocket.open(bram);
    // The counts frame of the connect was taken by open(); a second page shows the same.
    const second = await bram.browser.fetch("/api/member-socket.php", {
      headers: { upgrade: "websocket", origin: ORIGIN },
    });
    second.webSocket!.accept();
    const counts = await page.next((f) => f.type === "counts");
    expect(counts).toEqual({
      type: "counts",
      counts: { unread_messages: 2, new_likes: 1, credits: 300, paid_user: true },
    });
    second.webSocket!.close(1000);
    page.close();
    chat.close();
  });
});

describe("the member socket of an ended session", () => {
  it("closes when the member logs that device out; this device's stays and the other cannot reconnect", async () => {
    const anna = await premium();
    const phoneBrowser = new Browser(ORIGIN);
    const login = await phoneBrowser.fetch("/api/user.php", {
      method: "POST",
      json: { email: anna.user.email, password: "a good password" },
    });
    expect(login.status).toBe(200);
    const phone: Member = { ...anna, browser: phoneBrowser };
    const here = await MemberSocket.open(anna);
    const there = await MemberSocket.open(phone);
    const sessions = await json<{ sessions: { id: string; current: boolean }[] }>(
      await anna.browser.fetch("/api/sessions.php"),
    );
    const phoneSession = sessions.sessions.find((s) => !s.current)!;
    expect(
      (await anna.browser.fetch("/api/sessions.php", { method: "DELETE", json: { id: phoneSession.id } })).status,
    ).toBe(200);
    for (let i = 0; i < 100 && !there.closed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect([there.closed, here.closed]).toEqual([true, false]);
    await expect(MemberSocket.open(phone)).rejects.toThrow(/403/);
    await tellMember(env, anna.id, CREDITS_EVENT, now());
    expect((await here.event("credits")).counts.credits).toBe(7);
    here.close();
  });
});

describe("the channel hears of", () => {
  it("a message sent through the conversation's object, and the sender's balance after a paid send", async () => {
    const anna = await premium(1000, "Anna");
    const bram = await premium(1000, "Bram");
    const bramPage = await MemberSocket.open(bram);
    const annaPage = await MemberSocket.open(anna);
    const chat = await ChatSocket.open(anna, bram.id);
    const ack = await send(chat, "hello Bram");

    const message = await bramPage.event("message");
    expect(message.event).toMatchObject({
      conversation_id: ack.message.conversation_id,
      peer_id: anna.id,
      peer_name: "Anna",
      message_kind: "text",
      preview: "hello Bram",
      first: true,
      unread: 1,
    });
    expect(message.counts).toMatchObject({ unread_messages: 1, new_likes: 0, credits: 1000 });

    const credits = await annaPage.event("credits");
    expect(credits.event).toEqual({ kind: "credits", credits: 1000 - MESSAGE, paid_user: true });
    expect(credits.counts.credits).toBe(1000 - MESSAGE);

    await send(chat, "again");
    expect((await bramPage.event("message")).event).toMatchObject({ first: false, unread: 2 });
    chat.close();
    bramPage.close();
    annaPage.close();
  });

  it("a read on one page: the member's other pages drop the badge", async () => {
    const anna = await premium(1000, "Anna");
    const bram = await premium();
    const bramPage = await MemberSocket.open(bram);
    const annaChat = await ChatSocket.open(anna, bram.id);
    await send(annaChat, "one");
    const last = await send(annaChat, "two");
    expect((await bramPage.event("message")).counts.unread_messages).toBe(1);
    expect((await bramPage.event("message")).counts.unread_messages).toBe(2);

    const bramChat = await ChatSocket.open(bram, anna.id);
    bramChat.send({ type: "read", message_id: last.message.id });
    const read = await bramPage.event("read");
    expect(read.event).toEqual({
      kind: "read",
      conversation_id: last.message.conversation_id,
      peer_id: anna.id,
      unread: 0,
    });
    expect(read.counts.unread_messages).toBe(0);

    // Removing a conversation with unread messages on one page: the other pages drop its count.
    const unseen = await send(annaChat, "three");
    expect((await bramPage.event("message")).counts.unread_messages).toBe(1);
    const removed = await bram.browser.fetch("/api/chat.php", {
      method: "DELETE",
      json: { conversation: { id: unseen.message.conversation_id } },
    });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ removed: 1 });
    const cleared = await bramPage.event("read");
    expect(cleared.event).toMatchObject({ conversation_id: unseen.message.conversation_id, unread: 0 });
    expect(cleared.counts.unread_messages).toBe(0);
    annaChat.close();
    bramChat.close();
    bramPage.close();
  });

  it("a block, either way, takes the conversation's unread messages off the badges at once; the writer's unblock puts them back", async () => {
    /** Two messages from the writer, seen on the reader's open page. */
    const wrote = async (writer: Member, reader: Member) => {
      const page = await MemberSocket.open(reader);
      const chat = await ChatSocket.open(writer, reader.id);
      await send(chat, "one");
      await send(chat, "two");
      expect((await page.event("message")).counts.unread_messages).toBe(1);
      expect((await page.event("message")).counts.unread_messages).toBe(2);
      chat.close();
      return page;
    };
    const counts = async (page: MemberSocket) => (await page.next((f) => f.type === "counts")).counts.unread_messages;

    // The reader blocks the writer: the conversation leaves the reader's list, and the badge drops.
    const anna = await premium(1000, "Anna");
    const bram = await premium(1000, "Bram");
    const bramPage = await wrote(anna, bram);
    expect((await bram.browser.post("/api/block.php", { profile_id: anna.id })).status).toBe(200);
    expect(await counts(bramPage)).toBe(0);
    bramPage.close();

    // The writer blocks the reader: the reader's badge drops too, and comes back when the writer unblocks.
    const cees = await premium(1000, "Cees");
    const dora = await premium(1000, "Dora");
    const doraPage = await wrote(cees, dora);
    expect((await cees.browser.post("/api/block.php", { profile_id: dora.id })).status).toBe(200);
    expect(await counts(doraPage)).toBe(0);
    expect((await cees.browser.delete("/api/block.php", { profile_id: dora.id })).status).toBe(200);
    expect(await counts(doraPage)).toBe(2);
    doraPage.close();
  });

  it("a like, and a match told to both", async () => {
    const anna = await premium(1000, "Anna");
    const bram = await premium(1000, "Bram");
    const annaPage = await MemberSocket.open(anna);
    const bramPage = await MemberSocket.open(bram);
    expect(
      (await anna.browser.fetch("/api/like.php", { method: "POST", json: { profile: { id: bram.id } } })).status,
    ).toBe(200);
    const like = await bramPage.event("like");
    expect(like.event).toMatchObject({ liker_id: anna.id, liker_name: "Anna" });
    expect(like.counts.new_likes).toBe(1);
    // Liking again is no news.
    expect(
      (await anna.browser.fetch("/api/like.php", { method: "POST", json: { profile: { id: bram.id } } })).status,
    ).toBe(200);

    expect(
      (await bram.browser.fetch("/api/like.php", { method: "POST", json: { profile: { id: anna.id } } })).status,
    ).toBe(200);
    expect((await annaPage.event("match")).event).toMatchObject({
      peer_id: bram.id,
      peer_name: "Bram",
      peer_verified: false,
    });
    expect((await bramPage.event("match")).event).toMatchObject({ peer_id: anna.id, peer_name: "Anna" });
    expect(annaPage.frames).toEqual([]);
    expect(bramPage.frames.filter((f) => f.type === "event" && f.event.kind === "like")).toEqual([]);
    annaPage.close();
    bramPage.close();
  });

  it("a paid order: the balance and premium standing", async () => {
    const buyer = await chatMember(ORIGIN, { credits: 0 });
    const page = await MemberSocket.open(buyer);
    const res = await buyer.browser.fetch("/api/order.php", {
      method: "POST",
      headers: { "cf-connecting-ip": `10.9.${buyer.userId >> 8}.${buyer.userId & 255}` },
      json: { bundle_id: 1, method: "ideal" },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { order } = await json<{ order: { checkout_url: string } }>(res);
    await buyer.browser.fetch(new URL(order.checkout_url).pathname, {
      method: "POST",
      body: new URLSearchParams({ status: "paid" }),
    });
    const credited = (await env.DB.prepare("SELECT credits FROM users WHERE id = ?")
      .bind(buyer.userId)
      .first<{ credits: number }>())!.credits;
    expect(credited).toBeGreaterThan(0);
    const frame = await page.event("credits");
    expect(frame.event).toEqual({ kind: "credits", credits: credited, paid_user: true });
    expect(frame.counts).toMatchObject({ credits: credited, paid_user: true });
    page.close();
  });
});

describe("the badges", () => {
  it("eviction of the member object loses no badge update (counts come back right)", async () => {
    const anna = await premium(1000, "Anna");
    const cleo = await premium(1000, "Cleo");
    const bram = await premium(1000, "Bram");
    const bramPage = await MemberSocket.open(bram);
    const fromAnna = await ChatSocket.open(anna, bram.id);
    const fromCleo = await ChatSocket.open(cleo, bram.id);
    await send(fromAnna, "a1");
    await send(fromAnna, "a2");
    expect((await bramPage.event("message")).counts.unread_messages).toBe(1);
    expect((await bramPage.event("message")).counts.unread_messages).toBe(2);

    // The object goes from memory; the page's socket stays (hibernation).
    await evictDurableObject(channel(bram));
    await send(fromCleo, "c1");
    expect((await bramPage.event("message")).counts).toMatchObject({ unread_messages: 3, new_likes: 0, credits: 1000 });
    await evictDurableObject(channel(bram));
    expect(
      (await cleo.browser.fetch("/api/like.php", { method: "POST", json: { profile: { id: bram.id } } })).status,
    ).toBe(200);
    expect((await bramPage.event("like")).counts).toMatchObject({ unread_messages: 3, new_likes: 1 });
    await evictDurableObject(channel(bram));
    await send(fromAnna, "a3");
    expect((await bramPage.event("message")).counts.unread_messages).toBe(4);

    // The same answer the chat list and the likes give.
    const chats = await json<{ total_unread: number }>(await bram.browser.fetch("/api/chats.php"));
    expect(chats.total_unread).toBe(4);
    fromAnna.close();
    fromCleo.close();
    bramPage.close();
  });

  it("badges too big for a page's socket to keep are read from the database again after an eviction", async () => {
    const gus = await premium(1000, "Gus");
    const page = await MemberSocket.open(gus);
    // Unread messages in 300 conversations (events only: the database knows none of them).
    for (let id = 1; id <= 300; id++) {
      await channel(gus).tell({
        kind: "message",
        conversation_id: 9_000_000 + id,
        peer_id: 1,
        peer_name: "X",
        message_kind: "text",
        preview: "x",
        first: true,
        unread: 1,
        created_at: now(),
      });
    }
    let last: Awaited<ReturnType<MemberSocket["event"]>> | undefined;
    for (let i = 0; i < 300; i++) last = await page.event("message");
    expect(last!.counts.unread_messages).toBe(300);

    await evictDurableObject(channel(gus));
    expect(await tellMember(env, gus.id, CREDITS_EVENT, now())).toEqual({ open: 1, visible: 1 });
    // Not the 300 the object had in memory: what the database says, as the page's next frame.
    const after = await page.event("credits");
    expect(after.counts.unread_messages).toBe(0);
    page.close();
  });

  it("with no page open, an event costs nothing: no storage, no alarm, presence none", async () => {
    const dora = await premium();
    const nothingKept = () =>
      runInDurableObject(channel(dora), async (_instance, state) => {
        expect([...state.storage.kv.list()]).toEqual([]);
        expect(await state.storage.getAlarm()).toBeNull();
      });
    expect(await tellMember(env, dora.id, CREDITS_EVENT, now())).toEqual({ open: 0, visible: 0 });
    await nothingKept();
    // A page came and went: its close leaves nothing behind either.
    const page = await MemberSocket.open(dora);
    expect(await tellMember(env, dora.id, CREDITS_EVENT, now())).toEqual({ open: 1, visible: 1 });
    page.close();
    for (let i = 0; (await channel(dora).presenceNow()).open > 0 && i < 100; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await tellMember(env, dora.id, CREDITS_EVENT, now())).toEqual({ open: 0, visible: 0 });
    await nothingKept();
  });
});

describe("a member with no page open", () => {
  /** Whether the conversation's object holds news for the member's pages back (their channel said no page is open). */
  const heldBack = (one: Member, other: Member, member: Member) =>
    runInDurableObject(env.CONVERSATIONS.getByName(roomName(one.id, other.id)), (instance) =>
      (instance as unknown as { notices: { pages: PageHints<string, unknown> } }).notices.pages.closed(
        member.id,
        Date.now(),
      ),
    );

  it("costs a quick run of messages no call to their channel, and a page opening in the run still hears the latest message and balance", async () => {
    const anna = await premium(1000, "Anna");
    const bram = await premium(1000, "Bram");
    const chat = await ChatSocket.open(anna, bram.id);
    // The first message asks both channels (push and mail for Bram, the balance for Anna): no page is open.
    await send(chat, "one");
    await expect.poll(() => heldBack(anna, bram, bram)).toBe(true);
    await expect.poll(() => heldBack(anna, bram, anna)).toBe(true);
    await send(chat, "two");
    const three = await send(chat, "three");

    // Bram opens a page: the badges from the database, then the latest message the object held back.
    const bramPage = await MemberSocket.open(bram);
    const latest = await bramPage.event("message");
    expect(latest.event).toMatchObject({
      conversation_id: three.message.conversation_id,
      peer_name: "Anna",
      preview: "three",
      unread: 3,
      first: false,
    });
    expect(latest.counts.unread_messages).toBe(3);
    expect(await heldBack(anna, bram, bram)).toBe(false);
    // From now on every message reaches the page at once.
    await send(chat, "four");
    expect((await bramPage.event("message")).event).toMatchObject({ preview: "four", unread: 4 });

    // Anna opens a page: her balance after the last paid send.
    const annaPage = await MemberSocket.open(anna);
    const balance = await annaPage.event("credits");
    expect(balance.event).toEqual({ kind: "credits", credits: 1000 - 4 * MESSAGE, paid_user: true });
    chat.close();
    bramPage.close();
    annaPage.close();
  });

  it("is asked again once the channel's answer runs out", async () => {
    const hints = new PageHints<"message", string>();
    const asked = hints.ask(7, 1_000);
    expect(hints.learn(asked, 0, 1_010)).toEqual([]);
    expect(hints.closed(7, 1_000 + CLOSED_ANSWER_MS - 1)).toBe(true);
    hints.keep(7, "message", "m1", 2_000);
    hints.keep(7, "message", "m2", 2_500);
    // The answer counts from when the call started, so the object forgets it before the channel does.
    expect(hints.closed(7, 1_000 + CLOSED_ANSWER_MS)).toBe(false);
    // A later call finds a page open: the latest news kept back goes to it, once.
    expect(hints.learn(hints.ask(7, 6_100), 1, 6_110)).toEqual(["m2"]);
    expect(hints.learn(hints.ask(7, 6_200), 1, 6_210)).toEqual([]);
  });

  it("does not believe a 'no page' that a page's opening overtook, nor hand over news too old to be right", async () => {
    const hints = new PageHints<"message" | "balance", string>();
    const before = hints.ask(8, 1_000);
    expect(hints.opened(8, 1_005)).toEqual([]);
    expect(hints.learn(before, 0, 1_010)).toEqual([]);
    expect(hints.closed(8, 1_020)).toBe(false);

    expect(hints.learn(hints.ask(8, 2_000), 0, 2_010)).toEqual([]);
    hints.keep(8, "balance", "old balance", 2_100);
    // A page opens long after: the page read everything from the database itself; the kept balance could undo a newer one.
    expect(hints.opened(8, 2_100 + 60_000)).toEqual([]);
  });
});

describe("presence and the page-hidden beacon", () => {
  const beacon = (
    member: Member,
    body: string | null = "{}",
    headers: Record<string, string> = { "content-type": "application/json" },
  ) => member.browser.fetch("/api/page-hidden.php", { method: "POST", headers, body });

  it("the beacon marks the member's pages hidden and tellMember's presence says so; a page in view says so again", async () => {
    const eva = await premium();
    const page = await MemberSocket.open(eva);
    expect(await tellMember(env, eva.id, CREDITS_EVENT, now())).toEqual({ open: 1, visible: 1 });
    const res = await beacon(eva);
    expect(res.status).toBe(204);
    expect(await tellMember(env, eva.id, CREDITS_EVENT, now())).toEqual({ open: 1, visible: 0 });
    // Each page is asked; this one is in view after all.
    await page.next((f) => f.type === "visibility_check");
    page.say(true);
    await presenceBecomes(eva, 1);
    expect(await tellMember(env, eva.id, CREDITS_EVENT, now())).toEqual({ open: 1, visible: 1 });
    page.close();
  });

  it("a visible tab in one window and a hidden one in another count as visible", async () => {
    const finn = await premium();
    const shown = await MemberSocket.open(finn, true);
    const hidden = await MemberSocket.open(finn, false);
    expect(await tellMember(env, finn.id, CREDITS_EVENT, now())).toEqual({ open: 2, visible: 1 });
    // The hidden tab sends the beacon as it goes away; the tab in view answers the check, the hidden one says hidden.
    expect((await beacon(finn)).status).toBe(204);
    await shown.next((f) => f.type === "visibility_check");
    shown.say(true);
    hidden.say(false);
    await presenceBecomes(finn, 1);
    expect(await tellMember(env, finn.id, CREDITS_EVENT, now())).toEqual({ open: 2, visible: 1 });
    shown.say(false);
    await presenceBecomes(finn, 0);
    hidden.close();
    shown.close();
  });

  it("a bad beacon body is a clear 400 and changes nothing", async () => {
    const gus = await premium();
    const page = await MemberSocket.open(gus);
    for (const [body, headers] of [
      ['{"visible":false}', { "content-type": "application/json" }],
      ['{"constructor":{}}', { "content-type": "application/json" }],
      ["not json", { "content-type": "application/json" }],
      ["[]", { "content-type": "application/json" }],
      ["{}", { "content-type": "text/plain" }],
      [null, {}] as const,
    ] as const) {
      const res = await beacon(gus, body, headers);
      expect(res.status, String(body)).toBe(400);
      expect(await res.json()).toMatchObject({
        error: expect.stringMatching(/^invalid_/),
        message: expect.any(String),
      });
    }
    expect(await channel(gus).presenceNow()).toEqual({ open: 1, visible: 1 });
    page.close();
  });
});
