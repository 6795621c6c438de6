/* The server's refusal as a form shows it, apart from the form code, so a notice can use it without it. */
import { ApiRequestError } from "../page/api";
import { type Translate } from "../../shared/translator";

/** What a form shows after a failed call: a text under each field at fault, and one for the form. */
export type FormErrors = { fields: Record<string, string>; message: string | null };

export const NO_ERRORS: FormErrors = { fields: {}, message: null };

/**
 * The server's error as the form shows it: `fields[name]` under each field the form has, else the
 * message (under `field` when the form has that field). Anything that is not an API answer (the
 * network is down) is the generic "try again later".
 */
export function formErrors(error: unknown, formFields: readonly string[], t: Translate): FormErrors {
  if (!(error instanceof ApiRequestError)) return { fields: {}, message: t("errors.try_again_later") };
  const { body } = error;
  const fields: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const [name, text] of Object.entries(body.fields ?? {})) {
    if (formFields.includes(name)) fields[name] = text;
    else elsewhere.push(text);
  }
  if (body.field && formFields.includes(body.field)) fields[body.field] ??= body.message;
  const placed = Object.keys(fields).length > 0;
  const message = elsewhere.length > 0 ? elsewhere.join(" ") : placed ? null : body.message || t("errors.has_occurred");
  return { fields, message };
}
