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
  ) {
    super(code);
  }
}

export function invalidParameter(field: string): AppError {
  return new AppError(400, "invalid_parameter", "errors.invalid_parameter", { field }, field);
}

export function errorBody(c: Context<AppEnv>, error: AppError) {
  const t = c.get("t");
  const message = t ? t(error.messageKey, error.values) : error.code;
  return { error: error.code, message, ...(error.field ? { field: error.field } : {}) };
}
