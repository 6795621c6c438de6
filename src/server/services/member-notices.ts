import type { MemberEvent, Presence } from "../../shared/member-events";
import { conversationsOfProfiles } from "../db/conversations";
import type { Database } from "../db/database";
import { memberChannelName } from "../member/member-channel";
import { pushNotice } from "../push/notices";
import { mailNotice } from "./notification-mail";

/** A member's channel (their open pages). */
const channelOf = (env: Env, profileId: number) => env.MEMBERS.getByName(memberChannelName(profileId));

/** A notice that did not go out; the caller goes on (the pages' refresh, or the other channels, still tell the member). */
function noticeFailed(channel: "pages" | "push" | "mail", kind: string, error: unknown): void {
  console.error(JSON.stringify({ event: "notice_failed", channel, kind, message: error instanceof Error ? error.message : String(error) }));
}

/**
 * Tell a member of an event: their open pages at once through their member channel, then push and
 * mail, each of which decides by the member's presence (the channel's answer) and choices whether
 * this event is for it. Called after the change is stored (never before), off the path of the reply
 * (waitUntil). Answers the presence push and mail were given. `pagesOnly`: the caller knows push and
 * mail have just told the member of the same thing, so only the pages hear of it. `asker`: the name
 * of the conversation's object calling, told by the channel when a page opens after it answered
 * that none was open (chat/page-hints.ts).
 */
export async function notifyMember(env: Env, profileId: number, event: MemberEvent, now: number, options: { pagesOnly?: boolean; asker?: string } = {}): Promise<Presence> {
  let presence: Presence = { open: 0, visible: 0 };
  try {
    presence = await channelOf(env, profileId).deliver(event, options.asker);
  } catch (error) {
    // No page heard of it: push and mail act as if none were open.
    noticeFailed("pages", event.kind, error);
  }
  // A read or a balance is news for the pages only; so is what the caller says push and mail have had.
  if (options.pagesOnly || event.kind === "credits") return presence;
  for (const [channel, deliver] of [
    ["push", pushNotice],
    ["mail", mailNotice],
  ] as const) {
    try {
      await deliver(env, profileId, event, presence, now);
    } catch (error) {
      noticeFailed(channel, event.kind, error);
    }
  }
  return presence;
}

/**
 * Something that sends no event changed what these members' badges count (a block, an unblock):
 * their open pages get the counts again from D1 at once, instead of at the next refresh. A failure
 * only leaves that refresh to do it.
 */
export async function badgesChanged(env: Env, profileIds: readonly number[]): Promise<void> {
  await Promise.all(
    profileIds.map((profileId) =>
      channelOf(env, profileId)
        .badgesChanged()
        .catch((error: unknown) => noticeFailed("pages", "badges", error)),
    ),
  );
}

/**
 * A moderation decision changed what a profile shows (a photo approved or refused, content removed,
 * a restriction): the member's own open pages and those of everyone they have a conversation with
 * load it again at once (docs/decisions/0035). Pages only: it is no news for push or mail.
 */
export async function notifyProfileChanged(env: Env, db: Database, profileId: number): Promise<void> {
  const conversations = await conversationsOfProfiles(db, [profileId]);
  const peers = conversations.map((c) => (c.profileA === profileId ? c.profileB : c.profileA));
  const now = Math.floor(Date.now() / 1000);
  await Promise.all([profileId, ...new Set(peers)].map((id) => notifyMember(env, id, { kind: "profile", profile_id: profileId }, now, { pagesOnly: true })));
}
