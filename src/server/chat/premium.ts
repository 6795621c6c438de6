import { conversationPeersOfUser, roomName } from "../services/chats";

/**
 * Tell the objects of a member's conversations that the member became premium, so sockets opened
 * before the purchase show photos' originals at once (the objects keep who is premium per socket).
 */
export async function announcePremium(env: Pick<Env, "DB" | "CONVERSATIONS">, userId: number): Promise<void> {
  const found = await conversationPeersOfUser(env.DB, userId);
  if (!found) return;
  await Promise.all(found.peers.map((peer) => env.CONVERSATIONS.getByName(roomName(found.profileId, peer)).memberBecamePremium(found.profileId)));
}
