import { useSyncExternalStore } from "react";
import { noSubscription } from "./useStoredTimestamp";

/** False on the server and while hydrating, true after: for what only works once the page runs (popups). */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
