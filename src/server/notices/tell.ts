/**
 * Telling a member of an event, after the change is stored (never before) and off the path of the
 * reply (waitUntil): their open pages at once through their member channel, then push and mail,
 * each of which decides by the member's presence and choices whether the event is for it. The
 * producers (a conversation's object, likes, payments, moderation) tell through the functions
 * here, each of which turns its change into MemberEvents for tellMember; reading a name or a
 * balance here never delays a reply.
 */
import type { MessageKind } from "../../shared/chat";
import type { MemberEvent, Presence } from "../../shared/member-events";
import { mainImage } from "../../shared/photos";
import { conversationsOfProfiles, profilesOfUsers } from "../db/conversations";
import { databaseOf, type Database } from "../db/database";
import { balanceOf } from "../db/ledger";
import { profileFaces, profileNameOf } from "../db/profiles";
import { memberChannelName } from "./object-names";
import { tellByMail } from "./mail-notices";
import { tellByPush } from "./push-notices";

/** A member's channel (their open pages). */
const channelOf = (env: Env, profileId: number) => env.MEMBERS.getByName(memberChannelName(profileId));

/** A notice that did not go out; the caller goes on (the pages' refresh, or the other channels, still tell the member). */
function noticeFailed(channel: "pages" | "push" | "mail", kind: string, error: unknown): void {
  console.error(
    JSON.stringify({
      event: "notice_failed",
      channel,
      kind,
      message: error instanceof Error ? error.message : String(error),
    }),
  );
}

/**
 * Tell a member of an event: their open pages at once through their member channel, then push and
 * mail, each of which decides by the member's presence (the channel's answer) and choices whether
 * this event is for it. Called after the change is stored (never before), off the path of the reply
 * (waitUntil). Answers the presence push and mail were given. `pagesOnly`: the caller knows push and
 * mail have just told the member of the same thing, so only the pages hear of it. `asker`: the name
 * of the conversation's object calling, told by the channel when a page opens after it answered
 * that none was open (page-hints.ts).
 */
