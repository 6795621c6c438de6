import { useState } from "react";
import useSWR from "swr";
import {
  orderMethod,
  type OrderView,
  type TransactionResponse,
  type TransactionsResponse,
} from "../../../shared/payments-api";
import { apiSend, ApiRequestError } from "../../page/api";
import { FormMessage } from "../../components/Form";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { Pending } from "../../components/Pending";
import { Title } from "../../components/Title";
import { usePage, useT, useWritingLocale } from "../../page/page-context";
import { companyLines } from "../../../shared/company";
import { USER_KEY, useUser } from "../../hooks/useUser";
import { TRANSACTIONS_KEY, transactionKey } from "../../page/page-data";
import type { ScreenProps } from "../../page/page-state";
import { useOffer, useOrderDate } from "./offer";
import { useSWRConfig } from "swr";

/** /transactions: the member's orders, newest first; /transactions/{id}: one order's receipt. */
export default function TransactionsScreen({ params }: ScreenProps) {
  const t = useT();
  const { user } = useUser();
  if (!user) return <LoginPrompt title={t("payments.transactions")} text={t("payments.login_needed")} />;
  return params.id ? <Receipt id={params.id} /> : <Transactions />;
}

function StatusLabel({ order }: { order: OrderView }) {
  const t = useT();
  return <span className={`order-status order-status--${order.status}`}>{t(`payments.status.${order.status}`)}</span>;
}

function Transactions() {
  const t = useT();
  const { money } = useOffer();
  const date = useOrderDate();
  const { data, error, mutate } = useSWR<TransactionsResponse, ApiRequestError>(TRANSACTIONS_KEY);
  return (
    <section className="credits">
      <Title text={t("payments.transactions")} />
      <h1>{t("payments.transactions")}</h1>
      {!data ? (
        <Pending failed={error !== undefined} retry={() => void mutate()} />
      ) : data.orders.length === 0 ? (
        <p className="notice">{t("payments.no_transactions")}</p>
      ) : (
        <ul className="transactions">
          {data.orders.map((order) => (
            <li key={order.id}>
              <Link href={`/transactions/${order.id}`} className="transaction">
                <span className="transaction__main">
                  <strong>{t("payments.credits_count", { count: order.credits })}</strong> <StatusLabel order={order} />
                </span>
                <span className="transaction__meta">
                  <span data-testid="transaction-amount">{money(order.amount, order.currency)}</span> ·{" "}
                  {t(`payments.methods.${orderMethod(order)}`)} · {date(order.created_at)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Receipt({ id }: { id: string }) {
  const t = useT();
  const { company } = usePage();
  const locale = useWritingLocale();
  const { money } = useOffer();
  const date = useOrderDate();
  const { mutate: mutateGlobal } = useSWRConfig();
  const { data, error, mutate } = useSWR<TransactionResponse, ApiRequestError>(transactionKey(id));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);
  if (!data) return <Pending failed={error !== undefined} retry={() => void mutate()} />;
  const { order } = data;
  const refund = async () => {
    if (!window.confirm(t("payments.refund_confirm"))) return;
    setBusy(true);
    try {
      const answer = await apiSend<{ order: { refunded_credits: number; refunded_amount: number } }>(
        "POST",
        "/api/refund.php",
        { order_id: order.id },
      );
      setMessage({
        text: t("payments.refund_done", {
          count: answer.order.refunded_credits,
          price: money(answer.order.refunded_amount, order.currency),
        }),
        ok: true,
      });
      await Promise.all([mutate(), mutateGlobal(USER_KEY)]);
    } catch (problem) {
      setMessage({
        text: problem instanceof ApiRequestError ? problem.body.message : t("errors.try_again_later"),
        ok: false,
      });
    }
    setBusy(false);
  };
  return (
    <section className="credits receipt">
      <Title text={t("payments.receipt_title", { id: order.id })} />
      <h1>{t("payments.receipt_title", { id: order.id })}</h1>
      {company && (
        <address className="receipt__company">
          <strong>{company.name}</strong>
          {companyLines(company, t, locale).map((line) => (
            <span key={line}>
              <br />
              {line}
            </span>
          ))}
        </address>
      )}
      <dl className="receipt__lines">
        <dt>{t("payments.date")}</dt>
        <dd>{date(order.created_at)}</dd>
        <dt>{t("payments.status_label")}</dt>
        <dd>
          <StatusLabel order={order} />
        </dd>
        <dt>{t("payments.bundle")}</dt>
        <dd>{t("payments.credits_count", { count: order.credits })}</dd>
        <dt>{t("payments.method")}</dt>
        <dd>{t(`payments.methods.${orderMethod(order)}`)}</dd>
        <dt>{t("payments.discount")}</dt>
        <dd data-testid="receipt-discount">
          {order.discount
            ? `${money(-order.discount, order.currency)} (${order.discount_code ?? ""})`
            : money(0, order.currency)}
        </dd>
        <dt>{t("payments.amount_excl_vat")}</dt>
        <dd>{money(order.amount - order.vat, order.currency)}</dd>
        <dt>{t("payments.vat_part")}</dt>
        <dd>{money(order.vat, order.currency)}</dd>
        <dt className="receipt__total">{t("payments.total")}</dt>
        <dd className="receipt__total" data-testid="receipt-total">
          {money(order.amount, order.currency)}
        </dd>
        {order.refunded_credits > 0 && (
          <>
            <dt>{t("payments.refunded")}</dt>
            <dd>
              {t("payments.credits_count", { count: order.refunded_credits })} ·{" "}
              {money(order.refunded_amount, order.currency)}
            </dd>
          </>
        )}
      </dl>
      {order.payment_id && <p className="receipt__reference">{t("payments.reference", { id: order.payment_id })}</p>}
      {message && <FormMessage text={message.text} tone={message.ok ? "success" : "error"} />}
      {data.refundable && data.refund_until && (
        <div className="receipt__refund">
          <p>{t("payments.refund_text", { date: date(data.refund_until) })}</p>
          <button type="button" className="button button--ghost" disabled={busy} onClick={() => void refund()}>
            {t("payments.refund_button")}
          </button>
        </div>
      )}
      <Link href="/transactions">{t("payments.all_transactions")}</Link>
    </section>
  );
}
