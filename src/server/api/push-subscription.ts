/** POST /api/user.php?push=1 (SPEC §7): the browser's push subscription. Body in src/shared/web-push.ts. */
import type { Context, Next } from "hono";
import * as v from "valibot";
import { PushSubscriptionBody } from "../../shared/web-push";
import { requireMember } from "../edge/signed-in-member";
import { AppError, invalidFields } from "../errors";
import { pushToLoopbackAllowed } from "../push/sender";
import type { AppEnv } from "../request-context";
import { subscribeBrowser, unsubscribeBrowser } from "../services/browser-push";

/** The text of a faulty field: which part of the subscription the browser got wrong. */
function problemKey(field: string): string {
  if (field === "endpoint" || field === "subscription.endpoint") return "push.errors.endpoint";
  if (field.startsWith("subscription.keys")) return "push.errors.keys";
  return "push.errors.subscription";
}

async function readBody(c: Context<AppEnv>): Promise<PushSubscriptionBody> {
  const raw: unknown = await c.req.json().catch(() => undefined);
  if (raw === undefined) throw new AppError({ status: 400, code: "invalid_body", key: "errors.invalid_body" });
  const result = v.safeParse(PushSubscriptionBody, raw);
  if (result.success) return result.output;
  const fields: Record<string, { key: string }> = Object.create(null);
  for (const issue of result.issues) {
    const field = v.getDotPath(issue) ?? "subscription";
    fields[field] ??= { key: problemKey(field) };
  }
  throw invalidFields(fields);
}

/**
 * Takes POST /api/user.php when it carries `?push`, so a subscription is never read as a login;
 * any other POST goes on to the login.
 */
export async function pushSubscriptionCall(c: Context<AppEnv>, next: Next) {
  if (c.req.query("push") === undefined) return next();
  const member = requireMember(c);
  const body = await readBody(c);
  const subscriber = { userId: member.userId, sessionId: member.id };
  if (body.subscription)
    await subscribeBrowser(
      c.get("db"),
      subscriber,
      body.subscription,
      pushToLoopbackAllowed(c.env),
      Math.floor(Date.now() / 1000),
    );
  else await unsubscribeBrowser(c.get("db"), subscriber, body.endpoint);
  return c.json({ ok: true });
}
