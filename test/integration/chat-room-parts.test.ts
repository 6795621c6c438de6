/**
 * The parts of a conversation's object, each on its own (docs/decisions/0031): the credit holds and
 * the page notices as plain logic with the clock as a parameter, the decision of a send as a plain
 * function of the facts at hand; the D1 journal and the send pipeline inside a real object
 * (runInDurableObject), where a member's socket drives them.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ConversationRoom } from "../../src/server/chat/conversation-room";
import { CreditHolds, HOLD_IDLE_MS, HOLD_MESSAGES, type PaidFromBalance } from "../../src/server/chat/credit-holds";
import { ConversationPair } from "../../src/server/chat/conversation-pair";
import { decideInGroup, type SendAtHand } from "../../src/server/chat/send-decision";
import type { MemberFactsRow } from "../../src/server/services/chats";
import type { D1Journal } from "../../src/server/chat/d1-journal";
import { FACTS_TTL_MS, MemberFacts } from "../../src/server/chat/member-facts";
import { NOTICE_QUIET_MS, ConversationNotices, type NoticeKind } from "../../src/server/notices/conversation-notices";
import type { SendRecord } from "../../src/server/db/chat-ledger";
import { databaseOf } from "../../src/server/db/database";
import type { SentMessage } from "../../src/server/notices/tell";
import { ChatSocket, chatMember, clientId, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { roomName } from "../../src/server/notices/object-names";

const ORIGIN = "http://chat-parts.test";
const MESSAGE = 5;

beforeAll(async () => {
  await putSites(
    site("chat-parts.test", { message_credits: MESSAGE, free_conversations: 1, free_messages: 3, message_length: 200 }),
  );
});

/** A paid send's D1 side as the pipeline hands it to the holds. */
function paid(profileId: number, credits = MESSAGE, now = 1_000): PaidFromBalance {
  const record: SendRecord = {
    conversationId: 7,
    messageId: 1,
    write: "w",
    senderProfileId: profileId,
    senderUserId: profileId + 100,
    recipientProfileId: profileId + 1,
    kind: "text",
    preview: "hi",
    credits,
    free: credits === 0,
    photoId: null,
    recipientHasWritten: false,
    freeUsedHere: 0,
    allowance: { freeMessages: 0, freeConversations: 0 },
    recipientUnread: 1,
    now,
  };
  return { profileId, messageCredits: MESSAGE, record };
}

