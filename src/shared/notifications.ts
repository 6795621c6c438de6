/** The member's notification choices (SPEC §3 e-mail kinds, push per kind), shared by /notifications and the Worker. */

/** SPEC §3: the kinds of e-mail a member can turn on or off. A match is mailed under `like`. */
export const EMAIL_KINDS = [
  "new_conversations",
  "new_messages",
  "like",
  "unread_message_reminders",
  "promotions",
  "weekly_updates",
  "news",
  "reminders",
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** The kinds of push a member can turn on or off. A match is pushed under `like`. */
export const PUSH_KINDS = ["new_conversations", "new_messages", "like"] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export type NotificationChoices = {
  email: Record<EmailKind, boolean>;
  push: Record<PushKind, boolean>;
  /** Whether a pushed message shows its text; off by default, so a lock screen shows only who wrote. */
  previews: boolean;
};

/**
 * A new member's choices: what they asked the product for is on; marketing (promotions, news) waits
 * for the member to turn it on, as consent for it must be given, not assumed.
 */
export const DEFAULT_NOTIFICATION_CHOICES: NotificationChoices = {
  email: {
    new_conversations: true,
    new_messages: true,
    like: true,
    unread_message_reminders: true,
    promotions: false,
    weekly_updates: true,
    news: false,
    reminders: true,
  },
  push: { new_conversations: true, new_messages: true, like: true },
  previews: false,
};
