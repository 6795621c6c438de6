/**
 * /pricing names only the ways to pay a visitor of the country can use: Klarna takes its billing
 * address from a member's direct-debit account, so it is named apart, with that condition, and only
 * where the site offers direct debit; direct debit only with the site's settings; no method that
 * cannot pay the country's currency.
 */
import { beforeAll, describe, expect, it } from "vitest";
import nl from "../../locales/nl.json" with { type: "json" };
import { clearSiteCache } from "../../src/server/edge/site";
import { putSites, site } from "../fixtures";
import { fetchWorker } from "../http";

const WITH_DIRECT_DEBIT = "pricing-dd.test";
const WITHOUT_DIRECT_DEBIT = "pricing-no-dd.test";
const euros = (methods: string[]) => ({
  NL: {
    currency: "EUR" as const,
    vat_rate: 21,
    methods: methods as never,
    bundles: [{ id: 1, credits: 50, amount: 995 }],
  },
});

beforeAll(async () => {
  await putSites(
    site(WITH_DIRECT_DEBIT, { countries: ["NL"], pricing: euros(["ideal", "klarna", "directdebit", "swish"]) }),
    site(WITHOUT_DIRECT_DEBIT, {
      countries: ["NL"],
      pricing: euros(["ideal", "klarna", "directdebit"]),
      direct_debit: undefined,
    }),
  );
  clearSiteCache();
});

/** The page's text as a visitor from the Netherlands reads it in Dutch. */
async function pricingText(domain: string): Promise<string> {
  const page = await fetchWorker(`http://${domain}/pricing`, { headers: { cookie: "locale=nl" } });
  expect(page.status).toBe(200);
  return (await page.text()).replaceAll("&#x27;", "'").replaceAll("&amp;", "&");
}

const methodsLine = (names: string[]) => nl.payments.methods_offered.replace("{methods}", names.join(", "));

describe("/pricing", () => {
  it("names Klarna apart, only for members who have set up direct debit, where the site offers direct debit", async () => {
    const text = await pricingText(WITH_DIRECT_DEBIT);
    expect(text).toContain(methodsLine(["iDEAL", "Automatische incasso"]));
    expect(text).toContain(nl.payments.klarna_after_direct_debit);
  });

  it("names neither Klarna nor direct debit where the site has no direct-debit settings", async () => {
    const text = await pricingText(WITHOUT_DIRECT_DEBIT);
    expect(text).toContain(methodsLine(["iDEAL"]));
    expect(text).not.toContain("Klarna");
    expect(text).not.toContain("Automatische incasso");
  });

  it("names no method that cannot pay the country's currency there (Swish in euros)", async () => {
    expect(await pricingText(WITH_DIRECT_DEBIT)).not.toContain("Swish");
  });
});
