/**
 * Orders, payments and credits (SPEC §1, §4): a member orders a bundle of their country's price list,
 * pays at the provider, and is credited once when the provider (read back, never the browser or the
 * webhook's body) says the payment is paid. The first paid order makes the member premium.
 */
import { pricingFor, statusRank, type Bundle, type CountryPricing, type OrderStatus, type PaymentMethod } from "../../shared/payments";
import type { OrderPrice, OrderView } from "../../shared/payments-api";
import type { SiteSettings } from "../../shared/settings";
import { announcePremium, recallChatHolds } from "../chat/premium";
import type { Database } from "../db/database";
import { balanceOf } from "../db/ledger";
import { findOrder, findOwnOrder, insertOrder, insertOrderHolding, latestOrder, latestPaidOrder, orderStatusStatements, takeBackStatements, undoRefundStatements, type OrderRow } from "../db/orders";
import { findCustomer, findPayment, insertPayment, latestPaymentOf, paymentStatusStatement, saveCustomer, saveMandate } from "../db/payments";
import { directDebitStatusStatement } from "../db/direct-debit";
import { AppError } from "../errors";
import { checkDiscount, holdFor, holdRefusal, type AppliedDiscount } from "./discounts";
import { checkExpectedAmount, priceOf } from "./order-price";
import { PaymentProviderError, providerLocale, type PaymentProvider, type ProviderPayment } from "../payments/provider";

export type PaymentContext = {
  db: Database;
  env: Pick<Env, "DB" | "CONVERSATIONS">;
  provider: PaymentProvider;
  site: SiteSettings;
  /** The site's origin: redirect and webhook URLs are on it. */
  origin: string;
  /** Unix seconds. */
  now: number;
  /** Told after a member's balance changed and is stored (their open pages show it); runs off the reply's path. */
  balanceChanged?: (userId: number) => void;
};

export type Buyer = { userId: number; language: string; country: string | null; email: string; name: string; paid: boolean; /** Unix seconds. */ signupDate: number };

/** Methods whose first payment leaves a mandate, so a repeat order can be charged without a checkout. */
const MANDATE_METHODS: readonly string[] = ["creditcard", "paypal", "ideal", "bancontact"];
const DAY = 86_400;

export const WEBHOOK_PATH = "/api/payment-webhook.php";

/** Where the provider sends the member back: the order's own page, which follows its status. */
export const returnPath = (order: Pick<OrderRow, "id" | "bundleId" | "paymentMethod">) => `/credits/${order.bundleId}/${order.paymentMethod}?order=${order.id}`;

function offer(ctx: Pick<PaymentContext, "site">, country: string | null, bundleId: number, method: string): { pricing: CountryPricing; country: string; bundle: Bundle; method: PaymentMethod } {
  const { pricing, country: priceCountry } = pricingFor(ctx.site.pricing, ctx.site.countries, country);
  const bundle = pricing.bundles.find((b) => b.id === bundleId);
  if (!bundle) throw new AppError({ status: 404, code: "bundle_not_found", key: "payments.errors.bundle_not_found", field: "bundle_id" });
  if (!(pricing.methods as readonly string[]).includes(method) || method === "directdebit") {
    throw new AppError({ status: 400, code: "method_not_offered", key: "payments.errors.method_not_offered", field: "method" });
  }
  return { pricing, country: priceCountry, bundle, method: method as PaymentMethod };
}

export function providerUnavailable(error: unknown): AppError {
  console.error(JSON.stringify({ event: "payment_provider_failed", message: error instanceof Error ? error.message : String(error) }));
  return new AppError({ status: 502, code: "payment_provider_unavailable", key: "payments.errors.provider_unavailable" });
}

/**
 * Create an order for a bundle and its payment at the provider. Amounts come from the site's
 * settings only. Answers the order and where the member pays (null for a charge on a mandate).
 */
export async function createOrder(ctx: PaymentContext, buyer: Buyer, input: { bundleId: number; method: string; discountCode?: string | undefined; expectedAmount?: number | undefined }): Promise<{ order: OrderRow; checkoutUrl: string | null }> {
  const chosen = offer(ctx, buyer.country, input.bundleId, input.method);
  // The discount comes from the code alone, checked against this bundle and method; never from the request's numbers.
  const discount = input.discountCode?.trim() ? await checkDiscount(ctx, buyer, input.discountCode, { bundle: chosen.bundle, method: chosen.method }) : null;
  const price = priceOf(chosen.pricing, chosen.bundle, discount?.view ?? null);
  checkExpectedAmount(price, input.expectedAmount);
  return placeOrder(ctx, buyer, chosen, null, price, discount);
}

