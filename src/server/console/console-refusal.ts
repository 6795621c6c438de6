import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { OperatorRole } from "../db/operators";
import type { ConsoleEnv } from "./console-context";

/** A refusal of the console, in English (the console is for staff): status and text. */
export class ConsoleRefusal extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Whether an operator holds a role; an admin holds every role. */
export function hasRole(operator: { roles: readonly OperatorRole[] }, role: OperatorRole): boolean {
  return operator.roles.includes("admin") || operator.roles.includes(role);
}

/** Refuse the request unless its operator holds the role (403, nothing done). */
export function requireRole(c: Context<ConsoleEnv>, role: OperatorRole): void {
  if (!hasRole(c.var.operator, role)) throw new ConsoleRefusal(403, "role_required", `This needs the ${role} role.`);
}

/** The same check as middleware, for every route of a screen. */
export function roleRequired(role: OperatorRole): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    requireRole(c, role);
    await next();
  };
}
