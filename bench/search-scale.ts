/**
 * Search latency as the member table grows: for each size, a state directory with that many demo
 * members (bench/search-state.ts), served by the built Worker under wrangler dev, and GET
 * /api/search.php measured one request at a time over a mix of searches. Printed, never asserted.
 */
import { Agent } from "node:http";
import { createServer } from "node:net";
import { generateProfiles } from "../scripts/demo/profiles";
import { serve, type Server } from "../test/e2e/server";
import { load, percentile } from "./load";
import { firstMembers, loadSearchState } from "./search-state";

/** Searches a visitor of nl.localhost makes (the form's gender is "any" unless chosen). */
export const SEARCHES: readonly (readonly [string, string])[] = [
  ["default", ""],
  ["gender", "?gender=female"],
  ["gender + age", "?gender=male&min_age=30&max_age=45"],
  ["region", "?country_region=NL-NH"],
  ["other country", "?country=BE"],
  ["page 3", "?page=3"],
];

const HOST = "nl.localhost";
/** Requests of one search sent to one size before moving on to the next size. */
const CHUNK = 4;
const WARM_UP = 60;

type SizeResult = { size: number; loadSeconds: number; p50: number; p99: number; errors: number; bySearch: number[] };

const ms = (value: number) => `${value.toFixed(2)} ms`;
const count = (n: number) => n.toLocaleString("en-US");

/** Fails early if something else listens on `port`: serve() would otherwise measure that server. */
function checkPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", () => reject(new Error(`port ${port} is in use; pass --search-port`)));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

/**
 * Every size served at once (port, port + 1, ...), measured in interleaved rounds: a few requests
 * of one search to each size in turn, so drift on the machine falls on all sizes alike. One
 * request at a time; `requests` per size in all.
 */
async function measure(states: readonly { size: number; persistTo: string }[], port: number, requests: number) {
  for (let i = 0; i < states.length; i++) await checkPortFree(port + i);
  const servers: Server[] = [];
  const agents = states.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    for (const [i, s] of states.entries()) servers.push(await serve(s.persistTo, port + i));
    const paths = SEARCHES.map(([, query]) => `/api/search.php${query}`);
    for (const [i] of states.entries())
      await load("warm-up", port + i, HOST, paths, WARM_UP, 1, { warmUp: 0, agent: agents[i]! });
    const rounds = Math.ceil(requests / SEARCHES.length / CHUNK);
    const latencies = states.map(() => SEARCHES.map((): number[] => []));
    const errors = states.map(() => 0);
    for (let round = 0; round < rounds; round++) {
      for (const [j, [name]] of SEARCHES.entries()) {
        for (let k = 0; k < states.length; k++) {
          const i = (round + j + k) % states.length;
          const r = await load(name, port + i, HOST, [paths[j]!], CHUNK, 1, { warmUp: 0, agent: agents[i]! });
          latencies[i]![j]!.push(...r.latencies);
          errors[i]! += r.errors;
        }
      }
    }
    return states.map((_, i) => {
      const all = latencies[i]!.flat().toSorted((a, b) => a - b);
      const bySearch = latencies[i]!.map((l) =>
        percentile(
          l.toSorted((a, b) => a - b),
          50,
        ),
      );
      return {
        p50: percentile(all, 50),
        p99: percentile(all, 99),
        errors: errors[i]!,
        bySearch,
        requests: all.length + errors[i]!,
      };
    });
  } finally {
    agents.forEach((a) => a.destroy());
    for (const server of servers) await server.stop();
  }
}

/**
 * Loads a state directory per size (.tmp/bench-search-<size>), then serves and measures them
 * together (see measure) and prints each size's figures as ratios to the smallest. Expects a build in dist/.
 */
export async function searchScale(sizeList: readonly number[], port: number, requests: number): Promise<void> {
  const sizes = [...new Set(sizeList)].toSorted((a, b) => a - b);
  const data = generateProfiles(sizes.at(-1) ?? 0, 1);
  const states: { size: number; persistTo: string; loadSeconds: number }[] = [];
  for (const size of sizes) {
    const persistTo = `.tmp/bench-search-${size}`;
    const loadSeconds = await loadSearchState(persistTo, firstMembers(data, size));
    console.info(`search scale: ${count(size)} profiles loaded into ${persistTo} in ${loadSeconds.toFixed(1)} s`);
    states.push({ size, persistTo, loadSeconds });
  }
  const measured = await measure(states, port, requests);
  const results: SizeResult[] = states.map((s, i) => ({ ...s, ...measured[i]! }));
  const each = measured[0]!.requests;

  const [base] = results as [SizeResult];
  console.info(
    `\nsearch scale: GET /api/search.php, ${each} requests per size one at a time, sizes interleaved (${SEARCHES.map(([n]) => n).join(", ")})\n`,
  );
  console.info("profiles   p50         p99         p50 ratio  p99 ratio  load      errors");
  for (const r of results) {
    console.info(
      `${count(r.size).padEnd(10)} ${ms(r.p50).padEnd(11)} ${ms(r.p99).padEnd(11)} ${(r.p50 / base.p50).toFixed(2).padEnd(10)} ${(r.p99 / base.p99).toFixed(2).padEnd(10)} ${`${r.loadSeconds.toFixed(1)} s`.padEnd(9)} ${r.errors}`,
    );
  }
  console.info(`\np50 by search (${each / SEARCHES.length} requests each)\n`);
  console.info(`${"search".padEnd(16)}${results.map((r) => count(r.size).padEnd(12)).join("")}`);
  SEARCHES.forEach(([name], i) =>
    console.info(`${name.padEnd(16)}${results.map((r) => ms(r.bySearch[i]!).padEnd(12)).join("")}`),
  );
  const top = results.at(-1)!;
  console.info(
    `\nsearch at ${count(top.size)} profiles: p50 = ${(top.p50 / base.p50).toFixed(2)}x, p99 = ${(top.p99 / base.p99).toFixed(2)}x the ${count(base.size)}-profile figure (target within 1.5x)`,
  );
}