async function placeOrder(
  ctx: PaymentContext,
  buyer: Buyer,
  chosen: ReturnType<typeof offer>,
  mandate: { customerId: string; mandateId: string } | null,
  price: OrderPrice,
  discount: AppliedDiscount | null = null,
): Promise<{ order: OrderRow; checkoutUrl: string | null }> {
  const { bundle, method } = chosen;
  const hold = holdFor(discount, ctx.now);
  const row = {
    userId: buyer.userId,
    siteDomain: ctx.site.domain,
    bundleId: bundle.id,
    credits: price.credits,
    amountCents: price.amount,
    vatCents: price.vat,
    discountCents: price.discount,
    discountCode: discount?.view.code ?? null,
    discountCodeId: discount?.codeId ?? null,
    discountKey: hold?.key ?? null,
    currency: price.currency,
    paymentMethod: method,
    country: chosen.country,
  };
  const order = hold ? await insertOrderHolding(ctx.db, row, ctx.now, hold) : await insertOrder(ctx.db, row, ctx.now);
  // Another order took the code between the check and this one's batch: nothing was made.
  if (!order) throw await holdRefusal(ctx, buyer.userId, discount!);
  let payment: ProviderPayment;
  try {
    const customerId = mandate?.customerId ?? (MANDATE_METHODS.includes(method) ? await customerOf(ctx, buyer) : undefined);
    payment = await ctx.provider.createPayment({
      amount: order.amountCents,
      currency: order.currency,
      description: `${ctx.site.name} ${order.credits} credits #${order.id}`,
      redirectUrl: ctx.origin + returnPath(order),
      webhookUrl: ctx.origin + WEBHOOK_PATH,
      method,
      locale: providerLocale(buyer.language, chosen.country),
      metadata: { order_id: order.id },
      idempotencyKey: `order-${order.id}`,
      ...(customerId ? { customerId } : {}),
      ...(mandate ? { sequenceType: "recurring" as const, mandateId: mandate.mandateId } : customerId ? { sequenceType: "first" as const } : {}),
    });
  } catch (error) {
    await ctx.db.batch([...orderStatusStatements(ctx.db, order.id, "failed", ctx.now)]);
    throw providerUnavailable(error);
  }
  await insertPayment(
    ctx.db,
    {
      orderId: order.id,
      provider: ctx.provider.name,
      providerPaymentId: payment.id,
      status: "open",
      amountCents: payment.amount,
      currency: payment.currency,
      method,
      sequenceType: payment.sequenceType,
      checkoutUrl: payment.checkoutUrl,
    },
    ctx.now,
  );
  // A charge on a mandate has no checkout; its status may be known already.
  if (mandate) await settlePayment(ctx, payment.id);
  return { order: (await findOwnOrder(ctx.db, buyer.userId, order.id))!, checkoutUrl: payment.checkoutUrl };
}

export async function customerOf(ctx: PaymentContext, buyer: Buyer): Promise<string> {
  const known = await findCustomer(ctx.db, buyer.userId, ctx.provider.name);
  if (known) return known.customerId;
  const id = await ctx.provider.createCustomer({ name: buyer.name, email: buyer.email, locale: providerLocale(buyer.language, buyer.country ?? ctx.site.countries[0]!) });
  await saveCustomer(ctx.db, buyer.userId, ctx.provider.name, id);
  return (await findCustomer(ctx.db, buyer.userId, ctx.provider.name))!.customerId;
}

type Settlement = "unknown" | "unchanged" | "updated" | "credited";

/**
 * What the webhook does with a payment id: read the payment back from the provider and record its
 * status (only ever forward); a paid payment credits its order once and makes the member premium.
 * An id the app did not create, or an answer that does not match the order, changes nothing.
 */
