import type { MemberEvent, Presence } from "../../shared/member-events";
import { pushNotice } from "../push/notices";
import { mailNotice } from "./notification-mail";

/**
 * Tell a member of an event: their open pages at once through their member channel, then push and
 * mail, each of which decides by the member's presence and choices whether this event is for it.
 * Called after the change is stored (never before), off the path of the reply (waitUntil).
 */
export async function notifyMember(env: Env, profileId: number, event: MemberEvent, now: number): Promise<void> {
  // The member channel is not built yet: no page hears of the event, so push and mail decide alone.
  const presence: Presence = { open: 0, visible: 0 };
  for (const [channel, deliver] of [
    ["push", pushNotice],
    ["mail", mailNotice],
  ] as const) {
    try {
      await deliver(env, profileId, event, presence, now);
    } catch (error) {
      console.error(JSON.stringify({ event: "notice_failed", channel, kind: event.kind, message: error instanceof Error ? error.message : String(error) }));
    }
  }
}
