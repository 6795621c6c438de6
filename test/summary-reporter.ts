import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest files each run names. */
const SLOWEST = 8;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Ends each run with the time of its slowest files (setup, which includes starting their runtime,
 * and their tests, each file's own) and then the plain line "N passed, N failed, N skipped" that CI
 * reads. The slowest files are where a shorter run starts.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed++;
    }
    const times = testModules
      .map((module) => {
        const { setupDuration, duration } = module.diagnostic();
        return { file: module.relativeModuleId, setup: setupDuration, tests: duration };
      })
      .toSorted((a, b) => b.setup + b.tests - (a.setup + a.tests));
    if (times.length > 1) {
      const all = times.reduce((sum, t) => sum + t.setup + t.tests, 0);
      process.stdout.write(`\nSlowest of ${times.length} files (${seconds(all)} in all, summed over workers):\n`);
      for (const t of times.slice(0, SLOWEST))
        process.stdout.write(`  ${seconds(t.setup + t.tests).padStart(8)}  ${t.file} (setup ${seconds(t.setup)})\n`);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
