import { useState } from "react";
import useSWR from "swr";
import type { OrderCreated, TransactionsResponse } from "../../../shared/payments-api";
import { apiSend, ApiRequestError } from "../../api";
import { FormMessage } from "../../components/Form";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { Pending } from "../../components/Pending";
import { Title } from "../../components/Title";
import { useRouter, useT } from "../../page-context";
import { useUser } from "../../hooks/useUser";
import { TRANSACTIONS_KEY } from "../../page-data";
import { useOffer } from "./offer";

/** /credits/repeat-order: the member's last order again in one step (SPEC §2). */
export default function RepeatOrderScreen() {
  const t = useT();
  const { user } = useUser();
  const { money } = useOffer();
  const { navigate } = useRouter();
  const { data, error, mutate } = useSWR<TransactionsResponse, ApiRequestError>(user ? TRANSACTIONS_KEY : null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!user) return <LoginPrompt title={t("routes.credits-repeat-order")} text={t("payments.login_needed")} />;
  const title = <Title text={t("routes.credits-repeat-order")} />;
  if (!data) return <Pending failed={error !== undefined} retry={() => void mutate()} />;
  const last = data.orders.find((o) => o.status === "paid") ?? data.orders[0];
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
  const repeat = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const { order } = await apiSend<OrderCreated>("POST", "/api/repeat-order.php");
      if (order.checkout_url) window.location.assign(order.checkout_url);
      else navigate(`/credits/${last.bundle_id}/${last.method}?order=${order.id}`);
    } catch (problem) {
      setFailure(problem instanceof ApiRequestError ? problem.body.message : t("errors.try_again_later"));
      setBusy(false);
    }
  };
  return (
    <section className="credits">
      {title}
      <h1>{t("routes.credits-repeat-order")}</h1>
      <p>{t("payments.repeat_text", { credits: last.credits, price: money(last.amount, last.currency), method: t(`payments.methods.${last.method}`) })}</p>
      {failure && <FormMessage text={failure} />}
      <div className="form__actions">
        <button type="button" className="button button--primary" disabled={busy} onClick={() => void repeat()}>
          {t("payments.repeat_button")}
        </button>
        <Link href="/credits" className="button button--ghost">
          {t("payments.back_to_bundles")}
        </Link>
      </div>
    </section>
  );
}