describe("the credit holds", () => {
  it("hold nothing for a first paid message, then ask for twenty messages' worth from the second on", () => {
    const holds = new CreditHolds();
    expect(holds.forGroup([paid(1, 0)], 0)).toEqual([]);
    const [first] = holds.forGroup([paid(1)], 0);
    expect(first).toMatchObject({ userId: 101, release: true, want: 0, least: MESSAGE });
    const [second] = holds.forGroup([paid(1)], 0);
    expect(second).toMatchObject({ release: true, want: HOLD_MESSAGES * MESSAGE, least: MESSAGE });
    // Two paid messages of one member in one group: the group's last one asks for the full hold.
    expect(new CreditHolds().forGroup([paid(2), paid(2)], 0)).toMatchObject([
      { userId: 102, want: HOLD_MESSAGES * MESSAGE },
    ]);
  });

  it("pay a send only from what D1 said is held, less what the journal has yet to charge, and never after a member change", () => {
    const holds = new CreditHolds();
    expect(holds.covers(1, MESSAGE)).toBe(false);
    const asked = holds.forGroup([paid(1), paid(1)], 0);
    const version = holds.version;
    expect(
      holds.learn(
        [{ userId: 101, hold: 100, credits: 500, allowed: true }],
        [asked[0]!.standing as SendRecord],
        version,
        () => 10,
      ),
    ).toEqual([]);
    expect(holds.covers(1, 90)).toBe(true);
    expect(holds.covers(1, 91)).toBe(false);
    holds.spend(1, 90, 5);
    expect(holds.covers(1, MESSAGE)).toBe(false);
    expect(holds.covers(1, 0)).toBe(false);

    // D1 answered about a standing from before a member changed: not believed.
    const before = holds.version;
    holds.memberChanged();
    expect(
      holds.learn([{ userId: 101, hold: 100, credits: 500, allowed: true }], [paid(1).record], before, () => 0),
    ).toEqual([]);
    expect(holds.covers(1, MESSAGE)).toBe(false);
    // A standing that no longer allows a send: nothing to spend, and the member's facts are to be read again.
    expect(
      holds.learn([{ userId: 101, hold: 100, credits: 500, allowed: false }], [paid(1).record], holds.version, () => 0),
    ).toEqual([1]);
    expect(holds.covers(1, MESSAGE)).toBe(false);
  });

  it("are not used once another conversation asked them back, until the member pays here from the balance again", () => {
    const holds = new CreditHolds();
    holds.forGroup([paid(1), paid(1)], 0);
    holds.learn([{ userId: 101, hold: 100, credits: 500, allowed: true }], [paid(1).record], holds.version, () => 0);
    holds.askBack(1);
    expect(holds.covers(1, MESSAGE)).toBe(false);
    holds.learn([{ userId: 101, hold: 100, credits: 500, allowed: true }], [paid(1).record], holds.version, () => 0);
    expect(holds.covers(1, MESSAGE)).toBe(false);
    expect(holds.topUps([paid(1).record])).toEqual([]);
    holds.forGroup([paid(1)], 0);
    holds.learn([{ userId: 101, hold: 100, credits: 500, allowed: true }], [paid(1).record], holds.version, () => 0);
    expect(holds.covers(1, MESSAGE)).toBe(true);
  });

  it("are topped up once half is spent, and go back after a minute without a send", () => {
    const holds = new CreditHolds();
    holds.forGroup([paid(1), paid(1)], 1_000);
    holds.learn([{ userId: 101, hold: 100, credits: 500, allowed: true }], [paid(1).record], holds.version, () => 0);
    expect(holds.anyLow()).toBe(false);
    expect(holds.topUps([paid(1).record])).toEqual([]);
    holds.spend(1, 55, 2_000);
    expect(holds.anyLow()).toBe(true);
    expect(holds.topUps([paid(1).record, paid(1).record])).toMatchObject([
      { userId: 101, release: false, want: 55, least: MESSAGE },
    ]);
    expect(holds.idleAt(2_000 + HOLD_IDLE_MS - 1)).toBe(2_000 + HOLD_IDLE_MS);
    expect(holds.idleAt(2_000 + HOLD_IDLE_MS)).toBeNull();
  });
});

describe("the page notices", () => {
  const sent = (recipient: number, credits: number, pagesOnly: boolean): SentMessage => ({
    sender: { profileId: 1, userId: 101, premium: true },
    recipient,
    messageId: 1,
    unread: 1,
    balance: 50,
    record: { conversationId: 7, kind: "text", preview: "hi", credits, now: 1 },
    pagesOnly,
  });

  it("tell push and mail of the first message of a quick run only, and again once the member has read everything", () => {
    let now = 1_000;
    const notices = new ConversationNotices(
      async () => ({ open: 0, visible: 0 }),
      () => now,
    );
    expect(notices.recentlyNoticed(2)).toBe(false);
    now += NOTICE_QUIET_MS - 1;
    expect(notices.recentlyNoticed(2)).toBe(true);
    notices.readAll(2);
    expect(notices.recentlyNoticed(2)).toBe(false);
    now += NOTICE_QUIET_MS;
    expect(notices.recentlyNoticed(2)).toBe(false);
  });

  it("keep news for pages only back from a member with no page open, and hand the latest over when a page opens", async () => {
    let now = 1_000;
    let open = 0;
    const calls: { kind: NoticeKind; to: number; pagesOnly: boolean }[] = [];
    const notices = new ConversationNotices(
      async (kind, s) => {
        calls.push({
          kind,
          to: kind === "message" ? s.recipient : s.sender.profileId,
          pagesOnly: s.pagesOnly === true,
        });
        return { open, visible: open };
      },
      () => now,
    );
    // The first message goes to the recipient's channel (push and mail) and the balance to the sender's.
    await notices.tell(sent(2, MESSAGE, false));
    expect(calls).toEqual([
      { kind: "message", to: 2, pagesOnly: false },
      { kind: "balance", to: 1, pagesOnly: false },
    ]);
    // Both said no page is open: the next message, for pages only, costs no call.
    calls.length = 0;
    now += 100;
    await notices.tell(sent(2, MESSAGE, true));
    expect(calls).toEqual([]);
    // A page of the recipient opens: the message kept back goes to it, as news for pages only.
    open = 1;
    await notices.pageOpened(2);
    expect(calls).toEqual([{ kind: "message", to: 2, pagesOnly: true }]);
  });
});

