/**
 * What the producers tell members after their change is stored (SPEC §4, issue 13): a message to its
 * recipient, a paid send's balance to its sender, a read to the reader's other pages, a like or a
 * match, a balance changed by a payment. Each turns the change into MemberEvents for notifyMember;
 * called inside a waitUntil, so reading a name or a balance here never delays a reply.
 */
import type { MessageKind } from "../../shared/chat";
import type { Presence } from "../../shared/member-events";
import { databaseOf, type Database } from "../db/database";
import { profilesOfUsers } from "../db/conversations";
import { balanceOf } from "../db/ledger";
import { profileFaces, profileNameOf } from "../db/profiles";
import { mainImage } from "./profile-card";
import { notifyMember } from "./member-notices";

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

const nameOf = async (db: Database, profileId: number, known?: string) => known ?? (await profileNameOf(db, profileId)) ?? "";

/**
 * A message the conversation's object acknowledged, told to its recipient. `asker`: the name of the
 * conversation's object, which the channel tells when a page opens after it answered "no page".
 */
export async function announceMessage(env: Env, s: SentMessage, asker?: string): Promise<Presence> {
  const { record } = s;
  return notifyMember(
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
export async function announceSenderBalance(env: Env, s: SentMessage, asker?: string): Promise<Presence> {
  return notifyMember(env, s.sender.profileId, { kind: "credits", credits: s.balance, paid_user: s.sender.premium }, s.record.now, asker ? { asker } : {});
}

/** The member read a conversation: their other pages' badges drop. */
export async function announceRead(env: Env, reader: number, peer: number, conversationId: number, unread: number): Promise<void> {
  await notifyMember(env, reader, { kind: "read", conversation_id: conversationId, peer_id: peer, unread }, Math.floor(Date.now() / 1000));
}

/**
 * A new like (stored): the liked member hears of it; a like back is a match, told to both, each with
 * the other's name and public main photo for the match moment on their open pages.
 */
export async function announceLike(env: Env, like: { likerId: number; likedId: number; likedName: string; match: boolean }, now: number): Promise<void> {
  const db = databaseOf(env.DB);
  if (!like.match) {
    const likerName = await nameOf(db, like.likerId);
    await notifyMember(env, like.likedId, { kind: "like", liker_id: like.likerId, liker_name: likerName, created_at: now }, now);
    return;
  }
  const faces = await profileFaces(db, [like.likerId, like.likedId]);
  const face = (id: number, knownName: string) => {
    const row = faces.find((f) => f.id === id);
    return { peer_id: id, peer_name: row?.name ?? knownName, peer_photo: mainImage(row?.photoKey ?? null, row?.photoThumbKey ?? null, row?.photoStatus ?? null)?.match ?? null, peer_verified: Boolean(row?.verified) };
  };
  await Promise.all([
    notifyMember(env, like.likedId, { kind: "match", ...face(like.likerId, ""), created_at: now }, now),
    notifyMember(env, like.likerId, { kind: "match", ...face(like.likedId, like.likedName), created_at: now }, now),
  ]);
}

/** A member's balance or premium standing changed outside a chat (a payment, a refund, a direct debit, a reversal). */
export async function announceBalance(env: Env, userId: number, now: number): Promise<void> {
  const db = databaseOf(env.DB);
  const [[profile], balance] = await Promise.all([profilesOfUsers(db, [userId]), balanceOf(db, userId)]);
  if (!profile || !balance) return;
  await notifyMember(env, profile.id, { kind: "credits", credits: balance.credits, paid_user: balance.paid }, now);
}
