import { defineConfig } from "vitest/config";

// Offline: wrangler and Miniflare must not try to download request.cf data or send metrics.
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";

/** Browser tests: Debian's Chromium, driven by playwright-core, against the built app in workerd. */
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    globalSetup: ["test/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});
