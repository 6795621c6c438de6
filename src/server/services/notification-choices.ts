/**
 * The member's notification choices and mail stops as /notifications shows and changes them, and
 * the two ways mail stops from outside the site: a signed unsubscribe link and the mail provider's
 * bounce and complaint reports.
 */
import {
  disabledReasons,
  EMAIL_KINDS,
  PUSH_KINDS,
  type EmailKind,
  type NotificationsAnswer,
  type NotificationsUpdate,
} from "../../shared/notifications";
import { databaseOf, type Database } from "../db/database";
import { failedRecipients, readRaw, unsubscribeAddress } from "../mail/inbound";
import { readUnsubscribeToken } from "../mail/unsubscribe-links";
import {
  mailStopsOf,
  notificationChoicesOf,
  saveNotificationChoices,
  stopMailTo,
  unsubscribeFromKind,
  type ChoiceChange,
} from "../db/notification-choices";
import { normaliseEmail } from "../../shared/account-fields";

/** GET /api/notifications.php: the choices, why mail is stopped, and each stop. */
export async function notificationsAnswer(db: Database, userId: number): Promise<NotificationsAnswer> {
  const [notifications, stops] = await Promise.all([notificationChoicesOf(db, userId), mailStopsOf(db, userId)]);
  return { notifications, notifications_disabled: disabledReasons(stops), stops };
}

/**
 * PUT /api/notifications.php: the given switches over the member's current choices. Turning an
 * e-mail kind on takes back an unsubscribe from it; `resume_mail` takes back a bounce or complaint.
 */
export async function updateNotifications(
  db: Database,
  userId: number,
  update: NotificationsUpdate,
  now: number,
): Promise<NotificationsAnswer> {
  const changes: ChoiceChange[] = [];
  for (const kind of EMAIL_KINDS) {
    const on = update.email?.[kind];
    if (on !== undefined) changes.push({ kind: "email", name: kind, on });
  }
  for (const kind of PUSH_KINDS) {
    const on = update.push?.[kind];
    if (on !== undefined) changes.push({ kind: "push", name: kind, on });
  }
  if (update.previews !== undefined) changes.push({ kind: "previews", on: update.previews });
  await saveNotificationChoices(db, userId, changes, now, update.resume_mail === true);
  return notificationsAnswer(db, userId);
}

/** Unsubscribe through a signed link (read by readUnsubscribeToken): the kind is turned off and the stop kept (SPEC §4). */
export async function unsubscribe(db: Database, link: { userId: number; kind: EmailKind }, now: number): Promise<void> {
  await unsubscribeFromKind(db, link.userId, link.kind, now);
}

/** A bounce or spam complaint the mail provider reported for addresses: mail to their accounts stops. Answers how many accounts it stopped. */
export async function stopMailForReport(
  db: Database,
  reason: "bounce" | "complaint",
  addresses: readonly string[],
  now: number,
): Promise<number> {
  let stopped = 0;
  for (const address of new Set(addresses.map(normaliseEmail))) stopped += await stopMailTo(db, address, reason, now);
  return stopped;
}

/** Handle one mail the Worker received (src/server/mail/inbound.ts says which); never throws for a mail it does not understand. */
export async function receiveMail(
  message: Pick<ForwardableEmailMessage, "to" | "from" | "headers" | "raw">,
  env: Env,
  now: number,
): Promise<string> {
  const db = databaseOf(env.DB);
  const to = message.to.toLowerCase();
  if (to === unsubscribeAddress(env.MAIL_FROM)) {
    const token = /\b([1-9][0-9]{0,9}\.[a-z_]{1,40}\.[A-Za-z0-9_-]{43})\b/.exec(
      message.headers.get("subject") ?? "",
    )?.[1];
    const link = token ? await readUnsubscribeToken(env.SESSION_SECRET, token) : null;
    if (!link) return "unsubscribe_invalid";
    await unsubscribe(db, link, now);
    console.info(JSON.stringify({ event: "mail_unsubscribe", by: "mailto", userId: link.userId, kind: link.kind }));
    return "unsubscribed";
  }
  const type = message.headers.get("content-type") ?? "";
  // Bounce notifications come to the sender address only; a report sent anywhere else is not ours.
  if (
    to === env.MAIL_FROM.toLowerCase() &&
    /multipart\/report/i.test(type) &&
    /report-type="?delivery-status/i.test(type)
  ) {
    const failed = failedRecipients(await readRaw(message.raw));
    const stopped = failed.length ? await stopMailForReport(db, "bounce", failed, now) : 0;
    console.info(JSON.stringify({ event: "mail_bounce_report", failed: failed.length, stopped }));
    return "bounce";
  }
  return "dropped";
}
