import type { Database } from "../db/database";
import { memberArchive } from "../db/member-archive";
import { reportsFiledBy } from "../db/reports";
import { notificationsAnswer } from "./notification-choices";

/**
 * Everything held about a member, as one JSON archive they can download (beyond SPEC: the right to a
 * copy of one's data). Secrets are left out: the password hash, session ids and token hashes.
 */
export async function exportMemberData(db: Database, userId: number, chatMessages: (profileId: number) => Promise<unknown[]>): Promise<Record<string, unknown>> {
  const [archive, reports, notifications] = await Promise.all([memberArchive(db, userId), reportsFiledBy(db, userId), notificationsAnswer(db, userId)]);
  const { account, profile, interests, photos, likes, blocks, credits, orders, payments, sessions, mails, push_subscriptions } = archive;
  // The messages live in each conversation's object.
  const messages = profile ? await chatMessages(profile.id) : [];
  return {
    exported_at: new Date().toISOString(),
    account,
    profile,
    interests,
    photos,
    likes,
    blocks,
    messages,
    credits,
    orders,
    payments,
    sessions,
    mails,
    push_subscriptions,
    reports,
    notifications,
  };
}
