/**
 * The member's notification choices and mail stops as /notifications shows and changes them, and
 * the two ways mail stops from outside the site: a signed unsubscribe link and the mail provider's
 * bounce and complaint reports.
 */
import { disabledReasons, EMAIL_KINDS, PUSH_KINDS, type EmailKind, type NotificationsAnswer, type NotificationsUpdate } from "../../shared/notifications";
import type { Database } from "../db/database";
import { mailStopsOf, notificationChoicesOf, saveNotificationChoices, stopMailTo, unsubscribeFromKind, type ChoiceChange } from "../db/notification-choices";
import { normaliseEmail } from "./account-rules";

/** GET /api/notifications.php: the choices, why mail is stopped, and each stop. */
export async function notificationsAnswer(db: Database, userId: number): Promise<NotificationsAnswer> {
  const [notifications, stops] = await Promise.all([notificationChoicesOf(db, userId), mailStopsOf(db, userId)]);
  return { notifications, notifications_disabled: disabledReasons(stops), stops };
}

/**
 * PUT /api/notifications.php: the given switches over the member's current choices. Turning an
 * e-mail kind on takes back an unsubscribe from it; `resume_mail` takes back a bounce or complaint.
 */
export async function updateNotifications(db: Database, userId: number, update: NotificationsUpdate, now: number): Promise<NotificationsAnswer> {
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
export async function stopMailForReport(db: Database, reason: "bounce" | "complaint", addresses: readonly string[], now: number): Promise<number> {
  let stopped = 0;
  for (const address of new Set(addresses.map(normaliseEmail))) stopped += await stopMailTo(db, address, reason, now);
  return stopped;
}
