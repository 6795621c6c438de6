import { useState, type FormEvent } from "react";
import { isEmail, MailChangeBody, PASSWORD_MIN, PasswordChangeBody } from "../../../shared/account";
import { apiSend } from "../../api";
import { FormMessage, TextField, useApiForm } from "../../components/Form";
import { useT } from "../../context";

const MAIL_FIELDS = Object.keys(MailChangeBody.entries);
const PASSWORD_FIELDS = Object.keys(PasswordChangeBody.entries);

/** Change e-mail: the new address and the current password; a confirmation link goes to the new address. */
export function MailChangeSection({ email: current }: { email: string }) {
  const t = useT();
  const form = useApiForm(MAIL_FIELDS);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    const address = email.trim();
    const problems: Record<string, string> = {};
    if (!isEmail(address)) problems.email = t("validation.email_invalid");
    else if (address.toLowerCase() === current.toLowerCase()) problems.email = t("validation.email_same");
    if (!password) problems.password = t("validation.required");
    if (!form.check(problems)) return;
    void form.run(async () => {
      await apiSend("POST", "/api/mail-change.php", { email: address, password });
      setSentTo(address);
      setEmail("");
      setPassword("");
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
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={email}
          error={form.errors.fields.email}
          onChange={(e) => {
            setEmail(e.target.value);
            form.clearField("email");
          }}
        />
        <TextField
          label={t("settings.current_password")}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          error={form.errors.fields.password}
          onChange={(e) => {
            setPassword(e.target.value);
            form.clearField("password");
          }}
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
  const [values, setValues] = useState({ old_password: "", password: "", password_repeat: "" });
  const [changed, setChanged] = useState(false);

  const set = (name: keyof typeof values, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setChanged(false);
    form.clearField(name);
  };

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
      setValues({ old_password: "", password: "", password_repeat: "" });
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
          name="old_password"
          type="password"
          autoComplete="current-password"
          value={values.old_password}
          error={form.errors.fields.old_password}
          onChange={(e) => set("old_password", e.target.value)}
        />
        <TextField
          label={t("settings.password.new")}
          name="password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          error={form.errors.fields.password}
          hint={t("signup.password_hint", { min: PASSWORD_MIN })}
          onChange={(e) => set("password", e.target.value)}
        />
        <TextField
          label={t("settings.password.repeat")}
          name="password_repeat"
          type="password"
          autoComplete="new-password"
          value={values.password_repeat}
          error={form.errors.fields.password_repeat}
          onChange={(e) => set("password_repeat", e.target.value)}
        />
        <button type="submit" className="button button--primary" disabled={form.busy}>
          {t("settings.password.submit")}
        </button>
      </form>
    </section>
  );
}
