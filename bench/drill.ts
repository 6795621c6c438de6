/**
 * npm run drill: a fault drill of the money paths (issue 38 point 7). Serves the built Worker with the
 * Mollie provider pointed at the stand-in of Mollie's API (test/mollie-stand-in.ts, on loopback, in
 * this process), places a few hundred orders (one-off checkouts and recurring repeat orders on a card
 * mandate) while the stand-in loses answers of creates it executes, answers 500 (executed or not),
 * 409 and 429, then plays the customers (paid, failed, expired, left open) and delivers Mollie's
 * webhook calls duplicated and out of order, several at once. It prints how many orders ended
 * credited, failed, pending, expired and refunded, and fails (exit 1) unless every member's balance
 * is the sum of their ledger, no order is credited twice, and no payment paid at the provider is
 * left uncredited.
 *
 *   npm run drill [-- --orders 300 --members 12 --seed 38 --port 8798 --no-build]
 *
 * Refunds are left to the refund code (issue 38 point 2): `refundHook` below is where a drill of them
 * goes; until then the refunded count is what the members' refunds made (none here).
 */
import { parseArgs } from "node:util";
import { build, localD1, seed, serve } from "../test/e2e/server";
import { createMollieStandIn, STAND_IN_KEY, type Fault, type WebhookCall } from "../test/mollie-stand-in";
import { call, signUp, type Member } from "./chat";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "300" },
    members: { type: "string", default: "12" },
    seed: { type: "string", default: "38" },
    port: { type: "string", default: "8798" },
    "no-build": { type: "boolean", default: false },
  },
});
const ORDERS = Number(values.orders);
const MEMBERS = Number(values.members);
const PORT = Number(values.port);
const HOST = "nl.localhost";
const STATE = ".tmp/drill-state";
if (![ORDERS, MEMBERS, PORT].every((n) => Number.isInteger(n) && n > 0))
  throw new Error("--orders, --members and --port must be whole numbers");

/** A small seeded generator (mulberry32): the same --seed gives the same drill. */
let state = Number(values.seed) >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(weighted: [T, number][]): T => {
  let r = random() * weighted.reduce((s, [, w]) => s + w, 0);
  for (const [value, weight] of weighted) if ((r -= weight) < 0) return value;
  return weighted.at(-1)![0];
};

const CREATE = "^POST /v2/payments ";
/** What the next create meets: nothing, or one of the failures Mollie documents. */
const FAULTS: [Fault | null, number][] = [
  [null, 50],
  [{ match: CREATE, kind: "lose", times: 1 }, 10],
  [{ match: CREATE, kind: "lose", times: 3 }, 8],
  [{ match: CREATE, kind: "status", status: 500, times: 1 }, 6],
  [{ match: CREATE, kind: "status", status: 500, execute: true, times: 1 }, 6],
  [{ match: CREATE, kind: "status", status: 500, times: 3 }, 4],
  [{ match: CREATE, kind: "status", status: 429, retryAfter: 0, times: 2 }, 8],
  [{ match: CREATE, kind: "status", status: 429, retryAfter: 0, times: 3 }, 3],
  [{ match: CREATE, kind: "status", status: 409, times: 1 }, 3],
  [{ match: CREATE, kind: "status", status: 422, times: 1 }, 2],
];

const standIn = createMollieStandIn();
const standInOrigin = await standIn.start();
/**
 * The stand-in runs in this process, whose event loop stops while `wrangler d1 execute` runs; a kept-alive
 * connection it closed meanwhile is reset on its next use, before the request is read: asked once more.
 */
