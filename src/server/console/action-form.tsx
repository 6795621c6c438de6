/**
 * One operator action as a form: its own fields, the reason every action needs (kept in the audit
 * log), the button and the place for a refusal. The support and money screens are made of these.
 * A destructive action names what will happen in `confirm`: the operator ticks that sentence before
 * the button does anything, and the server refuses the action without the tick (requireConfirmation),
 * so it never fires on one click.
 */
import type { ReactNode } from "react";
import { FormError } from "./console-page";

export function ActionForm({
  action,
  label,
  children,
  confirm,
}: {
  action: string;
  label: string;
  children?: ReactNode;
  confirm?: string;
}) {
  return (
    <form method="post" action={action} className="action">
      {children}
      <input name="reason" placeholder="Reason" required minLength={3} size={36} aria-label={`Reason: ${label}`} />{" "}
      {confirm && <ConfirmStep what={confirm} />}
      <button type="submit">{label}</button>
      <FormError />
    </form>
  );
}

/** An amount in minor units as operators read it: "9.95 EUR". */
export function money(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

/** The step before a destructive action: what will happen, in words, ticked by the operator (sent as confirmed=yes). */
export function ConfirmStep({ what }: { what: string }) {
  return (
    <label className="confirm">
      <input type="checkbox" name="confirmed" value="yes" required /> {what}
    </label>
  );
}

/**
 * An order's status as operators read it: a refund of part of the amount is "partly refunded" with
 * the amount of the whole ("partly refunded: 2.98 EUR of 9.95 EUR"), not "refunded".
 */
export function orderStatusText(order: {
  status: string;
  amountCents: number;
  refundedCents: number;
  currency: string;
}): string {
  if (order.status !== "refunded" || order.refundedCents <= 0 || order.refundedCents >= order.amountCents)
    return order.status;
  return `partly refunded: ${money(order.refundedCents, order.currency)} of ${money(order.amountCents, order.currency)}`;
}
