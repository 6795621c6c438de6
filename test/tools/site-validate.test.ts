/**
 * `npm run site -- validate` against each bad file of issue 40: every one is refused with a message
 * that names the field and the fix, and the example file (development) and a production-ready copy
 * of it (production) pass.
 */
import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");
const EXAMPLE = join(ROOT, "scripts", "sites", "example.nl.json");
const dir = mkdtempSync(join(tmpdir(), "site-validate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type SiteFile = { site: Record<string, unknown> & { pricing: Record<string, Record<string, unknown>> } };
const example = (): SiteFile => JSON.parse(readFileSync(EXAMPLE, "utf8")) as SiteFile;

let files = 0;
/** Run the validator on a file made of these settings; answers its exit code and what it printed. */
function validate(file: SiteFile, ...args: string[]): { status: number | null; output: string } {
  const path = join(dir, `site-${++files}.json`);
  writeFileSync(path, JSON.stringify(file));
  const run = spawnSync(TSX, [join(ROOT, "scripts", "site.ts"), "validate", path, ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

/** A web push public key of a deployment's own (not the development key): an uncompressed P-256 point. */
function ownPushKey(): string {
  const jwk = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "jwk" });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]);
  return point.toString("base64url");
}

/** The example with what production needs of its own: its push key, real partners, a real support address. */
function productionReady(): SiteFile {
  const file = example();
  file.site.push_public_key = ownPushKey();
  file.site.partners = {
    cam: { name: "LiveCams", url: "https://partner-cams.nl/?ref=flirtwave" },
    resell: { name: "DateWave", url: "https://datewave.nl/?ref=flirtwave" },
  };
  file.site.support_email = "support@flirtwave.nl";
  return file;
}

/** A French site priced in kronor that offers Swish, BLIK, iDEAL and direct debit (issue 40, point 4). */
function frenchSiteInKronor(): SiteFile {
  const file = example();
  const nl = file.site.pricing["NL"]!;
  Object.assign(file.site, {
    name: "Flirtwave France",
    domain: "example.fr",
    public_url: "https://example.fr",
    domain_language: "fr",
    time_zone: "Europe/Paris",
    countries: ["FR"],
    minimum_message_costs: { FR: { costs: 5.5, currency: "SEK" } },
    pricing: {
      FR: { ...nl, currency: "SEK", vat_rate: 20, methods: ["swish", "blik", "ideal", "directdebit", "creditcard"] },
    },
  });
  return file;
}

describe("npm run site -- validate", () => {
  it("passes the example file for the local stack, and a production-ready copy of it for production", () => {
    const development = validate(example());
    expect(development.output).toContain("valid settings for example.nl in development");
    expect(development.status).toBe(0);
    const production = validate(productionReady(), "--env", "production");
    expect(production.output).toContain("valid settings for example.nl in production");
    expect(production.status).toBe(0);
  });

  it("refuses Swish, BLIK, iDEAL and direct debit on a French site priced in SEK, naming each and the fix", () => {
    const { status, output } = validate(frenchSiteInKronor());
    expect(status).toBe(1);
    expect(output).toContain(
      "site.pricing.FR.methods: swish is not offered to payers in FR (docs/operations.md lists each method's countries): remove swish from FR's methods",
    );
    expect(output).toContain(
      "site.pricing.FR.methods: blik cannot pay in SEK (it pays in PLN): remove blik, or price FR in a currency it pays in",
    );
    expect(output).toContain(
      "site.pricing.FR.methods: ideal cannot pay in SEK (it pays in EUR): remove ideal, or price FR in a currency it pays in",
    );
    expect(output).toContain(
      "site.pricing.FR.methods: directdebit cannot pay in SEK (it pays in EUR): remove directdebit, or price FR in a currency it pays in",
    );
    expect(output).not.toContain("creditcard");
    expect(output).toContain("not valid for development (4 problems)");
  });

  it("refuses a method offered in a country it does not serve, even in its currency: iDEAL in Belgium", () => {
    const file = example();
    file.site.pricing["BE"]!.methods = ["bancontact", "ideal", "creditcard"];
    const { status, output } = validate(file);
    expect(status).toBe(1);
    expect(output).toContain("site.pricing.BE.methods: ideal is not offered to payers in BE");
  });

  it("refuses direct debit without its settings", () => {
    const file = example();
    delete file.site.direct_debit;
    const { status, output } = validate(file);
    expect(status).toBe(1);
    expect(output).toContain(
      `site.pricing.NL.methods: directdebit needs the site's direct-debit settings: add "direct_debit": { "outstanding_limit_credits": 300 } to the site, or remove directdebit`,
    );
  });

  it("refuses direct-debit settings no country offers", () => {
    const file = example();
    file.site.pricing["NL"]!.methods = ["ideal", "creditcard"];
    const { status, output } = validate(file);
    expect(status).toBe(1);
    expect(output).toContain("site.direct_debit: no country's methods include directdebit");
  });

  it("refuses Klarna where no member can have a direct-debit account, and Klarna in another currency than the country's", () => {
    const file = example();
    file.site.pricing["BE"]!.methods = ["bancontact", "klarna"];
    const belgium = validate(file);
    expect(belgium.status).toBe(1);
    expect(belgium.output).toContain(
      "site.pricing.BE.methods: klarna can be used only by members with a direct-debit account (it takes their billing address from it): add directdebit to BE's methods and the site's direct_debit settings, or remove klarna",
    );

    const swedish = example();
    swedish.site.pricing["NL"]!.currency = "SEK";
    swedish.site.pricing["NL"]!.methods = ["klarna", "creditcard"];
    swedish.site.minimum_message_costs = { NL: { costs: 5.5, currency: "SEK" } };
    delete swedish.site.direct_debit;
    const { output } = validate(swedish);
    expect(output).toContain("site.pricing.NL.methods: klarna pays only in NL's own currency, EUR, not SEK");
  });

  it("refuses a minimum message cost in another currency than the country's prices", () => {
    const file = example();
    file.site.minimum_message_costs = { NL: { costs: 0.49, currency: "GBP" } };
    const { status, output } = validate(file);
    expect(status).toBe(1);
    expect(output).toContain(
      "site.minimum_message_costs.NL.currency: GBP, but NL is priced in EUR: give the cost in EUR",
    );
  });

  it("refuses a public_url of another domain, and a plain-http one in production", () => {
    const file = example();
    file.site.public_url = "https://example.de";
    const { status, output } = validate(file);
    expect(status).toBe(1);
    expect(output).toContain(
      "site.public_url: https://example.de is not an address of example.nl (payments would return members to another site): use https://example.nl, or leave public_url out",
    );
    const plain = productionReady();
    plain.site.public_url = "http://example.nl";
    expect(validate(plain, "--env", "production").output).toContain(
      "site.public_url: http://example.nl is not https: use https://example.nl",
    );
  });

  it('refuses domain_language "br", a language of another country, and a region other than the site\'s', () => {
    const unknown = example();
    unknown.site.domain_language = "br";
    const br = validate(unknown);
    expect(br.status).toBe(1);
    expect(br.output).toContain(
      'site.domain_language: "br" is not a language the product speaks (da, de, en, es, fi, fr, it, nb, nl, pl, sv): use one of NL\'s, nl, en',
    );
    const other = example();
    other.site.domain_language = "de";
    expect(validate(other).output).toContain(
      'site.domain_language: "de" is not a language of NL (its languages are nl, en): use nl',
    );
    const region = example();
    region.site.domain_language = "nl-BE";
    expect(validate(region).output).toContain(
      'site.domain_language: "nl-BE" names the region BE, but the site\'s own country is NL: use "nl" or "nl-NL"',
    );
  });

  it("refuses a translated text missing in a language the site offers", () => {
    const file = example();
    delete (file.site.fictional_warning as Record<string, string>)["nl"];
    (file.site.description as Record<string, string>)["en"] = " ";
    const { status, output } = validate(file);
    expect(status).toBe(1);
    expect(output).toContain("site.fictional_warning.nl: missing: add the Nederlands text (NL offers nl, en)");
    expect(output).toContain("site.description.en: missing: add the English text (NL offers nl, en)");
  });

  it("refuses the development push key, the example's demo partners and its example address in a production file", () => {
    const { status, output } = validate(example(), "--env", "production");
    expect(status).toBe(1);
    expect(output).toContain(
      "site.push_public_key: this is the development key, whose private half is in the repository: make the deployment's pair with npm run vapid",
    );
    expect(output).toContain(
      "site.partners.cam.url: https://cams.example.com/?ref=flirtwave is the example's demo partner, which goes nowhere: put your partner's address, or remove partners.cam",
    );
    expect(output).toContain("site.partners.resell.url: https://dates.example.com/?ref=flirtwave");
    expect(output).toContain("site.support_email: support@nl.flirtwave.example is an example address nobody reads");
    expect(output).toContain("not valid for production (4 problems)");
  });

  it("refuses a local stack's domain in a production file", () => {
    const file = productionReady();
    file.site.domain = "fr.localhost";
    delete file.site.public_url;
    const { status, output } = validate(file, "--env", "production");
    expect(status).toBe(1);
    expect(output).toContain(
      "site.domain: fr.localhost is a local or example name no visitor can reach: put the domain the site is bound to in wrangler.toml's routes",
    );
  });

  it("applies production's rules to every put --remote, with or without --env", () => {
    const path = join(dir, "remote.json");
    writeFileSync(path, JSON.stringify(example()));
    const run = spawnSync(TSX, [join(ROOT, "scripts", "site.ts"), "put", path, "--remote"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("site.push_public_key: this is the development key");
    expect(run.stderr).toContain("not valid for production");
  });

  it("refuses in production a company whose legal notice lacks what the site's countries require", () => {
    const file = productionReady() as SiteFile & { company: Record<string, unknown> };
    const nl = file.site.pricing["NL"]!;
    file.site.pricing = { ...file.site.pricing, FR: { ...nl, vat_rate: 20, methods: ["creditcard"] } };
    file.company.postal_code = "";
    const refused = validate(file, "--env", "production");
    expect(refused.status).toBe(1);
    expect(refused.output).toContain("company.postal_code");
    for (const field of ["share_capital", "publication_director", "host"])
      expect(refused.output).toContain(`company.${field}: a site selling in FR must name it`);
    Object.assign(file.company, {
      postal_code: "1016 BR",
      share_capital: { amount: 1_000_000, currency: "EUR" },
      publication_director: "Camille Martin",
      host: {
        name: "Cloudflare, Inc.",
        address: "101 Townsend St, San Francisco, CA 94107, USA",
        phone: "+1 650 319 8930",
      },
    });
    const fixed = validate(file, "--env", "production");
    expect(fixed.output).not.toContain("company.");
  });
});
