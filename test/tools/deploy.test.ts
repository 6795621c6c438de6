/**
 * `npm run deploy -- production`, always in its dry run (wrangler bundles and checks, uploads
 * nothing): it refuses a build made for another environment, which is what a plain build (the one
 * `npm start` makes) is, and deploys only what it built for production itself.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");
const VITE = join(ROOT, "node_modules", "vite", "bin", "vite.js");
const BUILD_MS = 240_000;
const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

const offline = { ...process.env, CI: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };

function deploy(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(TSX, [join(ROOT, "scripts", "deploy.ts"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: offline,
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

/** A copy of dist/ whose stamp `change` rewrites: a build planted for the check to find. */
function plantedBuild(change: (stamp: Record<string, unknown>) => Record<string, unknown> | null): string {
  const dir = mkdtempSync(join(tmpdir(), "deploy-"));
  copies.push(dir);
  cpSync(join(ROOT, "dist"), dir, { recursive: true });
  const stamp = change(JSON.parse(readFileSync(join(dir, "build-stamp.json"), "utf8")) as Record<string, unknown>);
  if (stamp === null) rmSync(join(dir, "build-stamp.json"));
  else writeFileSync(join(dir, "build-stamp.json"), JSON.stringify(stamp));
  return dir;
}

describe("npm run deploy -- production --dry-run", () => {
  it(
    "refuses the build a plain vite build makes (npm start's), before wrangler is run",
    () => {
      const build = spawnSync(process.execPath, [VITE, "build", "--logLevel", "warn"], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...offline, CLOUDFLARE_ENV: "" },
      });
      expect(build.status, build.stderr).toBe(0);
      const stamp = JSON.parse(readFileSync(join(ROOT, "dist", "build-stamp.json"), "utf8")) as Record<string, unknown>;
      expect(stamp).toMatchObject({ environment: "development", worker_environment: "development" });

      const { status, output } = deploy("production", "--no-build", "--dry-run");
      expect(status).toBe(1);
      expect(output).toContain('refused: the build in dist was made for development (ENVIRONMENT "development", ');
      expect(output).toContain("not production: build it for production: npm run deploy -- production");
      expect(output).not.toContain("--dry-run: exiting now");
    },
    BUILD_MS,
  );

  it(
    "builds for production and passes wrangler's own dry run, uploading nothing",
    () => {
      const { status, output } = deploy("production", "--dry-run");
      expect(status, output).toBe(0);
      expect(output).toContain("building for production (CLOUDFLARE_ENV=production vite build)");
      expect(output).toContain('dist: built for production (ENVIRONMENT "production")');
      expect(output).toMatch(/env\.ENVIRONMENT \("production"\)/);
      expect(output).toContain("--dry-run: exiting now.");
      expect(output).toContain("dry run: production was built and checked; nothing was uploaded");
    },
    BUILD_MS,
  );

  it("refuses a build without a stamp, one stamped for another environment, and one of an older wrangler.toml", () => {
    /** The dry run of a deploy to production of the build in `dist`, as it is. */
    const deployBuilt = (dist: string) => deploy("production", "--no-build", "--dry-run", "--dist", dist);
    const unstamped = deployBuilt(plantedBuild(() => null));
    expect(unstamped.status).toBe(1);
    expect(unstamped.output).toContain("has no build stamp");

    const staging = deployBuilt(plantedBuild((stamp) => ({ ...stamp, environment: "staging" })));
    expect(staging.status).toBe(1);
    expect(staging.output).toContain("was made for staging");

    const older = deployBuilt(plantedBuild((stamp) => ({ ...stamp, config_sha256: "0".repeat(64) })));
    expect(older.status).toBe(1);
    expect(older.output).toContain("refused: wrangler.toml changed since the build");
    expect(older.output).not.toContain("--dry-run: exiting now");
  });

  it("refuses a stamp that says production over a Worker config built for the top level", () => {
    const dir = plantedBuild((stamp) => stamp);
    const configPath = join(dir, "edge_dating", "wrangler.json");
    const config = JSON.parse(readFileSync(configPath, "utf8")) as Record<string, unknown>;
    delete config["targetEnvironment"];
    writeFileSync(configPath, JSON.stringify(config));
    const { status, output } = deploy("production", "--no-build", "--dry-run", "--dist", dir);
    expect(status).toBe(1);
    expect(output).toContain("is for the top level, not production");
  });

  it("deploys no environment wrangler.toml does not declare", () => {
    const { status, output } = deploy("development", "--dry-run");
    expect(status).toBe(1);
    expect(output).toContain("development is not an environment of wrangler.toml (it has production)");
  });
});
