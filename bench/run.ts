/**
 * npm run bench: serves the built Worker in workerd with demo data and prints figures as ratios to a
 * plain Hono route measured in the same run, then search latency at growing member counts as ratios
 * to the smallest (bench/search-scale.ts), and chat over the conversation's Durable Object next to a
 * bare Durable Object echo (bench/chat.ts). Timings are for reading, never asserted.
 *
 *   npm run bench [-- --requests 2000 --concurrency 8 --profiles 2400 --no-build --port 8790]
 *                 [-- --search-sizes 1000,10000,100000 --search-requests 500 --search-port 8791 --no-search-scale]
 *                 [-- --chat-messages 1000 --chat-burst 2000 --echo-port 8794 --no-chat]
 *                 [-- --port 8790 --payment-members 3 --webhook-replays 200 --no-payments]
 *                 [-- --likes-requests 600 --likes-sizes 10,10000,100000 --no-likes]
 *                 [-- --badge-messages 500 --no-badges]
 *                 [-- --capacity-members 1000 --capacity-port 8797 --no-capacity | --capacity-only]
 */
import { parseArgs } from "node:util";
import { build, seed, serve } from "../test/e2e/server";
import { badgesBench, printBadges } from "./badges";
import { capacityBench, printCapacity } from "./capacity";
import { chatBench, printChat } from "./chat";
import { likesBench, printLikes } from "./likes";
import { paymentsBench, printPayments } from "./payments";
import { load, percentile, type LoadResult } from "./load";
import { passwordCost } from "./passwords";
import { searchScale } from "./search-scale";
import { pageJavaScript, workerBundle } from "./sizes";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "8" },
    profiles: { type: "string", default: "2400" },
    "no-build": { type: "boolean", default: false },
    "search-sizes": { type: "string", default: "1000,10000,100000" },
    "search-requests": { type: "string", default: "500" },
    // Sizes are served together on consecutive ports from this one.
    "search-port": { type: "string", default: "8791" },
    "no-search-scale": { type: "boolean", default: false },
    "chat-messages": { type: "string", default: "1000" },
    "chat-burst": { type: "string", default: "2000" },
    // The bare Durable Object echo (bench/echo-worker.ts) is served here during the chat part.
    "echo-port": { type: "string", default: "8794" },
    "no-chat": { type: "boolean", default: false },
    // The app itself; the other ports above are for the parts served beside it.
    port: { type: "string", default: "8790" },
    "payment-members": { type: "string", default: "3" },
    "webhook-replays": { type: "string", default: "200" },
    "no-payments": { type: "boolean", default: false },
    "likes-requests": { type: "string", default: "600" },
    // Likes received by the members whose likes page is measured (the first is the baseline).
    "likes-sizes": { type: "string", default: "10,10000,100000" },
    "no-likes": { type: "boolean", default: false },
    // Live badges: send -> badge frame on the other member's member socket, next to the echo (served on --echo-port).
    "badge-messages": { type: "string", default: "500" },
    "no-badges": { type: "boolean", default: false },
    // The D1 capacity model: a simulated day of this many active members (bench/capacity.ts, docs/scale.md).
    "capacity-members": { type: "string", default: "1000" },
    "no-capacity": { type: "boolean", default: false },
    "capacity-only": { type: "boolean", default: false },
    // Its own state and server, after the app's server has stopped.
    "capacity-port": { type: "string", default: "8797" },
  },
});
const searchSizes = values["search-sizes"].split(",").map(Number);
if (searchSizes.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error(`--search-sizes must be whole numbers, got ${values["search-sizes"]}`);
const likesSizes = values["likes-sizes"].split(",").map(Number);
if (likesSizes.length < 2 || likesSizes.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error(`--likes-sizes must be two or more whole numbers, got ${values["likes-sizes"]}`);
const chatMessages = Number(values["chat-messages"]);
const chatBurst = Number(values["chat-burst"]);
if (![chatMessages, chatBurst].every((n) => Number.isInteger(n) && n >= 1))
  throw new Error("--chat-messages and --chat-burst must be whole numbers");
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const PORT = Number(values.port);
const STATE = ".tmp/bench-state";
/** Client JavaScript of a member's main screens, gzip (issue 23). */
const PAGE_JS_BUDGET = 100 * 1024;
const HOST = "nl.localhost";

/** Rounds of the latency figures (each target once per round). */
const LATENCY_ROUNDS = 5;

/** One target's rounds as one result: every latency, and the rate over the time all rounds took. */
function pooled(name: string, parts: LoadResult[]): LoadResult {
  const latencies = parts.flatMap((p) => p.latencies).toSorted((a, b) => a - b);
  const seconds = parts.reduce((sum, p) => sum + p.requests / p.rps, 0);
  return {
    name,
    requests: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rps: latencies.length / seconds,
    errors: parts.reduce((sum, p) => sum + p.errors, 0),
    latencies,
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(2)} ms`;

/** Every part measured on the app's server, in turn. */
async function everyPart(): Promise<void> {
  const searches = [
    "",
    "?gender=female",
    "?gender=male&min_age=30&max_age=45",
    "?country=BE",
    "?gender=female&country_region=NL-NH",
    "?page=3",
  ];
  const targets: [string, string[]][] = [
    ["plain Hono route (baseline)", ["/__plain"]],
    ["GET /members (SSR)", searches.map((q) => `/members${q}`)],
    ["GET /api/search.php", searches.map((q) => `/api/search.php${q}`)],
  ];
  const table = (title: string, results: LoadResult[]) => {
    const [base] = results as [LoadResult];
    console.info(`\n${title}\n`);
    console.info(
      "target                         p50         p99         req/s     p50 ratio  p99 ratio  rps ratio  errors",
    );
    for (const r of results) {
      console.info(
        `${r.name.padEnd(30)} ${ms(r.p50).padEnd(11)} ${ms(r.p99).padEnd(11)} ${r.rps.toFixed(0).padEnd(9)} ${(r.p50 / base.p50).toFixed(2).padEnd(10)} ${(r.p99 / base.p99).toFixed(2).padEnd(10)} ${(r.rps / base.rps).toFixed(2).padEnd(10)} ${r.errors}`,
      );
    }
  };
  // Latency one request at a time (what one member waits), then throughput with requests in flight.
  // The latency is taken in rounds, the targets one after another in each (in turn forwards and
  // backwards), so every ratio compares blocks measured moments apart; one block each moved the SSR
  // figure between runs by more than the changes it was to judge (decision 0045).
  const perRound = Math.ceil(requests / 2 / LATENCY_ROUNDS);
  const rounds: LoadResult[][] = [];
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    const results = new Map<string, LoadResult>();
    for (const [name, paths] of round % 2 ? targets.toReversed() : targets)
      results.set(name, await load(name, PORT, HOST, paths, perRound, 1, { warmUp: round === 0 ? 50 : 10 }));
    rounds.push(targets.map(([name]) => results.get(name)!));
  }
  const latency = targets.map(([name], i) =>
    pooled(
      name,
      rounds.map((r) => r[i]!),
    ),
  );
  table(
    `latency: ${perRound * LATENCY_ROUNDS} requests each in ${LATENCY_ROUNDS} rounds, one at a time, ${values.profiles} profiles, workerd via wrangler dev`,
    latency,
  );
  const throughput: LoadResult[] = [];
  for (const [name, paths] of targets) throughput.push(await load(name, PORT, HOST, paths, requests, concurrency));
  table(`throughput: ${requests} requests each, ${concurrency} in flight`, throughput);

  // Each round's p50 over the same round's plain route; the median of the rounds and their range.
  const ratio = (i: number) => {
    const each = rounds.map((r) => r[i]!.p50 / r[0]!.p50).toSorted((a, b) => a - b);
    return `${each[each.length >> 1]!.toFixed(2)}x the plain route, one at a time (median of ${LATENCY_ROUNDS} rounds, ${each[0]!.toFixed(2)}-${each.at(-1)!.toFixed(2)})`;
  };
  console.info(`\nSSR /members p50 = ${ratio(1)} (target 2x)`);
  console.info(`search API p50  = ${ratio(2)} (target within 2x)`);

  const js = pageJavaScript("dist/client", "src/app/screens/members/MembersScreen.tsx");
  // What a phone downloads before a member's main screens work, against one budget (decision 0037).
  console.info("");
  const memberPages: [string, string][] = [
    ["/members", "src/app/screens/members/MembersScreen.tsx"],
    ["/chats/{id}", "src/app/screens/chats/ChatsScreen.tsx"],
    ["/likes", "src/app/screens/likes/LikesScreen.tsx"],
  ];
  for (const [page, source] of memberPages) {
    const member = pageJavaScript("dist/client", source);
    const verdict = member.gzip <= PAGE_JS_BUDGET ? "within" : "OVER";
    console.info(
      `${page.padEnd(12)} client JavaScript: ${kb(member.gzip)} gzip (${kb(member.raw)} raw, ${member.files.length} files; ${verdict} the ${kb(PAGE_JS_BUDGET)} budget)`,
    );
  }
  // The front door is for cheap phones: what the home page, a lander and a member landing page add.
  for (const [page, source] of [
    ["/ (home)", "src/app/screens/home/HomeScreen.tsx"],
    ["/landers/*", "src/app/screens/landers/LanderScreen.tsx"],
    ["/members/{id}/landing*", "src/app/screens/member-landing/MemberLandingScreen.tsx"],
  ]) {
    const front = pageJavaScript("dist/client", source!);
    console.info(`${page} client JavaScript: ${kb(front.gzip)} gzip (${kb(front.gzip - js.gzip)} more than /members)`);
  }
  const cost = await passwordCost();
  console.info(
    `\npassword hash (Argon2id m=19 MiB t=2 p=1, WebAssembly as in the Worker): ${ms(cost.argon2)} per hash, ${(cost.argon2 / cost.pbkdf2).toFixed(2)}x PBKDF2-SHA256 at 100,000 iterations (${ms(cost.pbkdf2)})`,
  );
  const worker = workerBundle("dist/edge_dating");
  console.info(`Worker bundle: ${kb(worker.gzip)} gzip (${kb(worker.raw)} raw)`);

  if (!values["no-likes"])
    printLikes(
      await likesBench({
        port: PORT,
        host: HOST,
        persistTo: STATE,
        requests: Number(values["likes-requests"]),
        sizes: likesSizes,
      }),
    );
  if (!values["no-payments"]) {
    printPayments(
      await paymentsBench({
        port: PORT,
        host: HOST,
        persistTo: STATE,
        members: Number(values["payment-members"]),
        replays: Number(values["webhook-replays"]),
      }),
    );
  }

  // Chat last on this server: its two members sign up after the figures above are taken.
  if (!values["no-chat"]) {
    printChat(
      await chatBench({
        port: PORT,
        host: HOST,
        persistTo: STATE,
        echoPort: Number(values["echo-port"]),
        messages: chatMessages,
        burst: chatBurst,
      }),
    );
  }
  if (!values["no-badges"]) {
    printBadges(
      await badgesBench({
        port: PORT,
        host: HOST,
        persistTo: STATE,
        echoPort: Number(values["echo-port"]),
        messages: Number(values["badge-messages"]),
      }),
    );
  }
}

if (!values["no-build"]) build();
if (!values["capacity-only"]) {
  seed(STATE, Number(values.profiles));
  const server = await serve(STATE, PORT);
  try {
    await everyPart();
  } finally {
    await server.stop();
  }
  // Search at growing member counts, with the same build, after the server above has stopped.
  if (!values["no-search-scale"])
    await searchScale(searchSizes, Number(values["search-port"]), Number(values["search-requests"]));
}

// The D1 capacity model on its own state and server (bench/capacity.ts, docs/scale.md).
if (!values["no-capacity"]) {
  printCapacity(
    await capacityBench({
      port: Number(values["capacity-port"]),
      host: HOST,
      persistTo: ".tmp/capacity-state",
      members: Number(values["capacity-members"]),
      demoProfiles: 300,
    }),
  );
}
