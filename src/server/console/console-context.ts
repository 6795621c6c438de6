import type { Translate } from "../../shared/translator";
import type { Database } from "../db/database";
import type { Hono } from "hono";
import type { Operator, OperatorRole } from "../db/operators";

/** A screen's entry in the console's navigation. */
export type NavItem = { path: string; label: string };

/** What a console handler may read once the console's middleware has run (docs/decisions/0034). */
type ConsoleVariables = {
  requestId: string;
  db: Database;
  /** English texts of the locale files, for the refusals of services the member side shares. */
  t: Translate;
  /** The operator making the request, verified (Access, or the development login). */
  operator: Operator;
  /** The screens this operator's roles open, for the layout's navigation. */
  nav: NavItem[];
  secureHeadersNonce?: string;
};

export type ConsoleEnv = { Bindings: Env; Variables: ConsoleVariables };

/**
 * One screen of the console: where it lives, its name in the navigation (none: reached from another
 * screen), the role every one of its routes needs (null: any operator), and its routes, relative to
 * `path`. Adding a screen is one such module and one line in console-screens.ts.
 */
export type ConsoleScreen = {
  path: string;
  label: string | null;
  role: OperatorRole | null;
  routes: Hono<ConsoleEnv>;
};
