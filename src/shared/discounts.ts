/**
 * Discounts as both sides need them (SPEC §3, §4, §9): the welcome discount and the time bonus, the
 * price arithmetic (the page shows exactly what the order charges), and the countdown's format.
 */
import * as v from "valibot";

export const TIME_BONUS_CODE = "TIMEBONUS25";
export const WELCOME_CODE = "WELCOME25";
/** The time bonus exists for this long after signup, in seconds. */
export const TIME_BONUS_SECONDS = 4 * 60 * 60;
export const TIME_BONUS_PERCENTAGE = 25;
export const WELCOME_PERCENTAGE = 25;
/** The time-bonus modal opens after this long in the members area. */
export const TIME_BONUS_MODAL_DELAY_MS = 40_000;
/** localStorage key holding when the member closed the time-bonus modal. */
export const HIDE_TIME_BONUS_MODAL = "hide-time-bonus-modal";

/** A code as typed: letters, digits and dashes; compared in upper case. */
export const DiscountCodeText = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z0-9-]{3,40}$/));

/** GET /api/discountcode.php */
export const DiscountQuery = v.object({
  code: v.optional(v.pipe(v.string(), v.maxLength(64))),
  welcome: v.optional(v.picklist(["true"])),
  bundle_id: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,8}$/))),
  method: v.optional(v.pipe(v.string(), v.maxLength(32))),
});

export type DiscountView = {
  code: string;
  percentage: number;
  /** Minor units of `currency`: the bundle's price (before the discount) must reach it. */
  minimum: number;
  country: string | null;
  currency: string | null;
  /** Unix seconds; null for no end. */
  expires: number | null;
  validity: "once_per_user" | "unlimited";
  /** Null: every method of the site. */
  payment_methods: string[] | null;
  /** The time bonus: its countdown is shown. */
  time_bonus: boolean;
};

/** `time_bonus` is set for `?welcome=true` while the member has the time bonus. */
export type DiscountResponse = { discount: DiscountView; time_bonus: DiscountView | null };

/** What a discount takes off a price, in minor units (rounded to the nearest unit). */
export const discountOf = (amount: number, percentage: number) => Math.round((amount * percentage) / 100);

/** The price charged with a discount. */
export const discountedAmount = (amount: number, percentage: number) => amount - discountOf(amount, percentage);

/** Seconds as hh:mm:ss, zero-padded; never negative. */
export function countdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}
