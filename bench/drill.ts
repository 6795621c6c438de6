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
 *   npm run drill [-- --orders 300 --members 40 --seed 38 --port 8798 --no-build]
 *
 * Then each member asks for a refund of their latest purchase, one to four times at once, while the
 * stand-in loses answers of refunds it makes, answers 500, 503, 409 and 429; the bank settles the
 * refunds (most refunded, some failed, some canceled in the dashboard), Mollie's calls and next-gen
 * events come duplicated and out of order, and the hourly clock settles what got no answer. It fails
 * too unless no order's credits were both refunded and given back, no payment has two refunds, and
 * every refund Mollie made or is making has its credits taken.
 */
import { parseArgs } from "node:util";
import { build, localD1, seed, serve } from "../test/e2e/server";
import {
  createMollieStandIn,
  STAND_IN_KEY,
  STAND_IN_WEBHOOK_SECRET,
  type Fault,
  type NextGenEvent,
  type WebhookCall,
} from "../test/mollie-stand-in";
import { call, signUp, type Member } from "./chat";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "300" },
    members: { type: "string", default: "40" },
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

const REFUNDS = "^POST /v2/payments/[^/]+/refunds ";
/** What a member's refund request meets. */
const REFUND_FAULTS: [Fault | null, number][] = [
  [null, 40],
  [{ match: REFUNDS, kind: "lose", times: 1 }, 15],
  [{ match: REFUNDS, kind: "lose", times: 9 }, 10],
  [{ match: REFUNDS, kind: "status", status: 500, execute: true, times: 1 }, 10],
  [{ match: REFUNDS, kind: "status", status: 503, times: 9 }, 10],
  [{ match: REFUNDS, kind: "status", status: 429, retryAfter: 0, times: 2 }, 10],
  [{ match: REFUNDS, kind: "status", status: 409, times: 1 }, 5],
];

type StandInRefund = { id: string; status: string };

/** Deliver in shuffled order, each one to three times, eight at a time; answers how many were not answered 200. */
async function deliverShuffled(sends: (() => Promise<{ status: number }>)[]): Promise<number> {
  const all = sends.flatMap((deliver) => Array.from({ length: 1 + Math.floor(random() * 3) }, () => deliver));
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  let errors = 0;
  for (let i = 0; i < all.length; i += 8)
    for (const res of await Promise.all(all.slice(i, i + 8).map((deliver) => deliver())))
      if (res.status !== 200) errors++;
  return errors;
}

const mollieEvent = (event: NextGenEvent) =>
  call(PORT, HOST, "POST", "/api/mollie-events.php", "", event.body, {
    "content-type": event.contentType,
    "x-mollie-signature": event.signature,
  });

/**
 * The refunds: every member asks for the refund of their latest purchase, one to four requests at
 * once, each member's meeting one of REFUND_FAULTS; then the bank settles the refunds Mollie made,
 * Mollie's calls and events arrive, and the clock settles the requests that got no answer.
 */
async function drillRefunds(
  members: Member[],
): Promise<{ asked: number; answers: Map<string, number>; errors: number }> {
  const ids = members.map((m) => m.profileId).join(", ");
  const [latest] = localD1(
    STATE,
    `SELECT o.id AS id, p.id AS profile FROM orders o JOIN profiles p ON p.user_id = o.user_id
       WHERE p.id IN (${ids}) AND o.credited_at IS NOT NULL
         AND o.id = (SELECT id FROM orders x WHERE x.user_id = o.user_id AND x.credited_at IS NOT NULL
                      ORDER BY x.credited_at DESC, x.id DESC LIMIT 1)`,
  );
  let asked = 0;
  const answers = new Map<string, number>();
  for (const row of latest!) {
    const member = members.find((m) => m.profileId === Number(row["profile"]))!;
    const fault = pick(REFUND_FAULTS);
    if (fault) await control("/faults", fault);
    const times = 1 + Math.floor(random() * 4);
    for (const res of await Promise.all(
      Array.from({ length: times }, () =>
        call(PORT, HOST, "POST", "/api/refund.php", member.cookie, { order_id: Number(row["id"]) }),
      ),
    )) {
      const answer = `${res.status}${res.status === 200 ? "" : ` ${(JSON.parse(res.body) as { error?: string }).error}`}`;
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
    }
    asked += times;
    await control("/faults/clear", {});
  }
  // The clock's turn for requests that got no answer: as if the settle delay had passed.
  localD1(STATE, "UPDATE payment_adjustments SET created_at = created_at - 3600 WHERE status = 'requested'");
  await fetch(`http://127.0.0.1:${PORT}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("41 * * * *")}`);
  // The bank: most refunds go through, some fail, some are canceled in the dashboard while queued.
  for (const p of await allPayments())
    for (const refund of await control<StandInRefund[]>(`/payments/${p.id}/refunds`)) {
      const status = pick([
        ["refunded", 80],
        ["failed", 10],
        ["canceled", 10],
      ] as [string, number][]);
      if (status !== "canceled" || ["queued", "pending"].includes(refund.status))
        await control(`/payments/${p.id}/refunds/${refund.id}/status`, { status });
    }
  const sends: (() => Promise<{ status: number }>)[] = [];
  for (const p of await allPayments()) {
    for (const _ of await control<WebhookCall[]>(`/payments/${p.id}/webhooks`)) sends.push(() => webhook(p.id));
    for (const event of await control<NextGenEvent[]>(`/payments/${p.id}/events`)) sends.push(() => mollieEvent(event));
  }
  return { asked, answers, errors: await deliverShuffled(sends) };
}

