/**
 * The service worker from the page's side: registered once the page has loaded (production builds
 * only; Vite's dev server serves no /sw.js and needs no offline page), told the page's language for
 * its offline page, and the update rule of decision 0019: when a new deploy's worker takes over a
 * page, that page reloads at its next navigation, so it is never stuck on an old build and never
 * loses what the member is typing.
 */
import type { PageToWorker } from "../../shared/service-worker";

/** Whether this build registers the service worker (and so can offer push). */
export const SERVICE_WORKER_ENABLED = import.meta.env.PROD;
/** An installed app may stay open for days: look for a new deploy when it comes back into view, at most this often. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** The worker is registered when the page has loaded, or this long after it started, whichever comes first. */
const REGISTER_AT_LATEST_MS = 5_000;

let newBuild = false;

/** Whether a newer build took over this page since it loaded: the next navigation loads the page anew. */
export function newBuildWaiting(): boolean {
  return newBuild;
}

export function registerServiceWorker(locale: string): void {
  if (!("serviceWorker" in navigator)) return;
  const container = navigator.serviceWorker;
  if (!SERVICE_WORKER_ENABLED) {
    // `npm start` and `npm run dev` share an address: a worker a built app left there goes.
    void container
      .getRegistration("/")
      .then((left) => left?.unregister())
      .catch(() => undefined);
    return;
  }
  // The first worker taking over a page that had none (a first visit) is the page's own build; a
  // later one is a new deploy.
  let controlled = container.controller !== null;
  container.addEventListener("controllerchange", () => {
    if (controlled) newBuild = true;
    controlled = true;
  });
  const register = async () => {
    const registration = await container.register("/sw.js", { scope: "/" });
    const ready = await container.ready;
    ready.active?.postMessage({ type: "locale", locale } satisfies PageToWorker);
    let checked = Date.now();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState !== "visible" || Date.now() - checked < UPDATE_CHECK_MS) return;
      checked = Date.now();
      void registration.update().catch(() => undefined);
    });
  };
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    void register().catch((error: unknown) =>
      console.warn(JSON.stringify({ event: "service_worker_failed", message: String(error) })),
    );
  };
  // After the page's own loading, so the worker's install does not compete with it; but a picture
  // that never finishes loading on a poor connection must not keep the app from its worker.
  if (document.readyState === "complete") start();
  else {
    window.addEventListener("load", start, { once: true });
    setTimeout(start, REGISTER_AT_LATEST_MS);
  }
}
