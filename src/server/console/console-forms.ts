/**
 * What every console action shares: its form read and checked (valibot, a refusal naming the field),
 * and its answer (JSON for the form script, a redirect for a plain form).
 */
import type { Context } from "hono";
import * as v from "valibot";
import type { ConsoleEnv } from "./console-context";
import { ConsoleRefusal } from "./console-refusal";

/** A reason an operator gives for an action: required, kept in the audit log. */
export const Reason = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(3, "Give a reason (at least 3 characters)."),
  v.maxLength(1000, "The reason is too long (1,000 characters at most)."),
);

/**
 * Every console write's form is read here first (a middleware of console-app.ts), before any route
 * runs: a body that cannot be read (cut short, a wrong multipart boundary) is a 400 that changes
 * nothing, on every route alike. The parsed form is kept in the request, so `readForm` reads it again for free.
 */
export async function formReadable(c: Context<ConsoleEnv>, next: () => Promise<void>): Promise<void> {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    try {
      await c.req.parseBody({ all: true });
    } catch {
      throw new ConsoleRefusal(
        400,
        "invalid_body",
        "The form could not be read (it arrived cut short or malformed); nothing was changed. Send it again.",
      );
    }
  }
  await next();
}

/** The posted form, checked against a schema; a field that does not fit is a 400 naming it. */
export async function readForm<S extends v.GenericSchema>(
  c: Context<ConsoleEnv>,
  schema: S,
): Promise<v.InferOutput<S>> {
  const body = await c.req.parseBody({ all: true });
  const result = v.safeParse(schema, body);
  if (!result.success) {
    const issue = result.issues[0]!;
    const field = v.getDotPath(issue);
    throw new ConsoleRefusal(400, "invalid_parameter", field ? `${field}: ${issue.message}` : issue.message);
  }
  return result.output;
}

/** An action's answer when it is done: where the operator goes next. */
export function actionDone(c: Context<ConsoleEnv>, redirect: string): Response {
  if ((c.req.header("accept") ?? "").includes("application/json")) return c.json({ ok: true, redirect });
  return c.redirect(redirect, 303);
}

/** A positive whole number from a path or query parameter, or a 404. */
export function idParam(value: string | undefined): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) throw new ConsoleRefusal(404, "not_found", "There is no such thing here.");
  return id;
}

/** Whether the caller asked for JSON (the operator commands read the queues so). */
export function wantsJson(c: Context<ConsoleEnv>): boolean {
  return (c.req.header("accept") ?? "").includes("application/json");
}

/**
 * A destructive action's confirmation step (action-form.tsx ConfirmStep): without the ticked
 * sentence saying what will happen, the action is refused with nothing done.
 */
export async function requireConfirmation(c: Context<ConsoleEnv>): Promise<void> {
  const body = await c.req.parseBody({ all: true });
  if (body.confirmed !== "yes")
    throw new ConsoleRefusal(
      400,
      "confirmation_needed",
      "Tick the sentence saying what will happen, then press the button again; nothing was done.",
    );
}
