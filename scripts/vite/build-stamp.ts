/**
 * What a build was made for, written next to it by `vite build` (vite.config.ts) and checked by
 * `npm run deploy` (scripts/deploy.ts) before anything is uploaded: the Cloudflare environment the
 * Vite plugin flattened wrangler.toml for (CLOUDFLARE_ENV; none is the local stack's top level), the
 * Worker's ENVIRONMENT var, and the wrangler.toml it was built from. A plain `npm run build` (which
 * `npm start` runs) is a development build, and no deploy to production takes it.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The Worker's output folder in dist/: the Worker's name with dashes as underscores (the Vite environment). */
export const WORKER_OUT = "edge_dating";
export const STAMP_FILE = "build-stamp.json";
/** The name the stamp gives a build of wrangler.toml's top level (no [env.*]): the local stack. */
export const TOP_LEVEL = "development";

export type BuildStamp = {
  /** The [env.<name>] of wrangler.toml the build was made for, or "development" for the top level. */
  environment: string;
  /** The Worker's ENVIRONMENT var in that build. */
  worker_environment: string;
  /** sha256 of the wrangler.toml it was built from: routes or vars changed since need a new build. */
  config_sha256: string;
  built_at: string;
  commit: string | null;
};

export const configDigest = (path = "wrangler.toml"): string =>
  createHash("sha256").update(readFileSync(path)).digest("hex");

function commitOf(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/** The Worker's built config (what wrangler deploy uploads): the plugin's flattened wrangler.json. */
export function builtConfig(dist: string): { targetEnvironment?: string | null; vars?: Record<string, unknown> } {
  return JSON.parse(readFileSync(join(dist, WORKER_OUT, "wrangler.json"), "utf8")) as {
    targetEnvironment?: string | null;
    vars?: Record<string, unknown>;
  };
}

/** Write the stamp of the build in `dist`, from what the plugin wrote into its config. */
export function writeBuildStamp(dist = "dist"): BuildStamp {
  const config = builtConfig(dist);
  const stamp: BuildStamp = {
    environment: config.targetEnvironment || TOP_LEVEL,
    worker_environment: String(config.vars?.["ENVIRONMENT"] ?? ""),
    config_sha256: configDigest(),
    built_at: new Date().toISOString(),
    commit: commitOf(),
  };
  writeFileSync(join(dist, STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`);
  return stamp;
}

export function readBuildStamp(dist = "dist"): BuildStamp | null {
  const path = join(dist, STAMP_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as BuildStamp) : null;
}
