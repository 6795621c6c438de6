import { beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/server/translations";
import type { PageTexts } from "../../src/shared/translator";
import { loadProfiles, putSites, site } from "../fixtures";
import { LOCALISED_SETTINGS } from "../../src/shared/settings";
import { fetchWorker } from "../http";

const SITE = site("texts.test", { domain_language: "en" });
const SWISS = site("ch.texts.test", {
  countries: ["CH"],
  domain_language: "de",
  minimum_message_costs: { CH: { costs: 1.5, currency: "CHF" } },
});

beforeAll(async () => {
  await putSites(SITE, SWISS);
});

/** The page state a page hands the browser. */
async function pageOf(url: string, headers: Record<string, string> = {}) {
  const html = await (await fetchWorker(url, { headers })).text();
  const state = JSON.parse(/window\.__PAGE__=(.*?)<\/script>/s.exec(html)![1]!) as Record<string, unknown> & {
    texts: string;
    locale: string;
  };
  return { html, state };
}

describe("a page's texts (decision 0042)", () => {
  it("are not in the page: it names their file and asks for it in its head", async () => {
    const { html, state } = await pageOf("http://texts.test/members");
    expect(state).not.toHaveProperty("messages");
    expect(state).not.toHaveProperty("variant");
    expect(state.texts).toMatch(/^\/texts\/en\.[0-9a-f]{12}\.json$/);
    expect(html).toContain(`<link rel="preload" href="${state.texts}" as="fetch" crossorigin="anonymous"/>`);
    // The texts of other screens are nowhere in the search page.
    expect(html).not.toContain('"complete_signup":');
    expect(html).not.toContain((MESSAGES.en.payments as Record<string, string>).login_needed);
    expect(html.length).toBeLessThan(60_000);
  });

  it("come as a file the browser keeps for good: the language's texts but the ones only the Worker uses", async () => {
    const { state } = await pageOf("http://texts.test/members");
    const res = await fetchWorker(`http://texts.test${state.texts}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const texts = (await res.json()) as PageTexts;
    expect(texts.variant).toBeNull();
    const {
      mail: _mail,
      legal_text: _legal,
      interest_names: _interests,
      ...client
    } = MESSAGES.en as Record<string, unknown>;
    expect(texts.messages).toEqual(client);
    // Another visit names the same file; another language another one.
    expect((await pageOf("http://texts.test/members")).state.texts).toBe(state.texts);
    const dutch = await pageOf("http://texts.test/members", { cookie: "locale=nl" });
    expect(dutch.state.texts).toMatch(/^\/texts\/nl\.[0-9a-f]{12}\.json$/);
    expect(((await (await fetchWorker(`http://texts.test${dutch.state.texts}`)).json()) as PageTexts).messages).toEqual(
      Object.fromEntries(
        Object.entries(MESSAGES.nl).filter(([key]) => !["mail", "legal_text", "interest_names"].includes(key)),
      ),
    );
  });

  it("of a regional variant carry its own words beside its language's", async () => {
    const { state, html } = await pageOf("http://ch.texts.test/members");
    expect(state.texts).toMatch(/^\/texts\/de-CH\.[0-9a-f]{12}\.json$/);
    expect(html).toContain('<html lang="de-CH"');
    const texts = (await (await fetchWorker(`http://ch.texts.test${state.texts}`)).json()) as PageTexts;
    expect(texts.variant!.tag).toBe("de-CH");
    expect(JSON.stringify(texts.variant!.messages)).not.toContain("ß");
    expect(texts.messages).toHaveProperty("nav");
  });

  it("answer an address of an earlier deploy with today's texts, not to be kept, and an unknown one with 404", async () => {
    const { state } = await pageOf("http://texts.test/members");
    const old = await fetchWorker("http://texts.test/texts/en.0123456789ab.json");
    expect(old.status).toBe(200);
    expect(old.headers.get("cache-control")).toBe("no-store");
    expect(await old.text()).toBe(await (await fetchWorker(`http://texts.test${state.texts}`)).text());
    for (const path of [
      "/texts/xx.0123456789ab.json",
      "/texts/en.json",
      "/texts/en-US.0123456789ab.json",
      "/texts/..%2Fen.0123456789ab.json",
      "/texts/nl-CH.0123456789ab.json",
    ]) {
      const res = await fetchWorker(`http://texts.test${path}`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { message: string }).message, path).toBe("Not found");
    }
  });
});

