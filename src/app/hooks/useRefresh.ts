import { useEffect } from "react";
import { useSWRConfig } from "swr";
import { CHATS_KEY, LIKES_KEY } from "../page/page-data";
import { currentPushState } from "../service-worker/push-state";
import { USER_KEY } from "./useUser";

/** SPEC §9: the first refresh comes this long after the page loads. */
export const REFRESH_START_MS = 5_000;

/** SPEC §9: how often the member, their chats and likes are refreshed; push brings news itself, so less often with it. */
export function refreshInterval(pushSubscribed: boolean): number {
  return pushSubscribed ? 300_000 : 60_000;
}

/** Refresh the member, their chats and their likes while `active`: 5 s after load, then every interval. */
export function useRefresh(active: boolean) {
  const { mutate } = useSWRConfig();
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setTimeout>;
    const refresh = () => {
      void mutate(USER_KEY);
      void mutate(CHATS_KEY);
      void mutate(LIKES_KEY);
      timer = setTimeout(refresh, refreshInterval(currentPushState() === "subscribed"));
    };
    timer = setTimeout(refresh, REFRESH_START_MS);
    return () => clearTimeout(timer);
  }, [active, mutate]);
}
