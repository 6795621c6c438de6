/**
 * Orders, payments and credits (SPEC §1, §4): a member orders a bundle of their country's price list,
 * pays at the provider, and is credited once when the provider (read back, never the browser or the
 * webhook's body) says the payment is paid. The first paid order makes the member premium.
 */
import {
  canSaveMethod,
  methodPaysIn,
  PAYMENT_STATUSES,
  pricingFor,
  statusRank,
  type Bundle,
  type CountryPricing,
  type OrderStatus,
  type PaymentMethod,
} from "../../shared/payments";
import type { OrderPrice, OrderView } from "../../shared/payments-api";
import type { SiteSettings } from "../../shared/settings";
import { showPremiumInChats, recallChatHolds } from "./premium";
import type { Database } from "../db/database";
import { balanceOf } from "../db/ledger";
import {
  creditStatements,
  findOrder,
  findOwnOrder,
  insertOrder,
  insertOrderHolding,
  latestOrder,
  latestPaidOrder,
  orderStatusStatements,
  takeBackStatements,
  type OrderRow,
} from "../db/orders";
import {
  findCustomer,
  findPayment,
  insertPayment,
  latestPaymentOf,
  paidMethodStatements,
  paymentStatusStatement,
  providerStatusStatement,
  saveCustomer,
  saveMandate,
} from "../db/payments";
import { directDebitStatusStatement, findDirectDebitAccount } from "../db/direct-debit";
import { AppError } from "../errors";
import { i18nFor } from "../translations";
import { DEFAULT_LANGUAGE, isLanguage } from "../../shared/locales";
import { checkDiscount, holdFor, holdRefusal, type AppliedDiscount } from "./discounts";
import { checkExpectedAmount, priceOf } from "./order-price";
import {
  PaymentProviderError,
  providerLocale,
  type BillingAddress,
  type NewPayment,
  type PaymentProvider,
  type ProviderPayment,
} from "../payments/provider";
import { reconcileChargebacks, reconcileRefunds } from "./payment-adjustments";

export type PaymentContext = {
  db: Database;
  env: Pick<Env, "DB" | "CONVERSATIONS">;
  provider: PaymentProvider;
  site: SiteSettings;
  /** The site's public address (its `public_url` setting): redirect and webhook URLs are on it, whatever host a request came in on. */
  origin: string;
  /** Unix seconds. */
  now: number;
  /** Told after a member's balance changed and is stored (their open pages show it); runs off the reply's path. */
  balanceChanged?: (userId: number) => void;
};

export type Buyer = {
  userId: number;
  language: string;
  country: string | null;
  email: string;
  name: string;
  paid: boolean;
  /** Unix seconds. */ signupDate: number;
};

export const WEBHOOK_PATH = "/api/payment-webhook.php";

/** Where the provider sends the member back: the order's own page, which follows its status. */
export const returnPath = (order: Pick<OrderRow, "id" | "bundleId" | "paymentMethod">) =>
  `/credits/${order.bundleId}/${order.paymentMethod}?order=${order.id}`;

function offer(
  ctx: Pick<PaymentContext, "site">,
  country: string | null,
  bundleId: number,
  method: string,
): { pricing: CountryPricing; country: string; bundle: Bundle; method: PaymentMethod } {
  const { pricing, country: priceCountry } = pricingFor(ctx.site.pricing, ctx.site.countries, country);
  const bundle = pricing.bundles.find((b) => b.id === bundleId);
  if (!bundle)
    throw new AppError({
      status: 404,
      code: "bundle_not_found",
      key: "payments.errors.bundle_not_found",
      field: "bundle_id",
    });
  // A method the site lists but that cannot pay in the country's currency (iDEAL in kroner) is not offered.
  if (
    !(pricing.methods as readonly string[]).includes(method) ||
    method === "directdebit" ||
    !methodPaysIn(method, pricing.currency)
  ) {
    throw new AppError({
      status: 400,
      code: "method_not_offered",
      key: "payments.errors.method_not_offered",
      field: "method",
    });
  }
  return { pricing, country: priceCountry, bundle, method: method as PaymentMethod };
}

