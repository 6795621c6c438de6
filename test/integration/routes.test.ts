import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { decisionKey } from "../../src/server/services/moderation";
import { matchRoute, pathFor, ROUTES } from "../../src/shared/routes";
import { birthDateForAge, loadProfiles, putSites, site } from "../fixtures";
import { Browser, fetchWorker } from "../http";

/** SPEC §2, name: path, verbatim. */
const SPEC_ROUTES: [string, string][] = [
  ["index", "/"],
  ["members", "/members"],
  ["members-id", "/members/{id}"],
  ["likes-m-id", "/likes/m/{id}"],
  ["members-id-chat", "/members/{id}/chat"],
  ["members-id-landing", "/members/{id}/landing"],
  ["members-id-signup", "/members/{id}/signup"],
  ["members-id-landing2-slug", "/members/{id}/landing2/{slug?}"],
  ["members-id-landing3-slug", "/members/{id}/landing3/{slug?}"],
  ["likes", "/likes"],
  ["likes-type", "/likes/{type}"],
  ["chats", "/chats"],
  ["chats-id", "/chats/{id}"],
  ["complaints", "/complaints"],
  ["complete-signup", "/complete-signup"],
  ["signup", "/signup"],
  ["signup-matches", "/signup-matches"],
  ["login", "/login"],
  ["reset-password", "/reset-password"],
  ["reset-password-do", "/reset-password/do"],
  ["account-deleted", "/account-deleted"],
  ["activate-done", "/activate/done"],
  ["activate-error", "/activate/error"],
  ["mail-change-do", "/mail-change/do"],
  ["credits", "/credits"],
  ["credits-repeat-order", "/credits/repeat-order"],
  ["credits-id-paymentmethod", "/credits/{id}/{paymentmethod?}"],
  ["directdebit", "/directdebit"],
  ["transactions-id", "/transactions/{id?}"],
  ["premium", "/premium"],
  ["pricing", "/pricing"],
  ["profile", "/profile"],
  ["notifications", "/notifications"],
  ["lang-config", "/lang-config"],
  ["match-finder", "/match-finder"],
  ["swipe-game", "/swipe-game"],
];

/** A concrete URL for each route, with valid parameters. */
const SAMPLES: Record<string, string[]> = {
  index: ["/"],
  members: ["/members"],
  "members-id": ["/members/1"],
  "likes-m-id": ["/likes/m/1"],
  "members-id-chat": ["/members/1/chat"],
  "members-id-landing": ["/members/1/landing"],
  "members-id-signup": ["/members/1/signup"],
  "members-id-landing2-slug": ["/members/1/landing2", "/members/1/landing2/tonight"],
  "members-id-landing3-slug": ["/members/1/landing3", "/members/1/landing3/discreet"],
  likes: ["/likes"],
  "likes-type": ["/likes/received", "/likes/sent", "/likes/matches"],
  chats: ["/chats"],
  "chats-id": ["/chats/12"],
  "credits-id-paymentmethod": ["/credits/3", "/credits/3/ideal"],
  "transactions-id": ["/transactions", "/transactions/42"],
  "landers-tinderswipe": ["/landers/tinderswipe"],
  "landers-lander-slug": [
    "/landers/alonetonight",
    "/landers/collagelanding/nearby",
    "/landers/gallery",
    "/landers/iconslanding",
    "/landers/maplanding",
    "/landers/socialnetwork",
    "/landers/transitionsvideolanding",
    "/landers/video/mature",
  ],
  token: ["/terms", "/privacy", "/faq"],
  "partner-redirect": ["/out/cam"],
  "decisions-id": ["/decisions/91"],
};

/** The query a sample's page needs: a decision's page opens for its member, here by the mailed link's key. */
const QUERIES: Record<string, string> = {};

beforeAll(async () => {
  await putSites(site("nl.test", { partners: { cam: { name: "Cams", url: "https://cams.example/" } } }));
  await loadProfiles([
    { id: 1, name: "Anna", country: "NL", gender: "female", age: 30, photos: [{ status: "active", main: true }] },
  ]);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT OR IGNORE INTO operators (id, email, status, created_at) VALUES (91, 'routes@flirtwave.test', 'active', 1)",
    ),
    env.DB.prepare(
      "INSERT OR REPLACE INTO moderation_decisions (id, user_id, profile_id, source, outcome, ground, facts, restricts, language, operator_id, created_at, appeal_until) VALUES (91, 1, 1, 'report', 'restrict', 'spam', 'Sent the same text to many members.', 1, 'nl', 91, 1, 2)",
    ),
  ]);
  QUERIES["decisions-id"] = `?key=${await decisionKey(env.SESSION_SECRET, 91, 1)}`;
});

