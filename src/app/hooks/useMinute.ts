import { useSyncExternalStore } from "react";

const everyMinute = (notify: () => void) => {
  const timer = setInterval(notify, 60_000);
  return () => clearInterval(timer);
};

/**
 * Now, to the minute, in ms; 0 on the server and while hydrating. Times and days are shown in the
 * browser's own time zone, so they appear right after hydration and the markup still matches.
 */
export function useMinute(): number {
  return useSyncExternalStore(
    everyMinute,
    () => Math.floor(Date.now() / 60_000) * 60_000,
    () => 0,
  );
}
