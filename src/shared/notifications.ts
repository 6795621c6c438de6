/** The member's notification choices (SPEC §3 e-mail kinds, push per kind), shared by /notifications and the Worker. */
import * as v from "valibot";

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

/**
 * Why mail to a member stopped (SPEC §3 User.notifications_disabled, §4): the mail provider reported
 * a bounce or a spam complaint for their address (no mail the product sends on its own, only what the
 * member asks for: password reset, e-mail change, activation), or they unsubscribed from a kind.
 */
export const MAIL_STOP_REASONS = ["bounce", "complaint", "unsubscribe"] as const;
export type MailStopReason = (typeof MAIL_STOP_REASONS)[number];

/** GET and PUT /api/notifications.php: the choices, the reasons mail is stopped, and each stop with its kind and time. */
export type NotificationsAnswer = {
  notifications: NotificationChoices;
  notifications_disabled: MailStopReason[];
  stops: { reason: MailStopReason; kind: EmailKind | null; since: number }[];
};

const switches = <K extends string>(kinds: readonly K[]) =>
  v.strictObject(
    Object.fromEntries(kinds.map((kind) => [kind, v.optional(v.boolean())])) as Record<
      K,
      v.OptionalSchema<v.BooleanSchema<undefined>, undefined>
    >,
  );

/**
 * PUT /api/notifications.php: any part of the choices (the rest stays); `resume_mail: true` asks to
 * be mailed again after a bounce or complaint. Unknown kinds are refused, so nothing is half-saved.
 */
export const NotificationsUpdate = v.strictObject({
  email: v.optional(switches(EMAIL_KINDS)),
  push: v.optional(switches(PUSH_KINDS)),
  previews: v.optional(v.boolean()),
  resume_mail: v.optional(v.literal(true)),
});
export type NotificationsUpdate = v.InferOutput<typeof NotificationsUpdate>;

/** SPEC §3 User.notifications_disabled: the reasons mail is stopped, each once, in a fixed order (empty: nothing stopped). */
export function disabledReasons(stops: readonly { reason: MailStopReason }[]): MailStopReason[] {
  return MAIL_STOP_REASONS.filter((reason) => stops.some((stop) => stop.reason === reason));
}
