/**
 * A session that ends ends every socket it opened (issue 20, point 1; docs/decisions/0025): the chat
 * socket to a member this account never wrote to (no conversation in D1 yet) as much as any other,
 * and the member socket; and the conversation's object refuses every send of an ended session, so
 * nothing from it is stored or charged. Each way a session ends is raced as the review did it: a
 * second login opens a chat socket to a new contact and sends while the session is ended.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { ServerFrame } from "../../src/shared/chat";
import { databaseOf } from "../../src/server/db/database";
import { disableAccount } from "../../src/server/db/reports";
import { publicSessionIsLive } from "../../src/server/db/sessions";
import { SESSION_CHECK_MS, SessionCheck } from "../../src/server/chat/session-check";
import {
  chatSocketOpened,
  chatSocketsOfEnded,
  ENDED_KEPT_MS,
  OPENED_KEPT_MS,
} from "../../src/server/notices/session-sockets";
import { ChatSocket, chatMember, clientId, closedSoon, memberSocket, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { Browser, json } from "../http";
import { roomName } from "../../src/server/notices/object-names";

const ORIGIN = "http://revoke.test";
const PASSWORD = "a good password";
/** Rounds of each race: the review saw its races about one try in five. */
const ROUNDS = 8;

// Each race signs members up (a password hash each) round after round: give a busy machine time.
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  await putSites(site("revoke.test"));
});

/** The member logged in on a second browser, as the review's second login. */
async function secondLogin(member: Member): Promise<Member> {
  const browser = new Browser(ORIGIN);
  browser.cookies.set("locale", "en");
  const res = await browser.post("/api/user.php", { email: member.user.email, password: PASSWORD });
  expect(res.status).toBe(200);
  return { ...member, browser };
}

/** The client ids of the messages the conversation's object stored from `sender`. */
function storedFrom(sender: Member, peer: Member): Promise<string[]> {
  const stub = env.CONVERSATIONS.getByName(roomName(sender.id, peer.id));
  return runInDurableObject(stub, (_room, state) =>
    state.storage.sql
      .exec<{ client_id: string }>("SELECT client_id FROM messages WHERE sender_id = ? ORDER BY id", sender.id)
      .toArray()
      .map((row) => row.client_id),
  );
}

/** The messages the member's rolled-up chat rows charge (docs/decisions/0033). */
const chatLedgerRows = async (member: Member) =>
  (await env.DB.prepare(
    "SELECT COALESCE(SUM(messages), 0) AS n FROM credit_ledger WHERE user_id = ? AND reason = 'chat'",
  )
    .bind(member.userId)
    .first<{ n: number }>())!.n;

const acksOf = (frames: ServerFrame[]) => frames.flatMap((f) => (f.type === "ack" ? [f.client_id] : []));

type Ending = (first: Member, second: Member) => Promise<Response>;

/**
 * One round of the review's attack: `second` opens a chat socket to a new contact (no conversation
 * yet), and sends to it while `end` ends its session. Every send acknowledged before the end is
 * stored and charged once; nothing else is, and nothing sent after the end's answer; both of its
 * sockets are closed, and it cannot open another.
 */
