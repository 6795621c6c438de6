/**
 * docs/operations.md's launch checklist explains what the code reads: every field of a site's
 * settings and of its company has a row in the tables, and the table of payment methods says what
 * src/shared/payments.ts enforces (the same currencies and, for the countries the product speaks to,
 * the same countries per method).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COUNTRY_LANGUAGES } from "../../src/shared/locales";
import { CURRENCIES, PAYMENT_METHODS, methodCurrencies, methodServesCountry } from "../../src/shared/payments";
import { CompanyInfoFields, SiteSettings } from "../../src/shared/settings";

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

/** The fields a table of the doc's section explains: every `name` in its rows' first cell. */
function explained(heading: string): Set<string> {
  const start = doc.indexOf(heading);
  const text = doc.slice(start, doc.indexOf("\n### ", start + heading.length));
  return new Set(
    [...text.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([a-z_]+)`/g)].map((f) => f[1]!)),
  );
}

describe("docs/operations.md's tables of settings", () => {
  it("explain every field of a site's settings", () => {
    const fields = Object.keys(SiteSettings.pipe[0].entries);
    const site = explained("### The site's settings (`site`)");
    expect(fields.filter((field) => !site.has(field))).toEqual([]);
  });

  it("explain every field of the company", () => {
    const company = explained("### The company (`company`)");
    expect(Object.keys(CompanyInfoFields.entries).filter((field) => !company.has(field))).toEqual([]);
  });
});

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
