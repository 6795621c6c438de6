/**
 * What the operator scripts (site, photos, reports, operators) share: their command line (positionals, --local or
 * --remote, --env, --persist-to) and running wrangler against the chosen database, offline-safe.
 */
import { execFileSync } from "node:child_process";
import { userInfo } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The command line: positionals, where to act, and the script's own string options (`--note`). */
export function operatorArgs<K extends string = never>(own: readonly K[] = []) {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      ...Object.fromEntries(own.map((name) => [name, { type: "string" as const }])),
      local: { type: "boolean", default: false },
      remote: { type: "boolean", default: false },
      env: { type: "string" },
      "persist-to": { type: "string", default: ".wrangler/state" },
    },
  });
  /**
   * wrangler's arguments for where to act; refuses when neither or both of --local and --remote are
   * given. The local stack's tables are made first (as `npm start` makes them), so a country can be
   * launched locally before the stack was ever started.
   */
  let made = false;
  const target = (): string[] => {
    if (values.local === values.remote) fail("say where: --local or --remote");
    if (values.local && !made) {
      applyLocalMigrations(values["persist-to"]);
      made = true;
    }
    return [
      ...(values.local ? ["--local", "--persist-to", values["persist-to"]] : ["--remote"]),
      ...(values.env ? ["--env", values.env] : []),
    ];
  };
  const option = (name: K): string | undefined => {
    const value = (values as Record<string, unknown>)[name];
    return typeof value === "string" ? value : undefined;
  };
  return { positionals, target, option, env: values.env, remote: values.remote };
}

/**
 * A drizzle query as one SQL text for `wrangler d1 execute --command` (which takes no parameters):
 * each `?` becomes its value, strings quoted as SQLite quotes them.
 */
export function inlineSql({ sql, params }: { sql: string; params: unknown[] }): string {
  let i = 0;
  return sql.replace(/\?/g, () => {
    const value = params[i++];
    if (value === null || value === undefined) return "NULL";
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    if (typeof value === "boolean") return value ? "1" : "0";
    if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
    throw new Error(`cannot inline ${typeof value}`);
  });
}

/**
 * The project's own wrangler (node_modules/wrangler), run by the Node that runs this script: it needs
 * no `wrangler` on PATH, and it is the version package-lock.json pins.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const WRANGLER = [process.execPath, join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js")] as const;

/**
 * Run wrangler without it reaching for request.cf data or metrics; returns what it printed. It reads
 * wrangler.toml itself (not the built config a vite build points wrangler at), so `--env production`
 * names the same bindings whatever was built last.
 */
export function wrangler(args: string[], options: { inherit?: boolean } = {}): string {
  return (
    execFileSync(WRANGLER[0], [WRANGLER[1], ...args, "--config", join(ROOT, "wrangler.toml")], {
      encoding: "utf8",
      ...(options.inherit ? { stdio: "inherit" } : {}),
      env: { ...process.env, CI: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    }) ?? ""
  );
}

/** Apply every D1 migration not yet applied to the local stack's database in `persistTo` (idempotent). */
export function applyLocalMigrations(persistTo: string): void {
  try {
    wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo]);
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    process.stderr.write(err.stdout ?? "");
    process.stderr.write(err.stderr ?? "");
    throw new Error("applying the D1 migrations failed", { cause: e });
  }
}

/** A drizzle statement says its SQL and parameters (the batch item type drizzle exports does not show it). */
type Query = { toSQL(): { sql: string; params: unknown[] } };

/**
 * Run drizzle statements as one `wrangler d1 execute --command` (D1 runs a command's statements as
 * one batch); answers the rows every statement returned, in order.
 */
export function runStatements(where: string[], statements: readonly object[]): Record<string, unknown>[] {
  const text = statements.map((statement) => inlineSql((statement as Query).toSQL())).join(";\n");
  const answers = JSON.parse(wrangler(["d1", "execute", "DB", ...where, "--json", "--command", text])) as {
    results: Record<string, unknown>[];
  }[];
  return answers.flatMap((answer) => answer.results);
}

/** The audit log's name for an operator command run by this machine's user (docs/decisions/0034). */
export function commandActor(): { operatorId: null; name: string } {
  return { operatorId: null, name: `command:${userInfo().username}` };
}
