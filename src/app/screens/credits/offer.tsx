import useSWR from "swr";
import { memberDate } from "../../../shared/dates";
import { TIME_BONUS_CODE, WELCOME_CODE, type DiscountView } from "../../../shared/discounts";
import { formatMoney, pricingFor, type CountryPricing } from "../../../shared/payments";
import type { PricesResponse } from "../../../shared/payments-api";
import type { ApiRequestError } from "../../page/api";
import { usePage, useT, useWritingLocale } from "../../page/page-context";
import { pricesKey } from "../../page/page-data";
import { creditValueOf, moneyOfCredits } from "../../../shared/send-costs";

/** The price list of the visitor's country (SPEC §1) and a formatter for its money in the page's language. */
export function useOffer(): {
  country: string;
  pricing: CountryPricing;
  money: (amount: number, currency?: string) => string;
} {
  const { settings } = usePage();
  const locale = useWritingLocale();
  const { country, pricing } = pricingFor(settings.pricing, settings.countries, settings.geoip_selected_country);
  return { country, pricing, money: (amount, currency = pricing.currency) => formatMoney(amount, currency, locale) };
}

/** A date of an order in the page's language and the site's time zone (shared/dates.ts). */
export function useOrderDate(): (seconds: number) => string {
  const { settings } = usePage();
  const locale = useWritingLocale();
  return (seconds) => memberDate(seconds, locale, settings.time_zone, "dateTime");
}

/** The prices the server computed for the member (GET /api/prices.php): the ones their order will be created with. */
export function usePrices(
  query: { code?: string | null; bundleId?: number | null; method?: string | null } = {},
  enabled = true,
) {
  return useSWR<PricesResponse, ApiRequestError>(enabled ? pricesKey(query) : null);
}

/** The line that says which offer a price carries (SPEC §4: the time bonus if present, otherwise the welcome discount). */
export function OfferLine({ discount }: { discount: DiscountView }) {
  const t = useT();
  const values = { percentage: discount.percentage, code: discount.code };
  const key =
    discount.code === TIME_BONUS_CODE
      ? "order_price.time_bonus_applies"
      : discount.code === WELCOME_CODE
        ? "order_price.welcome_applies"
        : "discounts.applied";
  return (
    <p className="credits__discount-applied" data-testid="offer-line">
      {t(key, values)}
    </p>
  );
}

/**
 * What credits buy, each price with its money beside it: from the cheapest bundle's price per credit,
 * the least a member pays for it (docs/decisions/0064).
 */
export function WhatCreditsBuy() {
  const t = useT();
  const { settings } = usePage();
  const { pricing, money } = useOffer();
  const value = creditValueOf(null, pricing);
  const from = (credits: number) => {
    const worth = moneyOfCredits(credits, value);
    return worth ? ` · ${t("spend.from", { money: money(worth.amount, worth.currency) })}` : "";
  };
  return (
    <>
      <li>
        {t("payments.cost_message", { count: settings.message_credits })}
        {from(settings.message_credits)}
      </li>
      <li>
        {t("payments.cost_photo", { count: settings.photo_credits })}
        {from(settings.photo_credits)}
      </li>
      <li>
        {t("payments.cost_gift", { count: settings.gift_credits })}
        {from(settings.gift_credits)}
      </li>
    </>
  );
}
