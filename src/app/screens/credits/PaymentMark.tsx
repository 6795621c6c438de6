import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
import Bancontact from "react-pay-icons/Bancontact";
import Blik from "react-pay-icons/Blik";
import DirectDebit from "react-pay-icons/DirectDebit";
import Eps from "react-pay-icons/Eps";
import Ideal from "react-pay-icons/Ideal";
import Klarna from "react-pay-icons/Klarna";
import Mastercard from "react-pay-icons/Mastercard";
import MobilePay from "react-pay-icons/MobilePay";
import Paypal from "react-pay-icons/Paypal";
import Sepa from "react-pay-icons/Sepa";
import Swish from "react-pay-icons/Swish";
import Trustly from "react-pay-icons/Trustly";
import Twint from "react-pay-icons/Twint";
import Vipps from "react-pay-icons/Vipps";
import Visa from "react-pay-icons/Visa";
import type { PaymentMethod } from "../../../shared/payments";

type Mark = (props: Record<string, unknown>) => ReactElement;

/**
 * Each method's acceptance marks, from react-pay-icons (MIT; docs/decisions/0038). Cards show the
 * two schemes most members carry; a bank transfer the SEPA mark. The package has no mark for KBC/CBC,
 * Belfius or Przelewy24: those show a plain bank sign with their name beside it.
 */
const MARKS: Partial<Record<PaymentMethod, Mark[]>> = {
  ideal: [Ideal],
  creditcard: [Visa, Mastercard],
  paypal: [Paypal],
  bancontact: [Bancontact],
  klarna: [Klarna],
  twint: [Twint],
  blik: [Blik],
  banktransfer: [Sepa],
  directdebit: [DirectDebit],
  eps: [Eps],
  trustly: [Trustly],
  mobilepay: [MobilePay],
  vipps: [Vipps],
  swish: [Swish],
};

/**
 * The marks are inline SVGs whose clip paths and gradients use short ids ("a", "b"): several marks
 * on one page would point at each other's. Each mark's ids get the method's name in front.
 */
function withOwnIds(node: ReactNode, prefix: string): ReactNode {
  if (!isValidElement<Record<string, unknown>>(node)) return node;
  const props: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(node.props)) {
    if (name === "children") continue;
    if (name === "id" && typeof value === "string") props.id = `${prefix}-${value}`;
    else if (typeof value === "string" && value.includes("url(#"))
      props[name] = value.replaceAll("url(#", `url(#${prefix}-`);
    else if ((name === "href" || name === "xlinkHref") && typeof value === "string" && value.startsWith("#"))
      props[name] = `#${prefix}-${value.slice(1)}`;
  }
  const children = node.props.children as ReactNode;
  const mapped = Children.map(children, (child) => withOwnIds(child, prefix)) ?? [];
  return cloneElement(node, props, ...mapped);
}

function BankSign() {
  return (
    <svg viewBox="0 0 60 40" className="payment-mark__svg">
      <rect width="60" height="40" rx="4" fill="#F3F6F9" />
      <path
        d="M30 8 14 16v3h32v-3zM17 21h4v10h-4zm8 0h4v10h-4zm8 0h4v10h-4zm8 0h3v10h-3zM14 32h32v3H14z"
        fill="#7C1026"
      />
    </svg>
  );
}

/** A payment method's marks, decorative: the method's name is always written beside them. */
export function PaymentMark({ method }: { method: PaymentMethod | (string & {}) }) {
  const marks = MARKS[method as PaymentMethod];
  return (
    <span className="payment-mark" aria-hidden="true">
      {marks ? (
        marks.map((Mark, i) => (
          <span key={i}>
            {withOwnIds(Mark({ className: "payment-mark__svg", focusable: "false" }), `${method}${i}`)}
          </span>
        ))
      ) : (
        <BankSign />
      )}
    </span>
  );
}
