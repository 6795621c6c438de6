import { useState, type ChangeEvent, type FormEvent, type ReactNode } from "react";
import { LOOKING_FOR, suggestEmail, USERNAME_MAX, type LookingFor, type SignupBody } from "../../shared/account";
import { MAX_AGE, MIN_AGE } from "../../shared/ages";
import { apiSend } from "../page/api";
import { usePage, useRouter, useT } from "../page/page-context";
import { useUser, type UserResponse } from "../hooks/useUser";
import { dateOfBirth, signupProblems, type SignupDraft } from "./signup-checks";
import { CredentialField, FieldError, FormMessage, TextField, useApiForm } from "./Form";
import { Link } from "./Link";

const SIGNUP_FIELDS = [
  "email",
  "username",
  "password",
  "date_of_birth",
  "gender",
  "looking_for",
  "terms",
  "signup_message",
] as const;
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
] as const;
const SIGNUP_MESSAGE_MAX = 2000;

const currentYear = () => new Date().getFullYear();

const EMPTY: SignupDraft = {
  email: "",
  username: "",
  password: "",
  day: "",
  month: "",
  year: "",
  gender: "",
  lookingFor: "",
  terms: false,
};

/** A translated text with {name} placeholders replaced by elements (links inside a sentence). */
function withElements(text: string, elements: Record<string, ReactNode>): ReactNode[] {
  return text.split(/(\{\w+\})/).map((part, i) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && name in elements ? <span key={i}>{elements[name]}</span> : part;
  });
}

type Props = {
  /** The member whose page the visitor signs up from (/members/{id}/signup): a first message goes to them. */
  profile?: { id: number; name: string } | null;
  /** Called (in the event, so nobody can be quicker) when the visitor first changes the form: signup is in progress. */
  onTouched?: () => void;
  /** Called when the visitor leaves the form: signed up, or gone to log in. */
  onLeave?: () => void;
};

/**
 * The signup form (SPEC §2, §5): e-mail with a "Did you mean" suggestion, username, password, date of
 * birth, gender and the terms. Checked here first with the texts of SPEC §5, then by the server; on
 * success the new member is logged in and continues at /complete-signup.
 */