describe("the settings a page carries", () => {
  const MULTI = site("settings.texts.test", {
    domain_language: "nl",
    fictional_warning: { nl: "Fictief profiel, nl", en: "Fictional profile, en", de: "Fiktives Profil, de" },
    fictional_singular: { nl: "fictief, nl", en: "fictional, en" },
    fictional_plural: { nl: "fictieve, nl", fr: "fictifs, fr" },
    description: { nl: "Beschrijving, nl", pl: "Opis, pl" },
    index_title: { en: "Title, en" },
  });

  beforeAll(async () => {
    await putSites(MULTI);
  });

  it("hold each text per language in the page's language only; the settings API keeps them all", async () => {
    const { html, state } = await pageOf("http://settings.texts.test/members");
    const settings = state.settings as Record<string, Record<string, string>>;
    expect(state.locale).toBe("nl");
    expect(settings.fictional_warning).toEqual({ nl: "Fictief profiel, nl" });
    expect(settings.fictional_singular).toEqual({ nl: "fictief, nl" });
    expect(settings.fictional_plural).toEqual({ nl: "fictieve, nl" });
    expect(settings.description).toEqual({ nl: "Beschrijving, nl" });
    // None in the page's language: none at all, and the app falls back to its own texts.
    expect(settings.index_title).toEqual({});
    for (const other of [
      "Fictional profile, en",
      "Fiktives Profil, de",
      "fictional, en",
      "fictifs, fr",
      "Opis, pl",
      "Title, en",
    ])
      expect(html).not.toContain(other);

    const api = (await (await fetchWorker("http://settings.texts.test/api/settings.php")).json()) as Record<
      string,
      unknown
    >;
    expect(api.fictional_warning).toEqual(MULTI.fictional_warning);
    expect(api.index_title).toEqual(MULTI.index_title);

    // In English, the English texts.
    const english = (await pageOf("http://settings.texts.test/members?lang=en")).state.settings as Record<
      string,
      Record<string, string>
    >;
    expect(english.fictional_warning).toEqual({ en: "Fictional profile, en" });
    expect(english.index_title).toEqual({ en: "Title, en" });
    expect(english.description).toEqual({});
  });

  it("are found in the settings' schema: every text per language, and nothing else", () => {
    expect(LOCALISED_SETTINGS.toSorted()).toEqual([
      "description",
      "fictional_plural",
      "fictional_singular",
      "fictional_warning",
      "index_title",
    ]);
  });
});

describe("a page's inline state", () => {
  it("carries any member's text back whole, and nothing in it ends its script or opens a comment", async () => {
    const name = "Eve</script><script>window.hacked=1</script><!-- \u2028\u2029 Zoë";
    await loadProfiles([
      { id: 41, name, country: "NL", gender: "female", age: 30, photos: [{ status: "active", main: true }] },
    ]);
    const { html, state } = await pageOf("http://texts.test/members");
    const script = /<script[^>]*>window\.__PAGE__=(.*?)<\/script>/s.exec(html)![1]!;
    expect(script).not.toContain("<");
    const results = (state.fallback as Record<string, [{ profiles: { name: string }[] }]>)["$inf$/api/search.php"]![0]
      .profiles;
    expect(results.map((p) => p.name)).toEqual([name]);
    expect(html).not.toContain("window.hacked=1</script>");
  });
});
