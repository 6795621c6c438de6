import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "vite";
import { CLIENT_OUT_DIR } from "./client-manifest.ts";

/**
 * What a deploy changes for the service worker: the client build (its manifest names every hashed
 * file) and the translations (the offline page). Same inputs, same version: no needless hand-over.
 */
function buildVersion(): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(resolve(CLIENT_OUT_DIR, ".vite/manifest.json")));
  for (const name of readdirSync("locales").toSorted())
    if (name.endsWith(".json")) hash.update(readFileSync(join("locales", name)));
  return hash.digest("hex").slice(0, 16);
}

/**
 * Build src/sw.ts into the client output as /sw.js: one classic script (every browser runs it,
 * module workers are not everywhere), at a stable address, after the client so it can name its build.
 * public/_headers serves it with `cache-control: no-cache` so a deploy is seen at the next check.
 */
export async function buildServiceWorker(): Promise<void> {
  await build({
    configFile: false,
    logLevel: "warn",
    define: { SW_BUILD_VERSION: JSON.stringify(buildVersion()) },
    build: {
      outDir: CLIENT_OUT_DIR,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: true,
      lib: { entry: "src/sw.ts", formats: ["iife"], name: "sw", fileName: () => "sw.js" },
    },
  });
}
