import { useState } from "react";
import useSWR, { useSWRConfig } from "swr";
import type {
  OrderCreated,
  OrderPrice,
  OrderResponse,
  OrderView,
  PaymentMethodsResponse,
} from "../../../shared/payments-api";
import { isFinalOrderStatus } from "../../../shared/payments-api";
import { methodPaysIn, type Bundle, type CountryPricing, type PaymentMethod } from "../../../shared/payments";
import { apiSend, ApiRequestError } from "../../page/api";
import { FormMessage } from "../../components/Form";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { Pending } from "../../components/Pending";
import { Title } from "../../components/Title";
import { useRouter, useT } from "../../page/page-context";
import { USER_KEY, useUser } from "../../hooks/useUser";
import { orderKey, paymentMethodsKey, typedCode } from "../../page/page-data";
import type { ScreenProps } from "../../page/page-state";
import { OfferLine, useOffer, usePrices } from "./offer";
import { PaymentMark } from "./PaymentMark";
import "./payment.css";

/**
 * /credits/{id}/{paymentmethod?}: the method choice for a bundle, then the order overview and Pay;
 * with ?order= (where the provider sends the member back) the order's status until it is final.
 */
export default function OrderScreen({ params, query }: ScreenProps) {
  const t = useT();
  const { user } = useUser();
  const { pricing } = useOffer();
  if (!user) return <LoginPrompt title={t("routes.credits-id-paymentmethod")} text={t("payments.login_needed")} />;
  const orderId = query.get("order");
  if (orderId && /^[1-9][0-9]{0,9}$/.test(orderId)) return <OrderStatus id={orderId} />;
  const bundle = pricing.bundles.find((b) => b.id === Number(params.id));
  if (!bundle) {
    return (
      <section className="credits">
        <p className="notice notice--error">{t("payments.errors.bundle_not_found")}</p>
        <Link href="/credits">{t("payments.back_to_bundles")}</Link>
      </section>
    );
  }
  const method = params.paymentmethod as PaymentMethod | undefined;
  if (!method || !(pricing.methods as readonly string[]).includes(method))
    return <MethodChoice bundle={bundle} query={query} />;
  return <Overview bundle={bundle} method={method} typed={typedCode(query)} />;
}

/**
 * The methods that can pay this bundle here, as the server has them from the provider's Methods API;
 * until it answers (or if it cannot), the country's list narrowed to the methods that pay in its currency.
 */
function useMethods(bundle: Bundle, pricing: CountryPricing): PaymentMethodsResponse {
  const { data } = useSWR<PaymentMethodsResponse>(paymentMethodsKey(bundle.id));
  return (
    data ?? {
      methods: pricing.methods.filter((m) => m === "directdebit" || methodPaysIn(m, pricing.currency)),
      savable: [],
    }
  );
}

/**
 * The order summary: bundle, (method,) price, discount, VAT and total, all from the server's one
 * price of the order (services/order-price.ts through GET /api/prices.php): nothing is computed here.
 */
function OrderSummary({ price, method }: { price: OrderPrice; method?: PaymentMethod }) {
  const t = useT();
  const { money } = useOffer();
  return (
    <dl className="receipt__lines order-summary" aria-label={t("phone_app.order_summary")}>
      <dt>{t("payments.bundle")}</dt>
      <dd>{t("payments.credits_count", { count: price.credits })}</dd>
      {method && (
        <>
          <dt>{t("payments.method")}</dt>
          <dd className="order-summary__method">
            <PaymentMark method={method} />
            {t(`payments.methods.${method}`)}
          </dd>
        </>
      )}
      <dt>{t("payments.price")}</dt>
      <dd>{money(price.price, price.currency)}</dd>
      <dt>{t("payments.discount")}</dt>
      <dd data-testid="order-discount">
        {price.discount
          ? `${money(-price.discount, price.currency)} (${price.discount_code})`
          : money(0, price.currency)}
      </dd>
      <dt>{t("payments.vat", { rate: price.vat_rate })}</dt>
      <dd>{money(price.vat, price.currency)}</dd>
      <dt className="receipt__total">{t("payments.total")}</dt>
      <dd className="receipt__total" data-testid="order-total">
        {money(price.amount, price.currency)}
      </dd>
    </dl>
  );
}

