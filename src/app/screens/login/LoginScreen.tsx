import { useState, type FormEvent } from "react";
import { LoginBody } from "../../../shared/account";
import { ApiRequestError, apiSend } from "../../page/api";
import { CredentialField, FormMessage, FormPage, useApiForm, useFormFields } from "../../components/Form";
import { Link } from "../../components/Link";
import { useRouter, useT } from "../../page/page-context";
import { USER_KEY, useUser, type UserResponse } from "../../hooks/useUser";

const FIELDS = Object.keys(LoginBody.entries);

/** Log in with e-mail and password; on success the member goes to the search (the logged-in home). */
export default function LoginScreen() {
  const t = useT();
  const { navigate } = useRouter();
  const { user, setUser } = useUser();
  const form = useApiForm(FIELDS);
  const { values, bind } = useFormFields(form, { email: "", password: "" });
  const { email, password } = values;
  // A disabled account is told why (after the right password only); the access ban page says what it means.
  const [disabled, setDisabled] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    const problems: Record<string, string> = {};
    if (!email.trim()) problems.email = t("validation.required");
    if (!password) problems.password = t("validation.required");
    if (!form.check(problems)) return;
    setDisabled(false);
    void form.run(async () => {
      const answer = await apiSend<UserResponse>("POST", USER_KEY, { email: email.trim(), password }).catch(
        (error: unknown) => {
          setDisabled(error instanceof ApiRequestError && error.body.error === "account_disabled");
          throw error;
        },
      );
      await setUser(answer.user);
      navigate("/members");
    });
  };

  const title = t("login.title");
  if (user && !form.busy && !form.succeeded) {
    return (
      <FormPage title={title}>
        <p>{t("login.already", { name: user.profile.name })}</p>
        <Link href="/members" className="button button--primary">
          {t("nav.search_members")}
        </Link>
      </FormPage>
    );
  }

  return (
    <FormPage title={title}>
      <form className="form" onSubmit={submit} noValidate>
        <FormMessage text={form.errors.message} />
        {disabled && (
          <p className="form__aside">
            <Link href="/pages/ban">{t("footer.access_ban")}</Link>
          </p>
        )}
        <CredentialField kind="login-email" label={t("login.email")} {...bind("email")} />
        <CredentialField kind="current-password" label={t("login.password")} {...bind("password")} />
        <p className="form__aside">
          <Link href="/reset-password">{t("login.forgot")}</Link>
        </p>
        <button type="submit" className="button button--primary form__submit" disabled={form.busy || form.succeeded}>
          {form.busy || form.succeeded ? t("login.busy") : t("login.submit")}
        </button>
        <p className="form__alternative">
          {t("login.no_account")} <Link href="/signup">{t("nav.signup")}</Link>
        </p>
      </form>
    </FormPage>
  );
}
