/**
 * Orders (finance or admin; issue 24 point 5): filtered by site, status, method and the days they
 * were placed, with their refunds and chargebacks, and a refund through the payment provider by the
 * member side's own refund (services/payments.ts refundOrder), which support may also start from a
 * member's page.
 */
import { Hono, type Context } from "hono";
import * as v from "valibot";
import { findOrder } from "../../db/orders";
import { adjustmentsOfOrders, findOrders, type OrderFilter } from "../../db/order-search";
import { periodOf } from "../../services/dashboard";
import { refundForMember } from "../../services/member-support";
import { PAYMENT_METHODS, PAYMENT_STATUSES } from "../../../shared/payments";
import { ActionForm, money, orderStatusText } from "../action-form";
import type { ConsoleEnv, ConsoleScreen } from "../console-context";
import { actionDone, idParam, readForm, Reason, requireConfirmation } from "../console-forms";
import { renderConsole, when } from "../console-page";
import { ConsoleRefusal, hasRole } from "../console-refusal";
import { askSecondOperator } from "../second-operator";
import { memberSite, orderPayments, supportContext } from "../support-context";
import { refundNeedsSecondOperator } from "../../../shared/settings";

const ORDER_STATUSES = [...PAYMENT_STATUSES, "refunded", "reversed"] as const;
const WithReason = v.object({ reason: Reason });

/** What pressing Refund does, in the words the operator ticks before it does anything. */
export const REFUND_CONFIRM =
  "Refund this order through the payment provider and take its credits back (a second operator confirms it when it needs one).";

/**
 * Refund an order from the console, with the operator's reason; `ofMember`, when given, is the
 * member whose page the operator pressed it on (an order of someone else is not found there).
 * Refunds are finance's: an operator without the finance role (support) asks finance for it, and a
 * refund above the site's `second_operator_refund_above` waits for a second finance operator
 * (docs/decisions/0060); below it, finance refunds at once.
 */
export async function refundFromConsole(c: Context<ConsoleEnv>, orderId: number, ofMember?: number): Promise<void> {
  const { reason } = await readForm(c, WithReason);
  const order = await findOrder(c.var.db, orderId);
  if (!order || (ofMember !== undefined && order.userId !== ofMember))
    throw new ConsoleRefusal(404, "order_not_found", "There is no such order.");
  const site = await memberSite(c, order.siteDomain);
  const amount = money(order.amountCents, order.currency);
  const why = !hasRole(c.var.operator, "finance")
    ? "refunds are finance's"
    : refundNeedsSecondOperator(site.settings, order.amountCents, order.currency)
      ? `above the site's limit for a refund by one operator`
      : null;
  if (why) {
    await askSecondOperator(c, {
      action: "order.refund",
      target: { kind: "order", id: order.id },
      summary: `Refund order #${order.id} of member #${order.userId} (${amount}, ${order.credits} credits; ${why})`,
      details: { orderId: order.id, userId: order.userId },
      reason,
    });
    return;
  }
  const ctx = supportContext(c);
  await refundForMember(ctx, await orderPayments(c, order.siteDomain, ctx.now), orderId, reason);
}

/** The filter of the query string; a value that is not one the orders can have is left out. */
function filterOf(query: Record<string, string>): { filter: OrderFilter; shown: Record<string, string> } {
  const filter: OrderFilter = {};
  const shown: Record<string, string> = {};
  const given = (key: string) => query[key]?.trim() || undefined;
  const site = given("site");
  if (site) filter.site = shown.site = site;
  const status = given("status");
  if (status && (ORDER_STATUSES as readonly string[]).includes(status)) filter.status = shown.status = status;
  const method = given("method");
  if (method && (PAYMENT_METHODS as readonly string[]).includes(method)) filter.method = shown.method = method;
  const from = given("from");
  const to = given("to") ?? from;
  const period = from && to ? periodOf(from, to) : null;
  if (period) {
    filter.from = period.from;
    filter.to = period.to;
    shown.from = from!;
    shown.to = to!;
  }
  return { filter, shown };
}

function Choice({
  name,
  label,
  options,
  value,
}: {
  name: string;
  label: string;
  options: readonly string[];
  value: string | undefined;
}) {
  return (
    <label className="inline">
      {label}{" "}
      <select name={name} defaultValue={value ?? ""}>
        <option value="">any</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

const routes = new Hono<ConsoleEnv>()
  .get("/", async (c) => {
    const { filter, shown } = filterOf(c.req.query());
    const rows = await findOrders(c.var.db, filter);
    const adjustments = await adjustmentsOfOrders(
      c.var.db,
      rows.map((row) => row.order.id),
    );
    return renderConsole(
      c,
      "Orders",
      <>
        <form method="get" action="/orders">
          <label className="inline">
            Site <input name="site" defaultValue={shown.site ?? ""} size={16} placeholder="nl.localhost" />
          </label>
          <Choice name="status" label="Status" options={ORDER_STATUSES} value={shown.status} />
          <Choice name="method" label="Method" options={PAYMENT_METHODS} value={shown.method} />
          <label className="inline">
            Placed from <input name="from" type="date" defaultValue={shown.from ?? ""} /> to{" "}
            <input name="to" type="date" defaultValue={shown.to ?? ""} />
          </label>
          <button type="submit">Filter</button>
        </form>
        <p>{rows.length === 200 ? "The newest 200 orders that match." : `${rows.length} orders match.`}</p>
        <table>
          <thead>
            <tr>
              <th>#</th>
              <th>Member</th>
              <th>Site</th>
              <th>Status</th>
              <th>Credits</th>
              <th>Amount</th>
              <th>Method</th>
              <th>Payment</th>
              <th>Placed</th>
              <th>Refunds and chargebacks</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map(({ order, paymentId }) => (
              <tr key={order.id}>
                <td>{order.id}</td>
                <td>
                  <a href={`/members/${order.userId}`}>#{order.userId}</a>
                </td>
                <td>{order.siteDomain}</td>
                <td>{orderStatusText(order)}</td>
                <td>{order.credits}</td>
                <td>
                  {money(order.amountCents, order.currency)}
                  {order.discountCode ? ` (${order.discountCode})` : ""}
                </td>
                <td>{order.paidMethod ?? order.paymentMethod}</td>
                <td>{paymentId ?? ""}</td>
                <td>{when(order.createdAt)}</td>
                <td>
                  {adjustments
                    .filter((a) => a.orderId === order.id)
                    .map((a) => (
                      <div
                        key={a.id}
                      >{`${a.kind} (${a.origin}) ${a.status}: ${money(a.amountCents, order.currency)}, ${a.credits} credits${a.givenBackAt ? ", given back" : ""}`}</div>
                    ))}
                </td>
                <td>
                  {order.creditedAt !== null && order.refundedAt === null && (
                    <ActionForm action={`/orders/${order.id}/refund`} label="Refund" confirm={REFUND_CONFIRM} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </>,
    );
  })
  .post("/:id/refund", async (c) => {
    await requireConfirmation(c);
    await refundFromConsole(c, idParam(c.req.param("id")));
    return actionDone(c, "/orders");
  });

export const ordersScreen: ConsoleScreen = { path: "/orders", label: "Orders", role: "finance", routes };
