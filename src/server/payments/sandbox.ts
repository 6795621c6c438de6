/**
 * The offline provider (development and tests): payments live in D1 (sandbox_payments) and are paid
 * on a checkout page the app serves (/sandbox/checkout/<id>, development only) with one button per
 * status, like the provider's own test page. A recurring charge on a mandate is paid at once.
 */
import type { Database } from "../db/database";
import {
  addSandboxRefund,
  findSandboxPayment,
  insertSandboxPayment,
  sandboxMandate,
  type SandboxPaymentRow,
} from "../db/payments";
import { canSaveMethod, methodPaysIn, PAYMENT_METHODS, type PaymentStatus } from "../../shared/payments";
import {
  PaymentProviderError,
  type Chargeback,
  type MethodQuery,
  type NewPayment,
  type PaymentProvider,
  type ProviderPayment,
  type Refund,
  type SequenceType,
} from "./provider";

const randomId = (prefix: string) => `${prefix}_sb${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;

const DIRECT_DEBIT_MANDATE = "mdt_dd";

const sandboxCheckoutPath = (id: string) => `/sandbox/checkout/${id}`;

/** The mandate a paid first payment leaves behind: derived from the payment, so it needs no table (db/payments.ts sandboxMandate). */
const mandateOf = (paymentId: string) => `mdt_${paymentId.slice(3)}`;

function view(row: SandboxPaymentRow, origin: string): ProviderPayment {
  const status = row.status as PaymentStatus;
  return {
    id: row.id,
    status,
    amount: row.amountCents,
    currency: row.currency,
    method: row.method,
    checkoutUrl: status === "open" && row.sequenceType !== "recurring" ? origin + sandboxCheckoutPath(row.id) : null,
    customerId: row.customerId,
    mandateId: row.mandateId ?? (row.sequenceType === "first" && status === "paid" ? mandateOf(row.id) : null),
    sequenceType: row.sequenceType as SequenceType,
    metadata: null,
    hasRefunds: false,
    hasChargebacks: false,
  };
}

export class SandboxProvider implements PaymentProvider {
  readonly name = "sandbox";
  readonly customerScope = "sandbox";

  constructor(
    private readonly db: Database,
    /** The app's own origin: the checkout page is one of its pages. */
    private readonly origin: string,
  ) {}

  async createPayment(payment: NewPayment): Promise<ProviderPayment> {
    const recurring = payment.sequenceType === "recurring";
    const directDebit = payment.mandateId?.startsWith(DIRECT_DEBIT_MANDATE) === true;
    let method = payment.method;
    if (recurring && !directDebit) {
      // Like Mollie: a recurring charge needs the customer's valid mandate, and is made with the mandate's method.
      const mandate = payment.customerId ? await sandboxMandate(this.db, payment.customerId) : null;
      if (!mandate || mandate.id !== payment.mandateId || (method !== null && method !== mandate.method))
        throw new PaymentProviderError("no valid mandate", 422);
      method = mandate.method;
    }
    if (!recurring && method !== null && !methodPaysIn(method, payment.currency))
      throw new PaymentProviderError(`${method} cannot pay in ${payment.currency}`, 422);
    const row = await insertSandboxPayment(this.db, {
      id: randomId("tr"),
      // A direct debit is collected later (pending until the tester settles or reverses it); a card at once.
      status: recurring ? (directDebit ? "pending" : "paid") : "open",
      amountCents: payment.amount,
      currency: payment.currency,
      method,
      description: payment.description,
      redirectUrl: payment.redirectUrl,
      webhookUrl: payment.webhookUrl,
      customerId: payment.customerId ?? null,
      mandateId: payment.mandateId ?? null,
      sequenceType: payment.sequenceType ?? "oneoff",
    });
    return view(row, this.origin);
  }

  async getPayment(id: string): Promise<ProviderPayment | null> {
    const row = await findSandboxPayment(this.db, id);
    return row ? view(row, this.origin) : null;
  }

  async createCustomer(): Promise<string> {
    return randomId("cst");
  }

  async validMandate(customerId: string): Promise<{ id: string; method: string } | null> {
    return sandboxMandate(this.db, customerId);
  }

  async createDirectDebitMandate(): Promise<string> {
    return randomId(DIRECT_DEBIT_MANDATE);
  }

  /** A sandbox payment is paid by the tester's button, never only authorised: nothing to collect. */
  async capturePayment(): Promise<void> {}

  /** The sandbox answers every call in the same request: no create goes unanswered, none is looked for. */
  async listPayments(): Promise<ProviderPayment[]> {
    return [];
  }

  async refund(paymentId: string, refund: { amount: number; refundKey: string }): Promise<Refund> {
    if (!(await addSandboxRefund(this.db, paymentId, refund.amount)))
      throw new PaymentProviderError("refund refused", 422);
    return { id: randomId("re"), status: "pending", amount: refund.amount, refundKey: refund.refundKey };
  }

  /** The sandbox keeps no refunds of its own and has no dashboard or bank: nothing happens outside the app. */
  async listRefunds(): Promise<Refund[]> {
    return [];
  }

  async listChargebacks(): Promise<Chargeback[]> {
    return [];
  }

  /** The same per-country methods Mollie offers: those that pay in the currency, and for a first payment those that leave a mandate. */
  async listMethods(query: MethodQuery): Promise<string[]> {
    return PAYMENT_METHODS.filter(
      (m) =>
        m !== "directdebit" &&
        (query.sequenceType === "first" ? canSaveMethod(m, query.currency) : methodPaysIn(m, query.currency)),
    );
  }
}
