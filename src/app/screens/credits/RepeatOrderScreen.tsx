import { useState } from "react";
import useSWR from "swr";
import type { OrderCreated, RepeatOrderResponse } from "../../../shared/payments-api";
import { apiSend, ApiRequestError } from "../../page/api";
import { FormMessage } from "../../components/Form";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { Pending } from "../../components/Pending";
import { Title } from "../../components/Title";
import { useRouter, useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import { REPEAT_ORDER_KEY } from "../../page/page-data";
import { useOffer } from "./offer";

/** /credits/repeat-order: the member's last order again in one step (SPEC §2). */
export default function RepeatOrderScreen() {
  const t = useT();
  const { user } = useUser();
  const { money } = useOffer();
  const { navigate } = useRouter();
  // What the server will charge: the last order's bundle and method at today's full price (decision 0026).
  const { data, error, mutate } = useSWR<RepeatOrderResponse, ApiRequestError>(user ? REPEAT_ORDER_KEY : null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!user) return <LoginPrompt title={t("routes.credits-repeat-order")} text={t("payments.login_needed")} />;
  const title = <Title text={t("routes.credits-repeat-order")} />;
  if (!data) return <Pending failed={error !== undefined} retry={() => void mutate()} />;
  const last = data.repeat;
  if (!last) {
    return (
      <section className="credits">
        {title}
        <h1>{t("routes.credits-repeat-order")}</h1>
        <p>{t("payments.errors.no_previous_order")}</p>
        <Link href="/credits" className="button button--primary">
          {t("payments.back_to_bundles")}
        </Link>
      </section>
    );
  }
  const { price } = last;
  const repeat = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const { order } = await apiSend<OrderCreated>("POST", "/api/repeat-order.php", { expected_amount: price.amount });
      if (order.checkout_url) window.location.assign(order.checkout_url);
      else navigate(`/credits/${last.bundle_id}/${last.method}?order=${order.id}`);
    } catch (problem) {
      setFailure(problem instanceof ApiRequestError ? problem.body.message : t("errors.try_again_later"));
      void mutate();
      setBusy(false);
    }
  };
  return (
    <section className="credits">
      {title}
      <h1>{t("routes.credits-repeat-order")}</h1>
      <p data-testid="repeat-text">
        {t("payments.repeat_text", {
          count: price.credits,
          price: money(price.amount, price.currency),
          method: t(`payments.methods.${last.method}`),
        })}
      </p>
      <p className="credits__note">{t("order_price.repeat_full_price")}</p>
      {failure && <FormMessage text={failure} />}
      <div className="form__actions">
        <button type="button" className="button button--primary" disabled={busy} onClick={() => void repeat()}>
          {t("order_price.repeat_pay", { price: money(price.amount, price.currency) })}
        </button>
        <Link href="/credits" className="button button--ghost">
          {t("payments.back_to_bundles")}
        </Link>
      </div>
    </section>
  );
}
