import type { MemberEvent, Presence } from "../../shared/member-events";

/** Mail the member about an event when their presence and choices call for it. */
export async function mailNotice(env: Env, profileId: number, event: MemberEvent, presence: Presence, now: number): Promise<void> {
  void [env, profileId, event, presence, now];
}
