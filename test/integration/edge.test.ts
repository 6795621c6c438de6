import { beforeAll, describe, expect, it } from "vitest";
import { putSites, site, loadProfiles } from "../fixtures";
import { fetchWorker, json } from "../http";
import { env } from "cloudflare:workers";
import { LANGUAGES } from "../../src/shared/locales";
import { namedInterests } from "../../src/server/services/catalogue";

beforeAll(async () => {
  await putSites(
    site("nl.test", { domain_language: "nl" }),
    site("de.test", { domain_language: "de", countries: ["DE", "AT", "CH"], minimum_message_costs: {} }),
    site("xx.test", { domain_language: "xx" }),
    site("ch.test", { domain_language: "de_CH", countries: ["CH"], minimum_message_costs: {} }),
  );
  await loadProfiles([]);
});

describe("site from the Host header", () => {
  it("serves the site whose domain is the request's host", async () => {
    const res = await fetchWorker("http://nl.test/api/settings.php");
    expect(res.status).toBe(200);
    expect((await json(res)).domain).toBe("nl.test");
    expect((await json(await fetchWorker("http://de.test/api/settings.php"))).domain).toBe("de.test");
  });

  it("treats www. and a port as the same site", async () => {
    expect((await json(await fetchWorker("http://www.nl.test:8787/api/settings.php"))).domain).toBe("nl.test");
  });

  it("answers an unknown host with a clear 404, as a page and as JSON", async () => {
    const page = await fetchWorker("http://unknown.test/members");
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("This site could not be found");
    const api = await fetchWorker("http://unknown.test/api/settings.php");
    expect(api.status).toBe(404);
    expect(await json(api)).toMatchObject({ error: "unknown_site" });
  });
});

describe("locale", () => {
  const localeOf = async (host: string, cookie?: string) =>
    (await json(await fetchWorker(`http://${host}/api/settings.php`, cookie ? { headers: { cookie } } : {}))).locale;

  it("takes the locale cookie first", async () => {
    expect(await localeOf("nl.test", "locale=fr")).toBe("fr");
  });

  it("else the domain language's first two letters when supported", async () => {
    expect(await localeOf("nl.test")).toBe("nl");
    expect(await localeOf("ch.test")).toBe("de");
  });

  it("else English", async () => {
    expect(await localeOf("xx.test")).toBe("en");
  });

  it("ignores an unsupported locale cookie", async () => {
    expect(await localeOf("nl.test", "locale=xx")).toBe("nl");
    expect(await localeOf("nl.test", "locale=../../etc")).toBe("nl");
  });

  it("renders pages in the chosen language, with the page's texts and not the mail texts", async () => {
    const html = await (await fetchWorker("http://nl.test/lang-config", { headers: { cookie: "locale=en" } })).text();
    expect(html).toContain('<html lang="en"');
    expect(html).toContain(">Search members</a>");
    // The browser's texts come from the file the page names (decision 0042): the app's, not the mails'.
    const texts = /"texts":"(\/texts\/en\.[0-9a-f]{12}\.json)"/.exec(html)![1]!;
    const file = await (await fetchWorker(`http://nl.test${texts}`)).text();
    expect(file).toContain("This page could not be found");
    expect(file).not.toContain("Confirm your e-mail address with this link");
  });

  it("the switcher sets the locale cookie for 365 days and goes back", async () => {
    const res = await fetchWorker("http://nl.test/lang-config?locale=fr&return=%2Fmembers%3Fgender%3Dfemale", {
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/members?gender=female");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^locale=fr;/);
    expect(cookie).toContain("Max-Age=31536000");
    expect(cookie).toContain("Path=/");
  });

  it("the switcher refuses an unsupported language and a foreign return address", async () => {
    const bad = await fetchWorker("http://nl.test/lang-config?locale=xx", { redirect: "manual" });
    expect(bad.status).toBe(404);
    expect(bad.headers.get("set-cookie")).toBeNull();
    const foreign = await fetchWorker("http://nl.test/lang-config?locale=fr&return=//evil.example/", {
      redirect: "manual",
    });
    expect(foreign.headers.get("location")).toBe("/");
  });

  it("offers the language choices of the site's country", async () => {
    expect((await json(await fetchWorker("http://nl.test/api/settings.php"))).languages).toEqual(["nl", "en"]);
    expect((await json(await fetchWorker("http://ch.test/api/settings.php"))).languages).toEqual([
      "de",
      "it",
      "fr",
      "en",
    ]);
  });
});

describe("country", () => {
  const countryOf = async (url: string, headers: Record<string, string> = {}) =>
    (await json(await fetchWorker(url, { headers }))).geoip_country;

  it("is the site's own country locally when nothing overrides it", async () => {
    expect(await countryOf("http://de.test/api/settings.php")).toBe("DE");
  });

  it("takes the development override from the header or the query", async () => {
    expect(await countryOf("http://nl.test/api/settings.php", { "x-dev-country": "BE" })).toBe("BE");
    expect(await countryOf("http://nl.test/api/settings.php?dev_country=be")).toBe("BE");
  });

  it("ignores a malformed override", async () => {
    expect(await countryOf("http://nl.test/api/settings.php?dev_country=Belgium")).toBe("NL");
  });

  it("selects the visitor's country for search only when the site serves it", async () => {
    const be = await json(await fetchWorker("http://nl.test/api/settings.php", { headers: { "x-dev-country": "BE" } }));
    expect(be.geoip_selected_country).toBe("BE");
    const fr = await json(await fetchWorker("http://nl.test/api/settings.php", { headers: { "x-dev-country": "FR" } }));
    expect(fr.geoip_country).toBe("FR");
    expect(fr.geoip_selected_country).toBe("NL");
  });
});

describe("GET /api/settings.php", () => {
  it("answers the whole settings shape plus what the edge resolved", async () => {
    const body = await json(await fetchWorker("http://nl.test/api/settings.php?domain=nl.test&network=abc"));
    for (const field of [
      "name",
      "domain",
      "domain_language",
      "cdn_prefix",
      "niche",
      "signups",
      "logged_out_search",
      "logged_out_search_trafficsource",
      "geoip_country",
      "geoip_selected_country",
      "minimum_message_costs",
      "support_phone",
      "support_email",
      "push_public_key",
      "enable_site_entry_popup",
      "fictional_icon",
      "fictional_warning",
      "fictional_singular",
      "fictional_plural",
      "countries",
      "description",
      "index_title",
      "visible_profile_fields",
      "visible_profile_notes",
      "message_credits",
      "photo_credits",
      "gift_credits",
      "signup_credits",
      "message_length",
      "search_fields",
      "refund_days",
      "member_resell",
      "company_id",
      "mail_name",
    ]) {
      expect(body, field).toHaveProperty(field);
    }
    expect(body.minimum_message_costs).toEqual({
      NL: { costs: 1.5, currency: "EUR" },
      BE: { costs: 1.5, currency: "EUR" },
    });
  });

  it("refuses a forced domain that is not the request's own host, naming the field", async () => {
    const res = await fetchWorker("http://nl.test/api/settings.php?domain=de.test");
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: "invalid_parameter", field: "domain" });
  });
});

