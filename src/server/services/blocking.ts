/**
 * Blocking (SPEC §4, §6): the blocker's likes and chats with the blocked member go, and each is
 * hidden from the other in search, likes and chat. The blocked member who opens the blocker's
 * profile is told so.
 */
import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/database";
import { blocks, profiles } from "../db/schema";
import { AppError, invalidParameter } from "../errors";

export async function block(db: D1Database, blockerId: number, blockedId: number): Promise<void> {
  if (blockerId === blockedId) throw invalidParameter("profile_id");
  const target = await db.prepare("SELECT id FROM profiles WHERE id = ? AND status = 'active'").bind(blockedId).first();
  if (!target) throw new AppError({ status: 404, code: "not_found", key: "errors.profile_not_found", field: "profile_id" });
  const now = Math.floor(Date.now() / 1000);
  await db.batch([
    db.prepare("INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)").bind(blockerId, blockedId, now),
    db.prepare("DELETE FROM likes WHERE (liker_id = ?1 AND liked_id = ?2) OR (liker_id = ?2 AND liked_id = ?1)").bind(blockerId, blockedId),
    // The blocker's side of every conversation with that member is removed.
    db
      .prepare(
        `UPDATE conversation_members SET removed_at = ?3 WHERE profile_id = ?1 AND removed_at IS NULL
         AND conversation_id IN (SELECT conversation_id FROM conversation_members WHERE profile_id = ?2)`,
      )
      .bind(blockerId, blockedId, now),
  ]);
}

export async function unblock(db: D1Database, blockerId: number, blockedId: number): Promise<void> {
  await db.prepare("DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?").bind(blockerId, blockedId).run();
}

export type BlockRelation = { blockedByMe: boolean; blockedMe: boolean };

export async function blockRelation(db: Database, viewerId: number, otherId: number): Promise<BlockRelation> {
  const rows = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, viewerId), eq(blocks.blockedId, otherId)), and(eq(blocks.blockerId, otherId), eq(blocks.blockedId, viewerId))));
  return { blockedByMe: rows.some((r) => r.blockerId === viewerId), blockedMe: rows.some((r) => r.blockerId === otherId) };
}

/** A search condition: neither the viewer nor the profile has blocked the other. */
export function notBlockedWith(viewerId: number): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ${viewerId} AND b.blocked_id = ${profiles.id}) OR (b.blocker_id = ${profiles.id} AND b.blocked_id = ${viewerId}))`;
}
