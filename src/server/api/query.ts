import * as v from "valibot";
import { AppError, invalidParameter } from "../errors";

/**
 * Parse a query string against a schema. The first failing field becomes a 400: with the text the
 * schema gives when it gives one of locales/ (a rule a member can break through a form, such as an
 * age range the wrong way round), else one naming the field.
 */
export function parseQuery<S extends v.GenericSchema>(schema: S, params: URLSearchParams): v.InferOutput<S> {
  const input: Record<string, string> = Object.create(null);
  for (const [key, value] of params) if (!Object.hasOwn(input, key)) input[key] = value;
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = issue.path?.map((item) => String(item.key)).join(".") || "query";
  if (issue.message.startsWith("validation."))
    throw new AppError({ status: 400, code: issue.message.slice("validation.".length), key: issue.message, field });
  throw invalidParameter(field);
}
