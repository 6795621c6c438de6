/**
 * Deploys the Worker to one of wrangler.toml's environments, built for that environment:
 *
 *   npm run deploy -- production              build with CLOUDFLARE_ENV=production, check, upload
 *   npm run deploy -- production --dry-run    the same, but wrangler bundles and checks without uploading
 *   npm run deploy -- production --no-build   deploy the build in dist/ as it is, if it was made for production
 *
 * With the Cloudflare Vite plugin the environment is chosen when building (CLOUDFLARE_ENV), and
 * `wrangler deploy` uploads whatever dist/ holds: after a plain build (npm start makes one) that is
 * the development Worker. So before uploading, this reads the build's stamp (scripts/vite/build-stamp.ts)
 * and the built config, and refuses a build made for another environment or from another wrangler.toml.
 * It runs the project's own wrangler and vite (node_modules), which need nothing on PATH.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { WRANGLER, fail } from "./operator";
import { WORKER_OUT, builtConfig, configDigest, readBuildStamp } from "./vite/build-stamp";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const VITE = join(ROOT, "node_modules", "vite", "bin", "vite.js");

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    "dry-run": { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    // Where the build is (tests point it at a copy); the default is where vite build writes it.
    dist: { type: "string", default: "dist" },
  },
});
const [environment] = positionals;
const declared = [
  ...readFileSync(join(ROOT, "wrangler.toml"), "utf8").matchAll(/^\[env\.([A-Za-z0-9_-]+)\]\s*$/gm),
].map((m) => m[1]!);
if (!environment || positionals.length !== 1)
  fail(`usage: npm run deploy -- <${declared.join("|")}> [--dry-run] [--no-build]`);
if (!declared.includes(environment))
  fail(
    `${environment} is not an environment of wrangler.toml (it has ${declared.join(", ")}): the local stack is not deployed; add [env.${environment}] first`,
  );

const quiet = { ...process.env, CI: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };
if (!values["no-build"]) {
  console.info(`building for ${environment} (CLOUDFLARE_ENV=${environment} vite build)`);
  execFileSync(process.execPath, [VITE, "build", "--logLevel", "warn"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...quiet, CLOUDFLARE_ENV: environment, NODE_ENV: "production" },
  });
}

const dist = values.dist;
const stamp = readBuildStamp(dist);
const rebuild = `build it for ${environment}: npm run deploy -- ${environment} (without --no-build)`;
if (!stamp)
  fail(`${dist} has no build stamp (${dist}/build-stamp.json), so nothing says what it was built for: ${rebuild}`);
if (stamp.environment !== environment)
  fail(
    `refused: the build in ${dist} was made for ${stamp.environment} (ENVIRONMENT "${stamp.worker_environment}", ${stamp.built_at}), not ${environment}: ${rebuild}`,
  );
const config = builtConfig(dist);
if ((config.targetEnvironment || "development") !== environment)
  fail(
    `refused: the Worker's built config (${dist}/${WORKER_OUT}/wrangler.json) is for ${config.targetEnvironment || "the top level"}, not ${environment}: ${rebuild}`,
  );
if (stamp.config_sha256 !== configDigest(join(ROOT, "wrangler.toml")))
  fail(
    `refused: wrangler.toml changed since the build in ${dist} (${stamp.built_at}), so its routes or vars would not ship: ${rebuild}`,
  );

console.info(
  `${dist}: built for ${environment} (ENVIRONMENT "${stamp.worker_environment}") at ${stamp.built_at}${stamp.commit ? ` from ${stamp.commit.slice(0, 12)}` : ""}`,
);
const args = [
  "deploy",
  "--config",
  join(dist, WORKER_OUT, "wrangler.json"),
  ...(values["dry-run"] ? ["--dry-run"] : []),
];
execFileSync(WRANGLER[0], [WRANGLER[1], ...args], { cwd: ROOT, stdio: "inherit", env: quiet });
console.info(
  values["dry-run"]
    ? `dry run: ${environment} was built and checked; nothing was uploaded`
    : `${environment}: deployed. To go back: npx wrangler deployments list --name edge-dating, then npx wrangler rollback <version-id> --name edge-dating (docs/operations.md, "Roll back")`,
);
