/**
 * The operators' table of payment methods (docs/operations.md, "The payment methods each country and
 * currency can use") says what the code enforces (src/shared/payments.ts): the same currencies and,
 * for the countries the product speaks to, the same countries per method.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COUNTRY_LANGUAGES } from "../../src/shared/locales";
import { CURRENCIES, PAYMENT_METHODS, methodCurrencies, methodServesCountry } from "../../src/shared/payments";

const ROOT = join(import.meta.dirname, "..", "..");
const doc = readFileSync(join(ROOT, "docs", "operations.md"), "utf8");
const section = doc.slice(doc.indexOf("### The payment methods each country and currency can use"));
const rows = new Map(
  [...section.matchAll(/^\| `([a-z0-9]+)` \| ([^|]+) \| ([^|]+) \|/gm)].map((m) => [
    m[1]!,
    { currencies: m[2]!, countries: m[3]! },
  ]),
);
const PRODUCT_COUNTRIES = Object.keys(COUNTRY_LANGUAGES).filter((c) => c !== "US");

describe("docs/operations.md's table of payment methods", () => {
  it("has a row for every method", () => {
    expect([...rows.keys()].toSorted()).toEqual([...PAYMENT_METHODS].toSorted());
  });

  it.each([...PAYMENT_METHODS])("%s: the currencies and countries the code allows", (method) => {
    const row = rows.get(method)!;
    const currencies = CURRENCIES.filter((c) => row.currencies.includes(c));
    expect(currencies.toSorted(), "currencies").toEqual(
      methodCurrencies(method)
        .filter((c) => (CURRENCIES as readonly string[]).includes(c))
        .toSorted(),
    );
    const codes = new Set(`${row.currencies} ${row.countries}`.match(/\b[A-Z]{2}\b/g) ?? []);
    for (const country of PRODUCT_COUNTRIES) {
      const listed =
        row.countries.trim() === "any" ||
        (row.countries.startsWith("SEPA") ? !["CH", "GB"].includes(country) : codes.has(country));
      expect(methodServesCountry(method, country), `${method} in ${country}`).toBe(listed);
    }
  });
});
