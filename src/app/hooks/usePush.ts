import { useEffect, useSyncExternalStore } from "react";
import { useSWRConfig } from "swr";
import { isPushedToPages } from "../../shared/service-worker";
import { CHATS_KEY, LIKES_KEY } from "../page/page-data";
import { useSettings } from "../page/page-context";
import {
  currentPushState,
  forgetPush,
  givePushToMember,
  lookAtPush,
  subscribeToPushState,
  type PushState,
} from "../service-worker/push-state";
import { USER_KEY } from "./useUser";

const unknownOnServer = (): PushState => "unknown";

/** This browser's push state (src/app/service-worker/push-state.ts), looked at once the page runs; "unknown" on the server. */
export function usePushState(): PushState {
  const { push_public_key: publicKey } = useSettings();
  const state = useSyncExternalStore(subscribeToPushState, currentPushState, unknownOnServer);
  useEffect(() => {
    void lookAtPush(publicKey);
  }, [publicKey]);
  return state;
}

/**
 * For a logged-in member's page: a subscription this browser already has goes to this member, and
 * a push the service worker hears of makes the page reload the member, chats and likes (SPEC §4).
 * A visitor's page on a browser still subscribed for a member whose login ended drops it.
 */
export function usePushForMember(memberId: number | null) {
  const { push_public_key: publicKey } = useSettings();
  const { mutate } = useSWRConfig();
  useEffect(() => {
    if (memberId !== null) void givePushToMember(publicKey, memberId).catch(() => undefined);
    else void forgetPush();
  }, [memberId, publicKey]);
  useEffect(() => {
    if (memberId === null || !("serviceWorker" in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      if (!isPushedToPages(event.data)) return;
      void mutate(USER_KEY);
      void mutate(CHATS_KEY);
      void mutate(LIKES_KEY);
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, [memberId, mutate]);
}
