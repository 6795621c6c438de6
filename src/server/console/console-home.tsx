import { Hono, type Context } from "hono";
import type { ConsoleEnv } from "./console-context";
import { actionDone } from "./console-forms";
import { renderConsole } from "./console-page";
import type { ConsoleRefusal } from "./console-refusal";
import { clearOperatorCookie } from "./operator-cookie";

/** The console's front page (the screens the operator's roles open) and logging out of the development login. */
export const consoleHome = new Hono<ConsoleEnv>()
  .get("/", (c) =>
    renderConsole(
      c,
      "Console",
      <>
        <p>{`Signed in as ${c.var.operator.email} (${c.var.operator.roles.join(", ") || "no roles"}).`}</p>
        {c.var.nav.length === 0 ? (
          <p className="notice">Your roles open no screen yet; ask an admin for a role.</p>
        ) : (
          <ul>
            {c.var.nav.map((item) => (
              <li key={item.path}>
                <a href={item.path}>{item.label}</a>
              </li>
            ))}
          </ul>
        )}
      </>,
    ),
  )
  .post("/logout", (c) => {
    clearOperatorCookie(c);
    // Behind Access, its own logout ends the Access session too.
    return actionDone(c, c.env.ENVIRONMENT === "development" ? "/login" : "/cdn-cgi/access/logout");
  });

/**
 * A refusal as the console answers it: JSON for the form script, a page otherwise. Without a login
 * in development, a page view goes to the login form.
 */
export function renderConsoleRefusal(c: Context<ConsoleEnv>, refusal: ConsoleRefusal): Response | Promise<Response> {
  const wantsJson =
    (c.req.header("accept") ?? "").includes("application/json") || c.req.header("x-request-type") !== undefined;
  if (wantsJson) return c.json({ error: refusal.code, message: refusal.message }, refusal.status);
  if (refusal.status === 401 && c.req.method === "GET")
    return c.redirect(`/login?return=${encodeURIComponent(c.req.path)}`, 302);
  const title =
    refusal.status === 404
      ? "Not found"
      : refusal.status === 403 || refusal.status === 401
        ? "Access denied"
        : "Refused";
  return renderConsole(
    c,
    title,
    <p className="error">{refusal.message}</p>,
    refusal.status === 401 ? 403 : refusal.status >= 500 ? 400 : (refusal.status as 400 | 403 | 404),
  );
}
