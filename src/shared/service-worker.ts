/**
 * The service worker's rules that need no browser (src/sw.ts runs them; tests check them): which
 * cache belongs to which build, which requests it may answer from the cache, and how a push payload
 * becomes a notification. Decision 0019 says why so little is cached.
 */
import type { PushedToPages, PushPayload } from "./member-events";

/** Every cache this app's service worker makes starts with this; others on the origin are left alone. */
export const CACHE_PREFIX = "flirtwave-";
/** The self-contained offline page, rendered by the Worker in the language asked for (`?lang=`). */
export const OFFLINE_PATH = "/offline.html";
/** The icon a notification shows (also in the manifest). */
export const NOTIFICATION_ICON = "/icons/icon-192.png";
/** The small monochrome icon Android shows in the status bar. */
export const NOTIFICATION_BADGE_ICON = "/icons/badge-96.png";

/** The cache of one build: a new build gets a new name, so its activation can drop the old one whole. */
export function cacheName(version: string): string {
  return `${CACHE_PREFIX}${version}`;
}

/** The caches an activating build deletes: this app's caches of other builds, never another app's. */
export function staleCaches(names: readonly string[], version: string): string[] {
  const current = cacheName(version);
  return names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== current);
}

/**
 * Whether the service worker handles a request at all: only page navigations of its own origin
 * (to fall back to the offline page when the network is gone). API answers, photos and scripts go
 * straight to the network and are never stored: a shared phone must not keep another member's data.
 */
export function answersOffline(request: { mode: string; method: string; url: string }, origin: string): boolean {
  if (request.mode !== "navigate" || request.method !== "GET") return false;
  const url = new URL(request.url);
  return url.origin === origin && !url.pathname.startsWith("/api/") && !url.pathname.startsWith("/media/");
}

/** A push message's data as the Worker sends it (PushPayload), or null for anything malformed. */
export function readPushPayload(data: unknown): PushPayload | null {
  if (typeof data !== "object" || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.kind !== "message" && d.kind !== "like" && d.kind !== "match") return null;
  if (
    typeof d.title !== "string" ||
    typeof d.body !== "string" ||
    typeof d.tag !== "string" ||
    typeof d.url !== "string"
  )
    return null;
  // Only a page of this site: a payload must not send a click elsewhere.
  if (!d.url.startsWith("/") || d.url.startsWith("//")) return null;
  const badge = typeof d.badge === "number" && Number.isInteger(d.badge) && d.badge >= 0 ? d.badge : null;
  return { kind: d.kind, title: d.title, body: d.body, tag: d.tag, url: d.url, badge };
}

/** The notification a payload shows: one per tag (a conversation), a new message alerts again. */
export function notificationOf(payload: PushPayload): {
  title: string;
  options: { body: string; tag: string; renotify: boolean; icon: string; badge: string; data: { url: string } };
} {
  return {
    title: payload.title,
    options: {
      body: payload.body,
      tag: payload.tag,
      renotify: payload.kind === "message",
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_BADGE_ICON,
      data: { url: payload.url },
    },
  };
}

/** What open pages hear of a push. */
export function pushedToPages(payload: PushPayload): PushedToPages {
  return { type: "pushed", kind: payload.kind };
}

/** Whether a message a page received is the service worker's news of a push. */
export function isPushedToPages(data: unknown): data is PushedToPages {
  return typeof data === "object" && data !== null && (data as { type?: unknown }).type === "pushed";
}

/** What a page tells the service worker: its language, so the offline page speaks it. */
export type PageToWorker = { type: "locale"; locale: string };

/** The address a notification click shows: the payload's page of this site, else the chats. */
export function clickTarget(url: unknown, origin: string): string {
  const fallback = `${origin}/chats`;
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//")) return fallback;
  return new URL(url, origin).href;
}

/**
 * The window a notification click uses: one already showing the address (focused), else any window
 * of the site (focused and sent there); null when none is open (a new one opens).
 */
export function windowForClick<W extends { url: string }>(
  windows: readonly W[],
  target: string,
): { window: W; navigate: boolean } | null {
  const exact = windows.find((w) => w.url === target);
  if (exact) return { window: exact, navigate: false };
  return windows[0] ? { window: windows[0], navigate: true } : null;
}
