/**
 * The cost of money: creating an order (POST /api/order.php: the order, a customer and a payment at
 * the sandbox provider) and a payment webhook (POST /api/payment-webhook.php: read back, record,
 * credit once), each next to the plain route measured the same way, one request at a time. Order
 * creation is rate-limited per member, so the orders come from several members.
 */
import { localD1 } from "../test/e2e/server";
import { call, signUp } from "./chat";
import { percentile } from "./load";

export type PaymentsBenchResult = {
  plain: number;
  order: number;
  firstWebhook: number;
  replayedWebhook: number;
  orders: number;
  replays: number;
};

const ORDERS_PER_MEMBER = 9;

async function timed(run: () => Promise<{ status: number; body: string }>, expected: number): Promise<number> {
  const started = performance.now();
  const res = await run();
  const elapsed = performance.now() - started;
  if (res.status !== expected) throw new Error(`payments bench: ${res.status} ${res.body}`);
  return elapsed;
}

const p50 = (values: number[]) =>
  percentile(
    values.toSorted((a, b) => a - b),
    50,
  );

export async function paymentsBench({
  port,
  host,
  persistTo,
  members,
  replays,
}: {
  port: number;
  host: string;
  persistTo: string;
  members: number;
  replays: number;
}): Promise<PaymentsBenchResult> {
  const stamp = Date.now().toString(36);
  const buyers = [];
  for (let i = 0; i < members; i++)
    buyers.push(await signUp(port, host, `benchpay${stamp}${i}`, i % 2 ? "male" : "female"));
  const plain: number[] = [];
  const orders: number[] = [];
  const paymentIds: string[] = [];
  for (const buyer of buyers) {
    for (let i = 0; i < ORDERS_PER_MEMBER; i++) {
      plain.push(await timed(() => call(port, host, "GET", "/__plain", ""), 200));
      let answer = "";
      orders.push(
        await timed(async () => {
          const res = await call(port, host, "POST", "/api/order.php", buyer.cookie, { bundle_id: 1, method: "ideal" });
          answer = res.body;
          return res;
        }, 201),
      );
      const url = (JSON.parse(answer) as { order: { checkout_url: string } }).order.checkout_url;
      paymentIds.push(url.slice(url.lastIndexOf("/") + 1));
    }
  }
  // The tester pays them all at once; each webhook then credits one order.
  localD1(
    persistTo,
    `UPDATE sandbox_payments SET status = 'paid' WHERE id IN (${paymentIds.map((id) => `'${id}'`).join(",")})`,
  );
  const webhook = (id: string) => call(port, host, "POST", "/api/payment-webhook.php", "", new URLSearchParams({ id }));
  const first: number[] = [];
  for (const id of paymentIds) first.push(await timed(() => webhook(id), 200));
  const replayed: number[] = [];
  for (let i = 0; i < replays; i++) replayed.push(await timed(() => webhook(paymentIds[i % paymentIds.length]!), 200));
  return {
    plain: p50(plain),
    order: p50(orders),
    firstWebhook: p50(first),
    replayedWebhook: p50(replayed),
    orders: orders.length,
    replays,
  };
}

export function printPayments(r: PaymentsBenchResult): void {
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  console.info(`\npayments: p50 one at a time, next to the plain route (${ms(r.plain)})`);
  console.info(
    `order creation (POST /api/order.php, ${r.orders} orders):      ${ms(r.order)}  ${(r.order / r.plain).toFixed(2)}x`,
  );
  console.info(
    `webhook that credits (first delivery, ${r.orders}):             ${ms(r.firstWebhook)}  ${(r.firstWebhook / r.plain).toFixed(2)}x`,
  );
  console.info(
    `webhook replayed (idempotent, ${r.replays}):                    ${ms(r.replayedWebhook)}  ${(r.replayedWebhook / r.plain).toFixed(2)}x`,
  );
}