describe("the decision of a send", () => {
  const rules = site("chat-parts.test", {
    message_credits: MESSAGE,
    photo_credits: 10,
    free_conversations: 1,
    free_messages: 3,
    message_length: 200,
  });
  /** A free member with no credits writing to Bram, who can be written to. */
  const sender = (row: Partial<MemberFactsRow> = {}): MemberFactsRow => ({
    senderStatus: "active",
    chatRestrictedUntil: null,
    suspendedUntil: null,
    credits: 0,
    paid: false,
    recipientName: "Bram",
    recipientStatus: "active",
    recipientProfileStatus: "active",
    recipientInvisible: false,
    blockedByMe: false,
    blockedMe: false,
    freeConversationsUsed: 0,
    heldElsewhere: 0,
    senderVerified: false,
    recipientVerifiedOnly: false,
    conversationStarted: false,
    ...row,
  });
  /** A text from 1 to 2 on facts read fresh, first of its group, with no hold here. */
  const text = (row: Partial<MemberFactsRow>, at: Partial<SendAtHand> = {}): SendAtHand => ({
    site: rules,
    sender: 1,
    peer: 2,
    request: { kind: "text", body: "hello" },
    read: { row: sender(row), fresh: true },
    recorded: { freeUsedHere: 0, recipientHasWritten: false },
    before: [],
    holdCovers: () => false,
    recalled: false,
    ...at,
  });

  it("refuses a send the member lacks the credits for, on fresh facts only, after the other conversations give back what they hold", () => {
    const short = { paid: true, credits: MESSAGE - 1 };
    expect(decideInGroup(text(short))).toEqual({
      outcome: "refused",
      refusal: {
        status: 402,
        code: "insufficient_credits",
        key: "errors.not_enough_credits",
        values: { name: "Bram" },
      },
    });
    // On facts that may be old, or after an earlier send of the group took its credits: decided again alone, later.
    expect(decideInGroup(text(short, { read: { row: sender(short), fresh: false } }))).toEqual({ outcome: "later" });
    expect(
      decideInGroup(
        text({ paid: true, credits: MESSAGE + 1 }, { before: [{ sender: 1, free: false, credits: MESSAGE }] }),
      ),
    ).toEqual({ outcome: "later" });
    // Enough credits, but another conversation holds some: it gives them back, then the send is decided again.
    const held = { paid: true, credits: MESSAGE, heldElsewhere: 1 };
    expect(decideInGroup(text(held))).toEqual({ outcome: "recallHolds" });
    expect(decideInGroup(text(held, { recalled: true }))).toMatchObject({
      outcome: "refused",
      refusal: { code: "insufficient_credits" },
    });
  });

  it("sends free messages while the member has free messages left here, then at the message price", () => {
    expect(decideInGroup(text({}))).toEqual({
      outcome: "accepted",
      price: { credits: 0, free: true },
      paidFrom: "free",
      credits: 0,
      recipientName: "Bram",
      here: { freeUsedHere: 0, recipientHasWritten: false },
    });
    // The group's earlier free messages count with those recorded here: the third is the last free one.
    const twoBefore = [
      { sender: 1, free: true, credits: 0 },
      { sender: 1, free: true, credits: 0 },
    ];
    expect(decideInGroup(text({}, { before: twoBefore }))).toMatchObject({
      outcome: "accepted",
      price: { credits: 0, free: true },
      here: { freeUsedHere: 2 },
    });
    const used = { recorded: { freeUsedHere: 1, recipientHasWritten: false }, before: twoBefore };
    expect(decideInGroup(text({ credits: 50 }, used))).toMatchObject({
      outcome: "accepted",
      price: { credits: MESSAGE, free: false },
      paidFrom: "balance",
      here: { freeUsedHere: 3 },
    });
    // Free messages in another conversation used up the free conversations: this one starts paid.
    expect(decideInGroup(text({ credits: 50, freeConversationsUsed: 1 }))).toMatchObject({
      price: { credits: MESSAGE, free: false },
    });
    expect(decideInGroup(text({ freeConversationsUsed: 1 }))).toMatchObject({
      outcome: "refused",
      refusal: { code: "insufficient_credits" },
    });
  });

  it("prices a paid message, paid from the hold here when it covers it and nothing before it waits for D1", () => {
    const paidMember = { paid: true, credits: 100, heldElsewhere: 20 };
    expect(decideInGroup(text(paidMember))).toEqual({
      outcome: "accepted",
      price: { credits: MESSAGE, free: false },
      paidFrom: "balance",
      // What other conversations hold is not this one's to spend.
      credits: 80,
      recipientName: "Bram",
      here: { freeUsedHere: 0, recipientHasWritten: false },
    });
    const hold = (credits: number) => credits <= 50;
    expect(decideInGroup(text(paidMember, { holdCovers: hold }))).toMatchObject({
      price: { credits: MESSAGE, free: false },
      paidFrom: "hold",
    });
    expect(
      decideInGroup(text(paidMember, { holdCovers: hold, before: [{ sender: 2, free: false, credits: MESSAGE }] })),
    ).toMatchObject({ paidFrom: "balance", credits: 80, here: { recipientHasWritten: true } });
    expect(decideInGroup(text(paidMember, { request: { kind: "image" } }))).toMatchObject({
      price: { credits: 10, free: false },
    });
  });
});