const send = (url: string, init: RequestInit = {}) => fetch(url, init).catch(() => fetch(url, init));
const control = async <T>(path: string, body?: unknown): Promise<T> => {
  const res = await send(
    `${standInOrigin}/_stand-in${path}`,
    body === undefined ? {} : { method: "POST", body: JSON.stringify(body) },
  );
  if (!res.ok) throw new Error(`drill: stand-in ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
};

type Listed = { id: string; status: string; sequenceType: string; metadata: { order_key?: string } | null };
async function allPayments(): Promise<Listed[]> {
  const found: Listed[] = [];
  let next: string | null = `${standInOrigin}/v2/payments?limit=250`;
  while (next) {
    const res = await send(next, { headers: { authorization: `Bearer ${STAND_IN_KEY}` } });
    const page = (await res.json()) as { _embedded: { payments: Listed[] }; _links: { next: { href: string } | null } };
    found.push(...page._embedded.payments);
    next = page._links.next?.href ?? null;
  }
  return found;
}

const webhook = (id: string) => call(PORT, HOST, "POST", "/api/payment-webhook.php", "", new URLSearchParams({ id }));

/** Where a drill of refunds goes (issue 38 point 2 is the refund code's): a share of the credited orders refunded, with 409s and lost answers. */
async function refundHook(_members: Member[]): Promise<void> {}

if (!values["no-build"]) build();
seed(STATE, 40);
const server = await serve(STATE, PORT, {
  PAYMENT_PROVIDER: "mollie",
  MOLLIE_API_URL: `${standInOrigin}/v2`,
  MOLLIE_API_KEY: STAND_IN_KEY,
});
let exitCode = 0;
try {
  const stamp = Date.now().toString(36);
  const members: Member[] = [];
  for (let i = 0; i < MEMBERS; i++)
    members.push(await signUp(PORT, HOST, `drill${stamp}${i}`, i % 2 ? "male" : "female"));
  const resetLimits = () => localD1(STATE, "DELETE FROM login_attempts WHERE key LIKE 'order:%'");

  // Each member first saves a card (a paid first payment leaves the mandate repeat orders charge).
  for (const member of members) {
    const res = await call(PORT, HOST, "POST", "/api/order.php", member.cookie, {
      bundle_id: 1,
      method: "creditcard",
      save_method: true,
    });
    if (res.status !== 201) throw new Error(`drill: first order: ${res.status} ${res.body}`);
  }
  for (const p of await allPayments()) await control(`/payments/${p.id}/status`, { status: "paid" });
  for (const p of await allPayments()) await webhook(p.id);
  resetLimits();

  const answers = new Map<number, number>();
  for (let i = 0; i < ORDERS; i++) {
    if (i > 0 && i % 25 === 0) resetLimits();
    const member = members[i % members.length]!;
    const fault = pick(FAULTS);
    if (fault) await control("/faults", fault);
    const recurring = random() < 0.3;
    const res = recurring
      ? await call(PORT, HOST, "POST", "/api/repeat-order.php", member.cookie, {})
      : await call(PORT, HOST, "POST", "/api/order.php", member.cookie, { bundle_id: 1, method: "ideal" });
    answers.set(res.status, (answers.get(res.status) ?? 0) + 1);
    await control("/faults/clear", {});
  }

  // The customers and the bank: most pay, some fail or let the checkout expire, a few leave it open.
  for (const p of await allPayments()) {
    if (p.status !== "open" && p.status !== "pending") continue;
    const status =
      p.sequenceType === "recurring"
        ? pick([
            ["paid", 85],
            ["failed", 15],
          ] as [string, number][])
        : pick([
            ["paid", 70],
            ["failed", 10],
            ["expired", 10],
            [null, 10],
          ] as [string | null, number][]);
    if (status) await control(`/payments/${p.id}/status`, { status });
  }
  // Mollie's calls, each one to three times, shuffled across payments, eight at a time.
  const calls: string[] = [];
  for (const p of await allPayments())
    for (const _ of await control<WebhookCall[]>(`/payments/${p.id}/webhooks`))
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) calls.push(p.id);
  for (let i = calls.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [calls[i], calls[j]] = [calls[j]!, calls[i]!];
  }
  let webhookErrors = 0;
  for (let i = 0; i < calls.length; i += 8)
    for (const res of await Promise.all(calls.slice(i, i + 8).map(webhook))) if (res.status !== 200) webhookErrors++;
  await refundHook(members);

  // What came of it, from the app's database and the provider's side.
  const [statuses] = localD1(
    STATE,
    `SELECT CASE WHEN credited_at IS NOT NULL AND status IN ('paid', 'pending') THEN 'credited' WHEN status IN ('open', 'pending', 'authorized') THEN 'pending' ELSE status END AS outcome, COUNT(*) AS n
       FROM orders WHERE user_id IN (SELECT user_id FROM profiles WHERE id IN (${members.map((m) => m.profileId).join(", ")}))
       GROUP BY outcome ORDER BY outcome`,
  );
  const [books] = localD1(
    STATE,
    `SELECT COUNT(*) AS members, SUM(u.credits <> COALESCE((SELECT SUM(delta) FROM credit_ledger l WHERE l.user_id = u.id), 0)) AS unbalanced
       FROM users u WHERE u.id IN (SELECT user_id FROM profiles WHERE id IN (${members.map((m) => m.profileId).join(", ")}))`,
  );
  const [twice] = localD1(
    STATE,
    "SELECT COUNT(*) AS n FROM (SELECT ref FROM credit_ledger WHERE reason = 'purchase' GROUP BY ref HAVING COUNT(*) > 1)",
  );
  const [credited] = localD1(STATE, "SELECT idempotency_key AS key FROM orders WHERE credited_at IS NOT NULL");
  const creditedKeys = new Set(credited!.map((r) => String(r["key"])));
  const paidNotCredited = (await allPayments()).filter(
    (p) => p.status === "paid" && !creditedKeys.has(String(p.metadata?.order_key)),
  );

  console.info(`\nfault drill: ${ORDERS} orders by ${MEMBERS} members (seed ${values.seed})`);
  console.info(`answers to the member: ${[...answers].map(([s, n]) => `${s}: ${n}`).join(", ")}`);
  console.info(`webhook calls delivered: ${calls.length} (${webhookErrors} not answered 200)`);
  for (const row of statuses!) console.info(`  ${String(row["outcome"]).padEnd(10)} ${String(row["n"])}`);
  console.info(`refunded: ${statuses!.find((r) => r["outcome"] === "refunded")?.["n"] ?? 0} (refunds: see refundHook)`);
  const unbalanced = Number(books![0]!["unbalanced"] ?? 0);
  console.info(
    `members whose balance is not the sum of their ledger: ${unbalanced} of ${String(books![0]!["members"])}`,
  );
  console.info(`orders credited more than once: ${String(twice![0]!["n"])}`);
  console.info(`payments paid at the provider but not credited: ${paidNotCredited.length}`);
  if (unbalanced > 0 || Number(twice![0]!["n"]) > 0 || paidNotCredited.length > 0) exitCode = 1;
} finally {
  await server.stop();
  await standIn.stop();
}
process.exit(exitCode);