async function race(end: Ending) {
  const first = await chatMember(ORIGIN, { paid: true, credits: 1000 });
  const contact = await chatMember(ORIGIN);
  const second = await secondLogin(first);
  const badges = await memberSocket(second);
  const socket = await ChatSocket.open(second, contact.id);
  // A member this account never wrote to: D1 has no conversation to find the socket by.
  const rows = await env.DB.prepare(
    "SELECT COUNT(*) AS n FROM conversations WHERE profile_a IN (?, ?) AND profile_b IN (?, ?)",
  )
    .bind(first.id, contact.id, first.id, contact.id)
    .first<{ n: number }>();
  expect(rows!.n).toBe(0);
  const theirs = await ChatSocket.open(contact, first.id);

  const state = { answered: false };
  const ending = end(first, second).then((res) => {
    state.answered = true;
    return res;
  });
  // Sends fired while the session ends, each a turn of the event loop apart.
  for (let i = 0; i < 30 && !state.answered; i++) {
    try {
      socket.sendText(clientId(), `during ${i}`);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, i % 3));
  }
  expect((await ending).status).toBeLessThan(400);
  const late: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = clientId();
    late.push(id);
    try {
      socket.sendText(id, `after ${i}`);
    } catch {
      // closed already
    }
  }
  expect(await closedSoon(() => socket.closed)).toBe(true);
  expect(await closedSoon(badges.closed)).toBe(true);
  await expect(ChatSocket.open(second, contact.id)).rejects.toThrow(/403/);

  const acked = acksOf(socket.frames);
  const refused = socket.frames.filter((f) => f.type === "error");
  for (const frame of refused) expect(frame).toMatchObject({ error: "authentication_required" });
  const stored = await storedFrom(first, contact);
  // Stored means acknowledged (before the socket closed), and nothing sent after the end is stored.
  expect(stored.toSorted()).toEqual(acked.toSorted());
  for (const id of late) expect(stored).not.toContain(id);
  // Charged once per stored message, nothing more.
  await expect.poll(() => chatLedgerRows(first)).toBe(stored.length);
  // The contact saw exactly the stored messages.
  await expect.poll(() => theirs.frames.filter((f) => f.type === "message").length).toBe(stored.length);
  theirs.close();
  return { stored: stored.length, refused: refused.length };
}

describe("a session that ends, raced against its chat socket to a new contact", () => {
  it("log out everywhere else: the other login's socket stops at once; nothing sent after is stored or charged", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await race((first) => first.browser.delete("/api/sessions.php", { others: true }));
    }
  });

  it("a password change: every other login's socket stops; nothing sent after is stored or charged", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await race((first) =>
        first.browser.post("/api/password.php", {
          old_password: PASSWORD,
          password: `another password ${round}`,
          password_repeat: `another password ${round}`,
        }),
      );
    }
  });

  it("logging that session out: its own socket stops; nothing sent after is stored or charged", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await race((_first, second) => second.browser.fetch("/api/logout.php"));
    }
  });

  it("ending one other device by its id: the same", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await race(async (first) => {
        const { sessions } = await json<{ sessions: { id: string; current: boolean; last_used_at: number }[] }>(
          await first.browser.fetch("/api/sessions.php"),
        );
        // The second login is the newest of the others (signup made the first).
        const other = sessions.filter((s) => !s.current).at(-1)!;
        return first.browser.delete("/api/sessions.php", { id: other.id });
      });
    }
  });

  it("deleting the account: every login's socket stops; nothing sent after is stored or charged", async () => {
    for (let round = 0; round < ROUNDS / 2; round++) {
      await race((first) => first.browser.fetch("/api/user.php", { method: "DELETE", json: { password: PASSWORD } }));
    }
  });

  it("a password reset by the mailed link: every login's socket stops; nothing sent after is stored or charged", async () => {
    for (let round = 0; round < ROUNDS / 2; round++) {
      await race(async (first) => {
        const visitor = new Browser(ORIGIN);
        expect((await visitor.post("/api/password-reset.php", { email: first.user.email })).status).toBe(200);
        const mail = await env.DB.prepare(
          "SELECT text FROM outgoing_mail WHERE to_address = ? AND kind = 'reset' ORDER BY id DESC LIMIT 1",
        )
          .bind(first.user.email)
          .first<{ text: string }>();
        const token = new URL(/(https?:\/\/\S+)/.exec(mail!.text)![1]!).searchParams.get("token");
        return visitor.put("/api/password-reset.php", {
          token,
          password: "a reset password",
          password_repeat: "a reset password",
        });
      });
    }
  });
});