const premium = (credits = 1000) => chatMember(ORIGIN, { paid: true, credits });
const room = (a: Member, b: Member) =>
  env.CONVERSATIONS.getByName(roomName(a.id, b.id)) as DurableObjectStub<ConversationRoom>;
/** The object's parts, reached inside it. */
type Inside = { journal: D1Journal; pair: ConversationPair };

async function sendText(socket: ChatSocket, body: string) {
  const id = clientId();
  socket.sendText(id, body);
  return socket.reply(id);
}

describe("the send pipeline and the D1 journal in the object", () => {
  it("marks a message recorded in D1 before the ack as recorded here at the start of the object's next turn", async () => {
    const anna = await premium();
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    // The first paid message takes the slow path: D1 records it before the ack.
    expect(await sendText(socket, "one")).toMatchObject({ type: "ack", credits: 1000 - MESSAGE });
    const recordedHere = () =>
      runInDurableObject(
        room(anna, bram),
        (_room, state) => state.storage.sql.exec<{ recorded: number }>("SELECT recorded FROM messages").one().recorded,
      );
    // Acknowledged, recorded in D1, not yet marked here: that waits for the next turn.
    expect(await recordedHere()).toBe(0);
    expect(
      (await env.DB.prepare("SELECT last_message_id FROM conversations WHERE profile_a = ? AND profile_b = ?")
        .bind(Math.min(anna.id, bram.id), Math.max(anna.id, bram.id))
        .first<{ last_message_id: number }>())!.last_message_id,
    ).toBe(1);
    // Any turn (here a history page) first finishes the earlier sends.
    await room(anna, bram).history(anna.id, bram.id, null, 0);
    expect(await recordedHere()).toBe(1);
    socket.close();
  });

  it("journals a message paid from the hold, acknowledged before D1 has it, and has D1 record it once", async () => {
    const anna = await premium();
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    await sendText(socket, "one");
    await sendText(socket, "two");
    // The third is paid from the hold the second took; the journal goes to D1 right after the ack.
    expect(await sendText(socket, "three")).toMatchObject({ type: "ack", credits: 1000 - 3 * MESSAGE });
    await expect
      .poll(() => runInDurableObject(room(anna, bram), (instance) => (instance as unknown as Inside).journal.waiting()))
      .toBe(false);
    const ledger = await env.DB.prepare(
      "SELECT SUM(messages) AS n FROM credit_ledger WHERE user_id = ? AND reason = 'chat'",
    )
      .bind(anna.userId)
      .first<{ n: number }>();
    expect(ledger!.n).toBe(3);
    // Recording again finds nothing left: charged once.
    await runInDurableObject(room(anna, bram), async (instance) => {
      const journal = (instance as unknown as Inside).journal;
      await journal.inOrder(() => journal.record());
      expect(journal.waiting()).toBe(false);
      expect(journal.creditsWaiting(anna.id)).toBe(0);
    });
    expect(
      (await env.DB.prepare("SELECT credits FROM users WHERE id = ?").bind(anna.userId).first<{ credits: number }>())!
        .credits,
    ).toBe(1000 - 3 * MESSAGE);
    socket.close();
  });
});

