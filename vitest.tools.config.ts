import { defineConfig } from "vitest/config";

/** Tests of the project's own checks (scripts/), in Node: each plants an offence in a copy of the tree. */
export default defineConfig({
  test: {
    include: ["test/tools/**/*.test.ts"],
    testTimeout: 60_000,
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});
