/**
 * The operator commands as clients of the console (docs/decisions/0035): they act through the
 * running Worker's console, so a decision by command is the console's own (its services, its audit
 * row, its statement of reasons and mails, sessions and open pages ended at once), never SQL beside it.
 *
 * --local: the console of `npm start` (http://ops.localhost:8787, or --console URL), signed in through
 * the development login as --as <operator address> (or OPERATOR_EMAIL).
 * --remote: the production console (--console https://ops.example), through Cloudflare Access with
 * the operator's own Access token: --access-token, or CF_ACCESS_TOKEN, as printed by
 * `cloudflared access login <console URL>` then `cloudflared access token -app=<console URL>`.
 */
import { request } from "node:http";
import { fail, operatorArgs } from "./operator";

type Answer = { status: number; body: string; cookies: string[] };

/** A request to the console; *.localhost goes to this machine with the host named (Node resolves no *.localhost). */
function send(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  if (url.hostname.endsWith(".localhost") || url.hostname === "localhost") {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: url.port || 80,
          path: url.pathname + url.search,
          method,
          headers: { ...headers, host: url.host },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: text, cookies: res.headers["set-cookie"] ?? [] }),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }
  return fetch(url, { method, headers, ...(body === undefined ? {} : { body }), redirect: "manual" }).then(
    async (res) => ({ status: res.status, body: await res.text(), cookies: res.headers.getSetCookie() }),
  );
}

export type ConsoleClient = {
  get<T>(path: string): Promise<T>;
  post(path: string, form: Record<string, string>): Promise<void>;
};

/** The console the command acts through, signed in; `own` are the script's own string options. */
export async function consoleClient<K extends string>(own: readonly K[] = []) {
  const args = operatorArgs([...own, "console", "as", "access-token"] as const);
  const option = (name: string) => args.option(name as K | "console" | "as" | "access-token");
  const remote = args.target().includes("--remote");
  const origin = new URL(
    option("console") ??
      (remote ? fail("--remote needs --console https://<the console's host>") : "http://ops.localhost:8787"),
  ).origin;
  const headers: Record<string, string> = { accept: "application/json", origin };
  if (remote) {
    const token =
      option("access-token") ??
      process.env.CF_ACCESS_TOKEN ??
      fail(
        "--remote needs your Access token: --access-token or CF_ACCESS_TOKEN (cloudflared access token -app=<console URL>)",
      );
    headers["cf-access-token"] = token;
  } else {
    const email =
      option("as") ??
      process.env.OPERATOR_EMAIL ??
      fail(
        "say which operator you are: --as <address> (an operator of the local console; npm run operator -- add-admin <address> --local)",
      );
    const login = await send(
      new URL("/login", origin),
      "POST",
      { ...headers, "x-request-type": "command", "content-type": "application/x-www-form-urlencoded" },
      new URLSearchParams({ email }).toString(),
    ).catch(() => fail(`the console at ${origin} does not answer: is npm start running?`));
    if (login.status !== 200) fail(`login as ${email} refused: ${messageOf(login)}`);
    headers.cookie = login.cookies.map((cookie) => cookie.split(";")[0]).join("; ");
  }
  const client: ConsoleClient = {
    async get<T>(path: string) {
      const answer = await send(new URL(path, origin), "GET", headers);
      if (answer.status !== 200) fail(`${path}: ${messageOf(answer)}`);
      return JSON.parse(answer.body) as T;
    },
    async post(path, form) {
      const answer = await send(
        new URL(path, origin),
        "POST",
        { ...headers, "x-request-type": "command", "content-type": "application/x-www-form-urlencoded" },
        new URLSearchParams(form).toString(),
      );
      if (answer.status !== 200) throw new Error(messageOf(answer));
    },
  };
  return { client, positionals: args.positionals, option };
}

function messageOf(answer: Answer): string {
  try {
    return (JSON.parse(answer.body) as { message?: string }).message ?? `status ${answer.status}`;
  } catch {
    return `status ${answer.status}`;
  }
}
