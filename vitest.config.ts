import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { clientManifest } from "./scripts/vite/client-manifest";

/** Tests inside workerd: the Worker with real local D1, KV and R2; migrations applied in setup. */
export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  return {
    plugins: [
      clientManifest(),
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
      }),
    ],
    test: {
      include: ["test/integration/**/*.test.{ts,tsx}", "src/**/*.test.{ts,tsx}"],
      setupFiles: ["test/apply-migrations.ts"],
      maxWorkers: 2,
    },
  };
});