describe("the route table", () => {
  it("has every route of SPEC §2 with its exact name and path", () => {
    for (const [name, path] of SPEC_ROUTES) {
      expect(ROUTES.find((r) => r.name === name)?.path, name).toBe(path);
    }
  });

  it("has the landers and the static pages", () => {
    const paths = ROUTES.map((r) => r.path);
    expect(paths).toContain("/landers/tinderswipe");
    expect(paths).toContain("/landers/{lander}/{slug?}");
    expect(paths).toContain("/{token}");
    for (const page of ["ban", "cookies", "faq", "imprint", "privacy", "return-policy", "service", "terms"])
      expect(paths).toContain(`/pages/${page}`);
  });

  it("matches each sample path to its route, parameters included", () => {
    for (const route of ROUTES) {
      const samples = SAMPLES[route.name] ?? [route.path];
      for (const path of samples) expect(matchRoute(path)?.route.name, path).toBe(route.name);
    }
    expect(matchRoute("/members/12/landing2/romance")?.params).toEqual({ id: "12", slug: "romance" });
    expect(matchRoute("/credits/7/paypal")?.params).toEqual({ id: "7", paymentmethod: "paypal" });
  });

  it("builds paths from names", () => {
    expect(pathFor("members-id", { id: 5 })).toBe("/members/5");
    expect(pathFor("transactions-id")).toBe("/transactions");
    expect(pathFor("index")).toBe("/");
  });
});

describe("every route answers", () => {
  // Renders every screen once: more than one request's worth of time when files run side by side.
  it("with a page for each route and sample", { timeout: 20_000 }, async () => {
    for (const route of ROUTES) {
      for (const path of SAMPLES[route.name] ?? [route.path]) {
        const res = await fetchWorker(`http://nl.test${path}${QUERIES[route.name] ?? ""}`);
        expect(res.status, path).toBe(200);
        expect(res.headers.get("content-type"), path).toContain("text/html");
        const html = await res.text();
        expect(html, path).toContain('<div id="root">');
        expect(html, path).toContain("window.__PAGE__=");
      }
    }
  });
});

describe("no match or failed validation", () => {
  const BAD = [
    "/likes/bogus",
    "/members/abc",
    "/members/0",
    "/members/-1",
    "/members/12345678901",
    "/members/1.5",
    "/chats/x",
    "/credits/3/bitcoin",
    "/credits/abc/ideal",
    "/transactions/abc",
    "/landers/unknown",
    "/landers/video/Not_A_Slug",
    "/landers/video/summer-offer",
    "/members/1/landing2/summer-offer",
    "/pages/unknown",
    "/no-such-page",
    "/members/1/chat/extra",
    "/%E0%A4%A",
  ];

  it("shows the 404 page with a way home, never a 500", async () => {
    for (const path of BAD) {
      const res = await fetchWorker(`http://nl.test${path}`, { headers: { cookie: "locale=en" } });
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expect(html, path).toContain("This page could not be found");
      expect(html, path).toContain("Back to the home page");
    }
  });

  it("shows the 404 page for a profile that does not exist", async () => {
    const res = await fetchWorker("http://nl.test/members/999", { headers: { cookie: "locale=en" } });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("This page could not be found");
  });

  it("shows the 404 page for an id larger than any that exists, and its data source answers 404", async () => {
    for (const id of ["99999999", "2147483648", "9999999999"]) {
      for (const path of [`/members/${id}`, `/likes/m/${id}`]) {
        const res = await fetchWorker(`http://nl.test${path}`, { headers: { cookie: "locale=en" } });
        expect(res.status, path).toBe(404);
        expect(await res.text(), path).toContain("This page could not be found");
      }
      const source = await fetchWorker(`http://nl.test/api/profile.php?id=${id}`);
      expect(source.status, id).toBe(404);
      expect(await source.json(), id).toMatchObject({ error: "not_found" });
    }
  });

  it("shows a member the 404 page for a chat with an id larger than any that exists", async () => {
    const member = new Browser("http://nl.test");
    const signup = await member.post("/api/signup.php", {
      email: "routes-ids@example.com",
      username: "routesids",
      password: "a good password",
      date_of_birth: birthDateForAge(30),
      gender: "male",
      terms: true,
    });
    expect(signup.status).toBe(201);
    for (const path of ["/members/9999999999/chat", "/chats/9999999999", "/chats/99999999"]) {
      const res = await member.fetch(path, { headers: { cookie: "locale=en" } });
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain("This page could not be found");
    }
  });

  it("answers an unknown API path with JSON", async () => {
    const res = await fetchWorker("http://nl.test/api/nothing.php");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });
});

describe("the home page", () => {
  it("is titled with the site's own index title, not followed by the site's name again", async () => {
    await putSites(
      site("title.test", {
        name: "Flirtwave Nederland",
        index_title: { nl: "Flirtwave Nederland – flirten, chatten en daten" },
      }),
    );
    const html = await (await fetchWorker("http://title.test/")).text();
    expect(html).toContain("<title>Flirtwave Nederland – flirten, chatten en daten</title>");
  });

  it("without an index title in the visitor's language, says the site's name once", async () => {
    await putSites(site("title2.test", { name: "Flirtwave Nederland", index_title: {} }));
    const html = await (await fetchWorker("http://title2.test/")).text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
    expect(title).toBe("Leer nieuwe mensen kennen op Flirtwave Nederland");
  });
});
