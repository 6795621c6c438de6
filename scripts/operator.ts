/**
 * What the operator scripts (site, photos) share: their command line (positionals, --local or
 * --remote, --env, --persist-to) and running wrangler against the chosen database, offline-safe.
 */
import { execFileSync } from "node:child_process";
import { parseArgs, type ParseArgsConfig } from "node:util";

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The shared command line, plus a script's own options (`extra`). */
export function operatorArgs(extra: NonNullable<ParseArgsConfig["options"]> = {}) {
  const parsed = parseArgs({
    allowPositionals: true,
    options: {
      ...extra,
      local: { type: "boolean", default: false },
      remote: { type: "boolean", default: false },
      env: { type: "string" },
      "persist-to": { type: "string", default: ".wrangler/state" },
    },
  });
  const positionals = parsed.positionals;
  const values = parsed.values as { local: boolean; remote: boolean; env?: string; "persist-to": string } & Record<string, string | boolean | undefined>;
  /** wrangler's arguments for where to act; refuses when neither or both of --local and --remote are given. */
  const target = (): string[] => {
    if (values.local === values.remote) fail("say where: --local or --remote");
    return [...(values.local ? ["--local", "--persist-to", values["persist-to"]] : ["--remote"]), ...(values.env ? ["--env", values.env] : [])];
  };
  return { positionals, target, values };
}

/** Run wrangler without it reaching for request.cf data or metrics; returns what it printed. */
export function wrangler(args: string[], options: { inherit?: boolean } = {}): string {
  return execFileSync("wrangler", args, {
    encoding: "utf8",
    ...(options.inherit ? { stdio: "inherit" } : {}),
    env: { ...process.env, CI: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
  }) ?? "";
}
