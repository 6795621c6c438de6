import { useCallback, useSyncExternalStore } from "react";

/** What the server renders with: it has no localStorage, so nothing stored is known yet. */
export const NOT_KNOWN_YET = "server";

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * A timestamp kept in localStorage (SPEC §3: dismissals and the site-entry skip), read as an external
 * store so the server and the first client render agree (NOT_KNOWN_YET) and whatever depends on it
 * appears right after hydration. `store()` records now.
 */
export function useStoredTimestamp(key: string): [value: string | null, store: () => void] {
  const value = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => NOT_KNOWN_YET,
  );
  const store = useCallback(() => {
    try {
      localStorage.setItem(key, String(Date.now()));
    } catch {
      // Without storage it simply shows again next time.
    }
    listeners.forEach((l) => l());
  }, [key]);
  return [value, store];
}

/** For values read on the client that nothing announces a change of (display mode, history length). */
export const noSubscription = () => () => undefined;
