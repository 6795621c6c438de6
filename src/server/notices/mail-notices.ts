/**
 * Notification mail (SPEC §3 e-mail kinds, §4): a new conversation, new messages (one mail per
 * conversation while it stays unread, only when no page of the member is in view), a like, a match,
 * and the clock's mails (unread-message reminders, the weekly update, the activation reminder). Each
 * goes only to a member who chose its kind and whose address has no bounce or complaint, and carries
 * a signed one-click unsubscribe link (RFC 8058).
 */
import type { Translate } from "../../shared/translator";
import type { MemberEvent, Presence } from "../../shared/member-events";
import { isLanguage } from "../../shared/locales";
import { pathFor } from "../../shared/routes";
import type { EmailKind } from "../../shared/notifications";
import { databaseOf, type Database } from "../db/database";
import { notificationChoicesOf } from "../db/notification-choices";
import {
  claimUnreadMail,
  clearUnreadMail,
  mailRecipient,
  membersDueActivationReminder,
  membersDueUnreadReminder,
  membersDueWeeklyUpdate,
  recordClockMail,
  weekOf,
} from "../db/notification-mail";
import { unsubscribeMailto } from "../mail/inbound";
import { mailerFor } from "../mail/mailer";
import { composeMail, type NotificationMail } from "../mail/templates";
import { unsubscribeToken } from "../mail/unsubscribe-links";
import { i18nFor } from "../translations";
import { activationLink } from "../auth/account-tokens";
import { loadSite } from "../edge/site";

type MailValues = Record<string, string | number>;

const HOUR = 3600;
const DAY = 24 * HOUR;
/** A conversation unread this long earns a reminder... */
export const UNREAD_REMINDER_AFTER = DAY;
/** ...and a member gets at most one reminder in this time. */
export const UNREAD_REMINDER_EVERY = 3 * DAY;
export const WEEKLY_UPDATE_EVERY = 7 * DAY;
/** The one activation reminder goes a day after signup, while the signup is less than 6 days old (its link lives 7). */
export const ACTIVATION_REMINDER_AFTER = DAY;
export const ACTIVATION_REMINDER_UNTIL = 6 * DAY;
/** Members one run of the clock mails at most per kind of mail; the next run takes the rest. */
const CLOCK_BATCH = 500;

type Recipient = NonNullable<Awaited<ReturnType<typeof mailRecipient>>>;

/** What mail an event makes: the kind the member chooses it by, the mail, where its button leads, and its texts' values. */
type NoticeMail = { kind: EmailKind; mail: NotificationMail; path: string; values: Record<string, string | number> };

function noticeFor(event: MemberEvent): NoticeMail | null {
  switch (event.kind) {
    case "message":
      return event.first
        ? {
            kind: "new_conversations",
            mail: "new_conversation",
            path: pathFor("chats-id", { id: event.conversation_id }),
            values: { peer: event.peer_name },
          }
        : {
            kind: "new_messages",
            mail: "new_message",
            path: pathFor("chats-id", { id: event.conversation_id }),
            values: { peer: event.peer_name },
          };
    case "like":
      return {
        kind: "like",
        mail: "like",
        path: pathFor("members-id", { id: event.liker_id }),
        values: { peer: event.liker_name },
      };
    case "match":
      return {
        kind: "like",
        mail: "match",
        path: pathFor("members-id-chat", { id: event.peer_id }),
        values: { peer: event.peer_name },
      };
    default:
      return null;
  }
}

/**
 * Compose and send one notification mail in the member's language, from their own site, with the
 * unsubscribe link in the body and in the List-Unsubscribe headers. `link` is a path of the site or
 * a whole address. Answers false when the member's site is gone (nothing to link to).
 */
async function sendNotificationMail(
  env: Env,
  db: Database,
  to: Recipient,
  kind: EmailKind,
  mail: NotificationMail,
  link: string | ((origin: string) => Promise<string>),
  values: MailValues | ((t: Translate) => MailValues),
): Promise<boolean> {
  const site = await loadSite(env.SETTINGS, to.siteDomain);
  if (!site) {
    console.warn(JSON.stringify({ event: "notification_mail_no_site", userId: to.userId, site: to.siteDomain }));
    return false;
  }
  const origin = `https://${site.settings.domain}`;
  const token = await unsubscribeToken(env.SESSION_SECRET, to.userId, kind);
  const unsubscribe = `${origin}/api/unsubscribe.php?token=${token}`;
  const t = i18nFor(isLanguage(to.language) ? to.language : "en", site.settings.countries[0]).t;
  const href = typeof link === "string" ? origin + link : await link(origin);
  const composed = composeMail(
    t,
    mail,
    { address: to.email, name: to.name },
    { name: site.settings.name, company: site.company },
    href,
    typeof values === "function" ? values(t) : values,
    { unsubscribe, settings: `${origin}/notifications` },
  );
  await mailerFor(env, db).send({
    ...composed,
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>, <${unsubscribeMailto(env.MAIL_FROM, token)}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  });
  return true;
}

/** The member may be mailed by the product at all: a confirmed, live account whose address has no bounce or complaint. */
const mailable = (to: Recipient | undefined): to is Recipient => !!to && to.status === "active" && to.reachable === 1;

/**
 * Mail the member about an event when their presence and choices call for it: a message only when
 * no page of theirs is in view, and once per conversation until they read it (a `read` event, or a
 * message that is the only unread one, clears the mark).
 */
