/**
 * Discounts (SPEC §3, §4, §9): the welcome discount on a first purchase, the time bonus TIMEBONUS25 in
 * the first four hours after signup, and the codes operators add (or the retention offer gives one
 * member). The server decides every discount from the code alone; a price or percentage never comes
 * from the request. Each refusal has its own text.
 */
import * as v from "valibot";
import {
  DiscountCodeText,
  TIME_BONUS_CODE,
  TIME_BONUS_PERCENTAGE,
  TIME_BONUS_SECONDS,
  WELCOME_CODE,
  WELCOME_PERCENTAGE,
  type DiscountView,
} from "../../shared/discounts";
import {
  CURRENCIES,
  formatMoney,
  PAYMENT_METHODS,
  pricingFor,
  type Bundle,
  type CountryPricing,
} from "../../shared/payments";
import type { SiteSettings } from "../../shared/settings";
import type { Database } from "../db/database";
import {
  codesNamed,
  discountTaken,
  insertDiscountCode,
  type DiscountCodeRow,
  type DiscountHold,
} from "../db/discounts";
import { AppError } from "../errors";

/** An order with a once-per-member code holds the code this long while its payment is under way. */
const DISCOUNT_HOLD_SECONDS = 15 * 60;

/** What the time bonus and the welcome discount are used up under together: they are alternatives. */
const FIRST_PURCHASE = "first-purchase";

export type DiscountContext = { db: Database; site: SiteSettings; /** Unix seconds. */ now: number };
export type DiscountMember = {
  userId: number;
  paid: boolean;
  /** Unix seconds. */ signupDate: number;
  language: string;
  country: string | null;
};

/** A discount the server will apply: the code as the order records it, and the row it came from. */
export type AppliedDiscount = { view: DiscountView; codeId: number | null };

const refuse = (status: 400 | 404 | 409, code: string, values?: Record<string, string | number>) =>
  new AppError({
    status,
    code,
    key: `discounts.errors.${code}`,
    field: "discount_code",
    ...(values ? { values } : {}),
  });

function priceList(site: SiteSettings, country: string | null): { country: string; pricing: CountryPricing } {
  return pricingFor(site.pricing, site.countries, country);
}

/** The site's own terms for its offers: the member's country and currency, every method, the country's minimum order. */
function siteOffer(
  site: SiteSettings,
  member: DiscountMember,
  code: string,
  percentage: number,
  expires: number | null,
  timeBonus: boolean,
): DiscountView {
  const { country, pricing } = priceList(site, member.country);
  return {
    code,
    percentage,
    minimum: pricing.offer_minimum_order ?? 0,
    country,
    currency: pricing.currency,
    expires,
    validity: "once_per_user",
    payment_methods: [...pricing.methods],
    time_bonus: timeBonus,
  };
}

/** TIMEBONUS25: only for a member who never paid and signed up less than 14,400 s before `now`. */
export function timeBonusFor(site: SiteSettings, member: DiscountMember, now: number): DiscountView | null {
  const expires = member.signupDate + TIME_BONUS_SECONDS;
  if (member.paid || now >= expires) return null;
  return siteOffer(site, member, TIME_BONUS_CODE, TIME_BONUS_PERCENTAGE, expires, true);
}

/** The welcome discount: 25 percent on the first purchase, for a member who never paid. */
export function welcomeDiscountFor(site: SiteSettings, member: DiscountMember): DiscountView | null {
  return member.paid ? null : siteOffer(site, member, WELCOME_CODE, WELCOME_PERCENTAGE, null, false);
}

/** The active discount (SPEC §4): the time bonus if present, otherwise the welcome discount. */
export function activeDiscountFor(site: SiteSettings, member: DiscountMember, now: number): DiscountView | null {
  return timeBonusFor(site, member, now) ?? welcomeDiscountFor(site, member);
}