export function SignupForm({ profile, onTouched, onLeave }: Props) {
  const t = useT();
  const { settings } = usePage();
  const { navigate } = useRouter();
  const { setUser } = useUser();
  const form = useApiForm(SIGNUP_FIELDS);
  const [draft, setDraft] = useState<SignupDraft>(EMPTY);
  const [message, setMessage] = useState("");
  const [suggestion, setSuggestion] = useState<string | null>(null);
  const [thisYear] = useState(currentYear);

  if (settings.signups === "invite_only") return <p className="notice">{t("errors.invite_only")}</p>;

  const change = <K extends keyof SignupDraft>(name: K, value: SignupDraft[K], field: string = name) => {
    setDraft((current) => ({ ...current, [name]: value }));
    onTouched?.();
    form.clearField(field);
  };

  /** A text field's name, value, error and change handler. */
  const bind = (name: "email" | "username" | "password") => ({
    name,
    value: draft[name],
    error: form.errors.fields[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => change(name, event.target.value),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy || form.succeeded) return;
    const problems = signupProblems(draft);
    const texts = Object.fromEntries(Object.entries(problems).map(([field, p]) => [field, t(p.key, p.values)]));
    if (!form.check(texts)) return;
    const body: SignupBody = {
      email: draft.email.trim(),
      username: draft.username.trim(),
      password: draft.password,
      date_of_birth: dateOfBirth(draft.day, draft.month, draft.year)!,
      gender: draft.gender as SignupBody["gender"],
      looking_for: draft.lookingFor as LookingFor,
      terms: true,
      ...(profile ? { profile_id: profile.id } : {}),
      ...(profile && message.trim() ? { signup_message: message.trim() } : {}),
    };
    void form.run(async () => {
      const { user } = await apiSend<UserResponse>("POST", "/api/signup.php", body);
      onLeave?.();
      await setUser(user);
      navigate("/complete-signup");
    });
  };

  // Someone born in the oldest year offered is MAX_AGE until their birthday.
  const years = Array.from({ length: MAX_AGE + 1 - MIN_AGE + 1 }, (_, i) => thisYear - MIN_AGE - i);
  const errors = form.errors.fields;

  return (
    <form className="form signup-form" onSubmit={submit} noValidate>
      <FormMessage text={form.errors.message} />
      <CredentialField
        kind="email"
        label={t("signup.email")}
        {...bind("email")}
        onChange={(e) => {
          change("email", e.target.value);
          setSuggestion(null);
        }}
        onBlur={() => setSuggestion(suggestEmail(draft.email.trim()))}
      />
      {suggestion && (
        <button
          type="button"
          className="link-button field__suggestion"
          onClick={() => {
            change("email", suggestion);
            setSuggestion(null);
          }}
        >
          {t("validation.email_did_you_mean", { suggestion })}
        </button>
      )}
      <TextField
        label={t("signup.username")}
        autoComplete="username"
        maxLength={USERNAME_MAX}
        hint={t("signup.username_hint")}
        {...bind("username")}
      />
      <CredentialField kind="new-password" label={t("signup.password")} {...bind("password")} />
      <fieldset className={errors.date_of_birth ? "field field--error" : "field"}>
        <legend className="field__label">{t("signup.date_of_birth")}</legend>
        <div className="date-select">
          <select
            aria-label={t("signup.day")}
            name="day"
            value={draft.day}
            onChange={(e) => change("day", e.target.value, "date_of_birth")}
            aria-invalid={errors.date_of_birth ? true : undefined}
          >
            <option value="">{t("signup.day")}</option>
            {Array.from({ length: 31 }, (_, i) => (
              <option key={i} value={i + 1}>
                {i + 1}
              </option>
            ))}
          </select>
          <select
            aria-label={t("signup.month")}
            name="month"
            value={draft.month}
            onChange={(e) => change("month", e.target.value, "date_of_birth")}
            aria-invalid={errors.date_of_birth ? true : undefined}
          >
            <option value="">{t("signup.month")}</option>
            {MONTHS.map((month, i) => (
              <option key={month} value={i + 1}>
                {t(`signup.months.${month}`)}
              </option>
            ))}
          </select>
          <select
            aria-label={t("signup.year")}
            name="year"
            value={draft.year}
            onChange={(e) => change("year", e.target.value, "date_of_birth")}
            aria-invalid={errors.date_of_birth ? true : undefined}
          >
            <option value="">{t("signup.year")}</option>
            {years.map((year) => (
              <option key={year} value={year}>
                {year}
              </option>
            ))}
          </select>
        </div>
        <FieldError text={errors.date_of_birth} />
      </fieldset>
      <fieldset className={errors.gender ? "field field--error" : "field"}>
        <legend className="field__label">{t("signup.gender")}</legend>
        <div className="choice-row">
          {(["male", "female"] as const).map((gender) => (
            <label key={gender} className="choice">
              <input
                type="radio"
                name="gender"
                value={gender}
                checked={draft.gender === gender}
                onChange={() => change("gender", gender)}
              />
              <span>{t(`signup.gender_${gender}`)}</span>
            </label>
          ))}
        </div>
        <FieldError text={errors.gender} />
      </fieldset>
      <fieldset className={errors.looking_for ? "field field--error" : "field"}>
        <legend className="field__label">{t("signup.looking_for")}</legend>
        <div className="choice-row">
          {LOOKING_FOR.map((wanted) => (
            <label key={wanted} className="choice">
              <input
                type="radio"
                name="looking_for"
                value={wanted}
                checked={draft.lookingFor === wanted}
                onChange={() => change("lookingFor", wanted, "looking_for")}
              />
              <span>{t(`signup.looking_for_${wanted}`)}</span>
            </label>
          ))}
        </div>
        <FieldError text={errors.looking_for} />
      </fieldset>
      {profile && (
        <div className={errors.signup_message ? "field field--error" : "field"}>
          <label className="field__label" htmlFor="signup-message">
            {t("signup.message", { name: profile.name })}
          </label>
          <textarea
            id="signup-message"
            className="field__input field__textarea"
            name="signup_message"
            rows={3}
            maxLength={SIGNUP_MESSAGE_MAX}
            placeholder={t("signup.message_placeholder")}
            value={message}
            onChange={(e) => {
              setMessage(e.target.value);
              onTouched?.();
              form.clearField("signup_message");
            }}
          />
          <FieldError text={errors.signup_message} />
        </div>
      )}
      <div className={errors.terms ? "field field--error" : "field"}>
        <label className="choice choice--terms">
          <input
            type="checkbox"
            name="terms"
            checked={draft.terms}
            onChange={(e) => change("terms", e.target.checked)}
          />
          <span>
            {withElements(t("signup.terms", { terms: "{terms}", privacy: "{privacy}" }), {
              terms: (
                <a href="/pages/terms" target="_blank" rel="noopener">
                  {t("signup.terms_link")}
                </a>
              ),
              privacy: (
                <a href="/pages/privacy" target="_blank" rel="noopener">
                  {t("signup.privacy_link")}
                </a>
              ),
            })}
          </span>
        </label>
        <FieldError text={errors.terms} />
      </div>
      <button type="submit" className="button button--primary form__submit" disabled={form.busy || form.succeeded}>
        {form.busy || form.succeeded ? t("signup.busy") : t("signup.submit")}
      </button>
      <p className="form__alternative">
        {t("signup.have_account")}{" "}
        <Link href="/login" onClick={() => onLeave?.()}>
          {t("login.submit")}
        </Link>
      </p>
    </form>
  );
}
