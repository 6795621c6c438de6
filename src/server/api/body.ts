import * as v from "valibot";
import { AppError, invalidFields } from "../errors";

/**
 * The hook for `vValidator("json", Schema, invalidBody)`: a body that does not fit is a 400 naming
 * each faulty field ("required" for a missing one), so a form can show each message where it belongs.
 */
export function invalidBody<S extends v.GenericSchema>(result: v.SafeParseResult<S>): void {
  if (result.success) return;
  // No prototype: a field named `constructor` or `toString` is a field like any other.
  const fields: Record<string, { key: string; values?: Record<string, string> }> = Object.create(null);
  for (const issue of result.issues) {
    const field = v.getDotPath(issue);
    if (!field) throw new AppError({ status: 400, code: "invalid_body", key: "errors.invalid_body" });
    fields[field] ??=
      field === "terms"
        ? { key: "validation.terms_required" }
        : field === "gender"
          ? { key: "validation.gender_required" }
          : issue.input === undefined
            ? { key: "validation.required" }
            : { key: "errors.invalid_parameter", values: { field } };
  }
  throw invalidFields(fields);
}
