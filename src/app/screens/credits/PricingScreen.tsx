import { listedMethods, pricePerCredit } from "../../../shared/payments";
import { Title } from "../../components/Title";
import { useSettings, useT, useWritingLocale } from "../../page/page-context";
import { useOffer, WhatCreditsBuy } from "./offer";

/**
 * /pricing: the public price list of the visitor's country (bundles, costs in credits, minimum
 * message costs) and the ways to pay that can pay there, Klarna with its condition.
 */
export default function PricingScreen() {
  const t = useT();
  const settings = useSettings();
  const locale = useWritingLocale();
  const { country, pricing, money } = useOffer();
  const minimum = settings.minimum_message_costs[country];
  const listed = listedMethods(pricing, country, settings.direct_debit !== undefined);
  return (
    <section className="credits pricing">
      <Title text={t("routes.pricing")} />
      <h1>{t("routes.pricing")}</h1>
      <table className="pricing__table">
        <thead>
          <tr>
            <th scope="col">{t("payments.bundle")}</th>
            <th scope="col">{t("payments.price")}</th>
            <th scope="col">{t("payments.per_credit_heading")}</th>
          </tr>
        </thead>
        <tbody>
          {pricing.bundles.map((bundle) => (
            <tr key={bundle.id}>
              <td>
                {t("payments.credits_count", { count: bundle.credits })}
                {bundle.popular && <span className="bundle__mark">{t("payments.most_popular")}</span>}
              </td>
              <td>{money(bundle.amount)}</td>
              <td>{money(pricePerCredit(bundle))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{t("payments.prices_include_vat", { rate: pricing.vat_rate })}</p>
      <h2>{t("payments.what_credits_buy")}</h2>
      <ul className="credits__costs">
        <WhatCreditsBuy />
        {minimum && (
          <li>
            {t("payments.minimum_message_cost", {
              price: new Intl.NumberFormat(locale, { style: "currency", currency: minimum.currency }).format(
                minimum.costs,
              ),
            })}
          </li>
        )}
      </ul>
      <p>
        {t("payments.methods_offered", { methods: listed.methods.map((m) => t(`payments.methods.${m}`)).join(", ") })}
      </p>
      {listed.klarnaAfterDirectDebit && <p>{t("payments.klarna_after_direct_debit")}</p>}
      <p>{t("payments.refund_policy", { count: settings.refund_days })}</p>
    </section>
  );
}