/**
 * What a discount is used up under, or null when it may be used again. The time bonus and the
 * welcome discount share one key: they are alternatives, so a member uses one of them, once, and
 * only before a first purchase. Any other once-per-member code (an operator's, a retention code) is
 * its own key. One hold and one use per member and key (db/discounts.ts) make this hold under races.
 */
export function onceKeyOf(view: DiscountView): string | null {
  if (view.code === TIME_BONUS_CODE || view.code === WELCOME_CODE) return FIRST_PURCHASE;
  return view.validity === "once_per_user" ? view.code : null;
}

/** The hold an order with this discount takes while it is being paid, or undefined when the code may be used again. */
export function holdFor(discount: AppliedDiscount | null, now: number): DiscountHold | undefined {
  const key = discount ? onceKeyOf(discount.view) : null;
  return key ? { key, until: now + DISCOUNT_HOLD_SECONDS, firstPurchaseOnly: key === FIRST_PURCHASE } : undefined;
}

/** Why an order could not take its discount's hold: used, or held by another order being paid. */
export async function holdRefusal(ctx: DiscountContext, userId: number, discount: AppliedDiscount): Promise<AppError> {
  const taken = await discountTaken(ctx.db, userId, onceKeyOf(discount.view) ?? discount.view.code, ctx.now);
  return refuse(409, taken === "used" ? "discount_used" : "discount_held");
}

function viewOf(row: DiscountCodeRow): DiscountView {
  let methods: string[] | null = null;
  try {
    const parsed: unknown = row.paymentMethods ? JSON.parse(row.paymentMethods) : null;
    methods = Array.isArray(parsed) ? parsed.filter((m): m is string => typeof m === "string") : null;
  } catch {
    methods = [];
  }
  return {
    code: row.code.toUpperCase(),
    percentage: row.percentage,
    minimum: row.minimumCents,
    country: row.country,
    currency: row.currency,
    expires: row.expiresAt,
    validity: row.validity === "unlimited" ? "unlimited" : "once_per_user",
    payment_methods: methods,
    time_bonus: false,
  };
}

/** The site's offers by code, or a stored code: the one for the member's country first. */
async function find(ctx: DiscountContext, member: DiscountMember, code: string): Promise<AppliedDiscount> {
  if (code === TIME_BONUS_CODE || code === WELCOME_CODE) {
    if (member.paid) throw refuse(409, "discount_used");
    const offer =
      code === TIME_BONUS_CODE ? timeBonusFor(ctx.site, member, ctx.now) : welcomeDiscountFor(ctx.site, member);
    if (!offer) throw refuse(400, "discount_expired");
    return { view: offer, codeId: null };
  }
  const rows = await codesNamed(ctx.db, code, member.userId);
  if (!rows.length) throw refuse(404, "discount_not_found");
  const { country } = priceList(ctx.site, member.country);
  const active = rows.filter((r) => r.status === "active");
  if (!active.length) throw refuse(400, "discount_invalid");
  const here = active.filter((r) => r.country === null || r.country === country);
  if (!here.length) throw refuse(400, "discount_other_country");
  const row = here.find((r) => r.country === country) ?? here[0]!;
  return { view: viewOf(row), codeId: row.id };
}

/**
 * Check a code for a member (and, when known, the bundle and payment method of their order): the
 * discount to apply, or the refusal with its text. Once-per-member codes count as taken when paid
 * for, or while an order with them is still being paid (DISCOUNT_HOLD_SECONDS).
 */
export async function checkDiscount(
  ctx: DiscountContext,
  member: DiscountMember,
  typed: string,
  order: { bundle?: Bundle; method?: string } = {},
): Promise<AppliedDiscount> {
  const found = await checkCode(ctx, member, typed);
  const misfit = discountMisfit(ctx.site, member, found.view, order);
  if (misfit) throw misfit;
  return found;
}

