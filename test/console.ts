/**
 * What the console's tests share: requests to the console host as Access would pass them (a token of
 * the Access stand-in in Cf-Access-Jwt-Assertion), the env that points the Worker at the stand-in,
 * and operators made straight in D1.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { databaseOf } from "../src/server/db/database";
import { putOperatorQueries, type OperatorRole } from "../src/server/db/operators";
import { app } from "../src/server/app";
import { ACCESS_AUD, type TokenRequest } from "./access-stand-in";

export const CONSOLE_ORIGIN = `https://${env.OPERATOR_HOST}`;
const accessUrl = inject("accessUrl");

/** The Worker's env in production behind Access, whose team domain is the stand-in. */
export const productionEnv = { ...env, ENVIRONMENT: "production", ACCESS_TEAM_DOMAIN: accessUrl, ACCESS_AUD };

/** A token of the Access stand-in (valid for the console unless the request says otherwise). */
export async function accessToken(request: TokenRequest = {}): Promise<string> {
  const response = await fetch(`${accessUrl}/_stand-in/token`, { method: "POST", body: JSON.stringify(request) });
  return ((await response.json()) as { token: string }).token;
}

let made = 0;
/** An active operator with these roles, made straight in D1; answers their address. */
export async function operator(...roles: OperatorRole[]): Promise<string> {
  const email = `op${++made}-${Math.random().toString(36).slice(2, 8)}@flirtwave.test`;
  const db = databaseOf(env.DB);
  await db.batch(putOperatorQueries(db, email, roles, Math.floor(Date.now() / 1000)));
  return email;
}

type ConsoleInit = {
  method?: string;
  token?: string | null;
  form?: Record<string, string | string[]>;
  /** A raw body, sent as it is (with the content type given in `headers`). */
  body?: string;
  headers?: Record<string, string>;
  workerEnv?: Env;
};

/**
 * A request to the console as a browser behind Access sends it: the token, and on writes the form
 * script's X-Request-Type and the console's own Origin (each can be left out or changed).
 */
export async function consoleFetch(path: string, init: ConsoleInit = {}): Promise<Response> {
  const method = init.method ?? (init.form ? "POST" : "GET");
  const headers = new Headers(init.headers);
  if (init.token) headers.set("cf-access-jwt-assertion", init.token);
  if (method !== "GET") {
    if (!headers.has("x-request-type")) headers.set("x-request-type", "console");
    if (!headers.has("origin")) headers.set("origin", CONSOLE_ORIGIN);
    if (!headers.has("accept")) headers.set("accept", "application/json");
  }
  let body: string | null = init.body ?? null;
  if (init.form) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(init.form)) for (const one of [value].flat()) params.append(key, one);
    body = params.toString();
    headers.set("content-type", "application/x-www-form-urlencoded");
  }
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(CONSOLE_ORIGIN + path, { method, headers, body, redirect: "manual" }),
    init.workerEnv ?? productionEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

/** The same request with a valid Access token for this operator. */
export async function asOperator(
  email: string,
  path: string,
  init: Omit<ConsoleInit, "token"> = {},
): Promise<Response> {
  return consoleFetch(path, { ...init, token: await accessToken({ email }) });
}
