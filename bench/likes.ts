/**
 * GET /api/likes.php for members with 10, 10,000 and 100,000 likes received (`--likes-sizes`; all
 * of them new, the costliest case for the new-likes count), next to the plain route, on the served
 * Worker, each as a ratio to the smallest. The likers are bench-only members added to the served D1
 * in one SQL batch. Printed, never asserted.
 */
import { Agent } from "node:http";
import { localD1 } from "../test/e2e/server";
import { signUp } from "./chat";
import { load, percentile } from "./load";

export type LikesBenchOptions = {
  port: number;
  host: string;
  persistTo: string;
  requests: number;
  sizes?: readonly number[];
};
export type LikesBenchResult = { name: string; p50: number; p99: number; errors: number }[];

export const LIKES_SIZES = [10, 10_000, 100_000] as const;
/** Requests of one target before moving on to the next, so drift falls on all alike. */
const CHUNK = 20;

/** `count` new likes for `likedId` from bench members, the newest a second apart. */
function addLikers(persistTo: string, tag: string, likedId: number, count: number) {
  localD1(
    persistTo,
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
       INSERT INTO users (email, username, status, site_domain) SELECT '${tag}-' || i || '@bench.invalid', '${tag}' || i, 'active', 'nl.localhost' FROM n;
     INSERT INTO profiles (user_id, name, country, gender, birth_date) SELECT id, 'Liker ' || id, 'NL', 'male', '1988-05-01' FROM users WHERE email LIKE '${tag}-%@bench.invalid';
     INSERT INTO likes (liker_id, liked_id, is_new, created_at) SELECT p.id, ${likedId}, 1, unixepoch() - p.id FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email LIKE '${tag}-%@bench.invalid';`,
  );
}

export async function likesBench({
  port,
  host,
  persistTo,
  requests,
  sizes = LIKES_SIZES,
}: LikesBenchOptions): Promise<LikesBenchResult> {
  const stamp = Date.now().toString(36);
  const targets: { name: string; path: string; cookie: string }[] = [
    { name: "plain Hono route (baseline)", path: "/__plain", cookie: "" },
  ];
  for (const size of sizes) {
    const member = await signUp(port, host, `likes${size}${stamp}`.slice(0, 24), "female");
    addLikers(persistTo, `bl${size}${stamp}`, member.profileId, size);
    targets.push({
      name: `GET /api/likes.php (${size.toLocaleString("en-US")} likes)`,
      path: "/api/likes.php",
      cookie: member.cookie,
    });
  }
  const agents = targets.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const latencies = targets.map((): number[] => []);
  const errors = targets.map(() => 0);
  try {
    for (const [i, t] of targets.entries())
      await load("warm-up", port, host, [t.path], 50, 1, {
        warmUp: 0,
        agent: agents[i]!,
        headers: t.cookie ? { cookie: t.cookie } : {},
      });
    for (let round = 0; round < Math.ceil(requests / CHUNK); round++) {
      for (const [i, t] of targets.entries()) {
        const r = await load(t.name, port, host, [t.path], CHUNK, 1, {
          warmUp: 0,
          agent: agents[i]!,
          headers: t.cookie ? { cookie: t.cookie } : {},
        });
        latencies[i]!.push(...r.latencies);
        errors[i]! += r.errors;
      }
    }
  } finally {
    for (const agent of agents) agent.destroy();
  }
  return targets.map((t, i) => {
    const sorted = latencies[i]!.toSorted((a, b) => a - b);
    return { name: t.name, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: errors[i]! };
  });
}

export function printLikes(results: LikesBenchResult): void {
  const [base, smallest, ...larger] = results as [LikesBenchResult[0], LikesBenchResult[0], ...LikesBenchResult];
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  console.info("\nlikes: one request at a time, interleaved\n");
  console.info("target                                  p50         p99         p50 ratio  errors");
  for (const r of results)
    console.info(
      `${r.name.padEnd(39)} ${ms(r.p50).padEnd(11)} ${ms(r.p99).padEnd(11)} ${(r.p50 / base.p50).toFixed(2).padEnd(10)} ${r.errors}`,
    );
  for (const r of larger)
    console.info(
      `likes API p50 of ${r.name.replace("GET /api/likes.php ", "")} = ${(r.p50 / smallest.p50).toFixed(2)}x the smallest (target within 1.5x)`,
    );
}
