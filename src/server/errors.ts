import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./request-context";

/** The values a locale text is filled in with. */
type TextValues = Record<string, string | number>;

/** One faulty field of a form: the locale key of its message and the message's values. */
type FieldProblem = { key: string; values?: TextValues };

/**
 * Why a call is refused, in the one shape the whole server uses: the HTTP status (a socket frame
 * ignores it), the machine code, the locale key of the text and its values, and the faulty field(s)
 * of a form. Answered over HTTP by `errorBody`, over the chat socket by the conversation object's
 * `refusal` frame.
 */
export type Refusal = {
  status: ContentfulStatusCode;
  code: string;
  key: string;
  values?: TextValues;
  /** The first faulty field of a form. */
  field?: string;
  /** Every faulty field of a form with its message, when there is more than one. */
  fields?: Record<string, FieldProblem>;
};

/**
 * A refusal thrown: the user can act on it, and app.onError answers it as `{ error, message, field?,
 * fields? }` in the user's language with its status.
 */
export class AppError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly key: string;
  readonly values: TextValues;
  readonly field?: string;
  readonly fields?: Record<string, FieldProblem>;

  constructor(refusal: Refusal) {
    super(refusal.code);
    this.status = refusal.status;
    this.code = refusal.code;
    this.key = refusal.key;
    this.values = refusal.values ?? {};
    if (refusal.field !== undefined) this.field = refusal.field;
    if (refusal.fields !== undefined) this.fields = refusal.fields;
  }
}

/** 400 naming each faulty field of a form; the first one is `field`. */
export function invalidFields(fields: Record<string, FieldProblem>): AppError {
  const [first] = Object.entries(fields) as [[string, FieldProblem]];
  return new AppError({
    status: 400,
    code: "invalid_parameter",
    key: first[1].key,
    values: first[1].values,
    field: first[0],
    fields,
  });
}

/** An error about one field, with its own message. */
export function fieldError(refusal: Omit<Refusal, "fields"> & { field: string }): AppError {
  return new AppError({ ...refusal, fields: { [refusal.field]: { key: refusal.key, values: refusal.values ?? {} } } });
}

/** 400 for a parameter that is missing or malformed. */
export function invalidParameter(field: string): AppError {
  return new AppError({
    status: 400,
    code: "invalid_parameter",
    key: "errors.invalid_parameter",
    values: { field },
    field,
  });
}

/** The text of a refusal in the user's language (the code when no translator is set up yet). */
export function refusalText(
  t: AppEnv["Variables"]["t"] | undefined,
  refusal: Pick<Refusal, "code" | "key" | "values">,
): string {
  return t ? t(refusal.key, refusal.values ?? {}) : refusal.code;
}

/** The JSON answer of a refusal: `{ error, message, field?, fields? }`, texts in the user's language. */
export function errorBody(c: Context<AppEnv>, error: Refusal) {
  const t = c.get("t");
  const message = refusalText(t, error);
  const fields =
    error.fields && t
      ? Object.fromEntries(Object.entries(error.fields).map(([name, p]) => [name, t(p.key, p.values ?? {})]))
      : undefined;
  return { error: error.code, message, ...(error.field ? { field: error.field } : {}), ...(fields ? { fields } : {}) };
}