export function providerUnavailable(error: unknown): AppError {
  console.error(
    JSON.stringify({
      event: "payment_provider_failed",
      message: error instanceof Error ? error.message : String(error),
    }),
  );
  return new AppError({
    status: 502,
    code: "payment_provider_unavailable",
    key: "payments.errors.provider_unavailable",
  });
}

/**
 * Create an order for a bundle and its payment at the provider. Amounts come from the site's
 * settings only. Answers the order and where the member pays (null for a charge on a mandate).
 */
export async function createOrder(
  ctx: PaymentContext,
  buyer: Buyer,
  input: {
    bundleId: number;
    method: string;
    discountCode?: string | undefined;
    expectedAmount?: number | undefined;
    saveMethod?: boolean | undefined;
  },
): Promise<{ order: OrderRow; checkoutUrl: string | null }> {
  const chosen = offer(ctx, buyer.country, input.bundleId, input.method);
  // The discount comes from the code alone, checked against this bundle and method; never from the request's numbers.
  const discount = input.discountCode?.trim()
    ? await checkDiscount(ctx, buyer, input.discountCode, { bundle: chosen.bundle, method: chosen.method })
    : null;
  const price = priceOf(chosen.pricing, chosen.bundle, discount?.view ?? null);
  checkExpectedAmount(price, input.expectedAmount);
  return placeOrder(ctx, buyer, chosen, null, price, discount, input.saveMethod === true);
}

/**
 * Klarna's names: more than one character and not only digits; Mollie answers 422 to anything else
 * (https://docs.mollie.com/reference/create-payment `billingAddress`, and Klarna's own rule:
 * https://docs.klarna.com/klarna-payments/in-depth-knowledge/customer-data-requirements).
 */
const klarnaName = (name: string) => name.length >= 2 && !/^\d+$/.test(name);

/** The account holder's name as Klarna's given and family name, or null when Klarna would refuse it. */
export function klarnaNamesOf(holder: string): { givenName: string; familyName: string } | null {
  const [givenName = "", ...rest] = holder.trim().split(/\s+/);
  const familyName = rest.join(" ") || givenName;
  return klarnaName(givenName) && klarnaName(familyName) ? { givenName, familyName } : null;
}

/**
 * Klarna needs the payer's billing address (docs.mollie.com/reference/create-payment); the only one
 * the app knows is the one a member gave for direct debit. Without it, or with a name Klarna would
 * refuse, Klarna is not offered.
 */
export async function billingAddressOf(
  ctx: PaymentContext,
  buyer: Buyer,
  country: string,
): Promise<BillingAddress | null> {
  const account = await findDirectDebitAccount(ctx.db, buyer.userId);
  const names = account ? klarnaNamesOf(account.accountHolder) : null;
  if (!account || !names) return null;
  return {
    ...names,
    email: buyer.email,
    streetAndNumber: `${account.street} ${account.houseNumber}`,
    postalCode: account.postalCode,
    city: account.city,
    country,
  };
}

type Mandate = { customerId: string; mandateId: string };

/**
 * The payment as Mollie is asked for it: a recurring charge on a mandate carries no method (the
 * mandate decides: an iDEAL first payment leaves a direct-debit mandate); a first payment (a
 * customer, sequenceType first) only when the member asked to save a method that can; anything
 * else is a plain one-off payment without a customer.
 */
