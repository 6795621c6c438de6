import { formatMoney, pricingFor, type CountryPricing } from "../../../shared/payments";
import { usePage } from "../../page-context";

/** The price list of the visitor's country (SPEC §1) and a formatter for its money in the page's language. */
export function useOffer(): { country: string; pricing: CountryPricing; money: (amount: number, currency?: string) => string } {
  const { settings, locale } = usePage();
  const { country, pricing } = pricingFor(settings.pricing, settings.countries, settings.geoip_selected_country);
  return { country, pricing, money: (amount, currency = pricing.currency) => formatMoney(amount, currency, locale) };
}

/** A date of an order in the page's language. */
export function useOrderDate(): (seconds: number) => string {
  const { locale } = usePage();
  return (seconds) => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "Europe/Amsterdam" }).format(new Date(seconds * 1000));
}