describe("a chat socket opening while its session ends", () => {
  it("is refused, or closed with the others: none stays open, and none stores a send after the end", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const first = await chatMember(ORIGIN, { paid: true, credits: 1000 });
      const second = await secondLogin(first);
      const contacts = await Promise.all([chatMember(ORIGIN), chatMember(ORIGIN), chatMember(ORIGIN)]);
      const opening = contacts.map((contact, i) =>
        new Promise((r) => setTimeout(r, i)).then(() =>
          ChatSocket.open(second, contact.id).then(
            (socket) => ({ socket, contact }),
            () => null,
          ),
        ),
      );
      expect((await first.browser.delete("/api/sessions.php", { others: true })).status).toBe(200);
      const opened = (await Promise.all(opening)).filter((o) => o !== null);
      for (const { socket, contact } of opened) {
        const id = clientId();
        try {
          socket.sendText(id, "after the end");
        } catch {
          // closed already
        }
        expect(await closedSoon(() => socket.closed)).toBe(true);
        expect(await storedFrom(first, contact)).toEqual([]);
      }
    }
  });
});

describe("a session ended with nobody telling the conversation (an operator's script writes only D1)", () => {
  it("sends nothing once the object reads the session again, at most SESSION_CHECK_MS later; the socket closes", async () => {
    const anna = await chatMember(ORIGIN, { paid: true, credits: 1000 });
    const contact = await chatMember(ORIGIN);
    const socket = await ChatSocket.open(anna, contact.id);
    const before = clientId();
    socket.sendText(before, "still live");
    await socket.ack(before);
    // A disabling written to D1 alone, with no object told (the fallback when telling them fails).
    await disableAccount(databaseOf(env.DB), anna.id, Math.floor(Date.now() / 1000));
    // The object's last read of the session is now older than SESSION_CHECK_MS.
    await runInDurableObject(env.CONVERSATIONS.getByName(roomName(anna.id, contact.id)), (room) => {
      const check = Reflect.get(room, "sessions") as SessionCheck;
      Reflect.set(
        check,
        "readAt",
        new Map(
          [...(Reflect.get(check, "readAt") as Map<string, number>)].map(([s, at]) => [s, at - SESSION_CHECK_MS]),
        ),
      );
    });
    const after = clientId();
    socket.sendText(after, "after the disable");
    expect(await socket.error(after)).toMatchObject({ error: "authentication_required" });
    expect(await closedSoon(() => socket.closed)).toBe(true);
    expect(await storedFrom(anna, contact)).toEqual([before]);
  });
});

describe("SessionCheck", () => {
  const holder = { profileId: 7, userId: 70, session: "s1" };

  function check(live: boolean[]) {
    const reads: number[] = [];
    const registered: string[] = [];
    const answers = [...live];
    const sessions = new SessionCheck({
      isLive: async (_session, _userId, now) => {
        reads.push(now);
        return answers.shift() ?? false;
      },
      socketOpened: async (h, peer) => {
        registered.push(`${h.session}:${peer}`);
        return answers.shift() ?? false;
      },
    });
    return { sessions, reads, registered };
  }

  it("believes a live read for SESSION_CHECK_MS, then reads D1 again at the clock it is given", async () => {
    const { sessions, reads } = check([true, true, false]);
    expect(await sessions.live(holder, 1_000_000)).toBe(true);
    expect(await sessions.live(holder, 1_000_000 + SESSION_CHECK_MS - 1)).toBe(true);
    expect(reads).toEqual([1000]);
    expect(await sessions.live(holder, 1_000_000 + SESSION_CHECK_MS)).toBe(true);
    expect(await sessions.live(holder, 1_000_000 + 2 * SESSION_CHECK_MS)).toBe(false);
    expect(reads).toHaveLength(3);
    // Ended stays ended without another read.
    expect(await sessions.live(holder, 1_000_000 + 10 * SESSION_CHECK_MS)).toBe(false);
    expect(reads).toHaveLength(3);
  });

  it("refuses at once a session it is told ended, even inside a live read's time, and one told while D1 answered", async () => {
    const { sessions } = check([true]);
    expect(await sessions.admit(holder, 9, 0)).toBe(true);
    sessions.end(["s1"]);
    expect(sessions.hasEnded(holder)).toBe(true);
    expect(await sessions.live(holder, 1)).toBe(false);

    let release: (live: boolean) => void = () => undefined;
    const slow = new SessionCheck({ isLive: () => new Promise((r) => (release = r)), socketOpened: async () => true });
    const pending = slow.live(holder, 0);
    slow.end(["s1"]);
    release(true);
    expect(await pending).toBe(false);
  });

  it("refuses a socket whose session the member's channel says ended, and takes sends without a session (checked by their request)", async () => {
    const { sessions, registered } = check([false]);
    expect(await sessions.admit(holder, 9, 0)).toBe(false);
    expect(registered).toEqual(["s1:9"]);
    expect(await sessions.live(holder, 0)).toBe(false);
    expect(await sessions.live({ profileId: 7, userId: 70 }, 0)).toBe(true);
  });

  it("reads a receiving socket's session again in the background once stale, and says when it ended", async () => {
    const { sessions, reads } = check([true, false]);
    expect(await sessions.live(holder, 0)).toBe(true);
    expect(sessions.recheck(holder, SESSION_CHECK_MS - 1, () => undefined)).toBeNull();
    let ended = 0;
    await sessions.recheck(holder, SESSION_CHECK_MS, () => ended++);
    expect(ended).toBe(1);
    expect(reads).toHaveLength(2);
    expect(sessions.recheck(holder, 100 * SESSION_CHECK_MS, () => ended++)).toBeNull();
  });
});

