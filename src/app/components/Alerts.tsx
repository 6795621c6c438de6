import { useState, type ReactNode } from "react";
import type { User } from "../../shared/api";
import { DISABLED_NOTIFICATIONS_ALERT_KEY, PHOTO_ALERT_KEY, PUSH_ALERT_KEY } from "../../shared/browser-storage";
import { useRouter, useSettings, useT } from "../page/page-context";
import { usePushState } from "../hooks/usePush";
import { NOT_KNOWN_YET, useStoredTimestamp } from "../hooks/useStoredTimestamp";
import { useUser } from "../hooks/useUser";
import { turnOnPush, type PushState } from "../service-worker/push-state";
import { DismissButton, GoOrDismiss } from "./GoOrDismiss";
import { TimeBonusBanner } from "./TimeBonus";
import { ResendActivation } from "./ResendActivation";

/** Routes on which the account-activation reminder does not show (SPEC §2 Alerts). */
const NO_ACTIVATION_REMINDER = new Set(["signup", "settings", "notifications"]);
/** Routes on which the profile-photo alert does not show (SPEC §2 Alerts). */
const NO_PHOTO_ALERT = new Set([
  "profile",
  "signup",
  "activate-done",
  "premium",
  "notifications",
  "directdebit",
  "settings",
]);
/** Routes on which the push alert does not show (SPEC §2 Alerts). */
const NO_PUSH_ALERT = new Set([
  "signup",
  "complete-signup",
  "notifications",
  "activate-done",
  "directdebit",
  "premium",
]);
/** Routes on which the disabled-notifications alert does not show: the notification switches are there (SPEC §2 Alerts). */
const NO_DISABLED_NOTIFICATIONS_ALERT = new Set(["settings", "notifications"]);

/** SPEC §2: remind a member whose e-mail is unconfirmed, unless their mail is disabled (that alert says more). */
export function showActivationReminder(
  user: Pick<User, "status" | "notifications_disabled"> | null,
  routeName: string | null,
): boolean {
  if (!user || user.status !== "not_confirmed" || user.notifications_disabled.length > 0) return false;
  return routeName === null || !NO_ACTIVATION_REMINDER.has(routeName);
}

/** SPEC §2: ask for a profile photo while there is no main image, until dismissed, except on some routes. */
export function showPhotoAlert(
  user: Pick<User, "profile"> | null,
  routeName: string | null,
  dismissedAt: string | null,
): boolean {
  if (!user || user.profile.main_image !== null || dismissedAt) return false;
  return routeName === null || !NO_PHOTO_ALERT.has(routeName);
}

/** SPEC §2: offer push to a member while this browser could subscribe and is not, until dismissed, except on some routes. */
export function showPushAlert(
  user: object | null,
  push: PushState,
  routeName: string | null,
  dismissedAt: string | null,
): boolean {
  if (!user || push !== "capable" || dismissedAt) return false;
  return routeName === null || !NO_PUSH_ALERT.has(routeName);
}

/**
 * SPEC §2: tell a member whose mail is stopped (notifications_disabled non-empty), until dismissed,
 * except where the switches are. Answers the reason to tell (a bounce before a complaint before an
 * unsubscribe), or null.
 */
export function disabledNotificationsAlert(
  user: Pick<User, "notifications_disabled"> | null,
  routeName: string | null,
  dismissedAt: string | null,
): string | null {
  if (!user || dismissedAt || (routeName !== null && NO_DISABLED_NOTIFICATIONS_ALERT.has(routeName))) return null;
  return ["bounce", "complaint", "unsubscribe"].find((reason) => user.notifications_disabled.includes(reason)) ?? null;
}

/**
 * The notices under the top bar of the Default layout, in their order of priority (decision 0037):
 * the time bonus (it runs out within hours), stopped mail, the activation reminder, the profile
 * photo, push. On phones the stylesheet shows only the first; the next shows once it is gone.
 */
export function Alerts() {
  const { user } = useUser();
  const { match } = useRouter();
  const t = useT();
  const [dismissedAt, dismiss] = useStoredTimestamp(PHOTO_ALERT_KEY);
  const [mailAlertDismissedAt, dismissMailAlert] = useStoredTimestamp(DISABLED_NOTIFICATIONS_ALERT_KEY);
  const route = match?.route.name ?? null;
  const activation = showActivationReminder(user, route);
  const photo = dismissedAt !== NOT_KNOWN_YET && showPhotoAlert(user, route, dismissedAt);
  const mailStopped =
    mailAlertDismissedAt === NOT_KNOWN_YET ? null : disabledNotificationsAlert(user, route, mailAlertDismissedAt);
  const [pushDismissedAt, dismissPush] = useStoredTimestamp(PUSH_ALERT_KEY);
  const pushState = usePushState();
  const push = pushDismissedAt !== NOT_KNOWN_YET && showPushAlert(user, pushState, route, pushDismissedAt);
  const bonus = <TimeBonusBanner />;
  if (!user) return null;
  return (
    <div className="alerts">
      {bonus}
      {mailStopped && (
        <Notice
          tone="warning"
          text={t(`notifications.alert.${mailStopped}`, { email: user.email })}
          kind="disabled-notifications"
        >
          <GoOrDismiss
            href="/notifications#notifications"
            go={t("notifications.alert.settings")}
            dismiss={t("alerts.dismiss")}
            onDismiss={dismissMailAlert}
            small
            iconDismiss
          />
        </Notice>
      )}
      {activation && (
        <Notice tone="warning" text={t("alerts.activation", { email: user.email })}>
          <ResendActivation className="button button--ghost button--small" />
        </Notice>
      )}
      {photo && (
        <Notice tone="info" text={t("alerts.photo")}>
          <GoOrDismiss
            href="/profile#photos"
            go={t("alerts.photo_add")}
            dismiss={t("alerts.dismiss")}
            onDismiss={dismiss}
            small
            iconDismiss
          />
        </Notice>
      )}
      {push && <PushAlert memberId={user.profile.id} onDismiss={dismissPush} />}
    </div>
  );
}

/**
 * One notice: on phones its text is cut to two lines (the whole notice stays within 64 px) until
 * the member taps it open; its actions stay beside it.
 */
function Notice({
  tone,
  text,
  kind,
  children,
}: {
  tone: "warning" | "info";
  text: string;
  kind?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div className={open ? `alert alert--${tone} is-open` : `alert alert--${tone}`} role="status" data-alert={kind}>
      <button type="button" className="alert__text" aria-expanded={open} onClick={() => setOpen((was) => !was)}>
        {text}
      </button>
      <div className="alert__actions">{children}</div>
    </div>
  );
}

/** SPEC §2: the offer to turn on push; a refusal in the browser's prompt makes the state "denied" and hides it. */
function PushAlert({ memberId, onDismiss }: { memberId: number; onDismiss: () => void }) {
  const t = useT();
  const { push_public_key: publicKey } = useSettings();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const enable = async () => {
    setBusy(true);
    setFailed(false);
    try {
      await turnOnPush(publicKey, memberId);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Notice tone="info" text={failed ? `${t("push_alert.text")} ${t("push_alert.failed")}` : t("push_alert.text")}>
      <button
        type="button"
        className="button button--primary button--small"
        disabled={busy}
        onClick={() => void enable()}
      >
        {t("push_alert.enable")}
      </button>
      <DismissButton label={t("push_alert.dismiss")} onDismiss={onDismiss} />
    </Notice>
  );
}
