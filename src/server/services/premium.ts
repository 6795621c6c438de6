import { databaseOf } from "../db/database";
import { profilesOfUsers } from "../db/conversations";
import { conversationRooms, memberChangedInChats, recallHeldCredits } from "./chats";

/**
 * Tell the objects of a member's conversations that the member became premium, so sockets opened
 * before the purchase show photos' originals at once (the objects keep who is premium per socket).
 */
export async function showPremiumInChats(env: Pick<Env, "DB" | "CONVERSATIONS">, userId: number): Promise<void> {
  const db = databaseOf(env.DB);
  const [profile] = await profilesOfUsers(db, [userId]);
  if (!profile) return;
  await memberChangedInChats(db, conversationRooms(env.CONVERSATIONS), profile.id);
}

/**
 * Before credits are taken back (a refund, a reversal): the member's conversations give back the
 * credits they hold for the member's next messages (docs/decisions/0021), so the balance can be taken.
 */
export async function recallChatHolds(env: Pick<Env, "DB" | "CONVERSATIONS">, userId: number): Promise<void> {
  const db = databaseOf(env.DB);
  const [profile] = await profilesOfUsers(db, [userId]);
  if (!profile) return;
  await recallHeldCredits(db, conversationRooms(env.CONVERSATIONS), { profileId: profile.id, userId }, null);
}
