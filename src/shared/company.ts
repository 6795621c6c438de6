/**
 * How the company behind a site is written wherever it is named: the legal pages, the receipts and
 * the mails draw the same lines from its settings (decision 0057), in the reader's language, with
 * the registration number under the name its own country's register has.
 */
import type { Translate } from "./translator";
import type { CompanyInfo } from "./settings";
import { formatMoney } from "./payments";

/**
 * Each country's name for the register and number a company is known by, as that country writes
 * it: a proper name, the same in every language (a French reader of a Dutch company reads "KvK").
 */
export const REGISTER_NAMES: Readonly<Record<string, string>> = {
  AT: "Firmenbuch",
  BE: "KBO/BCE",
  CH: "UID/IDE",
  DE: "Handelsregister HRB",
  DK: "CVR",
  ES: "CIF/NIF",
  FI: "Y-tunnus",
  FR: "SIREN/RCS",
  GB: "Companies House",
  IE: "CRO",
  IT: "REA/P.IVA",
  LU: "RCS Luxembourg",
  NL: "KvK",
  NO: "Organisasjonsnummer",
  PL: "KRS/NIP",
  PT: "NIPC",
  SE: "Organisationsnummer",
  US: "EIN",
};

/** The register of a company's country; a country not listed yet shows its code, so nothing is named wrongly. */
export const registerName = (country: string): string => REGISTER_NAMES[country] ?? country;

/**
 * What a country's legal notice must name besides the name, address and registration, by the
 * site's own country (its first): France's LCEN art. 6 III (share capital, publication director,
 * host), Germany's DDG § 5 and Austria's ECG § 5 / UGB § 14 (who represents the company).
 */
export const LEGAL_NOTICE_FIELDS: Readonly<
  Record<string, readonly ("share_capital" | "publication_director" | "host" | "managing_directors")[]>
> = {
  FR: ["share_capital", "publication_director", "host"],
  DE: ["managing_directors"],
  AT: ["managing_directors"],
};

/** Countries that write the postal code after the town ("London EC1A 1BB"); the others before it ("1016 BR Amsterdam"). */
const CODE_AFTER_TOWN = new Set(["GB", "IE", "US"]);

/** The postal code and the town, in the order the company's country writes them. */
export function postalTown(company: CompanyInfo): string {
  if (!company.postal_code) return company.city;
  return CODE_AFTER_TOWN.has(company.country)
    ? `${company.city} ${company.postal_code}`
    : `${company.postal_code} ${company.city}`;
}

/** The values the company's texts are filled in with (the legal texts and the lines below). */
export function companyValues(company: CompanyInfo, t: Translate): Record<string, string> {
  const country = t(`countries.${company.country}`, { defaultValue: company.country });
  return {
    company: company.name,
    address: company.address,
    city: company.city,
    postal_town: postalTown(company),
    country,
    full_address: [company.address, postalTown(company), country].join(", "),
    register: registerName(company.country),
    number: company.registration_number,
    registration: `${registerName(company.country)} ${company.registration_number}`,
    vat: company.vat_numbers.join(", "),
    tradenames: company.tradenames.join(", "),
  };
}

/** The company's address with its postal code, and its registration: the lines every mail ends with. */
export function companyAddressLines(company: CompanyInfo, t: Translate): string[] {
  const values = companyValues(company, t);
  return [values.full_address!, t("company.registration", values)];
}

/**
 * The lines under the company's name: its address with the postal code, its registration, its VAT
 * numbers and what its legal notice requires where the settings hold it (share capital,
 * managing directors, publication director, host). `locale` writes the share capital.
 */
export function companyLines(company: CompanyInfo, t: Translate, locale: string): string[] {
  const lines = companyAddressLines(company, t);
  if (company.vat_numbers.length > 0) lines.push(t("company.vat", { vat: company.vat_numbers.join(", ") }));
  if (company.share_capital)
    lines.push(
      t("company.share_capital", {
        capital: formatMoney(company.share_capital.amount, company.share_capital.currency, locale),
      }),
    );
  if (company.managing_directors && company.managing_directors.length > 0)
    lines.push(t("company.managing_directors", { names: company.managing_directors.join(", ") }));
  if (company.publication_director)
    lines.push(t("company.publication_director", { name: company.publication_director }));
  if (company.host) lines.push(t("company.host", { ...company.host }));
  return lines;
}