describe("company info, interests, regions", () => {
  it("GET /api/companyinfo.php answers the site's company", async () => {
    const body = await json(await fetchWorker("http://nl.test/api/companyinfo.php"));
    expect(body).toMatchObject({ name: "Testing Company B.V.", registration_number: "12345678", delete_discount: 50 });
  });

  it("GET /api/interests.php answers the list the migrations wrote, named in the request's language", async () => {
    const nl = await json<{ interests: { slug: string; name: string }[] }>(
      await fetchWorker("http://nl.test/api/interests.php"),
    );
    expect(nl.interests.slice(0, 3)).toEqual([
      { slug: "music", name: "Muziek" },
      { slug: "travel", name: "Reizen" },
      { slug: "cooking", name: "Koken" },
    ]);
    const rows = await env.DB.prepare("SELECT slug FROM interests ORDER BY sort").all<{ slug: string }>();
    expect(nl.interests.map((i) => i.slug)).toEqual(rows.results.map((r) => r.slug));
    const en = await json<{ interests: { name: string }[] }>(
      await fetchWorker("http://nl.test/api/interests.php", { headers: { cookie: "locale=en" } }),
    );
    expect(en.interests.slice(0, 3).map((i) => i.name)).toEqual(["Music", "Travel", "Cooking"]);
  });

  it("names every interest of the database in each of the 11 languages", async () => {
    const rows = await env.DB.prepare("SELECT slug FROM interests ORDER BY sort").all<{ slug: string }>();
    expect(rows.results.length).toBeGreaterThan(40);
    for (const language of LANGUAGES) {
      const names = namedInterests(
        rows.results.map((r) => r.slug),
        language,
      );
      for (const { slug, name } of names) expect(name, `${language} ${slug}`).not.toMatch(/^interest_names\.|^$/);
    }
  });

  it("GET /api/regions.php answers the regions of the site's countries", async () => {
    const body = await json<{ regions: { code: string }[] }>(await fetchWorker("http://nl.test/api/regions.php"));
    expect(body.regions.map((r) => r.code)).toEqual(["BE-VAN", "NL-NH", "NL-ZH"]);
    const nl = await json<{ regions: { code: string }[] }>(
      await fetchWorker("http://nl.test/api/regions.php?country=NL"),
    );
    expect(nl.regions.map((r) => r.code)).toEqual(["NL-NH", "NL-ZH"]);
    const foreign = await fetchWorker("http://nl.test/api/regions.php?country=DE");
    expect(foreign.status).toBe(400);
    expect(await json(foreign)).toMatchObject({ field: "country" });
  });
});

describe("web app manifest", () => {
  it("names the site asked for, in its language", async () => {
    const res = await fetchWorker("http://de.test/manifest.webmanifest");
    expect(res.headers.get("content-type")).toContain("application/manifest+json");
    expect(await json(res)).toMatchObject({
      name: "Testwave de.test",
      lang: "de",
      display: "standalone",
      start_url: "/members",
    });
  });
});

describe("security headers", () => {
  it("sends a content security policy with a nonce that the page's scripts carry", async () => {
    const res = await fetchWorker("http://nl.test/members");
    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(await res.text()).toContain(`nonce="${nonce}"`);
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });
});