/** A code checked for the member alone: found, current, in their currency, not used or held. */
export async function checkCode(ctx: DiscountContext, member: DiscountMember, typed: string): Promise<AppliedDiscount> {
  const parsed = v.safeParse(DiscountCodeText, typed);
  if (!parsed.success) throw refuse(400, "discount_invalid");
  const found = await find(ctx, member, parsed.output);
  const { view } = found;
  if (view.expires !== null && view.expires <= ctx.now) throw refuse(400, "discount_expired");
  if (view.percentage <= 0 || view.percentage > 100) throw refuse(400, "discount_invalid");
  const { pricing } = priceList(ctx.site, member.country);
  if (view.currency !== null && view.currency !== pricing.currency) throw refuse(400, "discount_other_country");
  const key = onceKeyOf(view);
  if (key) {
    // A code waiting on an unpaid order is not used yet: the member is told which, so they can finish that payment.
    // Told early here; the order's own batch decides for good (insertOrderHolding).
    const taken = await discountTaken(ctx.db, member.userId, key, ctx.now);
    if (taken) throw refuse(409, taken === "used" ? "discount_used" : "discount_held");
  }
  return found;
}

/** Why a checked code does not apply to a bundle or a payment method, or null when it does. */
export function discountMisfit(
  site: SiteSettings,
  member: DiscountMember,
  view: DiscountView,
  order: { bundle?: Bundle; method?: string },
): AppError | null {
  if (order.bundle && order.bundle.amount < view.minimum) {
    const { pricing } = priceList(site, member.country);
    return refuse(400, "discount_below_minimum", {
      minimum: formatMoney(view.minimum, pricing.currency, member.language),
    });
  }
  if (order.method && view.payment_methods && !view.payment_methods.includes(order.method))
    return refuse(400, "discount_method_not_covered");
  return null;
}

/**
 * A code an operator adds, as typed (the command line's options, the console's form fields): every
 * field a string, an empty one left out. The same rules for both, so neither takes what the other refuses.
 */
export const NewDiscountCode = v.strictObject({
  code: DiscountCodeText,
  percentage: v.pipe(
    v.string(),
    v.regex(/^\d{1,3}$/, "a whole number from 1 to 100"),
    v.transform(Number),
    v.minValue(1),
    v.maxValue(100),
  ),
  minimumCents: v.pipe(
    v.optional(v.string(), "0"),
    v.regex(/^\d{1,9}$/, "minor units, a whole number"),
    v.transform(Number),
  ),
  country: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, "two capital letters"))),
  currency: v.optional(v.picklist(CURRENCIES)),
  expiresAt: v.optional(
    v.pipe(
      v.string(),
      v.isoDate(),
      v.transform((day) => Math.floor(Date.parse(`${day}T23:59:59Z`) / 1000)),
    ),
  ),
  validity: v.picklist(["once_per_user", "unlimited"]),
  paymentMethods: v.optional(
    v.pipe(
      v.string(),
      v.transform((list) => list.split(",").map((m) => m.trim())),
      v.array(v.picklist(PAYMENT_METHODS)),
      v.transform((list) => JSON.stringify(list)),
    ),
  ),
});

/** An operator's code checked: the row to add, or each problem as "field: message". */
export function checkNewDiscountCode(
  typed: Record<string, string | undefined>,
): { code: v.InferOutput<typeof NewDiscountCode> } | { problems: string[] } {
  const fields = Object.fromEntries(
    Object.entries(typed).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  const parsed = v.safeParse(NewDiscountCode, { validity: "once_per_user", ...fields });
  if (parsed.success) return { code: parsed.output };
  return { problems: parsed.issues.map((issue) => `${v.getDotPath(issue) ?? "(root)"}: ${issue.message}`) };
}

/** The statement that adds an operator's checked code, active at once. */
export function addDiscountCodeStatement(db: Database, code: v.InferOutput<typeof NewDiscountCode>) {
  return insertDiscountCode(db, { ...code, status: "active" });
}