async function paymentRequest(
  ctx: PaymentContext,
  buyer: Buyer,
  order: OrderRow,
  chosen: ReturnType<typeof offer>,
  mandate: Mandate | null,
  saveMethod: boolean,
): Promise<NewPayment> {
  // What the checkout and the bank statement show, in the member's language.
  const { t } = i18nFor(isLanguage(buyer.language) ? buyer.language : DEFAULT_LANGUAGE, chosen.country);
  const credits = t("payments.credits_count", { count: order.credits });
  const base = {
    amount: order.amountCents,
    currency: order.currency,
    description: `${ctx.site.name} ${credits} #${order.id}`,
    redirectUrl: ctx.origin + returnPath(order),
    webhookUrl: ctx.origin + WEBHOOK_PATH,
    locale: providerLocale(buyer.language, chosen.country),
    metadata: { order_id: order.id, order_key: order.idempotencyKey! },
    idempotencyKey: order.idempotencyKey!,
  };
  if (mandate)
    return {
      ...base,
      method: null,
      customerId: mandate.customerId,
      sequenceType: "recurring",
      mandateId: mandate.mandateId,
    };
  const method = chosen.method;
  const klarna =
    method === "klarna"
      ? {
          lines: [
            {
              description: credits,
              quantity: 1,
              unitPrice: order.amountCents,
              totalAmount: order.amountCents,
              vatRate: chosen.pricing.vat_rate.toFixed(2),
              vatAmount: order.vatCents,
            },
          ],
          billingAddress: (await billingAddressOf(ctx, buyer, chosen.country))!,
        }
      : {};
  if (saveMethod && canSaveMethod(method, order.currency))
    return { ...base, ...klarna, method, customerId: await customerOf(ctx, buyer), sequenceType: "first" };
  return { ...base, ...klarna, method };
}

async function placeOrder(
  ctx: PaymentContext,
  buyer: Buyer,
  chosen: ReturnType<typeof offer>,
  mandate: Mandate | null,
  price: OrderPrice,
  discount: AppliedDiscount | null = null,
  saveMethod = false,
): Promise<{ order: OrderRow; checkoutUrl: string | null }> {
  const { bundle, method } = chosen;
  if (method === "klarna" && !mandate && !(await billingAddressOf(ctx, buyer, chosen.country))) {
    // A name Klarna refuses is told as such: the member can correct it, or choose another method.
    if (await findDirectDebitAccount(ctx.db, buyer.userId))
      throw new AppError({
        status: 400,
        code: "billing_name_too_short",
        key: "payments.errors.billing_name_too_short",
        field: "method",
      });
    throw new AppError({
      status: 400,
      code: "method_not_offered",
      key: "payments.errors.method_not_offered",
      field: "method",
    });
  }
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
    // One key per attempt, kept with it: two deployments or a retried order never share one.
    idempotencyKey: crypto.randomUUID(),
    country: chosen.country,
  };
  const order = hold ? await insertOrderHolding(ctx.db, row, ctx.now, hold) : await insertOrder(ctx.db, row, ctx.now);
  // Another order took the code between the check and this one's batch: nothing was made.
  if (!order) throw await holdRefusal(ctx, buyer.userId, discount!);
  let request: NewPayment;
  try {
    request = await paymentRequest(ctx, buyer, order, chosen, mandate, saveMethod);
  } catch (error) {
    // No payment was asked for (the customer could not be made): nothing can have been charged.
    await ctx.db.batch([...orderStatusStatements(ctx.db, order.id, "failed", ctx.now)]);
    throw providerUnavailable(error);
  }
  let payment: ProviderPayment;
  try {
    payment = await ctx.provider.createPayment(request);
  } catch (error) {
    await createUnanswered(ctx, order, error);
    // A charge on a mandate may have been made: the member follows the order, being confirmed.
    if (mandate) return { order: (await findOwnOrder(ctx.db, buyer.userId, order.id))!, checkoutUrl: null };
    // A checkout nobody was sent to charges nothing; the order is settled when its payment is found.
    throw new AppError({ status: 502, code: "payment_unanswered", key: "payments.errors.provider_unanswered" });
  }
  await recordPayment(ctx, order.id, payment, payment.method ?? (mandate ? null : method));
  // A charge on a mandate has no checkout; its status may be known already.
  if (mandate) await settlePayment(ctx, payment.id);
  return { order: (await findOwnOrder(ctx.db, buyer.userId, order.id))!, checkoutUrl: payment.checkoutUrl };
}

