import { defineConfig } from "vitest/config";

/** Browser tests: Debian's Chromium, driven by playwright-core, against the built app in workerd. */
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    globalSetup: ["test/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
