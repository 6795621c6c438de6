import { useState, type FormEvent } from "react";
import { isEmail, MailChangeBody, PASSWORD_MIN, PasswordChangeBody } from "../../../shared/account";
import { apiSend } from "../../api";
import { FormMessage, TextField, useApiForm, useFormFields } from "../../components/Form";
import { useT } from "../../page-context";

const MAIL_FIELDS = Object.keys(MailChangeBody.entries);
const PASSWORD_FIELDS = Object.keys(PasswordChangeBody.entries);

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
    if (!isEmail(address)) problems.email = t("validation.email_invalid");
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
      <form className="form" onSubmit={submit} noValidate>
        {sentTo && <FormMessage tone="success" text={t("settings.email.sent", { email: sentTo })} />}
        <FormMessage text={form.errors.message} />
        <TextField
          label={t("settings.email.new")}
          type="email"
          inputMode="email"
          autoComplete="email"
          {...bind("email")}
        />
        <TextField
          label={t("settings.current_password")}
          type="password"
          autoComplete="current-password"
          {...bind("password")}
        />
        <button type="submit" className="button button--primary" disabled={form.busy}>
          {t("settings.email.submit")}
        </button>
      </form>
    </section>
  );
}

/** Change password: the old one, the new one twice. */
export function PasswordSection() {
  const t = useT();
  const form = useApiForm(PASSWORD_FIELDS);
  const [changed, setChanged] = useState(false);
  const { values, reset, bind } = useFormFields(form, { old_password: "", password: "", password_repeat: "" }, () => setChanged(false));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    const problems: Record<string, string> = {};
    if (!values.old_password) problems.old_password = t("validation.required");
    if (values.password.length < PASSWORD_MIN) problems.password = t("validation.password_too_short", { min: PASSWORD_MIN });
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
      <form className="form" onSubmit={submit} noValidate>
        {changed && <FormMessage tone="success" text={t("settings.password.done")} />}
        <FormMessage text={form.errors.message} />
        <TextField
          label={t("settings.current_password")}
          type="password"
          autoComplete="current-password"
          {...bind("old_password")}
        />
        <TextField
          label={t("settings.password.new")}
          type="password"
          autoComplete="new-password"
          hint={t("signup.password_hint", { min: PASSWORD_MIN })}
          {...bind("password")}
        />
        <TextField
          label={t("settings.password.repeat")}
          type="password"
          autoComplete="new-password"
          {...bind("password_repeat")}
        />
        <button type="submit" className="button button--primary" disabled={form.busy}>
          {t("settings.password.submit")}
        </button>
      </form>
    </section>
  );
}
