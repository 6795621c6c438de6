import type { FormEvent } from "react";
import { isEmail } from "../../../shared/account";
import { apiSend } from "../../page/api";
import { CredentialField, FormMessage, FormPage, useApiForm, useFormFields } from "../../components/Form";
import { Link } from "../../components/Link";
import { useT } from "../../page/page-context";

/** Forgot password: the member's e-mail address; the server mails a link to /reset-password/do. */
export default function ResetPasswordScreen() {
  const t = useT();
  const form = useApiForm(["email"]);
  const { values, bind } = useFormFields(form, { email: "" });
  const email = values.email.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    if (!form.check(isEmail(email) ? {} : { email: t("validation.email_invalid") })) return;
    void form.run(() => apiSend("POST", "/api/password-reset.php", { email }).then(() => undefined));
  };

  const title = t("reset.title");
  return (
    <FormPage title={title}>
      {form.succeeded ? (
        <>
          <FormMessage tone="success" text={t("errors.reset_sent")} />
          <p>{t("reset.check_spam")}</p>
          <Link href="/login">{t("reset.back_to_login")}</Link>
        </>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <p>{t("reset.text")}</p>
          <FormMessage text={form.errors.message} />
          <CredentialField kind="email" label={t("login.email")} {...bind("email")} />
          <button type="submit" className="button button--primary form__submit" disabled={form.busy}>
            {t("reset.submit")}
          </button>
          <p className="form__alternative">
            <Link href="/login">{t("reset.back_to_login")}</Link>
          </p>
        </form>
      )}
    </FormPage>
  );
}