export async function tellMember(
  env: Env,
  profileId: number,
  event: MemberEvent,
  now: number,
  options: { pagesOnly?: boolean; asker?: string } = {},
): Promise<Presence> {
  let presence: Presence = { open: 0, visible: 0 };
  try {
    presence = await channelOf(env, profileId).tell(event, options.asker);
  } catch (error) {
    // No page heard of it: push and mail act as if none were open.
    noticeFailed("pages", event.kind, error);
  }
  // A read or a balance is news for the pages only; so is what the caller says push and mail have had.
  if (options.pagesOnly || event.kind === "credits") return presence;
  for (const [channel, tellBy] of [
    ["push", tellByPush],
    ["mail", tellByMail],
  ] as const) {
    try {
      await tellBy(env, profileId, event, presence, now);
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
export async function tellBadgesChanged(env: Env, profileIds: readonly number[]): Promise<void> {
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
export async function tellProfileChanged(env: Env, db: Database, profileId: number): Promise<void> {
  const conversations = await conversationsOfProfiles(db, [profileId]);
  const peers = conversations.map((c) => (c.profileA === profileId ? c.profileB : c.profileA));
  const now = Math.floor(Date.now() / 1000);
  await Promise.all(
    [profileId, ...new Set(peers)].map((id) =>
      tellMember(env, id, { kind: "profile", profile_id: profileId }, now, { pagesOnly: true }),
    ),
  );
}

/** A message the conversation's object acknowledged, with what it knows of it. */
export type SentMessage = {
  sender: { profileId: number; userId: number; premium: boolean; name?: string | undefined };
  recipient: number;
  messageId: number;
  /** The recipient's unread messages in the conversation with it. */
  unread: number;
  /** The sender's balance after it. */
  balance: number;
  record: { conversationId: number; kind: MessageKind; preview: string | null; credits: number; now: number };
  /** Only the recipient's open pages hear of it: push and mail told them of this conversation moments ago. */
  pagesOnly?: boolean;
};

const nameOf = async (db: Database, profileId: number, known?: string) =>
  known ?? (await profileNameOf(db, profileId)) ?? "";

/**
 * A message the conversation's object acknowledged, told to its recipient. `asker`: the name of the
 * conversation's object, which the channel tells when a page opens after it answered "no page".
 */
export async function tellMessage(env: Env, s: SentMessage, asker?: string): Promise<Presence> {
  const { record } = s;
  return tellMember(
    env,
    s.recipient,
    {
      kind: "message",
      conversation_id: record.conversationId,
      peer_id: s.sender.profileId,
      peer_name: await nameOf(databaseOf(env.DB), s.sender.profileId, s.sender.name),
      message_kind: record.kind,
      preview: record.kind === "text" ? record.preview : null,
      // Message ids count from 1 in each conversation's object: the first one opened it.
      first: s.messageId === 1,
      unread: s.unread,
      created_at: record.now,
    },
    record.now,
    { pagesOnly: s.pagesOnly === true, ...(asker ? { asker } : {}) },
  );
}

/**
 * A paid send's balance, told to its sender's pages. The socket's premium flag is kept up to date by
 * the purchase (memberChanged), and the channel never lets a stale `false` take premium away, so no
 * D1 read is needed on the send path.
 */
export async function tellSenderBalance(env: Env, s: SentMessage, asker?: string): Promise<Presence> {
  return tellMember(
    env,
    s.sender.profileId,
    { kind: "credits", credits: s.balance, paid_user: s.sender.premium },
    s.record.now,
    asker ? { asker } : {},
  );
}

/** The member read a conversation: their other pages' badges drop. */
export async function tellRead(
  env: Env,
  reader: number,
  peer: number,
  conversationId: number,
  unread: number,
): Promise<void> {
  await tellMember(
    env,
    reader,
    { kind: "read", conversation_id: conversationId, peer_id: peer, unread },
    Math.floor(Date.now() / 1000),
  );
}

/**
 * A new like (stored): the liked member hears of it; a like back is a match, told to both, each with
 * the other's name and public main photo for the match moment on their open pages.
 */
export async function tellLike(
  env: Env,
  like: { likerId: number; likedId: number; likedName: string; match: boolean },
  now: number,
): Promise<void> {
  const db = databaseOf(env.DB);
  if (!like.match) {
    const likerName = await nameOf(db, like.likerId);
    await tellMember(
      env,
      like.likedId,
      { kind: "like", liker_id: like.likerId, liker_name: likerName, created_at: now },
      now,
    );
    return;
  }
  const faces = await profileFaces(db, [like.likerId, like.likedId]);
  const face = (id: number, knownName: string) => {
    const row = faces.find((f) => f.id === id);
    return {
      peer_id: id,
      peer_name: row?.name ?? knownName,
      peer_photo: mainImage(row?.photoKey ?? null, row?.photoThumbKey ?? null, row?.photoStatus ?? null)?.match ?? null,
      peer_verified: Boolean(row?.verified),
    };
  };
  await Promise.all([
    tellMember(env, like.likedId, { kind: "match", ...face(like.likerId, ""), created_at: now }, now),
    tellMember(env, like.likerId, { kind: "match", ...face(like.likedId, like.likedName), created_at: now }, now),
  ]);
}

/** A member's balance or premium standing changed outside a chat (a payment, a refund, a direct debit, a reversal). */
export async function tellBalance(env: Env, userId: number, now: number): Promise<void> {
  const db = databaseOf(env.DB);
  const [[profile], balance] = await Promise.all([profilesOfUsers(db, [userId]), balanceOf(db, userId)]);
  if (!profile || !balance) return;
  await tellMember(env, profile.id, { kind: "credits", credits: balance.credits, paid_user: balance.paid }, now);
}