function MethodChoice({ bundle, query }: { bundle: Bundle; query: URLSearchParams }) {
  const t = useT();
  const { pricing, money } = useOffer();
  const typed = typedCode(query);
  const { data, error, mutate } = usePrices({ code: typed, bundleId: bundle.id });
  const { methods } = useMethods(bundle, pricing);
  const suffix = typed ? `?discount=${encodeURIComponent(typed)}` : "";
  const price = data?.prices[0];
  return (
    <section className="credits">
      <Title text={t("routes.credits-id-paymentmethod")} />
      <h1>{t("payments.choose_method")}</h1>
      {price ? (
        <p data-testid="bundle-line">
          {t("payments.bundle_line", { count: price.credits, price: money(price.amount, price.currency) })}
          {price.discount > 0 && (
            <>
              {" "}
              <s className="bundle__was">{money(price.price, price.currency)}</s>
            </>
          )}
        </p>
      ) : (
        <Pending failed={error !== undefined} retry={() => void mutate()} />
      )}
      {data?.discount && <OfferLine discount={data.discount} />}
      <ul className="methods">
        {methods.map((method) => (
          <li key={method}>
            <Link
              href={
                method === "directdebit"
                  ? `/directdebit?bundle=${bundle.id}`
                  : `/credits/${bundle.id}/${method}${suffix}`
              }
              className="method"
            >
              <PaymentMark method={method} />
              <span className="method__name">{t(`payments.methods.${method}`)}</span>
            </Link>
          </li>
        ))}
      </ul>
      {price && (
        <>
          <h2 className="order-summary__title">{t("phone_app.order_summary")}</h2>
          <OrderSummary price={price} />
        </>
      )}
    </section>
  );
}

function Overview({ bundle, method, typed }: { bundle: Bundle; method: PaymentMethod; typed: string | null }) {
  const t = useT();
  const { pricing, money } = useOffer();
  // The server's price for this bundle and method: the lines below and the order are the same numbers.
  const { data, error, mutate } = usePrices({ code: typed, bundleId: bundle.id, method });
  const savable = useMethods(bundle, pricing).savable.includes(method);
  const [saveMethod, setSaveMethod] = useState(false);
  const { navigate } = useRouter();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const price = data?.prices[0];
  if (!data || !price) return <Pending failed={error !== undefined} retry={() => void mutate()} />;
  const pay = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const { order } = await apiSend<OrderCreated>("POST", "/api/order.php", {
        bundle_id: bundle.id,
        method,
        ...(price.discount_code ? { discount_code: price.discount_code } : {}),
        expected_amount: price.amount,
        ...(savable && saveMethod ? { save_method: true } : {}),
      });
      if (order.checkout_url) window.location.assign(order.checkout_url);
      else navigate(`/credits/${bundle.id}/${method}?order=${order.id}`);
    } catch (failure) {
      setProblem(failure instanceof ApiRequestError ? failure.body.message : t("errors.try_again_later"));
      // The price may have changed (an offer ended, a code was taken): show the server's new one.
      void mutate();
      setBusy(false);
    }
  };
  return (
    <section className="credits">
      <Title text={t("routes.credits-id-paymentmethod")} />
      <h1>{t("payments.overview")}</h1>
      {data.discount && <OfferLine discount={data.discount} />}
      <OrderSummary price={price} method={method} />
      {savable && (
        <label className="choice choice--save">
          <input
            type="checkbox"
            name="save_method"
            checked={saveMethod}
            onChange={(e) => setSaveMethod(e.target.checked)}
          />
          <span>
            {t("payments.save_method")}
            <small className="choice__note">{t("payments.save_method_note")}</small>
          </span>
        </label>
      )}
      {data.refusal && <FormMessage text={data.refusal} />}
      {problem && <FormMessage text={problem} />}
      <div className="form__actions">
        <button type="button" className="button button--primary" disabled={busy} onClick={() => void pay()}>
          {t("payments.pay", { price: money(price.amount, price.currency) })}
        </button>
        <Link
          href={`/credits/${bundle.id}${typed ? `?discount=${encodeURIComponent(typed)}` : ""}`}
          className="button button--ghost"
        >
          {t("payments.other_method")}
        </Link>
      </div>
    </section>
  );
}

