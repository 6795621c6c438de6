/**
 * `npm test`: every test, in two lanes side by side (docs/decisions/0047 keeps the whole CI run under
 * 12 minutes). The workerd suite keeps both cores busy only in bursts, and the browser tests mostly
 * wait on pages, so running them together takes about the time of the longer lane:
 * - lane 1, the workerd tests (`npm run test:worker`), printed as they run;
 * - lane 2, the tests of the project's own checks and then the browser tests (`npm run test:tools`,
 *   `npm run test:e2e`), one after the other because both build dist/; printed whole once lane 1 is
 *   done, then live.
 * The run fails when either lane fails, and ends with each lane's time.
 */
import { spawn } from "node:child_process";

type Lane = { name: string; commands: string[]; env?: Record<string, string> };

const LANES: Lane[] = [
  // Two workerd processes beside the browser tests' own (three alone: vitest.config.ts).
  { name: "workerd tests", commands: ["npm run -s test:worker"], env: { TEST_WORKERS: "2" } },
  { name: "checks and browser tests", commands: ["npm run -s test:tools", "npm run -s test:e2e"] },
];

const started = Date.now();

function run(lane: Lane, write: (chunk: Buffer) => void): Promise<{ code: number; seconds: number }> {
  const command = lane.commands.join(" && ");
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], {
      env: { ...process.env, ...lane.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", write);
    child.stderr.on("data", write);
    child.on("close", (code) => resolve({ code: code ?? 1, seconds: Math.round((Date.now() - started) / 1000) }));
  });
}

// Lane 2's output waits in memory until lane 1 is done, so each lane reads as one block.
const held: Buffer[] = [];
let live = false;
const second = run(LANES[1]!, (chunk) => (live ? process.stdout.write(chunk) : held.push(chunk)));
const first = await run(LANES[0]!, (chunk) => process.stdout.write(chunk));
process.stdout.write(`\n== ${LANES[0]!.name}: ${first.code === 0 ? "passed" : "FAILED"} after ${first.seconds} s\n\n`);
for (const chunk of held) process.stdout.write(chunk);
live = true;
const rest = await second;
process.stdout.write(`\n== ${LANES[1]!.name}: ${rest.code === 0 ? "passed" : "FAILED"} after ${rest.seconds} s\n`);
process.exit(first.code === 0 && rest.code === 0 ? 0 : 1);