describe("what the object knows of its pair and its members", () => {
  it("belongs to the pair its first caller names, kept through a start", async () => {
    const stub = env.CONVERSATIONS.getByName(`parts-pair-${crypto.randomUUID()}`);
    await runInDurableObject(stub, (_instance, state) => {
      const db = databaseOf(env.DB);
      const pair = new ConversationPair(state.storage, db);
      expect(pair.claim(9, 4)).toBe(true);
      expect(pair.members).toEqual([4, 9]);
      expect(pair.otherOf(4)).toBe(9);
      expect(pair.claim(4, 5)).toBe(false);
      // A new start reads the pair from the object's storage.
      const again = new ConversationPair(state.storage, db);
      expect(again.claim(5, 9)).toBe(false);
      expect(again.claim(4, 9)).toBe(true);
    });
  });

  it("keeps the facts the rules read for FACTS_TTL_MS, reads them again when asked fresh, and knows who wrote here", async () => {
    const anna = await premium(300);
    const bram = await premium();
    const socket = await ChatSocket.open(anna, bram.id);
    await sendText(socket, "hello");
    socket.close();
    // A turn of the object marks Anna's message recorded here (step 5 of the send).
    await room(anna, bram).history(anna.id, bram.id, null, 0);
    await runInDurableObject(room(anna, bram), async (instance, state) => {
      let now = 1_000_000;
      const sender = { profileId: anna.id, userId: anna.userId };
      const known = new MemberFacts(
        databaseOf(env.DB),
        state.storage.sql,
        (instance as unknown as Inside).pair,
        () => now,
      );
      const first = await known.read(sender, bram.id, false);
      expect(first).toMatchObject({
        fresh: true,
        row: { credits: 300 - MESSAGE, paid: true, recipientName: bram.user.profile.name },
      });
      await env.DB.prepare("UPDATE users SET credits = 7 WHERE id = ?").bind(anna.userId).run();
      now += FACTS_TTL_MS - 1;
      expect(await known.read(sender, bram.id, false)).toMatchObject({ fresh: false, row: { credits: 300 - MESSAGE } });
      expect(await known.read(sender, bram.id, true)).toMatchObject({ fresh: true, row: { credits: 7 } });
      known.setBalance(anna.id, 2);
      expect(known.balanceOf(anna.id)).toBe(2);
      now += FACTS_TTL_MS;
      expect(await known.read(sender, bram.id, false)).toMatchObject({ fresh: true, row: { credits: 7 } });
      // A free message may start a free conversation: those facts are read again.
      known.recorded(anna.id, true, 7);
      expect(known.balanceOf(anna.id)).toBeUndefined();
      expect(known.hasWritten(anna.id)).toBe(true);
      expect(known.hasWritten(bram.id)).toBe(false);
    });
  });
});
