/**
 * The top bar's badges of a member (SPEC §2, §4) as the member channel keeps them: unread messages per
 * conversation (their sum is the Messages badge), unseen likes, and the balance with the premium flag.
 * Events change them by absolute values (a conversation's unread count, the balance), so an event
 * told twice or out of order never counts twice.
 */
import { NEW_LIKES_CAP } from "../../shared/likes";
import type { MemberEvent } from "../../shared/member-events";
import type { BadgeCounts } from "../../shared/member-frames";
import { chatListRows } from "../db/conversations";
import type { Database } from "../db/database";
import { balanceOf } from "../db/ledger";
import { countNewLikes } from "../db/likes";

/** What the channel stores: unread messages by conversation id, the rest of the badges, and when they were read in D1 (ms). */
export type Badges = {
  unread: Record<string, number>;
  new_likes: number;
  credits: number;
  paid_user: boolean;
  read_at: number;
};

/** The member's badges as D1 has them now (the same conversations the chat list shows); `now` in ms. */
export async function readBadges(
  db: Database,
  member: { profileId: number; userId: number },
  now: number,
): Promise<Badges> {
  const [rows, newLikes, balance] = await Promise.all([
    chatListRows(db, member.profileId),
    readNewLikes(db, member.profileId),
    balanceOf(db, member.userId),
  ]);
  const unread: Record<string, number> = {};
  for (const row of rows) if (row.unreadCount > 0) unread[row.conversationId] = row.unreadCount;
  return {
    unread,
    new_likes: newLikes,
    credits: balance?.credits ?? 0,
    paid_user: balance?.paid === true,
    read_at: now,
  };
}

/** The member's unseen likes as D1 has them now. */
export function readNewLikes(db: Database, profileId: number): Promise<number> {
  return countNewLikes(db, profileId, NEW_LIKES_CAP);
}

/** The badges after an event; likes and matches are not counted here (the caller reads the new-likes count again). */
export function badgesAfter(badges: Badges, event: MemberEvent): Badges {
  switch (event.kind) {
    case "message":
    case "read": {
      const unread = { ...badges.unread };
      if (event.unread > 0) unread[event.conversation_id] = event.unread;
      else delete unread[event.conversation_id];
      return { ...badges, unread };
    }
    case "credits":
      // Any purchase makes a member premium and nothing takes it back, so a sender's flag read a moment before a purchase never takes it away.
      return { ...badges, credits: event.credits, paid_user: badges.paid_user || event.paid_user };
    case "like":
    case "match":
    case "profile":
      return badges;
  }
}

/** What a page is told: the sums. */
export function badgeCounts(badges: Badges): BadgeCounts {
  return {
    unread_messages: Object.values(badges.unread).reduce((sum, n) => sum + n, 0),
    new_likes: badges.new_likes,
    credits: badges.credits,
    paid_user: badges.paid_user,
  };
}
