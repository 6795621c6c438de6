/**
 * The service worker (built by vite.config.ts into /sw.js, scope /): the offline page when the
 * network is gone, push notifications with the app badge, and a clean hand-over on each deploy.
 * It stores nothing of a member: no API answer, no photo (decision 0019).
 */
import type { PushPayload } from "./shared/member-events";
import {
  answersOffline,
  cacheName,
  clickTarget,
  notificationOf,
  OFFLINE_PATH,
  pushedToPages,
  readPushPayload,
  staleCaches,
  NOTIFICATION_BADGE_ICON,
  NOTIFICATION_ICON,
  windowForClick,
  type PageToWorker,
} from "./shared/service-worker";

declare const self: ServiceWorkerGlobalScope;
/** Set by the build: changes whenever the client build or the translations change. */
declare const SW_BUILD_VERSION: string;

const CACHE = cacheName(SW_BUILD_VERSION);

/** The offline page in the language of `locale` (or the one the Worker picks for this browser). */
async function storeOfflinePage(cache: Cache, locale: string | null): Promise<void> {
  const url = locale ? `${OFFLINE_PATH}?lang=${encodeURIComponent(locale)}` : OFFLINE_PATH;
  const response = await fetch(url, { cache: "no-store", credentials: "same-origin" });
  if (response.ok) await cache.put(OFFLINE_PATH, response);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all([storeOfflinePage(cache, null), cache.addAll([NOTIFICATION_ICON, NOTIFICATION_BADGE_ICON])]);
      // A new deploy takes over at once; pages reload to it at their next navigation (src/app/service-worker/app-update.ts).
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await Promise.all(staleCaches(await caches.keys(), SW_BUILD_VERSION).map((name) => caches.delete(name)));
      // No navigation preload: the browser would send it for every navigation, also those this worker
      // leaves alone (the mailed links under /api/), which would then reach the server twice.
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  if (!answersOffline(event.request, self.location.origin)) return;
  event.respondWith(
    (async () => {
      try {
        return await fetch(event.request);
      } catch {
        const offline = await caches.match(OFFLINE_PATH, { cacheName: CACHE });
        return offline ?? Response.error();
      }
    })(),
  );
});

self.addEventListener("message", (event) => {
  const data = event.data as PageToWorker | null;
  if (data?.type !== "locale" || typeof data.locale !== "string") return;
  event.waitUntil(
    (async () => {
      // Every page says this once it has registered. A page whose loading began while this worker was
      // still installing was missed by the claim on activation: it is taken over now.
      await self.clients.claim();
      // A page in another language than the stored offline page: store it again in the page's language.
      const cache = await caches.open(CACHE);
      const stored = await cache.match(OFFLINE_PATH);
      if (stored?.headers.get("content-language") === data.locale) return;
      await storeOfflinePage(cache, data.locale).catch(() => undefined);
    })(),
  );
});

/** How long the worker stays up for the app badge after the notification shows. */
const BADGE_WAIT_MS = 3_000;

/**
 * Tell the open pages (they reload chats and likes), then show the notification and set the app
 * badge side by side: the notification never waits for the badge, which may fail or never settle
 * (SPEC §4: a badge that cannot be set is ignored).
 */
async function showPush(payload: PushPayload): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) client.postMessage(pushedToPages(payload));
  const badge =
    payload.badge !== null && "setAppBadge" in navigator
      ? (navigator as WorkerNavigator & { setAppBadge(n: number): Promise<void> })
          .setAppBadge(payload.badge)
          .catch(() => undefined)
      : undefined;
  const { title, options } = notificationOf(payload);
  await self.registration.showNotification(title, options);
  if (badge) await Promise.race([badge, new Promise((resolve) => setTimeout(resolve, BADGE_WAIT_MS))]);
}

self.addEventListener("push", (event) => {
  let data: unknown = null;
  try {
    data = event.data?.json();
  } catch {
    // Not JSON: not from our Worker.
  }
  const payload = readPushPayload(data);
  if (payload) event.waitUntil(showPush(payload));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = clickTarget((event.notification.data as { url?: unknown } | null)?.url, self.location.origin);
  event.waitUntil(
    (async () => {
      const chosen = windowForClick(await self.clients.matchAll({ type: "window", includeUncontrolled: true }), target);
      if (chosen) {
        const focused = await chosen.window.focus();
        // A window this worker does not control cannot be sent elsewhere: a new one opens then.
        if (!chosen.navigate || (await focused.navigate(target).catch(() => null))) return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
