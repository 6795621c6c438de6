/**
 * `npm test` ends with browser tests that drive Debian's Chromium. Without it they would fail
 * half-way, after minutes of workerd tests; this stops the run at once with the one command that
 * installs it (.ci/run installs it before it gets here).
 */
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";

if (!existsSync(CHROMIUM)) {
  console.error(
    `The browser tests need Chromium at ${CHROMIUM}, which is not installed. Install it with:\n\n  apt-get install -y chromium\n`,
  );
  process.exit(1);
}
