/**
 * GET /api/discountcode.php (SPEC §7): `?code=` checks a code the member typed (with `bundle_id` and
 * `method` when the order is known) and answers the discount; `?welcome=true` answers the welcome
 * discount and the time bonus when the member has it. Refusals carry their text (SPEC §8).
 */
import type { Context } from "hono";
import type { User } from "../../shared/api";
import type { DiscountResponse } from "../../shared/discounts";
import { DiscountQuery } from "../../shared/discounts";
import { pricingFor } from "../../shared/payments";
import type { SiteSettings } from "../../shared/settings";
import { PricesQuery, type PricesResponse } from "../../shared/payments-api";
import { quotePrices } from "../services/order-price";
import type { AppEnv } from "../request-context";
import { requireMember } from "../edge/signed-in-member";
import { AppError } from "../errors";
import {
  checkDiscount,
  timeBonusFor,
  welcomeDiscountFor,
  type DiscountContext,
  type DiscountMember,
} from "../services/discounts";
import { getUserView } from "../services/users";
import { parseQuery } from "./query";
import { selectedCountry } from "./settings";

async function discountMember(c: Context<AppEnv>): Promise<DiscountMember> {
  const { userId } = requireMember(c);
  const user = await getUserView(c.get("db"), userId);
  if (!user)
    throw new AppError({ status: 403, code: "authentication_required", key: "errors.authentication_required" });
  return memberOf(c, userId, user);
}

function memberOf(c: Context<AppEnv>, userId: number, user: Pick<User, "paid_user" | "signup_date">): DiscountMember {
  return {
    userId,
    paid: user.paid_user,
    signupDate: user.signup_date,
    language: c.get("locale"),
    country: selectedCountry(c),
  };
}

/**
 * The answer of `?welcome=true` for a member the page already read: the welcome discount and the time
 * bonus, or null for a member who paid. A member's page carries it (src/server/render/page.tsx), so
 * the time bonus banner is drawn with the page and does not push the page down once it loads.
 */
export function welcomeOffer(
  c: Context<AppEnv>,
  userId: number,
  user: Pick<User, "paid_user" | "signup_date">,
  now: number,
): DiscountResponse | null {
  return welcomeOfferFor(c.get("site"), memberOf(c, userId, user), now);
}

function welcomeOfferFor(site: SiteSettings, member: DiscountMember, now: number): DiscountResponse | null {
  const welcome = welcomeDiscountFor(site, member);
  return welcome ? { discount: welcome, time_bonus: timeBonusFor(site, member, now) } : null;
}

export async function loadDiscount(
  c: Context<AppEnv>,
  params: URLSearchParams,
  now = Math.floor(Date.now() / 1000),
): Promise<DiscountResponse> {
  const query = parseQuery(DiscountQuery, params);
  const member = await discountMember(c);
  const ctx: DiscountContext = { db: c.get("db"), site: c.get("site"), now };
  if (query.welcome) {
    const offer = welcomeOfferFor(ctx.site, member, now);
    if (!offer)
      throw new AppError({ status: 404, code: "discount_not_found", key: "discounts.errors.discount_not_found" });
    return offer;
  }
  if (query.code === undefined)
    throw new AppError({
      status: 400,
      code: "discount_invalid",
      key: "discounts.errors.discount_invalid",
      field: "discount_code",
    });
  const { pricing } = pricingFor(ctx.site.pricing, ctx.site.countries, member.country);
  const bundle = query.bundle_id ? pricing.bundles.find((b) => b.id === Number(query.bundle_id)) : undefined;
  const { view } = await checkDiscount(ctx, member, query.code, {
    ...(bundle ? { bundle } : {}),
    ...(query.method ? { method: query.method } : {}),
  });
  return { discount: view, time_bonus: null };
}

/** GET /api/prices.php: the prices the member is shown, computed as their order will be (services/order-price.ts). */
export async function loadPrices(
  c: Context<AppEnv>,
  params: URLSearchParams,
  now = Math.floor(Date.now() / 1000),
): Promise<PricesResponse> {
  const query = parseQuery(PricesQuery, params);
  const member = await discountMember(c);
  const quote = await quotePrices({ db: c.get("db"), site: c.get("site"), now }, member, {
    code: query.code,
    bundleId: query.bundle_id,
    method: query.method,
  });
  const refusal = quote.refusal ? c.get("t")(quote.refusal.key, quote.refusal.values) : null;
  return { prices: quote.prices, discount: quote.discount, refusal };
}
