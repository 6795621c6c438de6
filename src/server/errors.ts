import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./context";

/**
 * An error the user can act on: it carries a machine code, the locale key of its message and the
 * HTTP status, and is answered as `{ error, message, field? }` in the user's language.
 */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    readonly messageKey: string,
    readonly values: Record<string, string | number> = {},
    readonly field?: string,
    /** Every faulty field of a form with its message key, when there is more than one. */
    readonly fields?: Record<string, { key: string; values?: Record<string, string | number> }>,
  ) {
    super(code);
  }
}

/** 400 naming each faulty field of a form; the first one is `field`. */
export function invalidFields(fields: Record<string, { key: string; values?: Record<string, string | number> }>): AppError {
  const [first] = Object.entries(fields) as [[string, { key: string; values?: Record<string, string | number> }]];
  return new AppError(400, "invalid_parameter", first[1].key, first[1].values, first[0], fields);
}

/** An error about one field, with its own message. */
export function fieldError(status: ContentfulStatusCode, code: string, field: string, key: string, values: Record<string, string | number> = {}): AppError {
  return new AppError(status, code, key, values, field, { [field]: { key, values } });
}

export function invalidParameter(field: string): AppError {
  return new AppError(400, "invalid_parameter", "errors.invalid_parameter", { field }, field);
}

export function errorBody(c: Context<AppEnv>, error: AppError) {
  const t = c.get("t");
  const message = t ? t(error.messageKey, error.values) : error.code;
  const fields = error.fields && t ? Object.fromEntries(Object.entries(error.fields).map(([name, p]) => [name, t(p.key, p.values ?? {})])) : undefined;
  return { error: error.code, message, ...(error.field ? { field: error.field } : {}), ...(fields ? { fields } : {}) };
}
