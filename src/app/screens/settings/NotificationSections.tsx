import { useState } from "react";
import useSWR, { useSWRConfig } from "swr";
import {
  EMAIL_KINDS,
  PUSH_KINDS,
  type NotificationsAnswer,
  type NotificationsUpdate,
} from "../../../shared/notifications";
import { apiSend } from "../../page/api";
import { FormMessage, formErrors } from "../../components/Form";
import { PushOnThisBrowser } from "../../components/PushOnThisBrowser";
import { USER_KEY } from "../../hooks/useUser";
import { useT } from "../../page/page-context";
import { NOTIFICATIONS_KEY } from "../../page/page-data";
import { Switch } from "./SettingSwitch";

type Section = "email" | "push";
/** Where the last change was made and how saving it went: the answer shows under that section's switches. */
type Saving =
  | { section: Section; state: "idle" | "saving" | "saved" }
  | { section: Section; state: "failed"; message: string };

function SavingLine({ saving, section }: { saving: Saving; section: Section }) {
  const t = useT();
  if (saving.section !== section) return null;
  if (saving.state === "failed") return <FormMessage text={saving.message} />;
  return (
    <p className="notifications__saving" role="status">
      {saving.state === "saving" ? t("notifications.saving") : saving.state === "saved" ? t("notifications.saved") : ""}
    </p>
  );
}

/**
 * The member's notification choices (SPEC §2 settings: e-mail and push preferences): one switch per
 * e-mail kind and per push kind, and message previews, each saved at once; why mail stopped, and how
 * to have it sent again.
 */
export function NotificationSections({ email }: { email: string }) {
  const t = useT();
  const { mutate } = useSWRConfig();
  const { data, mutate: setAnswer } = useSWR<NotificationsAnswer>(NOTIFICATIONS_KEY);
  const [saving, setSaving] = useState<Saving>({ section: "email", state: "idle" });
  // The switches move at once; they go back if the server refuses.
  const [pending, setPending] = useState<NotificationsAnswer["notifications"] | null>(null);
  if (!data) return null;
  const shown = pending ?? data.notifications;

  const save = async (
    section: Section,
    update: NotificationsUpdate,
    next: NotificationsAnswer["notifications"] | null,
  ) => {
    setPending(next);
    setSaving({ section, state: "saving" });
    try {
      const answer = await apiSend<NotificationsAnswer>("PUT", NOTIFICATIONS_KEY, update);
      await setAnswer(answer, { revalidate: false });
      // The user answer carries notifications_disabled too (the alerts read it).
      await mutate(USER_KEY);
      setSaving({ section, state: "saved" });
    } catch (failure) {
      setSaving({ section, state: "failed", message: formErrors(failure, [], t).message ?? t("errors.has_occurred") });
    } finally {
      setPending(null);
    }
  };
  const busy = saving.state === "saving";
  const unsubscribed = data.stops
    .filter((stop) => stop.reason === "unsubscribe" && stop.kind)
    .map((stop) => t(`notifications.email_kinds.${stop.kind}`));
  const blocked = data.notifications_disabled.find((reason) => reason === "bounce" || reason === "complaint");

  return (
    <div id="notifications" className="notifications">
      <section className="settings__section" aria-labelledby="settings-email-notifications">
        <h2 id="settings-email-notifications">{t("notifications.email_title")}</h2>
        {blocked && (
          <div className="alert alert--warning notifications__stopped" role="status">
            <p>{t(`notifications.stopped.${blocked}`, { email })}</p>
            <button
              type="button"
              className="button button--primary button--small"
              disabled={busy}
              onClick={() => void save("email", { resume_mail: true }, null)}
            >
              {t("notifications.stopped.resume")}
            </button>
          </div>
        )}
        {unsubscribed.length > 0 && (
          <p className="alert alert--info notifications__stopped" role="status">
            {t("notifications.stopped.unsubscribe", { kinds: unsubscribed.join(", ") })}
          </p>
        )}
        <p className="settings__hint">{t("notifications.email_intro", { email })}</p>
        <div className="notifications__switches">
          {EMAIL_KINDS.map((kind) => (
            <Switch
              className="notifications__switch"
              key={kind}
              name={`email.${kind}`}
              label={t(`notifications.email_kinds.${kind}`)}
              checked={shown.email[kind]}
              disabled={busy}
              onChange={(on) =>
                void save("email", { email: { [kind]: on } }, { ...shown, email: { ...shown.email, [kind]: on } })
              }
            />
          ))}
        </div>
        <SavingLine saving={saving} section="email" />
      </section>
      <section className="settings__section" aria-labelledby="settings-push-notifications">
        <h2 id="settings-push-notifications">{t("notifications.push_title")}</h2>
        <p className="settings__hint">{t("notifications.push_intro")}</p>
        <PushOnThisBrowser />
        <div className="notifications__switches">
          {PUSH_KINDS.map((kind) => (
            <Switch
              className="notifications__switch"
              key={kind}
              name={`push.${kind}`}
              label={t(`notifications.push_kinds.${kind}`)}
              checked={shown.push[kind]}
              disabled={busy}
              onChange={(on) =>
                void save("push", { push: { [kind]: on } }, { ...shown, push: { ...shown.push, [kind]: on } })
              }
            />
          ))}
          <Switch
            className="notifications__switch"
            name="previews"
            label={t("notifications.previews")}
            checked={shown.previews}
            disabled={busy}
            onChange={(on) => void save("push", { previews: on }, { ...shown, previews: on })}
          />
        </div>
        <p className="settings__hint">{t("notifications.previews_hint")}</p>
        <SavingLine saving={saving} section="push" />
      </section>
    </div>
  );
}
