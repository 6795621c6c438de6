/**
 * The built app served by workerd (wrangler dev) with its own local state, for the browser tests
 * and the benchmarks. The state directory is separate from the one `npm start` uses.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";

export type Server = { port: number; stop: () => Promise<void> };

/** GET a path of a demo site on this machine: *.localhost is loopback, the site comes from Host. */
export function get(port: number, host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host: `${host}:${port}` } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A production build, whatever NODE_ENV the caller runs under (vitest sets "test"). */
export function build() {
  execFileSync("tsx", ["scripts/dev-vars.ts"], { stdio: "inherit" });
  execFileSync("vite", ["build", "--logLevel", "warn"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
}

/** SQL on the local D1 of a served state (the running server sees the change); the rows of each statement. */
export function localD1(persistTo: string, sql: string): Record<string, unknown>[][] {
  const out = execFileSync(
    "wrangler",
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--config",
      "wrangler.toml",
      "--persist-to",
      persistTo,
      "--json",
      "--command",
      sql,
    ],
    {
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
      stdio: ["ignore", "pipe", "pipe"],
      encoding: "utf8",
    },
  );
  const results = JSON.parse(out.slice(out.indexOf("["))) as { results: Record<string, unknown>[] }[];
  return results.map((r) => r.results);
}

export function seed(persistTo: string, profiles: number) {
  execFileSync("tsx", ["scripts/seed.ts", "--reset", "--persist-to", persistTo, "--profiles", String(profiles)], {
    stdio: "inherit",
  });
}

async function waitUntilUp(port: number, child: ChildProcess, timeoutMs = 60_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await get(port, "nl.localhost", "/api/settings.php");
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server on port ${port} did not come up`);
}

/** `vars` override wrangler.toml's (the fault drill points the Mollie provider at its stand-in). */
export async function serve(persistTo: string, port: number, vars: Record<string, string> = {}): Promise<Server> {
  // wrangler.toml's OPERATOR_HOST (ops.localhost:8787) as it is: in development the console answers
  // on whatever port the stack is served on (test/e2e/console-port.test.ts).
  const args = [
    "dev",
    "--persist-to",
    persistTo,
    "--port",
    String(port),
    "--inspector-port",
    String(port + 1000),
    "--ip",
    "127.0.0.1",
    "--log-level",
    "warn",
    "--show-interactive-dev-session=false",
    // /cdn-cgi/handler/scheduled runs the clock work on demand (the fault drill settles refunds with it).
    "--test-scheduled",
    ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
  ];
  const child = spawn("wrangler", args, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    detached: true,
  });
  await waitUntilUp(port, child);
  return {
    port,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid!, "SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
    },
  };
}
