import { useSWRConfig, type ScopedMutator } from "swr";
import { forgetPush } from "../service-worker/push-state";
import { USER_KEY, type UserResponse } from "./useUser";

/**
 * Forget the member on this page after the server ended the session (logout, deletion, a 401):
 * every cached answer goes, and the user becomes a visitor. Setting the user explicitly matters:
 * useUser would otherwise fall back to the user the page was rendered with. A push subscription
 * the server could not be told to forget is dropped by the browser.
 */
export async function forgetMember(mutate: ScopedMutator): Promise<void> {
  void forgetPush();
  await mutate(() => true, undefined, { revalidate: false });
  await mutate<UserResponse>(USER_KEY, { user: null }, { revalidate: false });
}

export function useSignOut() {
  const { mutate } = useSWRConfig();
  return () => forgetMember(mutate);
}
