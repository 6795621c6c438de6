import type { MemberEvent, Presence } from "../../shared/member-events";
import { memberChannelName } from "../member/member-channel";
import { pushNotice } from "../push/notices";
import { mailNotice } from "./notification-mail";

/**
 * Tell a member of an event: their open pages at once through their member channel, then push and
 * mail, each of which decides by the member's presence (the channel's answer) and choices whether
 * this event is for it. Called after the change is stored (never before), off the path of the reply
 * (waitUntil). Answers the presence push and mail were given.
 */
export async function notifyMember(env: Env, profileId: number, event: MemberEvent, now: number): Promise<Presence> {
  let presence: Presence = { open: 0, visible: 0 };
  try {
    presence = await env.MEMBERS.getByName(memberChannelName(profileId)).deliver(event);
  } catch (error) {
    // No page heard of it: push and mail act as if none were open.
    console.error(JSON.stringify({ event: "notice_failed", channel: "pages", kind: event.kind, message: error instanceof Error ? error.message : String(error) }));
  }
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
  return presence;
}
