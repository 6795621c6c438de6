import { describe, expect, it } from "vitest";
import {
  answersOffline,
  cacheName,
  clickTarget,
  isPushedToPages,
  notificationOf,
  readPushPayload,
  staleCaches,
  windowForClick,
} from "./service-worker";

const ORIGIN = "https://example.nl";
const navigation = (path: string, method = "GET") => ({ mode: "navigate", method, url: `${ORIGIN}${path}` });

describe("the service worker's caches", () => {
  it("a new build deletes the caches of every older build and keeps its own and other apps' caches", () => {
    const names = [cacheName("old1"), cacheName("new"), cacheName("old2"), "someone-else"];
    expect(staleCaches(names, "new")).toEqual([cacheName("old1"), cacheName("old2")]);
    expect(staleCaches([cacheName("new")], "new")).toEqual([]);
    expect(cacheName("a")).not.toBe(cacheName("b"));
  });

  it("only page navigations of the site are answered (offline page on failure); API calls, photos and scripts never", () => {
    expect(answersOffline(navigation("/members"), ORIGIN)).toBe(true);
    expect(answersOffline(navigation("/chats/12"), ORIGIN)).toBe(true);
    expect(answersOffline(navigation("/members", "POST"), ORIGIN)).toBe(false);
    expect(answersOffline(navigation("/api/logout.php"), ORIGIN)).toBe(false);
    expect(answersOffline(navigation("/media/photo.jpg"), ORIGIN)).toBe(false);
    expect(answersOffline({ mode: "cors", method: "GET", url: `${ORIGIN}/api/chats.php` }, ORIGIN)).toBe(false);
    expect(answersOffline({ mode: "no-cors", method: "GET", url: `${ORIGIN}/media/a.jpg` }, ORIGIN)).toBe(false);
    expect(answersOffline({ mode: "navigate", method: "GET", url: "https://elsewhere.example/" }, ORIGIN)).toBe(false);
  });
});

describe("push payloads", () => {
  const payload = {
    kind: "message",
    title: "Anna",
    body: "Nieuw bericht",
    tag: "conversation-7",
    url: "/chats/7",
    badge: 3,
  };

  it("a message replaces the conversation's notification and alerts again; its click goes to the conversation", () => {
    const read = readPushPayload(payload)!;
    expect(read).toEqual(payload);
    const { title, options } = notificationOf(read);
    expect(title).toBe("Anna");
    expect(options).toMatchObject({
      body: "Nieuw bericht",
      tag: "conversation-7",
      renotify: true,
      data: { url: "/chats/7" },
    });
    expect(notificationOf({ ...read, kind: "like" }).options.renotify).toBe(false);
  });

  it("malformed payloads and addresses off the site are refused; a badge that is not a count is unknown", () => {
    expect(readPushPayload(null)).toBeNull();
    expect(readPushPayload("text")).toBeNull();
    expect(readPushPayload({ ...payload, kind: "credits" })).toBeNull();
    expect(readPushPayload({ ...payload, title: 5 })).toBeNull();
    expect(readPushPayload({ ...payload, url: "https://evil.example/" })).toBeNull();
    expect(readPushPayload({ ...payload, url: "//evil.example/" })).toBeNull();
    expect(readPushPayload({ ...payload, badge: -1 })!.badge).toBeNull();
    expect(readPushPayload({ ...payload, badge: "3" })!.badge).toBeNull();
    expect(readPushPayload({ ...payload, badge: undefined })!.badge).toBeNull();
  });

  it("a click opens a page of this site only", () => {
    expect(clickTarget("/chats/7", ORIGIN)).toBe(`${ORIGIN}/chats/7`);
    expect(clickTarget("https://evil.example/", ORIGIN)).toBe(`${ORIGIN}/chats`);
    expect(clickTarget("//evil.example/x", ORIGIN)).toBe(`${ORIGIN}/chats`);
    expect(clickTarget(undefined, ORIGIN)).toBe(`${ORIGIN}/chats`);
  });

  it("a click focuses the window already on its page, else sends a window of the site there, else opens one", () => {
    const chat = { url: `${ORIGIN}/chats/7`, id: "a" };
    const search = { url: `${ORIGIN}/members`, id: "b" };
    expect(windowForClick([search, chat], `${ORIGIN}/chats/7`)).toEqual({ window: chat, navigate: false });
    expect(windowForClick([search], `${ORIGIN}/chats/7`)).toEqual({ window: search, navigate: true });
    expect(windowForClick([], `${ORIGIN}/chats/7`)).toBeNull();
  });

  it("pages know the service worker's news of a push from other messages", () => {
    expect(isPushedToPages({ type: "pushed", kind: "like" })).toBe(true);
    expect(isPushedToPages({ type: "locale" })).toBe(false);
    expect(isPushedToPages(null)).toBe(false);
  });
});
