/**
 * What the app does with Mollie's next-gen webhook events (payments/mollie-events.ts,
 * docs/decisions/0054). They tell what the payment's own webhook does not: a chargeback reversed
 * (`chargeback.reversed`) and a refund canceled (`refund.canceled`); the other refund and chargeback
 * events are handled alike. The event names a refund or chargeback; the payment it belongs to is
 * found (from the embedded entity, else from the adjustment the app knows by that id), and that
 * payment's refunds and chargebacks are read back from Mollie and brought in line
 * (payment-adjustments.ts), so nothing but the API's answer moves credits. Each event is recorded by
 * its id: a repeat of a handled one is answered at once, and concurrent deliveries change the
 * balance once, since every take and give-back is conditional on its adjustment's mark.
 */
import { adjustmentByProviderId } from "../db/payment-adjustments";
import { findOrder } from "../db/orders";
import { findPayment, latestPaymentOf } from "../db/payments";
import { markProviderEventHandled, recordProviderEvent } from "../db/provider-events";
import { eventSubject, type MollieEvent } from "../payments/mollie-events";
import { PaymentProviderError } from "../payments/provider";
import { reconcileChargebacks, reconcileRefunds } from "./payment-adjustments";
import { providerUnavailable, type PaymentContext } from "./payments";

type EventContext = Pick<PaymentContext, "db" | "env" | "provider" | "now" | "balanceChanged">;

export type EventOutcome = "duplicate" | "ignored" | "unknown" | "unchanged" | "updated";

export async function handleMollieEvent(ctx: EventContext, event: MollieEvent): Promise<EventOutcome> {
  const handledBefore = await recordProviderEvent(ctx.db, {
    provider: ctx.provider.name,
    eventId: event.id,
    type: event.type,
    entityId: event.entityId,
    now: ctx.now,
  });
  if (handledBefore) return "duplicate";
  const outcome = await act(ctx, event);
  await markProviderEventHandled(ctx.db, ctx.provider.name, event.id, ctx.now);
  return outcome;
}

async function act(ctx: EventContext, event: MollieEvent): Promise<EventOutcome> {
  const subject = eventSubject(event);
  if (!subject) return "ignored";
  const payment = subject.paymentId
    ? await findPayment(ctx.db, ctx.provider.name, subject.paymentId)
    : await paymentOfAdjustment(ctx, subject.entityId);
  const order = payment ? await findOrder(ctx.db, payment.orderId) : null;
  // Answered 200 all the same (https://docs.mollie.com/reference/webhooks-new: a failed delivery is retried).
  if (!payment || !order || order.creditedAt === null) return "unknown";
  let changed: boolean;
  try {
    changed =
      subject.kind === "refund"
        ? await reconcileRefunds(ctx, order, payment.providerPaymentId)
        : await reconcileChargebacks(ctx, order, payment.providerPaymentId);
  } catch (error) {
    // The lists could not be read: answered 502, the event stays unhandled and Mollie delivers it again.
    if (error instanceof PaymentProviderError) throw providerUnavailable(error);
    throw error;
  }
  if (changed) ctx.balanceChanged?.(order.userId);
  return changed ? "updated" : "unchanged";
}

/** A simple payload names only the entity: its payment is the one of the adjustment the app knows by that id. */
async function paymentOfAdjustment(ctx: EventContext, entityId: string) {
  const adjustment = await adjustmentByProviderId(ctx.db, entityId);
  return adjustment ? latestPaymentOf(ctx.db, adjustment.orderId) : null;
}
