/**
 * What a site's settings must hold beyond their schema before a country is launched (issue 40,
 * docs/decisions/0056): `npm run site -- validate|put` and the console's Sites screen refuse a file
 * with any of these problems. The schema (settings.ts) says what a field may look like; these rules
 * say whether the fields agree with each other, with the payment provider and with the environment.
 * Each problem names the field and the fix, in English like the rest of the operators' tools
 * (decision 0034).
 */
import { LEGAL_NOTICE_FIELDS } from "./company";
import { LANGUAGE_NAMES, LANGUAGES, isLanguage, languagesForCountry } from "./locales";
import { methodCurrencies, methodCurrencyIn, methodServesCountry, type CountryPricing } from "./payments";
import { LOCALISED_SETTINGS, type CompanyInfo, type SiteSettings } from "./settings";

/** Where the file is to be served: production adds the checks of development leftovers. */
export type SiteEnvironment = "development" | "production";

/**
 * The public half of the committed development VAPID pair (scripts/demo/vapid-keys.ts): every
 * developer's and test's push key, which signs pushes to no real browser.
 */
export const DEVELOPMENT_PUSH_PUBLIC_KEY =
  "BFSyWhI_gMYkzjKtFmzx5b8byb8TfgqrwVqNawohj1eQlSlYxdIU4ME065_29ivSH4VPOkyw7qnQEGYAN8B6nKI";

/**
 * Host names that are never a real party (RFC 2606 and RFC 6761): the example file's demo partners
 * (cams.example.com, dates.example.com) and demo addresses (support@nl.flirtwave.example).
 */
export function isReservedHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return (
    /(^|\.)(example|test|invalid|localhost)$/.test(name) ||
    /(^|\.)example\.(com|net|org)$/.test(name) ||
    name === "localhost"
  );
}

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
};

function paymentProblems(site: SiteSettings): string[] {
  const problems: string[] = [];
  const directDebitSomewhere = Object.values(site.pricing).some((p) => p.methods.includes("directdebit"));
  for (const [country, pricing] of Object.entries(site.pricing) as [string, CountryPricing][]) {
    const field = `site.pricing.${country}.methods`;
    for (const method of pricing.methods) {
      if (!methodCurrencies(method).includes(pricing.currency))
        problems.push(
          `${field}: ${method} cannot pay in ${pricing.currency} (it pays in ${methodCurrencies(method).join(", ")}): remove ${method}, or price ${country} in a currency it pays in`,
        );
      else if (!methodServesCountry(method, country))
        problems.push(
          `${field}: ${method} is not offered to payers in ${country} (docs/operations.md lists each method's countries): remove ${method} from ${country}'s methods`,
        );
      else {
        const own = methodCurrencyIn(method, country);
        if (own !== null && own !== pricing.currency)
          problems.push(
            `${field}: ${method} pays only in ${country}'s own currency, ${own}, not ${pricing.currency}: remove ${method}, or price ${country} in ${own}`,
          );
      }
    }
    if (pricing.methods.includes("directdebit") && site.direct_debit === undefined)
      problems.push(
        `${field}: directdebit needs the site's direct-debit settings: add "direct_debit": { "outstanding_limit_credits": 300 } to the site, or remove directdebit`,
      );
    // The billing address Klarna asks for is the one a member gave with their direct-debit account
    // (services/payments.ts billingAddressOf): without direct debit here, no member can pay with it.
    if (pricing.methods.includes("klarna") && !(pricing.methods.includes("directdebit") && site.direct_debit))
      problems.push(
        `${field}: klarna can be used only by members with a direct-debit account (it takes their billing address from it): add directdebit to ${country}'s methods and the site's direct_debit settings, or remove klarna`,
      );
  }
  if (site.direct_debit !== undefined && !directDebitSomewhere)
    problems.push(
      `site.direct_debit: no country's methods include directdebit, so nobody can use these settings: add directdebit to a country's methods, or remove direct_debit`,
    );
  for (const [country, minimum] of Object.entries(site.minimum_message_costs)) {
    const pricing = site.pricing[country];
    if (pricing && pricing.currency !== minimum.currency)
      problems.push(
        `site.minimum_message_costs.${country}.currency: ${minimum.currency}, but ${country} is priced in ${pricing.currency}: give the cost in ${pricing.currency}`,
      );
  }
  return problems;
}

