import { useCallback, useId, useState, type ChangeEvent, type InputHTMLAttributes, type ReactNode } from "react";
import { PASSWORD_MIN } from "../../shared/account";
import { formErrors, NO_ERRORS, type FormErrors } from "./form-errors";
import { useT } from "../page/page-context";
import { Title } from "./Title";

export { formErrors };

/**
 * The state of a form that sends one call: whether it is busy, whether it succeeded, and its errors.
 * `run` ignores a second submit while the first is under way.
 */
export function useApiForm(formFields: readonly string[]) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [succeeded, setSucceeded] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const fieldList = formFields.join(",");

  const run = useCallback(
    async (action: () => Promise<void>): Promise<boolean> => {
      setBusy(true);
      setErrors(NO_ERRORS);
      try {
        await action();
        setSucceeded(true);
        return true;
      } catch (error) {
        setErrors(formErrors(error, fieldList.split(","), t));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [fieldList, t],
  );

  /** Show client-side problems (field name -> text); true when there are none. */
  const check = useCallback((problems: Record<string, string>): boolean => {
    const ok = Object.keys(problems).length === 0;
    if (!ok) setErrors({ fields: problems, message: null });
    return ok;
  }, []);

  /** Forget the error of a field the member is correcting. */
  const clearField = useCallback((name: string) => {
    setErrors((current) => {
      if (!(name in current.fields)) return current;
      const fields = { ...current.fields };
      delete fields[name];
      return { ...current, fields };
    });
  }, []);

  return { busy, succeeded, errors, setErrors, run, check, clearField, reset: () => setSucceeded(false) };
}

type ApiForm = ReturnType<typeof useApiForm>;

/**
 * The values of a form's text fields. `bind(name)` gives a TextField its name, value and error; typing
 * sets the value and clears that field's error. `onEdit` runs on every change (to hide a success text).
 */
export function useFormFields<N extends string>(
  form: Pick<ApiForm, "errors" | "clearField">,
  initial: Record<N, string>,
  onEdit?: () => void,
) {
  const [values, setValues] = useState(initial);

  const set = (name: N, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    onEdit?.();
    form.clearField(name);
  };

  const bind = (name: N) => ({
    name,
    value: values[name],
    error: form.errors.fields[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(name, event.target.value),
  });

  return { values, set, reset: () => setValues(initial), bind };
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  error?: string | undefined;
  hint?: string | undefined;
};

/** A labelled input with its hint, and the field's error text below it. */
export function TextField({ label, error, hint, ...input }: FieldProps) {
  const id = useId();
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={error ? "field field--error" : "field"}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        {...input}
      />
      {hint && !error && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

/**
 * The e-mail and password fields the login, password, reset, mail-change and signup forms share:
 * `kind` sets the input's type and what the browser may fill in; a new password tells its minimum.
 */
export function CredentialField({
  kind,
  ...field
}: Omit<FieldProps, "type"> & {
  kind: "email" | "login-email" | "current-password" | "new-password" | "repeat-password";
}) {
  const t = useT();
  if (kind === "email" || kind === "login-email") {
    return (
      <TextField type="email" inputMode="email" autoComplete={kind === "email" ? "email" : "username"} {...field} />
    );
  }
  const hint = kind === "new-password" ? t("signup.password_hint", { count: PASSWORD_MIN }) : undefined;
  return (
    <TextField
      type="password"
      autoComplete={kind === "current-password" ? "current-password" : "new-password"}
      hint={hint}
      {...field}
    />
  );
}

/** The error text of one field (or group of fields), in the danger colour. */
export function FieldError({ text, id }: { text: string | undefined; id?: string }) {
  if (!text) return null;
  return (
    <p className="field__error" id={id} role="alert">
      {text}
    </p>
  );
}

/** The form's own message: an error, or the text that it worked. */
export function FormMessage({ text, tone = "error" }: { text: string | null | undefined; tone?: "error" | "success" }) {
  if (!text) return null;
  return (
    <p className={`form-message form-message--${tone}`} role={tone === "error" ? "alert" : "status"}>
      {text}
    </p>
  );
}

/** A narrow card holding one form page (login, reset password ...), titled in the page and in the document. */
export function FormPage({ title, className, children }: { title: string; className?: string; children: ReactNode }) {
  return (
    <section className={className ? `form-page ${className}` : "form-page"}>
      <Title text={title} />
      <h1>{title}</h1>
      {children}
    </section>
  );
}
