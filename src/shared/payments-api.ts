/** Shapes of the payment calls (SPEC §7 leaves them open; these are ours), used by both sides. */
import * as v from "valibot";
import { PAYMENT_METHODS, type OrderStatus } from "./payments";

const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));

/** POST /api/order.php */
export const OrderRequest = v.object({
  bundle_id: Id,
  method: v.picklist(PAYMENT_METHODS),
  discount_code: v.optional(v.pipe(v.string(), v.maxLength(64))),
  /** Save the method for one-tap repeat orders (a first payment with a mandate), where the method can. */
  save_method: v.optional(v.boolean()),
});

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
  /** Charged on a stored mandate (repeat order) rather than through a checkout. */
  recurring: boolean;
  /** The site the order was placed on. */
  site: string;
};

/** GET /api/order.php?id= */
export type OrderResponse = { order: OrderView };
/** POST /api/order.php, POST /api/repeat-order.php */
export type OrderCreated = { order: { id: number; status: OrderStatus; checkout_url: string | null } };
/** GET /api/transactions.php */
export type TransactionsResponse = { orders: OrderView[]; balance: number; paid_user: boolean };
/** GET /api/transaction.php?id= : a receipt; `refundable` says whether the refund action applies now. */
export type TransactionResponse = { order: OrderView; refundable: boolean; refund_until: number | null };

/** The method to name for an order: the one it was paid with when the app knows that method, else the one chosen. */
export const orderMethod = (order: Pick<OrderView, "method" | "paid_method">): string =>
  order.paid_method !== null && (PAYMENT_METHODS as readonly string[]).includes(order.paid_method) ? order.paid_method : order.method;

/** An order status the pages treat as final. */
export const isFinalOrderStatus = (status: OrderStatus) => ["paid", "failed", "canceled", "expired", "refunded", "reversed"].includes(status);
