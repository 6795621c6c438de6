/** Shapes of the payment calls (SPEC §7 leaves them open; these are ours), used by both sides. */
import * as v from "valibot";
import type { DiscountView } from "./discounts";
import { PAYMENT_METHODS, type OrderStatus } from "./payments";

const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));

/** The total a screen showed the member (minor units): the order is refused if the server's price differs. */
const ExpectedAmount = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100_000_000)));

/** POST /api/order.php */
export const OrderRequest = v.object({
  bundle_id: Id,
  method: v.picklist(PAYMENT_METHODS),
  discount_code: v.optional(v.pipe(v.string(), v.maxLength(64))),
  expected_amount: ExpectedAmount,
  /** Save the method for one-tap repeat orders (a first payment with a mandate), where the method can. */
  save_method: v.optional(v.boolean()),
});

/** POST /api/repeat-order.php (a body is optional) */
export const RepeatOrderRequest = v.object({ expected_amount: ExpectedAmount });

/**
 * An order's price as the server computes it (services/order-price.ts), the one every screen shows
 * and the order is created with. Minor units of `currency`; `price` is the bundle's, `amount` what is charged.
 */
export type OrderPrice = {
  bundle_id: number;
  credits: number;
  price: number;
  discount: number;
  /** The code the discount comes from; null without one. */
  discount_code: string | null;
  amount: number;
  /** The VAT part of `amount`. */
  vat: number;
  vat_rate: number;
  currency: string;
};

/** GET /api/prices.php?code=&bundle_id=&method= */
export const PricesQuery = v.object({
  code: v.optional(v.pipe(v.string(), v.maxLength(64))),
  bundle_id: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,8}$/), v.transform(Number))),
  method: v.optional(v.picklist(PAYMENT_METHODS)),
});

/**
 * The prices of the member's country (or of one bundle, with the method when chosen): with the code
 * asked for, else with the member's active offer (the time bonus if present, otherwise the welcome
 * discount). `discount` is the offer the prices carry; `refusal` says, in the member's language, why
 * a code does not apply (a bundle's price then has no discount).
 */
export type PricesResponse = { prices: OrderPrice[]; discount: DiscountView | null; refusal: string | null };

/** GET /api/repeat-order.php: what repeating the last order buys and charges (no discount carries over). */
export type RepeatOrderResponse = { repeat: { bundle_id: number; method: string; price: OrderPrice } | null };

/** GET /api/payment-methods.php?bundle_id= : the methods that can pay this bundle here now, and those that can be saved. */
export type PaymentMethodsResponse = { methods: string[]; savable: string[] };

/** POST /api/refund.php */
export const RefundRequest = v.object({ order_id: Id });

export type OrderView = {
  id: number;
  status: OrderStatus;
  bundle_id: number;
  credits: number;
  /** Minor units, VAT included. */
  amount: number;
  vat: number;
  discount: number;
  /** The code the discount came from; null without one. */
  discount_code: string | null;
  currency: string;
  method: string;
  /** The method the payment was made with, once the provider says so (null before). */
  paid_method: string | null;
  /** The provider's id of the order's latest payment. */
  payment_id: string | null;
  created_at: number;
  refunded_credits: number;
  refunded_amount: number;
  /** The credits were added (paid, or granted at once by direct debit). */
  credited: boolean;
  /**
   * The provider did not answer when the payment was made, so whether it was made is being confirmed
   * (the webhook or the clock settles it): the member is told so, never that it failed.
   */
  confirming: boolean;
  /** Charged on a stored mandate (repeat order) rather than through a checkout. */
  recurring: boolean;
  /** The site the order was placed on. */
  site: string;
};

/** GET /api/order.php?id= */
export type OrderResponse = {
  order: OrderView;
  /** This order is the member's first credited one: the purchase that made them premium. */
  made_premium: boolean;
};
/** POST /api/order.php, POST /api/repeat-order.php */
export type OrderCreated = { order: { id: number; status: OrderStatus; checkout_url: string | null } };
/** GET /api/transactions.php */
export type TransactionsResponse = { orders: OrderView[]; balance: number; paid_user: boolean };
/** GET /api/transaction.php?id= : a receipt; `refundable` says whether the refund action applies now. */
export type TransactionResponse = { order: OrderView; refundable: boolean; refund_until: number | null };

/** The method to name for an order: the one it was paid with when the app knows that method, else the one chosen. */
export const orderMethod = (order: Pick<OrderView, "method" | "paid_method">): string =>
  order.paid_method !== null && (PAYMENT_METHODS as readonly string[]).includes(order.paid_method)
    ? order.paid_method
    : order.method;

/** An order status the pages treat as final. */
export const isFinalOrderStatus = (status: OrderStatus) =>
  ["paid", "failed", "canceled", "expired", "refunded", "reversed"].includes(status);