/** Payment pending, completed or failed: follows the order until its status is final. */
function OrderStatus({ id }: { id: string }) {
  const t = useT();
  const { money } = useOffer();
  const { mutate } = useSWRConfig();
  const { user } = useUser();
  const {
    data,
    error,
    mutate: retry,
  } = useSWR<OrderResponse, ApiRequestError>(orderKey(id), {
    refreshInterval: (latest) =>
      latest && (latest.order.credited || isFinalOrderStatus(latest.order.status)) ? 0 : 2000,
    onSuccess: (answer) => {
      // The balance and premium badge of the top bar follow a completed payment at once.
      if (answer.order.credited) void mutate(USER_KEY);
    },
  });
  if (!data) {
    if (error?.status === 404) return <p className="notice notice--error">{error.body.message}</p>;
    return <Pending failed={error !== undefined} retry={() => void retry()} />;
  }
  const order: OrderView = data.order;
  if (order.credited && order.status !== "reversed") {
    return (
      <section className="credits payment-result payment-result--completed">
        <Title text={t("payments.completed_title")} />
        <h1>{t("payments.completed_title")}</h1>
        <p>{t("payments.credits_added", { count: order.credits })}</p>
        {user && <p className="credits__balance">{t("payments.balance", { count: user.credits })}</p>}
        {/* "Premium from now on" only for the purchase that made the member premium; later ones add credits. */}
        {data.made_premium && <p>{t("payments.premium_from_now")}</p>}
        <div className="form__actions">
          <Link href="/members" className="button button--primary">
            {t("payments.start_chatting")}
          </Link>
          <Link href={`/transactions/${order.id}`} className="button button--ghost">
            {t("payments.view_receipt")}
          </Link>
        </div>
      </section>
    );
  }
  if (order.status === "failed" || order.status === "canceled" || order.status === "expired") {
    return (
      <section className="credits payment-result payment-result--failed">
        <Title text={t("payments.failed_title")} />
        <h1>{t("payments.failed_title")}</h1>
        {order.recurring && order.method === "creditcard" && <p>{t("payments.recurring_failed")}</p>}
        <div className="form__actions">
          <Link href={`/credits/${order.bundle_id}/${order.method}`} className="button button--primary">
            {t("payments.retry")}
          </Link>
          {order.recurring && order.method === "creditcard" ? (
            <Link href={`/credits/${order.bundle_id}/paypal`} className="button button--ghost">
              {t("payments.pay_with_paypal")}
            </Link>
          ) : (
            <Link href={`/credits/${order.bundle_id}`} className="button button--ghost">
              {t("payments.other_method")}
            </Link>
          )}
        </div>
      </section>
    );
  }
  return (
    <section className="credits payment-result payment-result--pending" aria-busy="true">
      <Title text={t("payments.pending_title")} />
      <h1>{t("payments.pending_title")}</h1>
      <p>
        {order.confirming
          ? t("payments.confirming_text", { count: order.credits, price: money(order.amount, order.currency) })
          : t("payments.pending_text", { count: order.credits, price: money(order.amount, order.currency) })}
      </p>
    </section>
  );
}
