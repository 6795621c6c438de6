/**
 * The console's login in development only (ENVIRONMENT "development"): an operator's address is
 * enough, as nobody but the developer reaches a local Worker. Everywhere else Cloudflare Access is
 * the login and these routes do not exist (404).
 */
import { Hono } from "hono";
import * as v from "valibot";
import { activeOperator } from "../db/operators";
import type { ConsoleEnv } from "./console-context";
import { actionDone, readForm } from "./console-forms";
import { FormError, renderConsole } from "./console-page";
import { ConsoleRefusal } from "./console-refusal";
import { setOperatorCookie } from "./operator-cookie";

const Login = v.object({
  email: v.pipe(v.string(), v.trim(), v.minLength(3, "Give your operator address.")),
  return: v.optional(v.string()),
});

/** A console path to come back to after the login; anything else goes to the front page. */
const returnPath = (value: string | undefined) => (value && /^\/(?!\/)[^\\\s]*$/.test(value) ? value : "/");

export const consoleLogin = new Hono<ConsoleEnv>()
  .use(async (c, next) => {
    if (c.env.ENVIRONMENT !== "development")
      throw new ConsoleRefusal(404, "not_found", "There is no such page in the console.");
    await next();
  })
  .get("/", (c) =>
    renderConsole(
      c,
      "Operator login (development)",
      <form method="post" action="/login">
        <p className="notice">
          This login exists only in development. In production Cloudflare Access signs operators in.
        </p>
        <label>
          Operator e-mail <input name="email" type="email" required autoComplete="username" />
        </label>
        <input type="hidden" name="return" value={returnPath(c.req.query("return"))} />
        <button type="submit">Log in</button>
        <FormError />
      </form>,
    ),
  )
  .post("/", async (c) => {
    const input = await readForm(c, Login);
    const operator = await activeOperator(c.var.db, { email: input.email });
    if (!operator)
      throw new ConsoleRefusal(
        403,
        "not_an_operator",
        "That address is not an active operator (npm run operator -- add-admin <address> --local).",
      );
    await setOperatorCookie(c, operator.id, Math.floor(Date.now() / 1000));
    return actionDone(c, returnPath(input.return));
  });
