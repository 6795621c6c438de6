/**
 * The clock's part of payments whose create went unanswered (decision 0053): every five minutes
 * (worker.ts) the orders still waiting are looked for in the provider's latest payments and settled
 * as the webhook settles them; one never made is expired, as nothing was charged.
 */
import type { SiteSettings } from "../../shared/settings";
import { databaseOf } from "../db/database";
import { orderStatusStatements, unansweredOrders } from "../db/orders";
import { loadSite } from "../edge/site";
import { paymentProviderFor } from "../payments";
import { settlePayment, type PaymentContext } from "./payments";

/** How long a create stays unanswered before the list is read: the webhook usually comes first. */
const UNANSWERED_AFTER_SECONDS = 60;
/**
 * After this a create that is not in the list was never made: Mollie keeps an Idempotency-Key an hour
 * (https://docs.mollie.com/reference/api-idempotency), and a request that "may still arrive at the
 * API eventually" has long arrived. The order is then expired: nothing was charged.
 */
const NEVER_MADE_AFTER_SECONDS = 2 * 3600;
/** Pages of 250 payments read per run, newest first. */
const LIST_PAGES = 4;

/**
 * The clock's part (worker.ts, every five minutes): orders whose create went unanswered (pending or
 * open, no payment, older than a minute, at most a day old) are looked for in the provider's latest
 * payments by the order id in their metadata, and settled as the webhook settles them; one not found
 * after two hours is expired. Returns what it did.
 */
export async function settleUnansweredOrders(
  ctx: Omit<PaymentContext, "site">,
  siteOf: (domain: string) => Promise<SiteSettings | null>,
): Promise<{ found: number; expired: number; waiting: number }> {
  const waiting = await unansweredOrders(ctx.db, ctx.now - 24 * 3600, ctx.now - UNANSWERED_AFTER_SECONDS);
  const done = { found: 0, expired: 0, waiting: 0 };
  if (waiting.length === 0) return done;
  const listed = await ctx.provider.listPayments(LIST_PAGES);
  const byKey = new Map(listed.map((p) => [String(p.metadata?.["order_key"]), p] as const));
  for (const order of waiting) {
    const site = await siteOf(order.siteDomain);
    const payment = order.idempotencyKey ? byKey.get(order.idempotencyKey) : undefined;
    if (payment && site) {
      await settlePayment({ ...ctx, site }, payment.id);
      done.found++;
    } else if (order.createdAt < ctx.now - NEVER_MADE_AFTER_SECONDS) {
      await ctx.db.batch([...orderStatusStatements(ctx.db, order.id, "expired", ctx.now)]);
      console.warn(JSON.stringify({ event: "payment_never_made", order: order.id }));
      done.expired++;
    } else done.waiting++;
  }
  return done;
}

/** The clock's run (worker.ts) with the provider the Worker is configured with; the sandbox answers every call, so it has nothing to settle. */
export async function settleUnanswered(env: Env, now: number) {
  if (env.PAYMENT_PROVIDER !== "mollie") return null;
  const db = databaseOf(env.DB);
  // Redirect and webhook addresses are not needed to read payments back.
  const result = await settleUnansweredOrders(
    { db, env, provider: paymentProviderFor(env, db, ""), origin: "", now },
    async (domain) => (await loadSite(env.SETTINGS, domain))?.settings ?? null,
  );
  console.info(JSON.stringify({ event: "payments_clock", ...result }));
  return result;
}
