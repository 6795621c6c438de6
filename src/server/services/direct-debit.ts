/**
 * Direct debit (SPEC §3, §5, §8): the member authorises their bank account, confirms it with a
 * 6-digit SMS code, and gets the credits at once while the debit is collected, up to an outstanding
 * limit. A reversed debit takes back the unused credits and blocks the member's direct debit.
 */
import type { Translate } from "../../shared/translator";
import { pricingFor } from "../../shared/payments";
import { SMS_CODE_TRIES, SMS_CODE_TTL_SECONDS, SMS_CODES_PER_HOUR } from "../../shared/direct-debit";
import {
  creditStatements,
  findOrder,
  insertOrder,
  orderStatusStatements,
  outstandingDirectDebitCredits,
  type OrderRow,
} from "../db/orders";
import {
  countWrongTry,
  directDebitStatusStatement,
  findDirectDebitAccount,
  insertSmsCode,
  latestSmsCode,
  saveDirectDebitAccount,
  smsCodesSince,
  spendSmsCodeStatement,
} from "../db/direct-debit";
import { paymentStatusStatement } from "../db/payments";
import { showPremiumInChats } from "./premium";
import { AppError } from "../errors";
import { mobileNumberOf } from "../sms/phone-numbers";
import { SmsRefused, smsSenderName, type SmsSender } from "../sms/sms";
import { providerLocale, type ProviderPayment } from "../payments/provider";
import { priceOf } from "./order-price";
import {
  createUnanswered,
  customerOf,
  recordPayment,
  providerUnavailable,
  returnPath,
  WEBHOOK_PATH,
  type Buyer,
  type PaymentContext,
} from "./payments";

const PURPOSE = "directdebit";

type DirectDebitForm = {
  bundleId: number;
  accountHolder: string;
  iban: string;
  street: string;
  houseNumber: string;
  postalCode: string;
  city: string;
  mobile: string;
};

/** The bundle bought by direct debit, if the site offers direct debit to this member and the limit allows it. */
async function directDebitOffer(ctx: PaymentContext, buyer: Buyer, bundleId: number) {
  const { pricing, country } = pricingFor(ctx.site.pricing, ctx.site.countries, buyer.country);
  if (!ctx.site.direct_debit || !pricing.methods.includes("directdebit"))
    throw new AppError({
      status: 400,
      code: "method_not_offered",
      key: "payments.errors.method_not_offered",
      field: "method",
    });
  const bundle = pricing.bundles.find((b) => b.id === bundleId);
  if (!bundle)
    throw new AppError({
      status: 404,
      code: "bundle_not_found",
      key: "payments.errors.bundle_not_found",
      field: "bundle_id",
    });
  if ((await findDirectDebitAccount(ctx.db, buyer.userId))?.status === "blocked")
    throw new AppError({ status: 403, code: "direct_debit_blocked", key: "payments.dd.blocked" });
  const outstanding = await outstandingDirectDebitCredits(ctx.db, buyer.userId);
  if (outstanding + bundle.credits > ctx.site.direct_debit.outstanding_limit_credits)
    throw new AppError({ status: 409, code: "limit_reached", key: "payments.dd.limit_reached" });
  return { pricing, country, bundle };
}

/** What the SMS code step needs beyond a payment: the Worker's secret the codes' hashes are keyed with. */
type CodeContext = PaymentContext & { env: PaymentContext["env"] & Pick<Env, "SESSION_SECRET"> };

/**
 * The stored form of a code: an HMAC-SHA256 keyed with the Worker's secret, of the member and the
 * code. A plain hash of six digits is undone by trying the million codes; without the secret, a copy
 * of the database does not tell the codes.
 */
