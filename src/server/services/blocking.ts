/**
 * Blocking (SPEC §4, §6): the blocker's likes and chats with the blocked member go, and each is
 * hidden from the other in search, likes and chat. The blocked member who opens the blocker's
 * profile is told so.
 */
import { blockMember, unblockMember } from "../db/blocks";
import type { Database } from "../db/database";
import { activeProfileId } from "../db/profiles";
import { AppError, invalidParameter } from "../errors";

export async function block(db: Database, blockerId: number, blockedId: number): Promise<void> {
  if (blockerId === blockedId) throw invalidParameter("profile_id");
  if ((await activeProfileId(db, blockedId)) === undefined)
    throw new AppError({ status: 404, code: "not_found", key: "errors.profile_not_found", field: "profile_id" });
  await blockMember(db, blockerId, blockedId, Math.floor(Date.now() / 1000));
}

export async function unblock(db: Database, blockerId: number, blockedId: number): Promise<void> {
  await unblockMember(db, blockerId, blockedId);
}
