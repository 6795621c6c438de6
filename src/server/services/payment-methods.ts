/**
 * The methods a member is offered for a bundle: the site's list for their country, narrowed to what
 * the provider's Methods API says can pay this amount in this currency and country (GET /v2/methods,
 * docs.mollie.com/reference/list-methods), and which of them can be saved for one-tap repeats (the
 * same call with sequenceType=first). The provider's answers are kept per site in KV for a day.
 */
import { canSaveMethod, methodPaysIn, pricingFor } from "../../shared/payments";
import type { PaymentMethodsResponse } from "../../shared/payments-api";
import { AppError } from "../errors";
import { providerLocale, type MethodQuery } from "../payments/provider";
import { billingAddressOf, type Buyer, type PaymentContext } from "./payments";

export const METHODS_REFRESH_SECONDS = 86_400;

type CachedMethods = { methods: string[]; fetched_at: number };

/** The provider's methods for a query, from KV while younger than a day (`ctx.now` decides), else asked again. */
async function providerMethods(ctx: PaymentContext, kv: KVNamespace, query: MethodQuery): Promise<string[]> {
  const key = `payment-methods:${ctx.site.domain}:${ctx.provider.customerScope}:${query.billingCountry}:${query.currency}:${query.amount}:${query.locale}:${query.sequenceType}`;
  const cached = await kv.get<CachedMethods>(key, "json");
  if (cached && ctx.now - cached.fetched_at < METHODS_REFRESH_SECONDS && ctx.now >= cached.fetched_at)
    return cached.methods;
  const methods = await ctx.provider.listMethods(query);
  // KV keeps a key at least a minute; twice the refresh time lets an unused entry go.
  await kv.put(key, JSON.stringify({ methods, fetched_at: ctx.now } satisfies CachedMethods), {
    expirationTtl: METHODS_REFRESH_SECONDS * 2,
  });
  return methods;
}

export async function offeredMethods(
  ctx: PaymentContext,
  kv: KVNamespace,
  buyer: Buyer,
  bundleId: number,
): Promise<PaymentMethodsResponse> {
  const { pricing, country } = pricingFor(ctx.site.pricing, ctx.site.countries, buyer.country);
  const bundle = pricing.bundles.find((b) => b.id === bundleId);
  if (!bundle)
    throw new AppError({
      status: 404,
      code: "bundle_not_found",
      key: "payments.errors.bundle_not_found",
      field: "bundle_id",
    });
  const query = {
    amount: bundle.amount,
    currency: pricing.currency,
    locale: providerLocale(buyer.language, country),
    billingCountry: country,
  };
  const [oneoff, first, address] = await Promise.all([
    providerMethods(ctx, kv, { ...query, sequenceType: "oneoff" }),
    providerMethods(ctx, kv, { ...query, sequenceType: "first" }),
    pricing.methods.includes("klarna") ? billingAddressOf(ctx, buyer, country) : null,
  ]);
  const methods = pricing.methods.filter((m) => {
    // Direct debit is the app's own form (an authorised account), not a method of the hosted checkout.
    if (m === "directdebit") return ctx.site.direct_debit !== undefined;
    return oneoff.includes(m) && methodPaysIn(m, pricing.currency) && (m !== "klarna" || address !== null);
  });
  return { methods, savable: methods.filter((m) => first.includes(m) && canSaveMethod(m, pricing.currency)) };
}
