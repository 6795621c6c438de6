import type { FormEvent } from "react";
import useSWR from "swr";
import { ResetBody } from "../../../shared/account";
import { passwordProblem } from "../../../shared/account-fields";
import { apiSend } from "../../page/api";
import { CredentialField, FormMessage, FormPage, useApiForm, useFormFields } from "../../components/Form";
import { Link } from "../../components/Link";
import { useT } from "../../page/page-context";
import type { ScreenProps } from "../../page/page-state";
import { resetLinkKey } from "../../page/page-data";

const FIELDS = Object.keys(ResetBody.entries).filter((f) => f !== "token");

/** The mailed reset link (?token=): a new password twice; a used or expired link says so at once and offers a new one. */
export default function ResetPasswordDoScreen({ query }: ScreenProps) {
  const t = useT();
  const token = query.get("token") ?? "";
  // A link used or expired already says so at once, instead of after a new password is typed twice.
  const { data: link } = useSWR<{ live: boolean }>(token ? resetLinkKey(token) : null);
  const form = useApiForm(FIELDS);
  const { values, bind } = useFormFields(form, { password: "", password_repeat: "" });
  const { password, password_repeat } = values;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    const problems: Record<string, string> = {};
    const weak = passwordProblem(password);
    if (weak) problems.password = t(weak.key, weak.values);
    else if (password !== password_repeat) problems.password_repeat = t("validation.passwords_differ");
    if (!form.check(problems)) return;
    void form.run(() =>
      apiSend("PUT", "/api/password-reset.php", { token, password, password_repeat }).then(() => undefined),
    );
  };

  const title = t("reset.do_title");
  if (!token || (link && !link.live && !form.succeeded)) {
    return (
      <FormPage title={title}>
        <FormMessage text={t("errors.link_expired")} />
        <Link href="/reset-password" className="button button--primary">
          {t("reset.request_new")}
        </Link>
      </FormPage>
    );
  }

  return (
    <FormPage title={title}>
      {form.succeeded ? (
        <>
          <FormMessage tone="success" text={t("reset.done")} />
          <Link href="/login" className="button button--primary">
            {t("login.submit")}
          </Link>
        </>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          {form.errors.message && (
            <div className="form-message form-message--error" role="alert">
              <p>{form.errors.message}</p>
              <Link href="/reset-password">{t("reset.request_new")}</Link>
            </div>
          )}
          <CredentialField kind="new-password" label={t("reset.password")} {...bind("password")} />
          <CredentialField kind="repeat-password" label={t("reset.password_repeat")} {...bind("password_repeat")} />
          <button type="submit" className="button button--primary form__submit" disabled={form.busy}>
            {t("reset.do_submit")}
          </button>
        </form>
      )}
    </FormPage>
  );
}
