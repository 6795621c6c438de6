import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SITES } from "../../scripts/demo/sites";
import { LANDER_VARIANTS } from "../../src/shared/landers";
import { LANDERS } from "../../src/shared/routes";
import { clearSiteCache } from "../../src/server/edge/site";
import { companyKey, siteKey } from "../../src/shared/settings";
import { birthDateForAge, COMPANY, loadProfiles, type FixtureProfile } from "../fixtures";
import { Browser, fetchWorker } from "../http";
import type { User } from "../../src/shared/api";

/** Tests that render every page for every demo site take longer than one request. */
const MANY_PAGES = { timeout: 30_000 };

/** Every lander path, without and with a variant. */
const LANDER_PATHS = [
  "/landers/tinderswipe",
  ...LANDERS.map((l) => `/landers/${l}`),
  ...LANDERS.map((l, i) => `/landers/${l}/${LANDER_VARIANTS[i % LANDER_VARIANTS.length]}`),
];

/** Demo members: two per country the demo sites serve, in real towns. */
const TOWNS: Record<string, [string, number, number][]> = {
  NL: [
    ["Amsterdam", 52.37403, 4.88969],
    ["Utrecht", 52.09083, 5.12222],
  ],
  BE: [
    ["Antwerpen", 51.21989, 4.40346],
    ["Gent", 51.05, 3.71667],
  ],
  DE: [
    ["Berlin", 52.52437, 13.41053],
    ["Hamburg", 53.55073, 9.99302],
  ],
  CH: [
    ["Zürich", 47.36667, 8.55],
    ["Bern", 46.94809, 7.44744],
  ],
  AT: [
    ["Wien", 48.20849, 16.37208],
    ["Graz", 47.06667, 15.45],
  ],
  GB: [
    ["London", 51.50853, -0.12574],
    ["Manchester", 53.48095, -2.23743],
  ],
  IE: [
    ["Dublin", 53.33306, -6.24889],
    ["Cork", 51.89797, -8.47061],
  ],
  DK: [
    ["København", 55.67594, 12.56553],
    ["Aarhus", 56.15674, 10.21076],
  ],
  NO: [
    ["Oslo", 59.91273, 10.74609],
    ["Bergen", 60.39299, 5.32415],
  ],
  SE: [
    ["Stockholm", 59.32938, 18.06871],
    ["Göteborg", 57.70716, 11.96679],
  ],
  PL: [
    ["Warszawa", 52.22977, 21.01178],
    ["Kraków", 50.06143, 19.93658],
  ],
  FI: [
    ["Helsinki", 60.16952, 24.93545],
    ["Tampere", 61.49911, 23.78712],
  ],
  FR: [
    ["Paris", 48.85341, 2.3488],
    ["Lyon", 45.74846, 4.84671],
  ],
  ES: [
    ["Madrid", 40.4165, -3.70256],
    ["Sevilla", 37.38283, -5.97317],
  ],
  IT: [
    ["Roma", 41.89193, 12.51133],
    ["Milano", 45.46427, 9.18951],
  ],
};
const PROFILES: FixtureProfile[] = Object.entries(TOWNS).flatMap(([country, towns], c) =>
  towns.map(([city], i) => ({
    id: 100 + c * 10 + i,
    name: `Demo${country}${i}`,
    country,
    gender: i % 2 ? "male" : "female",
    age: 25 + i,
    city,
    photos: [{ status: "active", main: true }, { status: "active" }],
  })),
);
const COORDINATES = Object.values(TOWNS).flatMap((towns) =>
  towns.flatMap(([, lat, lon]) => [String(lat), String(lon)]),
);

const origin = (domain: string) => `http://${domain}`;

beforeAll(async () => {
  clearSiteCache();
  await env.SETTINGS.put(companyKey(COMPANY_ID), JSON.stringify(COMPANY));
  for (const s of SITES) await env.SETTINGS.put(siteKey(s.domain), JSON.stringify({ ...s, company_id: COMPANY_ID }));
  // A site that keeps its members from visitors (logged_out_search none).
  await env.SETTINGS.put(
    siteKey("closed.test"),
    JSON.stringify({
      ...SITES.find((x) => x.domain === "nl.localhost")!,
      domain: "closed.test",
      logged_out_search: "none",
      logged_out_search_trafficsource: "none",
      company_id: COMPANY_ID,
    }),
  );
  await loadProfiles(PROFILES);
  let id = 1;
  await env.DB.batch([
    env.DB.prepare("DELETE FROM places"),
    ...Object.entries(TOWNS).flatMap(([country, towns]) =>
      towns.map(([name, lat, lon]) =>
        env.DB.prepare(
          "INSERT INTO places (id, country, name, lat, lon, population, cell) VALUES (?, ?, ?, ?, ?, 100000, 0)",
        ).bind(id++, country, name, lat, lon),
      ),
    ),
  ]);
});
const COMPANY_ID = "testco";

