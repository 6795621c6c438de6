import type { Database } from "../db/database";
import { memberArchive } from "../db/member-archive";
import { reportsFiledBy } from "../db/reports";

/**
 * Everything held about a member, as one JSON archive they can download (beyond SPEC: the right to a
 * copy of one's data). Secrets are left out: the password hash, session ids and token hashes.
 */
export async function exportMemberData(db: Database, userId: number): Promise<Record<string, unknown>> {
  const [archive, reports, messages] = await Promise.all([
    memberArchive(db, userId),
    reportsFiledBy(db, userId),
    db.$client
      .prepare(
        `SELECT m.conversation_id, m.sender_id, m.kind, m.body, m.credits_charged, m.created_at FROM messages m
       JOIN conversation_members cm ON cm.conversation_id = m.conversation_id AND cm.profile_id = (SELECT id FROM profiles WHERE user_id = ?1) ORDER BY m.id`,
      )
      .bind(userId)
      .all(),
  ]);
  const { account, profile, interests, photos, likes, blocks, credits, orders, payments, sessions, mails } = archive;
  return {
    exported_at: new Date().toISOString(),
    account,
    profile,
    interests,
    photos,
    likes,
    blocks,
    messages: messages.results,
    credits,
    orders,
    payments,
    sessions,
    mails,
    reports,
  };
}
