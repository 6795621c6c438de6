import { useState, type FormEvent } from "react";
import { FormMessage } from "../../components/Form";
import { Link } from "../../components/Link";
import { LoginPrompt } from "../../components/LoginPrompt";
import { Title } from "../../components/Title";
import { useRouter, useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import type { ScreenProps } from "../../page/page-state";
import { typedCode } from "../../page/page-data";
import { OfferLine, useOffer, usePrices, WhatCreditsBuy } from "./offer";

/** /credits: the bundles of the member's country, the balance, what credits buy and the discount field. */
export default function CreditsScreen({ query }: ScreenProps) {
  const t = useT();
  const { user } = useUser();
  const { pricing, money } = useOffer();
  const { navigate } = useRouter();
  const typed = typedCode(query);
  const [code, setCode] = useState(typed ?? "");
  // The server prices every bundle with the typed code, else with the member's active offer: what the order will charge.
  const { data: quote } = usePrices({ code: typed }, user !== null);
  if (!user) return <LoginPrompt title={t("routes.credits")} text={t("payments.login_needed")} />;
  const discount = typed ? `?discount=${encodeURIComponent(typed)}` : "";
  const applyCode = (event: FormEvent) => {
    event.preventDefault();
    navigate(code.trim() ? `/credits?discount=${encodeURIComponent(code.trim())}` : "/credits", { replace: true });
  };
  return (
    <section className="credits">
      <Title text={t("routes.credits")} />
      <h1>{t("routes.credits")}</h1>
      <p className="credits__balance">{t("payments.balance", { count: user.credits })}</p>
      {quote?.discount && <OfferLine discount={quote.discount} />}
      <ul className="bundles">
        {pricing.bundles.map((bundle) => {
          const price = quote?.prices.find((p) => p.bundle_id === bundle.id);
          return (
            <li key={bundle.id} className={bundle.popular ? "bundle bundle--popular" : "bundle"}>
              {bundle.popular && <span className="bundle__mark">{t("payments.most_popular")}</span>}
              <strong className="bundle__credits">{t("payments.credits_count", { count: bundle.credits })}</strong>
              {price && price.discount > 0 ? (
                <span className="bundle__price">
                  <s className="bundle__was">{money(price.price, price.currency)}</s>{" "}
                  <strong data-testid="bundle-price">{money(price.amount, price.currency)}</strong>
                </span>
              ) : (
                <span className="bundle__price" data-testid="bundle-price">
                  {money(price?.amount ?? bundle.amount, price?.currency)}
                </span>
              )}
              <span className="bundle__per-credit">
                {t("payments.per_credit", {
                  price: money((price?.amount ?? bundle.amount) / bundle.credits, price?.currency),
                })}
              </span>
              <Link href={`/credits/${bundle.id}${discount}`} className="button button--primary">
                {t("payments.choose")}
              </Link>
            </li>
          );
        })}
      </ul>
      <p className="credits__vat">{t("payments.prices_include_vat", { rate: pricing.vat_rate })}</p>
      <h2>{t("payments.what_credits_buy")}</h2>
      <ul className="credits__costs">
        <WhatCreditsBuy />
      </ul>
      <form className="credits__discount" onSubmit={applyCode}>
        <label htmlFor="discount-code">{t("payments.discount_code")}</label>
        <input
          id="discount-code"
          className="field__input"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          maxLength={64}
          autoComplete="off"
        />
        <button type="submit" className="button button--ghost">
          {t("payments.apply")}
        </button>
      </form>
      {quote?.refusal && <FormMessage text={quote.refusal} />}
      <p className="credits__links">
        <Link href="/credits/repeat-order">{t("routes.credits-repeat-order")}</Link> ·{" "}
        <Link href="/transactions">{t("payments.transactions")}</Link> ·{" "}
        <Link href="/pricing">{t("routes.pricing")}</Link>
      </p>
    </section>
  );
}
