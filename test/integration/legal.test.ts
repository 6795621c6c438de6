import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { STATIC_PAGES } from "../../src/shared/routes";
import { FIRST_TERMS_VERSION, isSupportPhone, termsVersion, type LegalPage } from "../../src/shared/legal";
import { allowedPartner } from "../../src/shared/partners";
import { SiteSettings } from "../../src/shared/settings";
import * as v from "valibot";
import { COMPANY, putSites, site } from "../fixtures";
import { Browser, fetchWorker, json } from "../http";

const PARTNERS = {
  cam: { name: "CamPartner", url: "https://cams.partner.example/in?site=nl" },
  resell: { name: "Resell Partner", url: "https://dates.partner.example/" },
};

beforeAll(async () => {
  await putSites(
    site("legal.test", { partners: PARTNERS, refund_days: 14 }),
    site("legal-en.test", { domain_language: "en", support_phone: "+44 20-7946 0000" }),
  );
});

const page = async (path: string, locale = "nl") => {
  const visitor = new Browser(path.startsWith("http://legal-en") ? "http://legal-en.test" : "http://legal.test");
  visitor.cookies.set("locale", locale);
  return visitor.fetch(path.replace(/^http:\/\/[^/]+/, ""));
};

describe("the terms version (SPEC §9)", () => {
  it("is 2023-12-01 12:00 UTC, or the company's added date when that is later", () => {
    expect(FIRST_TERMS_VERSION).toBe("2023-12-01T12:00:00.000Z");
    expect(termsVersion(undefined)).toBe("2023-12-01T12:00:00.000Z");
    expect(termsVersion("2020-05-01T00:00:00Z")).toBe("2023-12-01T12:00:00.000Z");
    expect(termsVersion("2023-12-01T11:59:59Z")).toBe("2023-12-01T12:00:00.000Z");
    expect(termsVersion("2023-12-01T12:00:01Z")).toBe("2023-12-01T12:00:01.000Z");
    expect(termsVersion("2024-03-01T12:00:00.000Z")).toBe("2024-03-01T12:00:00.000Z");
    expect(termsVersion("not a date")).toBe("2023-12-01T12:00:00.000Z");
  });

  it("is the date the terms page shows, the same one signup records", async () => {
    const terms = await json<LegalPage>(await page("/api/legal.php?page=terms", "en"));
    expect(COMPANY.added).toBe("2024-03-01T12:00:00.000Z");
    expect(terms.version).toBe("Version of March 1, 2024 at 12:00 PM UTC");
  });
});

describe("the support phone comparison (SPEC §9)", () => {
  it("ignores dashes and spaces, and nothing else", () => {
    expect(isSupportPhone("+31 20 000 0000", "+31 20 000 0000")).toBe(true);
    expect(isSupportPhone("+31-20-000-0000", "+31 20 000 0000")).toBe(true);
    expect(isSupportPhone("+312000 00000", "+31 20-000 0000")).toBe(true);
    expect(isSupportPhone(" +31\u00a020 000 0000 ", "+31 20 000 0000")).toBe(true);
    expect(isSupportPhone("+31 20 000 0001", "+31 20 000 0000")).toBe(false);
    expect(isSupportPhone("0031 20 000 0000", "+31 20 000 0000")).toBe(false);
    expect(isSupportPhone("", "")).toBe(false);
    expect(isSupportPhone(" - ", "+31 20 000 0000")).toBe(false);
  });
});

describe("the static pages", () => {
  for (const name of STATIC_PAGES) {
    it(`${name}: at /pages/${name} and /${name}, in Dutch, filled in from the company and the settings`, async () => {
      for (const path of [`/pages/${name}`, `/${name}`]) {
        const res = await page(path);
        expect(res.status, path).toBe(200);
        const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(await res.text())![1]!;
        expect(main).toContain(COMPANY.name);
        expect(main).toContain("support@example.com");
        expect(main).not.toMatch(/\{\w+\}/);
      }
      const text = await json<LegalPage>(await page(`/api/legal.php?page=${name}`));
      expect(text.sections.length).toBeGreaterThan(0);
      expect(text.us).toBeNull();
    });
  }

  it("terms name the company, its registration and the prices; the return policy the refund days", async () => {
    const terms = JSON.stringify(await json<LegalPage>(await page("/api/legal.php?page=terms", "en")));
    for (const part of [
      COMPANY.name,
      COMPANY.address,
      COMPANY.registration_number,
      COMPANY.vat_numbers[0]!,
      "Testwave legal.test",
      "5 credits",
    ])
      expect(terms).toContain(part);
    const returns = JSON.stringify(await json<LegalPage>(await page("/api/legal.php?page=return-policy", "en")));
    expect(returns).toContain("within 14 days of the purchase");
  });

  it("privacy names the export and the erasure; English readers also get the US text", async () => {
    const dutch = await json<LegalPage>(await page("/api/legal.php?page=privacy"));
    expect(dutch.us).toBeNull();
    const english = await json<LegalPage>(await page("/api/legal.php?page=privacy", "en"));
    expect(JSON.stringify(english.sections)).toContain("Download my data");
    expect(english.us?.map((s) => s.heading)).toContain("Privacy notice for United States residents");
    expect(await (await page("/pages/privacy", "en")).text()).toContain("California");
  });

  it("cookies list the real cookies and local keys with their lifetimes", async () => {
    const cookies = await json<LegalPage>(await page("/api/legal.php?page=cookies", "en"));
    const byName = Object.fromEntries(cookies.storage!.map((item) => [item.name, item]));
    expect(byName.session).toMatchObject({ kind: "cookie", lifetime: "30 days" });
    expect(byName.locale).toMatchObject({ kind: "cookie", lifetime: "365 days" });
    expect(byName.trafficsource).toMatchObject({ kind: "cookie", lifetime: "30 days" });
    for (const key of [
      "site-entry-skip",
      "hide-enrich-alert",
      "hide-push-notification-alert",
      "hide-disabled-notifications-alert",
      "hide-time-bonus-modal",
    ]) {
      expect(byName[key], key).toMatchObject({ kind: "local", lifetime: "Until you clear it" });
    }
  });

  it("an unknown page is a 404, in the API and as a page", async () => {
    expect((await page("/api/legal.php?page=impressum")).status).toBe(400);
    expect((await page("/pages/impressum")).status).toBe(404);
  });

  it("customer service shows the support phone and e-mail of the site", async () => {
    const html = await (await page("http://legal-en.test/pages/service", "en")).text();
    expect(html).toContain("+44 20-7946 0000");
    expect(html).toContain("Is this our number?");
  });
});

