/** Blocks between members, and "not blocked either way", written once. */
import { and, eq, inArray, isNull, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Database } from "./database";
import { blocks, conversationMembers, likes, profiles } from "./schema";

/**
 * Block a member in one batch: the block, the likes between the two go, and the blocker's side of
 * every conversation with that member is removed.
 */
export async function blockMember(db: Database, blockerId: number, blockedId: number, now: number): Promise<void> {
  const withBlocked = db
    .select({ conversationId: conversationMembers.conversationId })
    .from(conversationMembers)
    .where(eq(conversationMembers.profileId, blockedId));
  await db.batch([
    db.insert(blocks).values({ blockerId, blockedId, createdAt: now }).onConflictDoNothing(),
    db
      .delete(likes)
      .where(
        or(
          and(eq(likes.likerId, blockerId), eq(likes.likedId, blockedId)),
          and(eq(likes.likerId, blockedId), eq(likes.likedId, blockerId)),
        ),
      ),
    db
      .update(conversationMembers)
      .set({ removedAt: now })
      .where(
        and(
          eq(conversationMembers.profileId, blockerId),
          isNull(conversationMembers.removedAt),
          inArray(conversationMembers.conversationId, withBlocked),
        ),
      ),
  ]);
}

export async function unblockMember(db: Database, blockerId: number, blockedId: number): Promise<void> {
  await db.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
}

type BlockRelation = { blockedByMe: boolean; blockedMe: boolean };

export async function blockRelation(db: Database, viewerId: number, otherId: number): Promise<BlockRelation> {
  const rows = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(
      or(
        and(eq(blocks.blockerId, viewerId), eq(blocks.blockedId, otherId)),
        and(eq(blocks.blockerId, otherId), eq(blocks.blockedId, viewerId)),
      ),
    );
  return {
    blockedByMe: rows.some((r) => r.blockerId === viewerId),
    blockedMe: rows.some((r) => r.blockerId === otherId),
  };
}

/** Neither the viewer (an id or a placeholder for one) nor the other profile (by default the query's profile) has blocked the other. */
export function notBlockedWith(viewerId: SQLWrapper | number, other: SQLWrapper | number = profiles.id): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ${viewerId} AND b.blocked_id = ${other}) OR (b.blocker_id = ${other} AND b.blocked_id = ${viewerId}))`;
}
