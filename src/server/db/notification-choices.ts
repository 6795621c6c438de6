import { DEFAULT_NOTIFICATION_CHOICES, type NotificationChoices } from "../../shared/notifications";
import type { Database } from "./database";

/** The member's notification choices. */
export async function notificationChoicesOf(db: Database, userId: number): Promise<NotificationChoices> {
  void [db, userId];
  return structuredClone(DEFAULT_NOTIFICATION_CHOICES);
}