async function hashCode(secret: string, userId: number, code: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(`sms-code:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${userId}:${code}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The order's SEPA mandate reference: unique (the order id is never reused, decision 0048, and eight
 * random characters keep deployments apart), at most 35 characters of the SEPA set, as banks need
 * it ("some banks decline a Direct Debit payment if the mandateReference is not unique":
 * https://docs.mollie.com/reference/create-mandate).
 */
export function mandateReferenceOf(order: Pick<OrderRow, "id">): string {
  const random = [...crypto.getRandomValues(new Uint8Array(4))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `FW-${order.id.toString(36).toUpperCase()}-${random.toUpperCase()}`;
}

function newCode(): string {
  const [n] = crypto.getRandomValues(new Uint32Array(1));
  return String(n! % 1_000_000).padStart(6, "0");
}

/** Save the account the member authorises and text them a code (at most SMS_CODES_PER_HOUR an hour). */
export async function requestDirectDebit(
  ctx: CodeContext,
  sms: SmsSender,
  t: Translate,
  buyer: Buyer,
  form: DirectDebitForm,
): Promise<{ expires_at: number }> {
  const { country } = await directDebitOffer(ctx, buyer, form.bundleId);
  // Before anything is kept or counted: a number that cannot be texted is the member's typing error.
  const mobile = mobileNumberOf(form.mobile, country);
  if ((await smsCodesSince(ctx.db, buyer.userId, ctx.now - 3600)) >= SMS_CODES_PER_HOUR)
    throw new AppError({ status: 429, code: "too_many_codes", key: "payments.dd.too_many_codes" });
  await saveDirectDebitAccount(ctx.db, buyer.userId, {
    accountHolder: form.accountHolder,
    iban: form.iban,
    street: form.street,
    houseNumber: form.houseNumber,
    postalCode: form.postalCode,
    city: form.city,
    mobile: mobile.e164,
  });
  const code = newCode();
  const expiresAt = ctx.now + SMS_CODE_TTL_SECONDS;
  await insertSmsCode(ctx.db, {
    userId: buyer.userId,
    purpose: PURPOSE,
    codeHash: await hashCode(ctx.env.SESSION_SECRET, buyer.userId, code),
    expiresAt,
    now: ctx.now,
  });
  try {
    await sms.send(
      { to: mobile, text: t("payments.dd.sms_text", { code, site: ctx.site.name }), from: smsSenderName(ctx.site) },
      ctx.now,
    );
  } catch (error) {
    if (!(error instanceof SmsRefused) && !(error instanceof TypeError) && !(error instanceof DOMException))
      throw error;
    console.error(JSON.stringify({ event: "sms_provider_failed", country: mobile.country, message: error.message }));
    throw new AppError({ status: 502, code: "sms_unavailable", key: "sms.unavailable" });
  }
  return { expires_at: expiresAt };
}

/**
 * Check the SMS code ("Code not found", "Code already used", "Code invalid"); a right one activates
 * the account, creates the order and its debit at the provider, and credits it at once.
 */
export async function confirmDirectDebit(
  ctx: CodeContext,
  buyer: Buyer,
  input: { bundleId: number; code: string },
): Promise<OrderRow> {
  const { pricing, country, bundle } = await directDebitOffer(ctx, buyer, input.bundleId);
  const code = await latestSmsCode(ctx.db, buyer.userId, PURPOSE, ctx.now);
  if (!code)
    throw new AppError({ status: 404, code: "code_not_found", key: "payments.dd.code_not_found", field: "code" });
  if (code.usedAt !== null)
    throw new AppError({ status: 409, code: "code_used", key: "payments.dd.code_used", field: "code" });
  const hash = await hashCode(ctx.env.SESSION_SECRET, buyer.userId, input.code);
  if (code.attempts >= SMS_CODE_TRIES || hash !== code.codeHash) {
    await countWrongTry(ctx.db, code.id, SMS_CODE_TRIES);
    throw new AppError({ status: 400, code: "code_invalid", key: "payments.dd.code_invalid", field: "code" });
  }
  const [used] = await ctx.db.batch([
    spendSmsCodeStatement(ctx.db, { id: code.id, codeHash: hash, limit: SMS_CODE_TRIES, now: ctx.now }),
    directDebitStatusStatement(ctx.db, buyer.userId, "active"),
  ]);
  if (used.meta.changes === 0)
    throw new AppError({ status: 409, code: "code_used", key: "payments.dd.code_used", field: "code" });
  const account = (await findDirectDebitAccount(ctx.db, buyer.userId))!;

  // Direct debit takes no discount code: the bundle's full price, computed as every order's is.
  const price = priceOf(pricing, bundle, null);
  const order = await insertOrder(
    ctx.db,
    {
      userId: buyer.userId,
      siteDomain: ctx.site.domain,
      bundleId: bundle.id,
      credits: price.credits,
      amountCents: price.amount,
      vatCents: price.vat,
      currency: price.currency,
      paymentMethod: "directdebit",
      idempotencyKey: crypto.randomUUID(),
      country,
    },
    ctx.now,
  );
  let customerId: string;
  let mandateId: string;
  try {
    customerId = await customerOf(ctx, buyer);
    mandateId = await ctx.provider.createDirectDebitMandate(customerId, {
      consumerName: account.accountHolder,
      iban: account.iban,
      mandateReference: mandateReferenceOf(order),
    });
  } catch (error) {
    // No debit was asked for: nothing can have been charged.
    await ctx.db.batch([...orderStatusStatements(ctx.db, order.id, "failed", ctx.now)]);
    throw providerUnavailable(error);
  }
  let payment: ProviderPayment;
  try {
    payment = await ctx.provider.createPayment({
      amount: order.amountCents,
      currency: order.currency,
      description: `${ctx.site.name} ${order.credits} credits #${order.id}`,
      redirectUrl: ctx.origin + returnPath(order),
      webhookUrl: ctx.origin + WEBHOOK_PATH,
      method: "directdebit",
      locale: providerLocale(buyer.language, country),
      metadata: { order_id: order.id, order_key: order.idempotencyKey! },
      idempotencyKey: order.idempotencyKey!,
      customerId,
      sequenceType: "recurring",
      mandateId,
    });
  } catch (error) {
    // A recurring charge "gets executed immediately" (docs.mollie.com/reference/api-idempotency): one
    // whose answer was lost may have been made. The order waits, being confirmed, until the webhook or
    // the clock finds it (and credits it then); only a refusal fails it.
    await createUnanswered(ctx, order, error);
    return (await findOrder(ctx.db, order.id))!;
  }
  const row = await recordPayment(ctx, order.id, { ...payment, checkoutUrl: null }, "directdebit");
  // Granted at once: the debit is collected later, and a reversal takes the credits back.
  const [, ledger] = await ctx.db.batch([
    paymentStatusStatement(ctx.db, row.id, payment.status, ctx.now),
    ...creditStatements(ctx.db, order.id, ctx.now),
    ...orderStatusStatements(ctx.db, order.id, payment.status, ctx.now),
  ]);
  // A webhook may have credited it first (settlePayment); then it told the member already.
  if (ledger.meta.changes === 0) return order;
  if (!buyer.paid) await showPremiumInChats(ctx.env, buyer.userId);
  ctx.balanceChanged?.(buyer.userId);
  return order;
}
