/**
 * An order's price (issue 21): the bundle's price, the discount and the VAT, computed here and
 * nowhere else. Orders are created with it (services/payments.ts) and every screen that names a
 * price before the order exists shows it (GET /api/prices.php, GET /api/repeat-order.php).
 */
import { discountOf, type DiscountView } from "../../shared/discounts";
import { pricingFor, vatPart, type Bundle, type CountryPricing } from "../../shared/payments";
import type { OrderPrice } from "../../shared/payments-api";
import { AppError } from "../errors";
import {
  activeDiscountFor,
  checkCode,
  discountMisfit,
  type AppliedDiscount,
  type DiscountContext,
  type DiscountMember,
} from "./discounts";

/** The price of a bundle with a discount (or none): what is charged, and its VAT part (VAT is on the discounted price). */
export function priceOf(pricing: CountryPricing, bundle: Bundle, discount: DiscountView | null): OrderPrice {
  const off = discount ? discountOf(bundle.amount, discount.percentage) : 0;
  const amount = bundle.amount - off;
  return {
    bundle_id: bundle.id,
    credits: bundle.credits,
    price: bundle.amount,
    discount: off,
    discount_code: discount?.code ?? null,
    amount,
    vat: vatPart(amount, pricing.vat_rate),
    vat_rate: pricing.vat_rate,
    currency: pricing.currency,
  };
}

/** The order is refused when the screen showed another total than the server's price (a price that changed meanwhile). */
export function checkExpectedAmount(price: OrderPrice, expected: number | undefined): void {
  if (expected !== undefined && expected !== price.amount)
    throw new AppError({ status: 409, code: "price_changed", key: "order_price.price_changed" });
}

/**
 * The prices a member is shown: every bundle of their country (or the one asked for, with the method
 * when chosen), with the code asked for, else with their active offer. A code that does not apply
 * to a bundle leaves that bundle's price whole; the refusal says why (for one bundle, or a code that
 * does not apply at all).
 */
export async function quotePrices(
  ctx: DiscountContext,
  member: DiscountMember,
  query: { code?: string | undefined; bundleId?: number | undefined; method?: string | undefined },
): Promise<{ prices: OrderPrice[]; discount: DiscountView | null; refusal: AppError | null }> {
  const { pricing } = pricingFor(ctx.site.pricing, ctx.site.countries, member.country);
  const bundles =
    query.bundleId === undefined ? pricing.bundles : pricing.bundles.filter((b) => b.id === query.bundleId);
  if (!bundles.length)
    throw new AppError({
      status: 404,
      code: "bundle_not_found",
      key: "payments.errors.bundle_not_found",
      field: "bundle_id",
    });
  const code = query.code?.trim() || activeDiscountFor(ctx.site, member, ctx.now)?.code || null;
  let found: AppliedDiscount | null = null;
  let refusal: AppError | null = null;
  if (code) {
    try {
      found = await checkCode(ctx, member, code);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refusal = error;
    }
  }
  const prices = bundles.map((bundle) => {
    const misfit = found
      ? discountMisfit(ctx.site, member, found.view, { bundle, ...(query.method ? { method: query.method } : {}) })
      : null;
    if (misfit && query.bundleId !== undefined) refusal = misfit;
    return priceOf(pricing, bundle, found && !misfit ? found.view : null);
  });
  return { prices, discount: found && prices.some((p) => p.discount > 0) ? found.view : null, refusal };
}