/**
 * A create that failed: refused by the provider (a 4xx that means "not done"), the order failed;
 * otherwise (no answer after the adapter's repeats, a 5xx, a 409) it may have been made, so the order
 * waits as pending without a payment until the webhook or the clock finds the payment by the order id
 * in its metadata (settlePayment, settleUnansweredOrders). Throws the refusal; returns otherwise.
 */
export async function createUnanswered(ctx: PaymentContext, order: OrderRow, error: unknown): Promise<void> {
  if (!(error instanceof PaymentProviderError) || error.refused) {
    await ctx.db.batch([...orderStatusStatements(ctx.db, order.id, "failed", ctx.now)]);
    throw providerUnavailable(error);
  }
  await ctx.db.batch([...orderStatusStatements(ctx.db, order.id, "pending", ctx.now)]);
  console.warn(
    JSON.stringify({
      event: "payment_create_unanswered",
      order: order.id,
      status: error.status,
      message: error.message,
    }),
  );
}

/** The payment the provider answered (or was found), recorded for its order at once; a repeat finds the same row. */
export function recordPayment(ctx: PaymentContext, orderId: number, payment: ProviderPayment, method: string | null) {
  return insertPayment(
    ctx.db,
    {
      orderId,
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
}

/** The member's customer at the provider, in the provider's mode (a test key's customers are not a live key's). */
export async function customerOf(ctx: PaymentContext, buyer: Buyer): Promise<string> {
  const scope = ctx.provider.customerScope;
  const known = await findCustomer(ctx.db, buyer.userId, scope);
  if (known) return known.customerId;
  const id = await ctx.provider.createCustomer({
    name: buyer.name,
    email: buyer.email,
    locale: providerLocale(buyer.language, buyer.country ?? ctx.site.countries[0]!),
  });
  await saveCustomer(ctx.db, buyer.userId, scope, id);
  return (await findCustomer(ctx.db, buyer.userId, scope))!.customerId;
}

const isKnownStatus = (status: string): status is (typeof PAYMENT_STATUSES)[number] =>
  (PAYMENT_STATUSES as readonly string[]).includes(status);

type Settlement = "unknown" | "unchanged" | "updated" | "credited";

/**
 * What the webhook does with a payment id: read the payment back from the provider and record its
 * status (only ever forward); a paid payment credits its order once and makes the member premium.
 * An id the app did not create, or an answer that does not match the order, changes nothing.
 */
export async function settlePayment(ctx: PaymentContext, providerPaymentId: string): Promise<Settlement> {
  let payment = await findPayment(ctx.db, ctx.provider.name, providerPaymentId);
  let actual = await readPayment(ctx, providerPaymentId);
  if (!actual) return "unknown";
  // A payment the app has no record of may be one whose create got no answer: found by its order.
  payment ??= await adoptPayment(ctx, actual);
  if (!payment || actual.id !== payment.providerPaymentId) return "unknown";
  if (actual.amount !== payment.amountCents || actual.currency !== payment.currency) {
    console.error(
      JSON.stringify({
        event: "payment_mismatch",
        payment: payment.id,
        provider_amount: actual.amount,
        provider_currency: actual.currency,
      }),
    );
    return "unchanged";
  }
  const order = (await findOrder(ctx.db, payment.orderId))!;
  // Klarna is authorised, then collected by the merchant (the only flow Mollie has for it:
  // https://docs.mollie.com/docs/place-a-hold-for-a-payment); the credits are digital and given at
  // once, so an authorised Klarna payment is captured here and read again.
  if (actual.status === "authorized" && (actual.method ?? order.paymentMethod) === "klarna" && !order.creditedAt) {
    try {
      await ctx.provider.capturePayment(actual.id, {
        idempotencyKey: `${order.idempotencyKey ?? `order-${order.id}`}-capture`,
        description: `${ctx.site.name} #${order.id}`,
      });
    } catch (error) {
      if (!(error instanceof PaymentProviderError) || !error.refused) throw providerUnavailable(error);
      console.error(JSON.stringify({ event: "payment_capture_refused", order: order.id, message: error.message }));
    }
    actual = (await readPayment(ctx, providerPaymentId)) ?? actual;
  }
  // A direct debit found after its create went unanswered is credited as confirmDirectDebit credits:
  // at once, while the bank collects.
  if (
    order.paymentMethod === "directdebit" &&
    order.creditedAt === null &&
    ["open", "pending", "authorized", "paid"].includes(actual.status)
  ) {
    const before = await balanceOf(ctx.db, order.userId);
    const results = await ctx.db.batch([
      paymentStatusStatement(ctx.db, payment.id, actual.status, ctx.now),
      ...creditStatements(ctx.db, order.id, ctx.now),
      ...orderStatusStatements(ctx.db, order.id, actual.status, ctx.now),
    ]);
    if (results[1].meta.changes === 0) return "unchanged";
    console.info(JSON.stringify({ event: "order_credited", order: order.id, credits: order.credits }));
    if (before && !before.paid) await showPremiumInChats(ctx.env, order.userId);
    ctx.balanceChanged?.(order.userId);
    return "credited";
  }
  if (!isKnownStatus(actual.status)) {
    // Recorded and answered 200: an error here would make the provider retry for a day for nothing.
    await ctx.db.batch([providerStatusStatement(ctx.db, payment.id, actual.status, ctx.now)]);
    console.warn(JSON.stringify({ event: "payment_status_unknown", payment: payment.id, status: actual.status }));
    return "unchanged";
  }
  // A direct debit the bank did not collect takes back the credits granted at once.
  if (
    order.paymentMethod === "directdebit" &&
    ["failed", "canceled", "expired"].includes(actual.status) &&
    order.creditedAt !== null &&
    order.status !== "reversed"
  ) {
    await ctx.db.batch([paymentStatusStatement(ctx.db, payment.id, actual.status, ctx.now)]);
    await reverseOrder(ctx, order);
    ctx.balanceChanged?.(order.userId);
    return "updated";
  }
  let settlement: Settlement = "unchanged";
  if (statusRank(actual.status) > statusRank(payment.status)) {
    const before = await balanceOf(ctx.db, order.userId);
    const results = await ctx.db.batch([
      paymentStatusStatement(ctx.db, payment.id, actual.status, ctx.now),
      ...orderStatusStatements(ctx.db, order.id, actual.status, ctx.now),
      // The method the member paid with at the provider, which may not be the one chosen here.
      ...(actual.method
        ? paidMethodStatements(
            ctx.db,
            { orderId: order.id, orderMethod: order.paidMethod, paymentId: payment.id, paymentMethod: payment.method },
            actual.method,
          )
        : []),
    ]);
    const credited = actual.status === "paid" && results[1].meta.changes > 0;
    if (actual.status === "paid" && actual.sequenceType === "first" && actual.mandateId) {
      await saveMandate(ctx.db, order.userId, ctx.provider.customerScope, actual.mandateId, actual.method);
    }
    if (credited) {
      console.info(JSON.stringify({ event: "order_credited", order: order.id, credits: order.credits }));
      if (before && !before.paid) await showPremiumInChats(ctx.env, order.userId);
      ctx.balanceChanged?.(order.userId);
    }
    settlement = credited ? "credited" : results[0].meta.changes > 0 ? "updated" : "unchanged";
  }
  // Refunds and chargebacks, the app's own or made in the dashboard or by the bank, are news of the
  // payment: Mollie calls the payment's webhook for them (docs.mollie.com/reference/webhooks). Only
  // looked up when the payment links any, so crediting costs no extra call.
  if (order.creditedAt !== null) {
    const changes = await Promise.all([
      actual.hasRefunds || order.status === "refunded"
        ? reconcileRefunds(ctx, order, payment.providerPaymentId)
        : false,
      actual.hasChargebacks || order.status === "reversed"
        ? reconcileChargebacks(ctx, order, payment.providerPaymentId)
        : false,
    ]).catch((error: unknown) => {
      // The lists could not be read: answered 502 so the provider calls again.
      if (error instanceof PaymentProviderError) throw providerUnavailable(error);
      throw error;
    });
    if (changes.some(Boolean)) {
      ctx.balanceChanged?.(order.userId);
      if (settlement === "unchanged") settlement = "updated";
    }
  }
  return settlement;
}

async function readPayment(ctx: PaymentContext, providerPaymentId: string): Promise<ProviderPayment | null> {
  try {
    return await ctx.provider.getPayment(providerPaymentId);
  } catch (error) {
    // Answered 502: the provider calls the webhook again.
    throw providerUnavailable(error);
  }
}

/**
 * The record of a payment the app made but never heard back about: its metadata names the order
 * and its attempt's key (`order_id`, `order_key`, sent with every create); the amount and currency
 * must match, and the order must have no other payment. Only the provider, read back with our key, says this; the webhook's body
 * says nothing but the id. Concurrent calls record it once (the payment's provider id is unique).
 */
async function adoptPayment(ctx: PaymentContext, actual: ProviderPayment) {
  const orderId = Number(actual.metadata?.["order_id"]);
  if (!Number.isSafeInteger(orderId) || orderId <= 0) return null;
  const order = await findOrder(ctx.db, orderId);
  if (
    !order?.idempotencyKey ||
    actual.metadata?.["order_key"] !== order.idempotencyKey ||
    order.amountCents !== actual.amount ||
    order.currency !== actual.currency
  )
    return null;
  const known = await latestPaymentOf(ctx.db, order.id);
  if (known) return known.providerPaymentId === actual.id ? known : null;
  const row = await recordPayment(
    ctx,
    order.id,
    actual,
    actual.method ?? (actual.sequenceType === "recurring" ? null : order.paymentMethod),
  );
  console.info(JSON.stringify({ event: "payment_found", order: order.id, payment: actual.id }));
  return row.orderId === order.id ? row : null;
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
    const [taken] = await ctx.db.batch([
      ...takeBackStatements(ctx.db, order, { credits: unused, cents: 0, reason: "reversal", now: ctx.now }),
      directDebitStatusStatement(ctx.db, order.userId, "blocked"),
    ]);
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
 * Repeat last order (SPEC §2): the same bundle again; charged on the member's valid mandate as a
 * recurring payment without a method (whatever method made the mandate), otherwise a new checkout
 * with the same method.
 */
export async function repeatOrder(
  ctx: PaymentContext,
  buyer: Buyer,
  expectedAmount?: number,
): Promise<{ order: OrderRow; checkoutUrl: string | null }> {
  const plan = await repeatPlan(ctx, buyer);
  if (!plan) throw new AppError({ status: 404, code: "no_previous_order", key: "payments.errors.no_previous_order" });
  const { chosen, price } = plan;
  checkExpectedAmount(price, expectedAmount);
  const customer = await findCustomer(ctx.db, buyer.userId, ctx.provider.customerScope);
  let mandate: Mandate | null = null;
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
export async function repeatPlan(
  ctx: Pick<PaymentContext, "db" | "site">,
  buyer: Pick<Buyer, "userId" | "country">,
): Promise<{ chosen: ReturnType<typeof offer>; price: OrderPrice } | null> {
  const last = (await latestPaidOrder(ctx.db, buyer.userId)) ?? (await latestOrder(ctx.db, buyer.userId));
  if (!last) return null;
  const chosen = offer(ctx, buyer.country, last.bundleId, last.paymentMethod);
  return { chosen, price: priceOf(chosen.pricing, chosen.bundle, null) };
}

/** An order as the API answers it (GET /api/order.php, /api/transactions.php). */
export function orderView(
  order: OrderRow,
  payment: { providerPaymentId: string; sequenceType: string } | null,
): OrderView {
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
    paid_method: order.paidMethod,
    payment_id: payment?.providerPaymentId ?? null,
    recurring: payment?.sequenceType === "recurring",
    credited: order.creditedAt !== null,
    confirming:
      payment === null && order.creditedAt === null && (order.status === "pending" || order.status === "open"),
    created_at: order.createdAt,
    refunded_credits: order.refundedCredits,
    refunded_amount: order.refundedCents,
    site: order.siteDomain,
  };
}