export async function settlePayment(ctx: PaymentContext, providerPaymentId: string): Promise<Settlement> {
  const payment = await findPayment(ctx.db, ctx.provider.name, providerPaymentId);
  if (!payment) return "unknown";
  let actual: ProviderPayment | null;
  try {
    actual = await ctx.provider.getPayment(providerPaymentId);
  } catch (error) {
    throw providerUnavailable(error);
  }
  if (!actual || actual.id !== payment.providerPaymentId) return "unknown";
  if (actual.amount !== payment.amountCents || actual.currency !== payment.currency) {
    console.error(JSON.stringify({ event: "payment_mismatch", payment: payment.id, provider_amount: actual.amount, provider_currency: actual.currency }));
    return "unchanged";
  }
  const order = (await findOrder(ctx.db, payment.orderId))!;
  // Money the bank took back (a failed direct debit, or a chargeback on a paid payment) takes its credits back.
  const taken = actual.chargedBack || (order.paymentMethod === "directdebit" && ["failed", "canceled", "expired"].includes(actual.status));
  if (taken && order.creditedAt !== null && order.status !== "reversed") {
    await ctx.db.batch([paymentStatusStatement(ctx.db, payment.id, actual.status, ctx.now)]);
    await reverseOrder(ctx, order);
    ctx.balanceChanged?.(order.userId);
    return "updated";
  }
  if (statusRank(actual.status) <= statusRank(payment.status)) return "unchanged";
  const before = await balanceOf(ctx.db, order.userId);
  const results = await ctx.db.batch([paymentStatusStatement(ctx.db, payment.id, actual.status, ctx.now), ...orderStatusStatements(ctx.db, order.id, actual.status, ctx.now)]);
  const credited = actual.status === "paid" && results[1].meta.changes > 0;
  if (actual.status === "paid" && actual.sequenceType === "first" && actual.mandateId) {
    await saveMandate(ctx.db, order.userId, ctx.provider.name, actual.mandateId, actual.method);
  }
  if (credited) {
    console.info(JSON.stringify({ event: "order_credited", order: order.id, credits: order.credits }));
    if (before && !before.paid) await announcePremium(ctx.env, order.userId);
    ctx.balanceChanged?.(order.userId);
  }
  return credited ? "credited" : results[0].meta.changes > 0 ? "updated" : "unchanged";
}

/**
 * A payment the bank reversed: the unused credits go back (the ledger row in the same batch), the
 * order is marked reversed, and the member's direct debit is blocked (SPEC §8 "direct debit blocked").
 */
async function reverseOrder(ctx: PaymentContext, order: OrderRow): Promise<void> {
  await recallChatHolds(ctx.env, order.userId);
  // The take-back is refused when the member spent credits between reading the balance and the batch:
  // read it again and take what is left, so the bank's reversal is never left unrecorded.
  for (let attempt = 0; attempt < 3; attempt++) {
    const balance = (await balanceOf(ctx.db, order.userId))?.unheld ?? 0;
    const unused = Math.max(0, Math.min(balance, order.credits));
    const [taken] = await ctx.db.batch([...takeBackStatements(ctx.db, order, { credits: unused, cents: 0, reason: "reversal", now: ctx.now }), directDebitStatusStatement(ctx.db, order.userId, "blocked")]);
    if (taken.meta.changes > 0) {
      console.info(JSON.stringify({ event: "payment_reversed", order: order.id, credits_taken: unused }));
      return;
    }
    // Another take-back of this order came first (a repeated webhook, a refund): nothing left to do.
    if ((await findOrder(ctx.db, order.id))?.refundedAt !== null) return;
  }
  console.error(JSON.stringify({ event: "payment_reversal_refused", order: order.id }));
}

/**
 * Repeat last order (SPEC §2): the same bundle and method again; charged on the stored mandate when
 * the member has one, otherwise through a new checkout.
 */
export async function repeatOrder(ctx: PaymentContext, buyer: Buyer, expectedAmount?: number): Promise<{ order: OrderRow; checkoutUrl: string | null }> {
  const plan = await repeatPlan(ctx, buyer);
  if (!plan) throw new AppError({ status: 404, code: "no_previous_order", key: "payments.errors.no_previous_order" });
  const { chosen, price } = plan;
  checkExpectedAmount(price, expectedAmount);
  const customer = await findCustomer(ctx.db, buyer.userId, ctx.provider.name);
  let mandate: { customerId: string; mandateId: string } | null = null;
  if (customer?.mandateId) {
    try {
      const valid = await ctx.provider.validMandate(customer.customerId);
      if (valid) mandate = { customerId: customer.customerId, mandateId: valid.id };
    } catch (error) {
      throw providerUnavailable(error);
    }
  }
  return placeOrder(ctx, buyer, chosen, mandate, price);
}

/**
 * What repeating the member's last order buys and charges: the same bundle and method at the
 * bundle's price today, without a discount (decision 0026: a once-per-member code cannot be used
 * again, and a repeat states one price up front). Null without a previous order.
 */
export async function repeatPlan(ctx: Pick<PaymentContext, "db" | "site">, buyer: Pick<Buyer, "userId" | "country">): Promise<{ chosen: ReturnType<typeof offer>; price: OrderPrice } | null> {
  const last = (await latestPaidOrder(ctx.db, buyer.userId)) ?? (await latestOrder(ctx.db, buyer.userId));
  if (!last) return null;
  const chosen = offer(ctx, buyer.country, last.bundleId, last.paymentMethod);
  return { chosen, price: priceOf(chosen.pricing, chosen.bundle, null) };
}

/** The last moment (unix seconds) the credits of an order may be returned, or null before it is credited. */
export function refundUntil(order: Pick<OrderRow, "creditedAt">, refundDays: number): number | null {
  return order.creditedAt === null ? null : order.creditedAt + refundDays * DAY;
}