describe("the member channel's record of chat sockets", () => {
  it("names each conversation of an ended session once, refuses that session's sockets for a while, and lets old records go", async () => {
    await runInDurableObject(env.MEMBERS.getByName("member:record-test"), (_channel, state) => {
      const kv = state.storage.kv;
      const t = 1_000_000_000;
      expect(chatSocketOpened(kv, 5, "s1", 8, t)).toBe(true);
      expect(chatSocketOpened(kv, 5, "s1", 8, t + 1)).toBe(true);
      expect(chatSocketOpened(kv, 5, "s1", 9, t + 2)).toBe(true);
      expect(chatSocketOpened(kv, 5, "s2", 8, t + 3)).toBe(true);
      expect(chatSocketsOfEnded(kv, ["s1"], t + 4)).toEqual([
        { profileId: 5, peer: 8 },
        { profileId: 5, peer: 9 },
      ]);
      // Ended: no socket of it is taken, and a second end finds nothing left to close.
      expect(chatSocketOpened(kv, 5, "s1", 10, t + 5)).toBe(false);
      expect(chatSocketsOfEnded(kv, ["s1"], t + 6)).toEqual([]);
      // s2 never ended and expired: its record goes at the next look, a day on.
      expect(chatSocketOpened(kv, 5, "s3", 8, t + OPENED_KEPT_MS + 10)).toBe(true);
      expect(chatSocketsOfEnded(kv, ["s2"], t + OPENED_KEPT_MS + 11)).toEqual([]);
      // An end is forgotten after ENDED_KEPT_MS (the Worker's own check refuses the session by then).
      chatSocketsOfEnded(kv, [], t + OPENED_KEPT_MS + 12 + ENDED_KEPT_MS);
      expect([...kv.list({ prefix: "ended:" })].map(([key]) => key)).toEqual([]);
    });
  });
});

describe("publicSessionIsLive", () => {
  it("is true for a live session and false once revoked, expired or its account disabled", async () => {
    const anna = await chatMember(ORIGIN);
    const db = databaseOf(env.DB);
    const row = (await env.DB.prepare(
      "SELECT public_id, expires_at FROM sessions WHERE user_id = ? AND revoked_at IS NULL",
    )
      .bind(anna.userId)
      .first<{ public_id: string; expires_at: number }>())!;
    const now = Math.floor(Date.now() / 1000);
    expect(await publicSessionIsLive(db, row.public_id, anna.userId, now)).toBe(true);
    expect(await publicSessionIsLive(db, row.public_id, anna.userId + 1, now)).toBe(false);
    expect(await publicSessionIsLive(db, row.public_id, anna.userId, row.expires_at)).toBe(false);
    await env.DB.prepare("UPDATE users SET status = 'disabled' WHERE id = ?").bind(anna.userId).run();
    expect(await publicSessionIsLive(db, row.public_id, anna.userId, now)).toBe(false);
  });
});