function addressProblems(site: SiteSettings, environment: SiteEnvironment): string[] {
  if (site.public_url === undefined) return [];
  const url = new URL(site.public_url);
  const problems: string[] = [];
  if (url.hostname !== site.domain && url.hostname !== `www.${site.domain}`)
    problems.push(
      `site.public_url: ${site.public_url} is not an address of ${site.domain} (payments would return members to another site): use https://${site.domain}, or leave public_url out`,
    );
  if (environment === "production" && url.protocol !== "https:")
    problems.push(`site.public_url: ${site.public_url} is not https: use https://${site.domain}`);
  return problems;
}

function languageProblems(site: SiteSettings): string[] {
  const own = site.countries[0]!;
  const offered = languagesForCountry(own);
  const [language, region] = site.domain_language.split(/[-_]/);
  if (!isLanguage(language))
    return [
      `site.domain_language: "${site.domain_language}" is not a language the product speaks (${LANGUAGES.join(", ")}): use one of ${own}'s, ${offered.join(", ")}`,
    ];
  const problems: string[] = [];
  if (!offered.includes(language))
    problems.push(
      `site.domain_language: "${site.domain_language}" is not a language of ${own} (its languages are ${offered.join(", ")}): use ${offered[0]}`,
    );
  if (region !== undefined && region.toUpperCase() !== own)
    problems.push(
      `site.domain_language: "${site.domain_language}" names the region ${region}, but the site's own country is ${own}: use "${language}" or "${language}-${own}"`,
    );
  // Every text per language in every language the site offers: a missing one would fall back to
  // another language's text on the member's page.
  for (const key of LOCALISED_SETTINGS)
    for (const offeredLanguage of offered) {
      const texts = site[key] as Partial<Record<string, string>>;
      const text = texts[offeredLanguage];
      if (text === undefined || text.trim() === "")
        problems.push(
          `site.${key}.${offeredLanguage}: missing: add the ${LANGUAGE_NAMES[offeredLanguage]} text (${own} offers ${offered.join(", ")})`,
        );
    }
  return problems;
}

/** What a production file must not carry over from development or from the example file. */
function productionProblems(site: SiteSettings): string[] {
  const problems: string[] = [];
  if (isReservedHost(site.domain))
    problems.push(
      `site.domain: ${site.domain} is a local or example name no visitor can reach: put the domain the site is bound to in wrangler.toml's routes`,
    );
  if (site.push_public_key === DEVELOPMENT_PUSH_PUBLIC_KEY)
    problems.push(
      `site.push_public_key: this is the development key, whose private half is in the repository: make the deployment's pair with npm run vapid and put its public key here (or "" for no web push)`,
    );
  for (const [name, partner] of Object.entries(site.partners ?? {})) {
    const host = hostOf(partner.url);
    if (host !== null && isReservedHost(host))
      problems.push(
        `site.partners.${name}.url: ${partner.url} is the example's demo partner, which goes nowhere: put your partner's address, or remove partners.${name}`,
      );
  }
  const mailHost = site.support_email.split("@")[1] ?? "";
  if (isReservedHost(mailHost))
    problems.push(
      `site.support_email: ${site.support_email} is an example address nobody reads: put the address members reach support at`,
    );
  return problems;
}

/**
 * The company's rules per country, for a production file: what the legal notice of each country the
 * site sells in requires of the company that runs it (LEGAL_NOTICE_FIELDS: France the share capital,
 * publication director and host; Germany and Austria the managing directors), and a postal code.
 */
function companyProblems(company: CompanyInfo, site: SiteSettings): string[] {
  const problems: string[] = [];
  if (company.postal_code.trim() === "")
    problems.push(
      "company.postal_code: the legal pages and receipts need the postal code: set it as the country writes it",
    );
  const missing = new Map<string, string[]>();
  for (const country of Object.keys(site.pricing))
    for (const field of LEGAL_NOTICE_FIELDS[country] ?? []) {
      const value = company[field];
      if (value === undefined || (Array.isArray(value) && value.length === 0))
        missing.set(field, [...(missing.get(field) ?? []), country]);
    }
  for (const [field, countries] of missing)
    problems.push(
      `company.${field}: a site selling in ${countries.join(", ")} must name it in its legal notice: add it (docs/operations.md, "The company")`,
    );
  return problems;
}

/** Every problem of checked settings for an environment, each as "field: what is wrong: the fix". */
export function siteRuleProblems(
  file: { site: SiteSettings; company?: CompanyInfo | undefined },
  environment: SiteEnvironment,
): string[] {
  const { site, company } = file;
  return [
    ...paymentProblems(site),
    ...addressProblems(site, environment),
    ...languageProblems(site),
    ...(environment === "production" ? productionProblems(site) : []),
    ...(company && environment === "production" ? companyProblems(company, site) : []),
  ];
}