export async function tellByMail(
  env: Env,
  profileId: number,
  event: MemberEvent,
  presence: Presence,
  now: number,
): Promise<void> {
  const db = databaseOf(env.DB);
  if (event.kind === "read") {
    if (event.unread === 0) await clearUnreadMail(db, profileId, event.conversation_id);
    return;
  }
  const notice = noticeFor(event);
  if (!notice || (event.kind === "message" && presence.visible > 0)) return;
  const to = await mailRecipient(db, profileId);
  if (!mailable(to)) return;
  if (!(await notificationChoicesOf(db, to.userId)).email[notice.kind]) return;
  if (
    event.kind === "message" &&
    !(await claimUnreadMail(db, profileId, event.conversation_id, now, event.unread <= 1))
  )
    return;
  try {
    await sendNotificationMail(env, db, to, notice.kind, notice.mail, notice.path, notice.values);
  } catch (error) {
    // Not mailed after all: the next message of the conversation may try again.
    if (event.kind === "message") await clearUnreadMail(db, profileId, event.conversation_id);
    throw error;
  }
}

/**
 * One run of a clock mail over the members due it: each is mailed (or found to need none) and marked
 * done; a member whose mail fails is logged and left for the next run, without holding up the rest.
 */
async function mailEachDue<T extends { userId: number }>(
  mail: NotificationMail,
  due: readonly T[],
  mailOne: (member: T) => Promise<boolean>,
  done: (member: T) => Promise<void>,
): Promise<number> {
  let sent = 0;
  for (const member of due) {
    try {
      if (await mailOne(member)) sent++;
      await done(member);
    } catch (error) {
      console.error(
        JSON.stringify({
          event: "clock_mail_failed",
          mail,
          userId: member.userId,
          message: error instanceof Error ? error.message : String(error),
        }),
      );
    }
  }
  return sent;
}

/** Unread-message reminders: members with a conversation unread for a day, not reminded of those messages yet, at most one per three days. */
export async function mailUnreadReminders(env: Env, now: number): Promise<number> {
  const db = databaseOf(env.DB);
  return mailEachDue(
    "unread_reminder",
    await membersDueUnreadReminder(db, now - UNREAD_REMINDER_AFTER, now - UNREAD_REMINDER_EVERY, CLOCK_BATCH),
    async (due) => {
      const to = await mailRecipient(db, due.profileId);
      return (
        mailable(to) &&
        sendNotificationMail(env, db, to, "unread_message_reminders", "unread_reminder", pathFor("chats"), {
          count: due.unread,
        })
      );
    },
    (due) => recordClockMail(db, due.userId, { unreadReminderAt: now, unreadRemindedUpTo: due.upTo }),
  );
}

/** The weekly update's three numbers, each in the plural form its own count needs. */
const weekParts =
  (week: { likes: number; unread: number; joined: number }) =>
  (t: Translate): MailValues => ({
    likes_part: t("notification_mail.weekly_update.likes", { count: week.likes }),
    unread_part: t("notification_mail.weekly_update.unread", { count: week.unread }),
    joined_part: t("notification_mail.weekly_update.joined", { count: week.joined }),
  });

/** The weekly update: likes, unread messages and new members near them, once a week, only when there is something to tell. */
export async function mailWeeklyUpdates(env: Env, now: number): Promise<number> {
  const db = databaseOf(env.DB);
  return mailEachDue(
    "weekly_update",
    await membersDueWeeklyUpdate(db, now - WEEKLY_UPDATE_EVERY, CLOCK_BATCH),
    async (due) => {
      const week = await weekOf(db, due, now - WEEKLY_UPDATE_EVERY);
      const to = await mailRecipient(db, due.profileId);
      return (
        mailable(to) &&
        week.likes + week.unread + week.joined > 0 &&
        sendNotificationMail(env, db, to, "weekly_updates", "weekly_update", pathFor("members"), weekParts(week))
      );
    },
    (due) => recordClockMail(db, due.userId, { weeklyUpdateAt: now }),
  );
}

/** The one reminder to confirm the address, a day after signup, with a fresh activation link. */
export async function mailActivationReminders(env: Env, now: number): Promise<number> {
  const db = databaseOf(env.DB);
  return mailEachDue(
    "activation_reminder",
    await membersDueActivationReminder(
      db,
      now - ACTIVATION_REMINDER_UNTIL,
      now - ACTIVATION_REMINDER_AFTER,
      CLOCK_BATCH,
    ),
    async (due) => {
      const to = await mailRecipient(db, due.profileId);
      // Not `mailable`: this mail is for exactly the members whose address is not confirmed yet.
      if (!to || to.status !== "not_confirmed" || to.reachable !== 1) return false;
      const link = (origin: string) => activationLink(db, origin, to.userId, now);
      return sendNotificationMail(env, db, to, "reminders", "activation_reminder", link, {});
    },
    (due) => recordClockMail(db, due.userId, { activationReminderAt: now }),
  );
}

/** The hourly mail clock (src/worker.ts): reminders, weekly updates and activation reminders that are due at `now`. */
export async function runMailClock(env: Env, now: number) {
  return {
    unread_reminders: await mailUnreadReminders(env, now),
    weekly_updates: await mailWeeklyUpdates(env, now),
    activation_reminders: await mailActivationReminders(env, now),
  };
}
