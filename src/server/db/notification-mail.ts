/**
 * Notification mail bookkeeping (unread_mail_marks, mail_clock) and the questions the mail asks:
 * who a notice goes to, which members the clock's mails are due for, and what a weekly update says.
 */
import { and, eq, gt, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { DEFAULT_NOTIFICATION_CHOICES, type EmailKind } from "../../shared/notifications";
import type { Database } from "./database";
import { mailReachable } from "./notification-choices";
import { conversationMembers, likes, mailClock, notificationChoices, profiles, unreadMailMarks, users } from "./schema";

/** SQL: the member (users row of the query, notification_choices left-joined) chose mail of this kind. */
function choseMail(kind: EmailKind): SQL {
  const fallback = DEFAULT_NOTIFICATION_CHOICES.email[kind] ? 1 : 0;
  return sql`COALESCE(json_extract(${notificationChoices.choices}, ${`$.email.${kind}`}), ${sql.raw(String(fallback))}) = 1`;
}

/** The product mails a member on its own only once the address is confirmed (an unconfirmed one may be someone else's). */
const confirmed = eq(users.status, "active");

/** Who a notice about a profile goes to: the account's address, name, language and site, and whether mail may go there at all. */
export async function mailRecipient(db: Database, profileId: number) {
  return db
    .select({
      userId: users.id,
      email: users.email,
      name: profiles.name,
      language: users.language,
      siteDomain: users.siteDomain,
      status: users.status,
      reachable: sql<number>`${mailReachable()}`.mapWith(Number),
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, profileId))
    .get();
}

/**
 * Claim the one mail of a conversation while it stays unread. `firstUnread` (the message is the only
 * unread one: the member read everything before it) claims it even over an old mark, whose read never
 * reached us. Answers whether this notice may mail.
 */
export async function claimUnreadMail(
  db: Database,
  profileId: number,
  conversationId: number,
  now: number,
  firstUnread: boolean,
): Promise<boolean> {
  const insert = db.insert(unreadMailMarks).values({ profileId, conversationId, mailedAt: now });
  const result = firstUnread
    ? await insert
        .onConflictDoUpdate({
          target: [unreadMailMarks.profileId, unreadMailMarks.conversationId],
          set: { mailedAt: now },
        })
        .run()
    : await insert.onConflictDoNothing().run();
  return result.meta.changes > 0;
}

/** The member read the conversation: its next message may mail again. */
export async function clearUnreadMail(db: Database, profileId: number, conversationId: number): Promise<void> {
  await db
    .delete(unreadMailMarks)
    .where(and(eq(unreadMailMarks.profileId, profileId), eq(unreadMailMarks.conversationId, conversationId)));
}

/** The mail_clock row of a member, left-joined on users. */
const clockOfUser = eq(mailClock.userId, users.id);

/**
 * Members due an unread-message reminder: a conversation unread since before `before`, with messages
 * newer than the last reminder covered, and no reminder since `quietSince`. With their unread total
 * and the newest unread message the reminder covers.
 */
export async function membersDueUnreadReminder(db: Database, before: number, quietSince: number, limit: number) {
  return db
    .select({
      userId: users.id,
      profileId: profiles.id,
      unread: sql<number>`SUM(${conversationMembers.unreadCount})`.mapWith(Number),
      upTo: sql<number>`MAX(${conversationMembers.lastMessageAt})`.mapWith(Number),
    })
    .from(conversationMembers)
    .innerJoin(profiles, eq(profiles.id, conversationMembers.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(notificationChoices, eq(notificationChoices.userId, users.id))
    .leftJoin(mailClock, clockOfUser)
    .where(
      and(
        gt(conversationMembers.unreadCount, 0),
        isNull(conversationMembers.removedAt),
        lte(conversationMembers.lastMessageAt, before),
        gt(conversationMembers.lastMessageAt, sql`COALESCE(${mailClock.unreadRemindedUpTo}, 0)`),
        or(isNull(mailClock.unreadReminderAt), lte(mailClock.unreadReminderAt, quietSince)),
        confirmed,
        mailReachable(),
        choseMail("unread_message_reminders"),
      ),
    )
    .groupBy(users.id)
    .limit(limit)
    .all();
}

/** Members due their weekly update: they chose it, and the last one (or their signup) is older than `since`. */
export async function membersDueWeeklyUpdate(db: Database, since: number, limit: number) {
  return db
    .select({ userId: users.id, profileId: profiles.id, country: profiles.country, regionId: profiles.regionId })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(notificationChoices, eq(notificationChoices.userId, users.id))
    .leftJoin(mailClock, clockOfUser)
    .where(
      and(
        lte(sql`COALESCE(${mailClock.weeklyUpdateAt}, ${users.signupDate})`, since),
        confirmed,
        mailReachable(),
        choseMail("weekly_updates"),
      ),
    )
    .limit(limit)
    .all();
}

/** Members due the one reminder to confirm their address: signed up between `from` and `to`, not reminded yet. */
export async function membersDueActivationReminder(db: Database, from: number, to: number, limit: number) {
  return db
    .select({ userId: users.id, profileId: profiles.id })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(notificationChoices, eq(notificationChoices.userId, users.id))
    .leftJoin(mailClock, clockOfUser)
    .where(
      and(
        eq(users.status, "not_confirmed"),
        gt(users.signupDate, from),
        lte(users.signupDate, to),
        isNull(mailClock.activationReminderAt),
        mailReachable(),
        choseMail("reminders"),
      ),
    )
    .limit(limit)
    .all();
}

/**
 * What a member's week was: likes received since `since`, their unread messages, and members who
 * joined since then in their region (or country when they gave none).
 */
export async function weekOf(
  db: Database,
  member: { profileId: number; country: string; regionId: number | null },
  since: number,
) {
  const [liked, unread, joined] = await db.batch([
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(likes)
      .where(and(eq(likes.likedId, member.profileId), gt(likes.createdAt, since))),
    db
      .select({ n: sql<number>`COALESCE(SUM(${conversationMembers.unreadCount}), 0)`.mapWith(Number) })
      .from(conversationMembers)
      .where(and(eq(conversationMembers.profileId, member.profileId), isNull(conversationMembers.removedAt))),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(profiles)
      .where(
        and(
          member.regionId === null ? eq(profiles.country, member.country) : eq(profiles.regionId, member.regionId),
          eq(profiles.searchable, 1),
          gt(profiles.createdAt, since),
          sql`${profiles.id} != ${member.profileId}`,
        ),
      ),
  ]);
  return { likes: liked[0]?.n ?? 0, unread: unread[0]?.n ?? 0, joined: joined[0]?.n ?? 0 };
}

/** Note in the member's mail clock that a clock mail went (or was considered) at `now`. */
export async function recordClockMail(
  db: Database,
  userId: number,
  mark: Partial<Omit<typeof mailClock.$inferInsert, "userId">>,
): Promise<void> {
  await db
    .insert(mailClock)
    .values({ userId, ...mark })
    .onConflictDoUpdate({ target: mailClock.userId, set: mark });
}
