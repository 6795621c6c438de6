import { useState, type FormEvent, type ReactNode } from "react";
import { MailChangeBody, PasswordChangeBody } from "../../../shared/account";
import { emailProblem, passwordProblem } from "../../../shared/account-fields";
import { apiSend } from "../../page/api";
import { CredentialField, FormMessage, useApiForm, useFormFields } from "../../components/Form";
import { useT } from "../../page/page-context";

const MAIL_FIELDS = Object.keys(MailChangeBody.entries);
const PASSWORD_FIELDS = Object.keys(PasswordChangeBody.entries);

/** A credentials form of the settings: what went well (if anything), what went wrong, the fields and the button. */
function SettingsForm({
  onSubmit,
  busy,
  done,
  message,
  submitLabel,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  busy: boolean;
  done: string | false | null;
  message: string | null | undefined;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {done && <FormMessage tone="success" text={done} />}
      <FormMessage text={message} />
      {children}
      <button type="submit" className="button button--primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}

/** Change e-mail: the new address and the current password; a confirmation link goes to the new address. */
export function MailChangeSection({ email: current }: { email: string }) {
  const t = useT();
  const form = useApiForm(MAIL_FIELDS);
  const { values, reset, bind } = useFormFields(form, { email: "", password: "" });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    const { password } = values;
    const address = values.email.trim();
    const problems: Record<string, string> = {};
    const invalid = emailProblem(address);
    if (invalid) problems.email = t(invalid.key, invalid.values);
    else if (address.toLowerCase() === current.toLowerCase()) problems.email = t("validation.email_same");
    if (!password) problems.password = t("validation.required");
    if (!form.check(problems)) return;
    void form.run(async () => {
      await apiSend("POST", "/api/mail-change.php", { email: address, password });
      setSentTo(address);
      reset();
    });
  };

  return (
    <section className="settings__section" aria-labelledby="settings-email">
      <h2 id="settings-email">{t("settings.email.title")}</h2>
      <p>{t("settings.email.current", { email: current })}</p>
      <SettingsForm
        onSubmit={submit}
        busy={form.busy}
        done={sentTo && t("settings.email.sent", { email: sentTo })}
        message={form.errors.message}
        submitLabel={t("settings.email.submit")}
      >
        <CredentialField kind="email" label={t("settings.email.new")} {...bind("email")} />
        <CredentialField kind="current-password" label={t("settings.current_password")} {...bind("password")} />
      </SettingsForm>
    </section>
  );
}

/** Change password: the old one, the new one twice. */
export function PasswordSection() {
  const t = useT();
  const form = useApiForm(PASSWORD_FIELDS);
  const [changed, setChanged] = useState(false);
  const { values, reset, bind } = useFormFields(form, { old_password: "", password: "", password_repeat: "" }, () =>
    setChanged(false),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    const problems: Record<string, string> = {};
    if (!values.old_password) problems.old_password = t("validation.required");
    const weak = passwordProblem(values.password);
    if (weak) problems.password = t(weak.key, weak.values);
    else if (values.password !== values.password_repeat) problems.password_repeat = t("validation.passwords_differ");
    if (!form.check(problems)) return;
    void form.run(async () => {
      await apiSend("POST", "/api/password.php", values);
      reset();
      setChanged(true);
    });
  };

  return (
    <section className="settings__section" aria-labelledby="settings-password">
      <h2 id="settings-password">{t("settings.password.title")}</h2>
      <SettingsForm
        onSubmit={submit}
        busy={form.busy}
        done={changed && t("settings.password.done")}
        message={form.errors.message}
        submitLabel={t("settings.password.submit")}
      >
        <CredentialField kind="current-password" label={t("settings.current_password")} {...bind("old_password")} />
        <CredentialField kind="new-password" label={t("settings.password.new")} {...bind("password")} />
        <CredentialField kind="repeat-password" label={t("settings.password.repeat")} {...bind("password_repeat")} />
      </SettingsForm>
    </section>
  );
}
