/** A small closed-loop load generator over keep-alive HTTP to a local workerd: latency percentiles and throughput. */
import { Agent, request } from "node:http";

export type LoadResult = {
  name: string;
  requests: number;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  /** Every successful request's time in ms, ascending. */
  latencies: number[];
};

function once(
  agent: Agent,
  port: number,
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port,
        path,
        headers: { host: `${host}:${port}`, "accept-encoding": "identity", ...headers },
      },
      (res) => {
        res.on("data", () => undefined);
        res.on("end", () =>
          res.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${path}: ${res.statusCode}`)),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export type LoadOptions = {
  /** Unmeasured requests first (default 50). */
  warmUp?: number;
  /** A keep-alive agent to reuse across calls (the caller destroys it); by default one for this call. */
  agent?: Agent;
  /** Extra request headers (a member's session cookie). */
  headers?: Record<string, string>;
};

/** Send `requests` requests with `concurrency` in flight, after a warm-up; paths are taken in turn. */
export async function load(
  name: string,
  port: number,
  host: string,
  paths: string[],
  requests: number,
  concurrency: number,
  { warmUp = 50, agent: shared, headers = {} }: LoadOptions = {},
): Promise<LoadResult> {
  const agent = shared ?? new Agent({ keepAlive: true, maxSockets: concurrency });
  for (let i = 0; i < Math.min(warmUp, requests); i++) await once(agent, port, host, paths[i % paths.length]!, headers);
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const path = paths[next++ % paths.length]!;
        try {
          latencies.push(await once(agent, port, host, path, headers));
        } catch {
          errors++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (!shared) agent.destroy();
  const sorted = latencies.toSorted((a, b) => a - b);
  return {
    name,
    requests: latencies.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    rps: latencies.length / seconds,
    errors,
    latencies: sorted,
  };
}
