import * as v from "valibot";
import { invalidParameter } from "../errors";

/** Parse a query string against a schema; the first failing field becomes a 400 naming it. */
export function parseQuery<S extends v.GenericSchema>(schema: S, params: URLSearchParams): v.InferOutput<S> {
  const input: Record<string, string> = Object.create(null);
  for (const [key, value] of params) if (!Object.hasOwn(input, key)) input[key] = value;
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = issue.path?.map((item) => String(item.key)).join(".") || "query";
  throw invalidParameter(field);
}