describe("the landers", () => {
  it(
    "render for every demo site with its own country's members, fictional ones marked, and no coordinates",
    MANY_PAGES,
    async () => {
      for (const s of SITES) {
        const own = PROFILES.filter((p) => p.country === s.countries[0]);
        for (const path of LANDER_PATHS) {
          const res = await fetchWorker(origin(s.domain) + path);
          expect(res.status, `${s.domain}${path}`).toBe(200);
          const html = await res.text();
          expect(
            own.some((p) => html.includes(`alt="${p.name}"`)),
            `${s.domain}${path} shows a member's photo`,
          ).toBe(true);
          // Members of the other demo countries are not this site's.
          expect(
            PROFILES.filter((p) => !s.countries.includes(p.country)).some((p) => html.includes(`>${p.name}<`)),
            `${s.domain}${path}`,
          ).toBe(false);
          expect(html, `${s.domain}${path}`).toContain(s.fictional_icon);
          expect(html, `${s.domain}${path}`).toContain('href="/signup"');
          for (const coordinate of COORDINATES) expect(html, `${s.domain}${path}`).not.toContain(coordinate);
          expect(html).not.toMatch(/"(lat|lon|latitude|longitude)"/);
        }
      }
    },
  );

  it("place the members' towns on the map lander by name", async () => {
    const html = await (await fetchWorker(`${origin("nl.localhost")}/landers/maplanding`)).text();
    expect(html).toContain("Amsterdam");
    expect(html).toContain("Utrecht");
    expect(html).toMatch(/<svg[^>]*role="img"/);
    expect(html).toMatch(/translate\(\d+ \d+\)/);
  });

  it("answer the showcase call with members and, on request, towns without coordinates; a bad parameter is a 400", async () => {
    const res = await fetchWorker(`${origin("nl.localhost")}/api/showcase.php?towns=1`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      profiles: { name: string; country: string }[];
      towns: Record<string, unknown>[];
    };
    expect(body.profiles.map((p) => p.name).toSorted()).toEqual(["DemoNL0", "DemoNL1"]);
    for (const town of body.towns)
      expect(Object.keys(town).toSorted()).toEqual(["name", "profile_ids", "region", "x", "y"]);
    const bad = await fetchWorker(`${origin("nl.localhost")}/api/showcase.php?towns=yes`, {
      headers: { cookie: "locale=en" },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_parameter", field: "towns" });
  });

  it("show the variant's headline for a known slug and the 404 page for an unknown one", async () => {
    const tonight = await fetchWorker(`${origin("localhost")}/landers/gallery/tonight`, {
      headers: { cookie: "locale=en" },
    });
    expect(await tonight.text()).toContain("Someone is waiting for you tonight");
    for (const path of [
      "/landers/gallery/summer",
      "/landers/tinderswipe/tonight",
      "/members/100/landing2/summer",
      "/members/100/landing3/x",
    ]) {
      const res = await fetchWorker(`${origin("nl.localhost")}${path}`, { headers: { cookie: "locale=en" } });
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain("This page could not be found");
    }
  });
});

describe("the member landing pages", () => {
  it("present one member and lead to signing up to write exactly that member", MANY_PAGES, async () => {
    for (const s of SITES) {
      const member = PROFILES.find((p) => p.country === s.countries[0])!;
      for (const path of [
        `/members/${member.id}/landing`,
        `/members/${member.id}/landing2`,
        `/members/${member.id}/landing2/discreet`,
        `/members/${member.id}/landing3`,
        `/members/${member.id}/landing3/romance`,
      ]) {
        const res = await fetchWorker(`${origin(s.domain)}${path}?network=ads&sub2=x7`);
        expect(res.status, path).toBe(200);
        const html = await res.text();
        expect(html, path).toContain(member.name);
        expect(html, path).toContain(`href="/members/${member.id}/signup?network=ads&amp;sub2=x7"`);
        // Photos as the visitor may see them: the main photo itself, the others blurred.
        expect(html, path).toMatch(/<img[^>]+src="\/media\/p\/[0-9a-f]+\.jpg"/);
        expect(html, path).toMatch(/<img[^>]+src="\/media\/b\/[0-9a-f]+\.jpg"/);
        expect(html, path).not.toContain("/media//media/");
        for (const coordinate of COORDINATES) expect(html, path).not.toContain(coordinate);
      }
    }
  });

  it("show only fictional profiles and members who chose it; the choice is off until made", async () => {
    const member = PROFILES.find((p) => p.country === "NL")!;
    const showcased = async () =>
      (
        (await (await fetchWorker(`${origin("nl.localhost")}/api/showcase.php`)).json()) as {
          profiles: { id: number }[];
        }
      ).profiles.map((p) => p.id);
    const landing = () => fetchWorker(`${origin("nl.localhost")}/members/${member.id}/landing3`);
    try {
      // A real member (not fictional) who never chose it: on no landing page and in no lander's row.
      await env.DB.prepare("UPDATE profiles SET fictional = 0 WHERE id = ?").bind(member.id).run();
      const refused = await landing();
      expect(refused.status).toBe(404);
      expect(await refused.text()).not.toContain(`${member.name}</h1>`);
      expect(await showcased()).not.toContain(member.id);

      // Having chosen it, they appear, under a headline that claims nothing for them.
      await env.DB.prepare(
        "UPDATE users SET promotion_pages = 1 WHERE id = (SELECT user_id FROM profiles WHERE id = ?)",
      )
        .bind(member.id)
        .run();
      const shown = await landing();
      expect(shown.status).toBe(200);
      const html = await shown.text();
      expect(html).toContain(`Begin een chat met ${member.name}`);
      expect(html).not.toMatch(/is nu online|wil graag met je chatten/);
      expect(await showcased()).toContain(member.id);
    } finally {
      await env.DB.batch([
        env.DB.prepare("UPDATE profiles SET fictional = 1 WHERE id = ?").bind(member.id),
        env.DB.prepare(
          "UPDATE users SET promotion_pages = 0 WHERE id = (SELECT user_id FROM profiles WHERE id = ?)",
        ).bind(member.id),
      ]);
    }

    // A member's own setting: off at signup, switched on and off by PUT /api/user.php.
    const browser = new Browser(origin("nl.localhost"));
    const joined = await browser.post("/api/signup.php", {
      email: `promo${Date.now()}@example.com`,
      username: `promo${Date.now() % 100000}`,
      password: "een goed wachtwoord",
      date_of_birth: "1990-04-14",
      gender: "female",
      terms: true,
    });
    expect(joined.status).toBe(201);
    const user = async () => ((await (await browser.fetch("/api/user.php")).json()) as { user: User }).user;
    expect((await user()).promotion_pages).toBe(false);
    expect((await browser.put("/api/user.php", { promotion_pages: true })).status).toBe(200);
    expect((await user()).promotion_pages).toBe(true);
    expect((await browser.put("/api/user.php", { promotion_pages: "yes" })).status).toBe(400);
    expect((await user()).promotion_pages).toBe(true);
    expect((await browser.put("/api/user.php", { promotion_pages: false })).status).toBe(200);
    expect((await user()).promotion_pages).toBe(false);
  });

  it("are a 404 for a member who does not exist", async () => {
    const res = await fetchWorker(`${origin("nl.localhost")}/members/99999/landing`);
    expect(res.status).toBe(404);
  });
});

describe("the home page", () => {
  it("says what the site is and how it works, shows recent members, the premium-match claim and the way in", async () => {
    const html = await (await fetchWorker(`${origin("localhost")}/`)).text();
    expect(html).toContain("How it works");
    expect(html).toContain("46% of our premium members find a match");
    expect(html).toContain('href="/signup"');
    expect(html).toContain('alt="DemoGB0"');
    const dutch = await (await fetchWorker(`${origin("nl.localhost")}/`)).text();
    expect(dutch).toContain("Zo werkt het");
    expect(dutch).toContain('alt="DemoNL0"');
  });

  it("shows no members when visitors may not search", async () => {
    const html = await (await fetchWorker(`${origin("closed.test")}/`)).text();
    expect(html).toContain("Zo werkt het");
    expect(html).not.toContain('alt="DemoNL0"');
    expect(html).not.toContain('alt="DemoNL1"');
  });
});

describe("the first matches", () => {
  it("show a new member the members their search would show first, and ask a visitor to sign up", async () => {
    const browser = new Browser(origin("nl.localhost"));
    const res = await browser.post("/api/signup.php", {
      email: "matches@example.com",
      username: "matchseeker",
      password: "a good password",
      date_of_birth: birthDateForAge(28),
      gender: "male",
      terms: true,
    });
    expect(res.status).toBe(201);
    const html = await (await browser.fetch("/signup-matches", { headers: { cookie: "locale=en" } })).text();
    expect(html).toContain("Your first matches");
    // A man looking for women (the default) sees the woman of his country, not the man.
    expect(html).toContain('alt="DemoNL0"');
    expect(html).not.toContain('alt="DemoNL1"');
    const visitor = await (
      await fetchWorker(`${origin("nl.localhost")}/signup-matches`, { headers: { cookie: "locale=en" } })
    ).text();
    expect(visitor).toContain("Sign up to see your matches");
  });
});

describe("whom a new member looks for", () => {
  const join = async (tag: string, gender: string, lookingFor?: unknown) => {
    const browser = new Browser(origin("nl.localhost"));
    const res = await browser.post("/api/signup.php", {
      email: `looking-${tag}@example.com`,
      username: `looking${tag}`,
      password: "a good password",
      date_of_birth: birthDateForAge(30),
      gender,
      ...(lookingFor === undefined ? {} : { looking_for: lookingFor }),
      terms: true,
    });
    return { browser, res };
  };

  it("is asked at sign-up and followed by the first matches, the search's default and the swipe game", async () => {
    const cases = [
      ["fm", "female", "male", ["male"]],
      ["ff", "female", "female", ["female"]],
      ["mm", "male", "male", ["male"]],
      ["mb", "male", "both", ["female", "male"]],
    ] as const;
    for (const [tag, gender, lookingFor, wanted] of cases) {
      const shown: readonly string[] = wanted;
      const { browser, res } = await join(tag, gender, lookingFor);
      expect(res.status, tag).toBe(201);
      const { user } = (await res.json()) as { user: User };
      await env.DB.prepare("UPDATE users SET status = 'active' WHERE id = (SELECT user_id FROM profiles WHERE id = ?)")
        .bind(user.profile.id)
        .run();
      const search = (await (await browser.fetch("/api/search.php")).json()) as {
        profiles: { gender: string; country: string }[];
      };
      const genders = [...new Set(search.profiles.map((p) => p.gender))].toSorted();
      expect(genders, tag).toEqual([...shown]);
      // "Your first matches" show that same first page.
      const html = await (await browser.fetch("/signup-matches", { headers: { cookie: "locale=en" } })).text();
      expect(html.includes('alt="DemoNL0"'), tag).toBe(shown.includes("female"));
      expect(html.includes('alt="DemoNL1"'), tag).toBe(shown.includes("male"));
      const swipe = await browser.fetch("/api/swipe.php");
      expect(swipe.status, tag).toBe(200);
      const next = ((await swipe.json()) as { profile: { gender: string } | null }).profile;
      if (next) expect(shown, tag).toContain(next.gender);
    }
  });

  it("refuses a value that is none of men, women or both, and stores nobody", async () => {
    const { res } = await join("bad", "female", "aliens");
    expect(res.status).toBe(400);
    const stored = await env.DB.prepare(
      "SELECT count(*) AS n FROM users WHERE email = 'looking-bad@example.com'",
    ).first<{
      n: number;
    }>();
    expect(stored!.n).toBe(0);
  });
});

describe("the traffic source", () => {
  it("survives from a lander through signup into the new member's row", async () => {
    const browser = new Browser(origin("nl.localhost"));
    const lander = await browser.fetch(
      "/landers/socialnetwork/nearby?network=adnet&ref=spring&sub1=a1&sub2=b2&sub3=c3",
    );
    expect(await lander.text()).toContain(
      'href="/signup?network=adnet&amp;ref=spring&amp;sub1=a1&amp;sub2=b2&amp;sub3=c3"',
    );
    const res = await browser.post("/api/signup.php", {
      email: "lander@example.com",
      username: "landervisitor",
      password: "a good password",
      date_of_birth: birthDateForAge(30),
      gender: "male",
      terms: true,
    });
    expect(res.status).toBe(201);
    const row = await env.DB.prepare("SELECT network, ref, sub1, sub2, sub3 FROM users WHERE email = ?")
      .bind("lander@example.com")
      .first();
    expect(row).toEqual({ network: "adnet", ref: "spring", sub1: "a1", sub2: "b2", sub3: "c3" });
  });
});

describe("search engines and sharing", () => {
  const nl = SITES.find((s) => s.domain === "nl.localhost")!;

  it("give each page the site's title and description, Open Graph tags and its canonical address", async () => {
    const html = await (await fetchWorker(`${origin("nl.localhost")}/`)).text();
    expect(html).toContain(`<title>${nl.index_title.nl}</title>`);
    expect(html).toContain(`<meta name="description" content="${nl.description.nl}"/>`);
    expect(html).toContain(`<meta property="og:title" content="${nl.index_title.nl}"/>`);
    expect(html).toContain(`<meta property="og:site_name" content="${nl.name}"/>`);
    expect(html).toContain('<meta property="og:locale" content="nl_NL"/>');
    expect(html).toContain('<link rel="canonical" href="http://nl.localhost/"/>');
    expect(html).not.toContain('name="robots"');
  });

  it("link the same page on every country site in each of its languages, and serve the language asked for", async () => {
    const html = await (await fetchWorker(`${origin("nl.localhost")}/landers/gallery`)).text();
    for (const [lang, href] of [
      ["nl-NL", "http://nl.localhost/landers/gallery"],
      ["en-NL", "http://nl.localhost/landers/gallery?lang=en"],
      ["fr-BE", "http://be.localhost/landers/gallery?lang=fr"],
      ["de-DE", "http://de.localhost/landers/gallery"],
      ["it-CH", "http://ch.localhost/landers/gallery?lang=it"],
      ["en-GB", "http://localhost/landers/gallery"],
    ]) {
      expect(html).toContain(`<link rel="alternate" hrefLang="${lang}" href="${href}"/>`);
    }
    const french = await (await fetchWorker(`${origin("be.localhost")}/landers/gallery?lang=fr`)).text();
    // The Belgian site's French is Belgian French (decision 0039), and the page says so.
    expect(french).toContain('<html lang="fr-BE">');
    expect(french).toContain("Rencontre les nouveaux membres");
    expect(french).toContain('<link rel="canonical" href="http://be.localhost/landers/gallery?lang=fr"/>');
  });

  it("preview a member's page with the member's main photo", async () => {
    const html = await (await fetchWorker(`${origin("nl.localhost")}/members/100`)).text();
    expect(html).toMatch(/<meta property="og:image" content="http:\/\/nl\.localhost\/media\/p\/[0-9a-f]+\.jpg"\/>/);
  });

  it("keep member-only pages out of the index", async () => {
    const html = await (await fetchWorker(`${origin("nl.localhost")}/chats`)).text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).not.toContain('rel="alternate"');
  });

  it("list each site's public pages in its own sitemap", async () => {
    const res = await fetchWorker(`${origin("de.localhost")}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/xml");
    const body = await res.text();
    for (const path of [
      "/",
      "/members",
      "/landers/tinderswipe",
      "/landers/maplanding",
      "/pages/terms",
      "/pages/privacy",
    ])
      expect(body).toContain(`<loc>http://de.localhost${path}</loc>`);
    expect(body).toContain('hreflang="nl-NL" href="http://nl.localhost/pages/terms"');
    expect(body).not.toContain("nl.localhost/chats");
    expect(body).not.toContain("<loc>http://nl.localhost");
    // be.localhost shows visitors only the first page of the search, so it lists it; a site closed to visitors would not.
    expect(await (await fetchWorker(`${origin("be.localhost")}/sitemap.xml`)).text()).toContain(
      "<loc>http://be.localhost/members</loc>",
    );
  });

  it("keep member-only pages out with robots.txt and name the sitemap", async () => {
    const res = await fetchWorker(`${origin("localhost")}/robots.txt`);
    expect(res.status).toBe(200);
    const lines = (await res.text()).split("\n");
    for (const path of [
      "/api/",
      "/chats",
      "/likes",
      "/members/*/chat",
      "/members/*/signup",
      "/profile",
      "/credits",
      "/notifications",
      "/complete-signup",
      "/signup-matches",
    ]) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    for (const path of ["/", "/members", "/members/*", "/landers", "/signup", "/pages"])
      expect(lines).not.toContain(`Disallow: ${path}`);
    expect(lines).toContain("Sitemap: http://localhost/sitemap.xml");
  });
});
