/**
 * The operators' console: its own Hono app on its own host (OPERATOR_HOST), served by the same
 * Worker before any member site is resolved (docs/decisions/0034). Order: request id -> security
 * headers -> db -> the operator (Access token, or the development login) -> CSRF on writes -> screens.
 */
import { Hono, type Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import { requireSameOrigin } from "../auth/csrf";
import { databaseOf } from "../db/database";
import { activeOperator } from "../db/operators";
import { securityHeaders } from "../edge/security";
import { AppError } from "../errors";
import { ModerationRefusal } from "../services/moderation";
import { i18nFor } from "../translations";
import { ACCESS_HEADER, accessEmail } from "./access";
import type { ConsoleEnv } from "./console-context";
import { consoleHome, renderConsoleRefusal } from "./console-home";
import { consoleLogin } from "./console-login";
import { formReadable } from "./console-forms";
import { ConsoleRefusal, hasRole, roleRequired } from "./console-refusal";
import { CONSOLE_SCREENS } from "./console-screens";
import { operatorIdFromCookie } from "./operator-cookie";

/**
 * Whether a request is for the console: its host is OPERATOR_HOST (with its port when it names one).
 * In development the port is not compared: the local stack is served on whatever port wrangler dev or
 * vite was given (8787 for npm start, E2E_PORT for the browser tests), and ops.localhost:8787 in
 * wrangler.toml names the console's host on all of them.
 */
export function isOperatorHost(env: Pick<Env, "OPERATOR_HOST" | "ENVIRONMENT">, url: string): boolean {
  const configured = (env.OPERATOR_HOST ?? "").trim().toLowerCase();
  if (!configured) return false;
  const { host, hostname } = new URL(url);
  if (env.ENVIRONMENT === "development") return hostname === configured.replace(/:[0-9]+$/, "");
  return configured.includes(":") ? host === configured : hostname === configured;
}

const isDevelopment = (c: Context<ConsoleEnv>) => c.env.ENVIRONMENT === "development";

/**
 * Who is asking. An Access token, when present, must verify (in every environment); without one,
 * only development accepts the console's own login cookie. Then the address must be an active
 * operator's. Everything else is refused before any screen runs.
 */
async function identify(c: Context<ConsoleEnv>) {
  const assertion = c.req.header(ACCESS_HEADER);
  if (assertion) {
    const email = await accessEmail(c.env, assertion);
    if (!email) throw new ConsoleRefusal(403, "access_denied", "Your Cloudflare Access token was not accepted.");
    const operator = await activeOperator(c.var.db, { email });
    if (!operator) throw new ConsoleRefusal(403, "not_an_operator", `${email} is not an operator of this console.`);
    return operator;
  }
  const operatorId = isDevelopment(c) ? await operatorIdFromCookie(c) : null;
  const operator = operatorId === null ? undefined : await activeOperator(c.var.db, { id: operatorId });
  if (operator) return operator;
  throw new ConsoleRefusal(
    isDevelopment(c) ? 401 : 403,
    "access_denied",
    "The console opens only through Cloudflare Access.",
  );
}

function createConsoleApp() {
  const app = new Hono<ConsoleEnv>();
  app.use(requestId());
  app.use(securityHeaders<ConsoleEnv>());
  app.use(async (c, next) => {
    c.set("db", databaseOf(c.env.DB));
    c.set("t", i18nFor("en").t);
    c.set("nav", []);
    await next();
  });
  app.use(requireSameOrigin);
  app.use(formReadable);
  // The development login stands where Access stands in production; it does not exist elsewhere.
  app.route("/login", consoleLogin);
  app.use(async (c, next) => {
    const operator = await identify(c);
    c.set("operator", operator);
    c.set(
      "nav",
      CONSOLE_SCREENS.filter(
        (screen) => screen.label !== null && (screen.role === null || hasRole(operator, screen.role)),
      ).map((screen) => ({ path: screen.path, label: screen.label! })),
    );
    await next();
  });
  app.route("/", consoleHome);
  for (const screen of CONSOLE_SCREENS) {
    // "/path/*" covers "/path" itself too, so no route of the screen runs without the role.
    if (screen.role) app.use(`${screen.path}/*`, roleRequired(screen.role));
    app.route(screen.path, screen.routes);
  }

  app.notFound((c) =>
    renderConsoleRefusal(c, new ConsoleRefusal(404, "not_found", "There is no such page in the console.")),
  );
  app.onError((error, c) => {
    if (error instanceof ConsoleRefusal) return renderConsoleRefusal(c, error);
    if (error instanceof ModerationRefusal)
      return renderConsoleRefusal(c, new ConsoleRefusal(error.status, error.code, error.message));
    if (error instanceof AppError)
      return renderConsoleRefusal(c, new ConsoleRefusal(error.status, error.code, c.var.t(error.key, error.values)));
    if (error instanceof HTTPException)
      return renderConsoleRefusal(c, new ConsoleRefusal(400, "invalid_body", "The request could not be read."));
    console.error(
      JSON.stringify({
        event: "console_error",
        requestId: c.get("requestId"),
        path: c.req.path,
        message: error.message,
        stack: error.stack,
      }),
    );
    return renderConsoleRefusal(
      c,
      new ConsoleRefusal(500, "internal_error", "Something went wrong; nothing may have been saved. Try again."),
    );
  });
  return app;
}

export const consoleApp = createConsoleApp();
