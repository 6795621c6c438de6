/**
 * Reads near the member (docs/decisions/0033): every request reads D1 through a session of the
 * Sessions API, started from the bookmark the member's browser brought, and the answer hands back
 * the newer bookmark of a write; a socket hands it to its object, whose own writes hand theirs back
 * on the ack. Miniflare has no replica, so these tests check what makes a replica safe: the bookmark
 * each answer gives is the one the next request, socket or object session starts from.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { User } from "../../src/shared/api";
import { BOOKMARK_COOKIE, isNewerBookmark } from "../../src/shared/d1-bookmark";
import type { ConversationRoom } from "../../src/server/chat/conversation-room";
import type { MemberChannel } from "../../src/server/notices/member-channel";
import { ChatSocket, chatMember, clientId, type Member } from "../chat";
import { putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";
import { PROVIDER_CALLBACKS } from "../../src/server/edge/d1-session";
import { providerReportRoutes } from "../../src/server/api/provider-reports";
import { mailLinkRoutes } from "../../src/server/api/notifications";
import { MOLLIE_EVENTS_PATH } from "../../src/server/api/payments";
import { memberChannelName, roomName } from "../../src/server/notices/object-names";

const ORIGIN = "http://d1-sessions.test";

beforeAll(async () => {
  await putSites(site("d1-sessions.test", { message_credits: 5, free_conversations: 0, free_messages: 0 }));
});

/** The bookmark or constraint every D1 session of the Worker and the objects was opened with, in order. */
let opened: string[] = [];
beforeEach(() => {
  opened = [];
  const withSession = env.DB.withSession.bind(env.DB);
  vi.spyOn(env.DB, "withSession").mockImplementation((start) => {
    opened.push(String(start));
    return withSession(start);
  });
});
afterEach(() => vi.restoreAllMocks());

const bookmarkOf = (m: Member) => m.browser.cookies.get(BOOKMARK_COOKIE);
const userOf = async (m: Member) => (await json<{ user: User }>(await m.browser.fetch("/api/user.php"))).user;

describe("reads near the member", () => {
  it("start each request's session from the bookmark the last answer gave, so a member reads their own write", async () => {
    const anna = await chatMember(ORIGIN);
    const before = bookmarkOf(anna);
    expect(before).toBeTruthy();

    opened = [];
    const write = await anna.browser.put("/api/user.php", { invisible: true });
    expect(write.status).toBe(200);
    // The write's session started from the cookie and answered with a newer bookmark.
    expect(opened[0]).toBe(before);
    const after = bookmarkOf(anna)!;
    expect(isNewerBookmark(after, before)).toBe(true);
    expect(write.headers.getSetCookie().some((c) => c.startsWith(`${BOOKMARK_COOKIE}=${after};`))).toBe(true);

    // The next request starts from the write's bookmark and reads what it wrote.
    opened = [];
    expect((await userOf(anna)).invisible).toBe(true);
    expect(opened[0]).toBe(after);

    // A browser without a bookmark reads anywhere; one with a cookie that is no bookmark is not believed.
    opened = [];
    anna.browser.cookies.set(BOOKMARK_COOKIE, "'; DROP TABLE users");
    expect((await userOf(anna)).invisible).toBe(true);
    expect(opened[0]).toBe("first-unconstrained");
  });

  it("hand the page's bookmark to the chat socket's object, and the object's write back on the ack for the next request", async () => {
    const anna = await chatMember(ORIGIN, { paid: true, credits: 100 });
    const bram = await chatMember(ORIGIN, { paid: true });
    // A write just before the socket opens: the object must read at least that.
    await anna.browser.put("/api/user.php", { language: "de" });
    const page = bookmarkOf(anna)!;
    const socket = await ChatSocket.open(anna, bram.id);
    const room = env.CONVERSATIONS.getByName(roomName(anna.id, bram.id)) as DurableObjectStub<ConversationRoom>;
    const objectBookmark = () =>
      runInDurableObject(room, (instance) =>
        (instance as unknown as { reads: { bookmark(): string | null } }).reads.bookmark(),
      );
    const atOpen = await objectBookmark();
    expect(atOpen === page || isNewerBookmark(atOpen, page)).toBe(true);
    // The bookmark is not kept with the socket.
    expect(
      await runInDurableObject(room, (_i, state) =>
        state.getWebSockets().map((ws) => (ws.deserializeAttachment() as { bookmark?: string }).bookmark),
      ),
    ).toEqual([undefined]);

    // A paid send: the object writes the charge, and the ack carries the bookmark of that write.
    const id = clientId();
    socket.sendText(id, "hello");
    const ack = await socket.ack(id);
    expect(ack.credits).toBe(95);
    expect(isNewerBookmark(ack.bookmark, page)).toBe(true);
    expect(ack.bookmark).toBe(await objectBookmark());

    // The page keeps it (rememberBookmark), and the next request starts from it and sees the charge.
    anna.browser.cookies.set(BOOKMARK_COOKIE, ack.bookmark!);
    opened = [];
    expect((await userOf(anna)).credits).toBe(95);
    // The object may settle its own D1 work on the primary meanwhile (decision 0033); the request's session is the other one.
    expect(opened.filter((start) => start !== "first-primary")[0]).toBe(ack.bookmark);
    socket.close();
  });

  it("hand the page's bookmark to the member's channel, which reads the badges at least that new", async () => {
    const anna = await chatMember(ORIGIN);
    await anna.browser.put("/api/user.php", { language: "fr" });
    const page = bookmarkOf(anna)!;
    const res = await anna.browser.fetch("/api/member-socket.php", {
      headers: { upgrade: "websocket", origin: anna.browser.origin },
    });
    const socket = res.webSocket!;
    socket.accept();
    const channel = env.MEMBERS.getByName(memberChannelName(anna.id)) as DurableObjectStub<MemberChannel>;
    const read = await runInDurableObject(channel, (instance) =>
      (instance as unknown as { reads: { bookmark(): string | null } }).reads.bookmark(),
    );
    expect(read === page || isNewerBookmark(read, page)).toBe(true);
    socket.close();
  });
});

describe("a provider's callback", () => {
  it("reads and writes the primary, whatever bookmark it brings: a replica may not have seen its order or mail yet", async () => {
    const anna = await chatMember(ORIGIN);
    const cookie = `${BOOKMARK_COOKIE}=${bookmarkOf(anna)}`;
    expect(PROVIDER_CALLBACKS.length).toBeGreaterThanOrEqual(4);
    for (const path of PROVIDER_CALLBACKS) {
      opened = [];
      const res = await fetchWorker(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: "id=tr_unknown",
      });
      expect(res.status, path).toBeLessThan(500);
      expect(opened[0], path).toBe("first-primary");
    }
    // A member's own request still starts from the bookmark it brought.
    const brought = bookmarkOf(anna);
    opened = [];
    await anna.browser.fetch("/api/user.php");
    expect(opened[0]).toBe(brought);
  });

  it("covers every route the providers call: a callback added later without the primary fails here", () => {
    const posted = (routes: { method: string; path: string }[]) =>
      routes.filter((r) => r.method === "POST").map((r) => r.path);
    // The unsubscribe link is a member's click, not a provider's call.
    const callbacks = [
      ...posted(providerReportRoutes.routes),
      ...posted(mailLinkRoutes.routes).filter((p) => p !== "/api/unsubscribe.php"),
      "/api/payment-webhook.php",
      MOLLIE_EVENTS_PATH,
    ];
    for (const path of callbacks) expect(PROVIDER_CALLBACKS, path).toContain(path);
  });
});