if (!values["no-build"]) build();
seed(STATE, 40);
const server = await serve(STATE, PORT, {
  PAYMENT_PROVIDER: "mollie",
  MOLLIE_API_URL: `${standInOrigin}/v2`,
  MOLLIE_API_KEY: STAND_IN_KEY,
  MOLLIE_WEBHOOK_SECRET: STAND_IN_WEBHOOK_SECRET,
});
let exitCode = 0;
try {
  const stamp = Date.now().toString(36);
  const members: Member[] = [];
  for (let i = 0; i < MEMBERS; i++)
    members.push(await signUp(PORT, HOST, `drill${stamp}${i}`, i % 2 ? "male" : "female"));
  const resetLimits = () => localD1(STATE, "DELETE FROM login_attempts WHERE key LIKE 'order:%'");

  // Each member first saves a card (a paid first payment leaves the mandate repeat orders charge).
  for (const [i, member] of members.entries()) {
    if (i > 0 && i % 10 === 0) resetLimits();
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
  const sends: (() => Promise<{ status: number }>)[] = [];
  for (const p of await allPayments())
    for (const _ of await control<WebhookCall[]>(`/payments/${p.id}/webhooks`)) sends.push(() => webhook(p.id));
  const webhookErrors = await deliverShuffled(sends);
  const refunds = await drillRefunds(members);

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
  console.info(`webhook calls delivered: ${sends.length} (${webhookErrors} not answered 200)`);
  console.info(
    `refund requests: ${refunds.asked} by ${MEMBERS} members, answered ${[...refunds.answers].map(([s, n]) => `${s}: ${n}`).join(", ")}; Mollie's calls and events after (${refunds.errors} not answered 200)`,
  );
  for (const row of statuses!) console.info(`  ${String(row["outcome"]).padEnd(10)} ${String(row["n"])}`);
  // Refunds: what Mollie made against what the app took and gave back, order by order.
  const [adjusted] = localD1(
    STATE,
    `SELECT o.id AS id, p.provider_payment_id AS payment,
            (SELECT COUNT(*) FROM credit_ledger l WHERE l.ref = 'order:' || o.id AND l.reason = 'refund') AS taken,
            (SELECT COUNT(*) FROM credit_ledger l WHERE l.ref = 'order:' || o.id AND l.reason = 'refund_undone') AS undone,
            (SELECT GROUP_CONCAT(a.status) FROM payment_adjustments a WHERE a.order_id = o.id AND a.kind = 'refund') AS requests
       FROM orders o JOIN payments p ON p.order_id = o.id
      WHERE o.id IN (SELECT order_id FROM payment_adjustments WHERE kind = 'refund')`,
  );
  const refundProblems: string[] = [];
  const refundOutcomes = new Map<string, number>();
  for (const row of adjusted!) {
    const made = await control<StandInRefund[]>(`/payments/${String(row["payment"])}/refunds`);
    const live = made.filter((r) => !["failed", "canceled"].includes(r.status));
    const taken = Number(row["taken"]) - Number(row["undone"]);
    for (const status of String(row["requests"]).split(","))
      refundOutcomes.set(status, (refundOutcomes.get(status) ?? 0) + 1);
    if (made.length > 1) refundProblems.push(`order ${String(row["id"])}: ${made.length} refunds at Mollie`);
    if (live.length > 0 && taken !== 1)
      refundProblems.push(`order ${String(row["id"])}: refunded at Mollie, credits taken ${taken} times`);
    if (Number(row["undone"]) > 0 && live.length > 0)
      refundProblems.push(`order ${String(row["id"])}: credits given back while Mollie refunds`);
  }
  console.info(
    `refund requests by their end: ${[...refundOutcomes].map(([s, n]) => `${s}: ${n}`).join(", ") || "none"}`,
  );
  for (const problem of refundProblems) console.info(`  ${problem}`);
  const unbalanced = Number(books![0]!["unbalanced"] ?? 0);
  console.info(
    `members whose balance is not the sum of their ledger: ${unbalanced} of ${String(books![0]!["members"])}`,
  );
  console.info(`orders credited more than once: ${String(twice![0]!["n"])}`);
  console.info(`payments paid at the provider but not credited: ${paidNotCredited.length}`);
  console.info(`refunds doubled, lost or given back while made: ${refundProblems.length}`);
  if (unbalanced > 0 || Number(twice![0]!["n"]) > 0 || paidNotCredited.length > 0 || refundProblems.length > 0)
    exitCode = 1;
} finally {
  await server.stop();
  await standIn.stop();
}
process.exit(exitCode);
