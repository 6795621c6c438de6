const COUNTRY = /^[A-Z]{2}$/;

type CountrySource = {
  environment: string;
  cfCountry: unknown;
  override: string | undefined;
  devCountry: string;
  siteCountry: string;
};

/**
 * The visitor's country. In production it is Cloudflare's geoip (`request.cf.country`) or null.
 * In development, where workerd has no geoip, an override (?dev_country=XX, X-Dev-Country) wins,
 * then DEV_COUNTRY, then the site's own country.
 */
export function resolveCountry(source: CountrySource): string | null {
  if (source.environment === "development") {
    const override = source.override?.toUpperCase();
    if (override && COUNTRY.test(override)) return override;
    if (COUNTRY.test(source.devCountry)) return source.devCountry;
    return source.siteCountry;
  }
  return typeof source.cfCountry === "string" && COUNTRY.test(source.cfCountry) ? source.cfCountry : null;
}