describe("the redirect to a partner", () => {
  it("counts down to a partner of the site's allow-list", async () => {
    const res = await page("/out/cam", "en");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("https://cams.partner.example/in?site=nl");
    expect(html).toContain("You will be taken there in 5 seconds.");
    expect(await json(await page("/api/partner.php?name=resell"))).toEqual({
      partner: { ...PARTNERS.resell, seconds: 5 },
    });
  });

  it("refuses any target outside the allow-list, and never follows an address from the request", async () => {
    for (const path of [
      "/out/evil",
      "/out/constructor",
      "/out/__proto__",
      "/out/https%3A%2F%2Fevil.example",
      "/out//evil.example",
    ]) {
      const res = await page(path, "en");
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toMatch(/href="(https:)?\/\/evil\.example/);
    }
    for (const name of ["evil", "constructor", "toString", "https://evil.example"]) {
      expect((await page(`/api/partner.php?name=${encodeURIComponent(name)}`)).status, name).toBe(404);
    }
    const smuggled = await (await page("/out/cam?url=https://evil.example&to=//evil.example", "en")).text();
    expect(smuggled).toContain('href="https://cams.partner.example/in?site=nl"');
    expect(smuggled).not.toMatch(/href="(https:)?\/\/evil\.example/);
    // A site without partners sends nobody anywhere.
    expect((await page("http://legal-en.test/out/cam", "en")).status).toBe(404);
  });

  it("takes only https partners into the settings, and looks them up by their own name", () => {
    const settings = (partners: unknown) => v.safeParse(SiteSettings, { ...site("x.test"), partners }).success;
    expect(settings(PARTNERS)).toBe(true);
    expect(settings({ cam: { name: "x", url: "http://cams.example/" } })).toBe(false);
    expect(settings({ cam: { name: "x", url: "javascript:alert(1)" } })).toBe(false);
    expect(settings({ "Evil Name": { name: "x", url: "https://cams.example/" } })).toBe(false);
    expect(allowedPartner({ partners: PARTNERS }, "cam")).toEqual(PARTNERS.cam);
    expect(allowedPartner({ partners: PARTNERS }, "hasOwnProperty")).toBeUndefined();
    expect(allowedPartner({ partners: { cam: { name: "x", url: "ftp://files.example/" } } }, "cam")).toBeUndefined();
  });
});

describe("the cam-profile promotion block", () => {
  it("shows the cam partner, or the resell partner when the site resells its members", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO users (id, email, username, status, site_domain) VALUES (7001, 'cam@example.invalid', 'camgirl', 'active', 'legal.test')",
    ).run();
    await env.DB.prepare(
      "INSERT OR IGNORE INTO profiles (id, user_id, name, country, gender, birth_date) VALUES (7001, 7001, 'Mila', 'NL', 'female', '1995-01-01')",
    ).run();
    const cam = await (await page("/members/7001", "en")).text();
    expect(cam).toContain("cam-promotion--cam");
    expect(cam).toContain('href="/out/cam"');
    // Settings are cached for a minute per isolate: the resell site is a host not read yet.
    await env.SETTINGS.put(
      "site:legal-resell.test",
      JSON.stringify(site("legal-resell.test", { partners: PARTNERS, member_resell: true })),
    );
    const resell = await (
      await fetchWorker("http://legal-resell.test/members/7001", { headers: { cookie: "locale=en" } })
    ).text();
    expect(resell).toContain("cam-promotion--resell");
    expect(resell).toContain("More members like Mila");
    expect(resell).toContain('href="/out/resell"');
  });
});