/**
 * Why an order's credits cannot be returned now, or null when they can (SPEC §1): only the latest
 * purchase, paid by a method that can be refunded, within refund_days of being credited, once.
 */
export function refundRefusal(order: OrderRow, latestPaidId: number | null, refundDays: number, now: number): AppError | null {
  if (order.status === "refunded" || order.status === "reversed") return new AppError({ status: 409, code: "already_refunded", key: "payments.errors.already_refunded" });
  if (order.creditedAt === null || order.paymentMethod === "directdebit") return new AppError({ status: 409, code: "not_refundable", key: "payments.errors.not_refundable" });
  if (latestPaidId !== order.id) return new AppError({ status: 409, code: "refund_latest_only", key: "payments.errors.refund_latest_only" });
  if (now > refundUntil(order, refundDays)!) return new AppError({ status: 409, code: "refund_too_late", key: "payments.errors.refund_too_late", values: { days: refundDays } });
  return null;
}

/**
 * Return the unused credits of the member's latest purchase (SPEC §1: within refund_days): the
 * credits and the ledger row in one step, then the refund at the provider of the matching part of
 * the price. If the provider refuses, the credits are given back.
 */
export async function refundOrder(ctx: PaymentContext, userId: number, orderId: number): Promise<OrderRow> {
  const order = await findOwnOrder(ctx.db, userId, orderId);
  if (!order) throw new AppError({ status: 404, code: "order_not_found", key: "payments.errors.order_not_found" });
  const refusal = refundRefusal(order, (await latestPaidOrder(ctx.db, userId))?.id ?? null, ctx.site.refund_days, ctx.now);
  if (refusal) throw refusal;
  await recallChatHolds(ctx.env, userId);
  const balance = (await balanceOf(ctx.db, userId))?.unheld ?? 0;
  const unused = Math.min(balance, order.credits);
  if (unused <= 0) throw new AppError({ status: 409, code: "credits_spent", key: "payments.errors.credits_spent" });
  const cents = Math.floor((order.amountCents * unused) / order.credits);
  const payment = await latestPaymentOf(ctx.db, order.id);
  if (!payment) throw new AppError({ status: 409, code: "not_refundable", key: "payments.errors.not_refundable" });
  // Refused (the credits were spent meanwhile, or another take-back came first): the batch changed nothing.
  const [taken] = await ctx.db.batch([...takeBackStatements(ctx.db, order, { credits: unused, cents, reason: "refund", now: ctx.now })]);
  if (taken.meta.changes === 0) throw await refundRefusedWhy(ctx, order, unused);
  try {
    await ctx.provider.refund(payment.providerPaymentId, { amount: cents, currency: order.currency, description: `${ctx.site.name} refund #${order.id}`, idempotencyKey: `refund-order-${order.id}` });
  } catch (error) {
    await ctx.db.batch([...undoRefundStatements(ctx.db, order, unused, ctx.now)]);
    if (error instanceof PaymentProviderError) throw providerUnavailable(error);
    throw error;
  }
  ctx.balanceChanged?.(userId);
  return (await findOwnOrder(ctx.db, userId, order.id))!;
}

/**
 * Why a refund's batch changed nothing: another take-back of the order came first, the credits were
 * spent meanwhile, or (the credits still there) a refund the provider refused before was given back.
 */
async function refundRefusedWhy(ctx: PaymentContext, order: OrderRow, credits: number): Promise<AppError> {
  const now = await findOrder(ctx.db, order.id);
  if (now && (now.status === "refunded" || now.status === "reversed")) return new AppError({ status: 409, code: "already_refunded", key: "payments.errors.already_refunded" });
  const left = (await balanceOf(ctx.db, order.userId))?.unheld ?? 0;
  if (left >= credits) return new AppError({ status: 409, code: "not_refundable", key: "payments.errors.not_refundable" });
  return new AppError({ status: 409, code: "credits_spent", key: "payments.errors.credits_spent" });
}

/** An order as the API answers it (GET /api/order.php, /api/transactions.php). */
export function orderView(order: OrderRow, payment: { providerPaymentId: string; sequenceType: string } | null): OrderView {
  return {
    id: order.id,
    status: order.status as OrderStatus,
    bundle_id: order.bundleId,
    credits: order.credits,
    amount: order.amountCents,
    vat: order.vatCents,
    discount: order.discountCents,
    discount_code: order.discountCode,
    currency: order.currency,
    method: order.paymentMethod,
    payment_id: payment?.providerPaymentId ?? null,
    recurring: payment?.sequenceType === "recurring",
    credited: order.creditedAt !== null,
    created_at: order.createdAt,
    refunded_credits: order.refundedCredits,
    refunded_amount: order.refundedCents,
    site: order.siteDomain,
  };
}
