/**
 * Read sources of a member's orders: GET /api/order.php?id= (one order's status, which the pending
 * page follows), /api/transactions.php (all orders, newest first) and /api/transaction.php?id= (a
 * receipt). A member only ever sees their own orders.
 */
import type { Context } from "hono";
import * as v from "valibot";
import type { OrderResponse, TransactionResponse, TransactionsResponse } from "../../shared/payments-api";
import type { AppEnv } from "../request-context";
import { balanceOf } from "../db/ledger";
import { findOwnOrder, latestPaidOrder, listOrders, madeMemberPremium } from "../db/orders";
import { latestPaymentOf } from "../db/payments";
import { requireMember } from "../edge/signed-in-member";
import { AppError } from "../errors";
import { orderView } from "../services/payments";
import { parseQuery } from "./query";
import { refundRefusal, refundUntil } from "../services/refunds";

const IdQuery = v.object({
  id: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,9}$/), v.transform(Number), v.maxValue(2_147_483_647)),
});

async function ownOrder(c: Context<AppEnv>, params: URLSearchParams) {
  const { userId } = requireMember(c);
  const { id } = parseQuery(IdQuery, params);
  const order = await findOwnOrder(c.get("db"), userId, id);
  if (!order) throw new AppError({ status: 404, code: "order_not_found", key: "payments.errors.order_not_found" });
  const payment = await latestPaymentOf(c.get("db"), order.id);
  return { userId, order, view: orderView(order, payment) };
}

export async function loadOrder(c: Context<AppEnv>, params: URLSearchParams): Promise<OrderResponse> {
  const { order, view } = await ownOrder(c, params);
  return { order: view, made_premium: await madeMemberPremium(c.get("db"), order) };
}

export async function loadTransactions(c: Context<AppEnv>): Promise<TransactionsResponse> {
  const { userId } = requireMember(c);
  const db = c.get("db");
  const [rows, balance] = await Promise.all([listOrders(db, userId), balanceOf(db, userId)]);
  return {
    orders: rows.map((r) => orderView(r.order, r.payment)),
    balance: balance?.credits ?? 0,
    paid_user: balance?.paid ?? false,
  };
}

export async function loadTransaction(c: Context<AppEnv>, params: URLSearchParams): Promise<TransactionResponse> {
  const { userId, order, view } = await ownOrder(c, params);
  const latest = await latestPaidOrder(c.get("db"), userId);
  const refundDays = c.get("site").refund_days;
  const refundable = refundRefusal(order, latest?.id ?? null, refundDays, Math.floor(Date.now() / 1000)) === null;
  return { order: view, refundable, refund_until: refundUntil(order, refundDays) };
}
