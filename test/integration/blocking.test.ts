import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileResponse, SearchResponse, User } from "../../src/shared/api";
import { birthDateForAge, loadProfiles, putSites, site } from "../fixtures";
import { Browser, json } from "../http";

const ORIGIN = "http://nl.test";
let n = 0;

async function member(gender: "male" | "female", sexuality?: string) {
  n++;
  const browser = new Browser(ORIGIN);
  browser.cookies.set("locale", "en");
  const res = await browser.post("/api/signup.php", {
    email: `blk${n}@example.com`,
    username: `blk${n}`,
    password: "a good password",
    date_of_birth: birthDateForAge(35),
    gender,
    terms: true,
  });
  const { user } = await json<{ user: User }>(res);
  if (sexuality) await browser.put("/api/profile.php", { sexuality });
  return { browser, user, id: user.profile.id };
}

const searchIds = async (browser: Browser, query = "") =>
  (await json<SearchResponse>(await browser.fetch(`/api/search.php${query}`))).profiles.map((p) => p.id);

beforeAll(async () => {
  await putSites(site("nl.test"));
  await loadProfiles([
    { id: 1, name: "Fenna", country: "NL", gender: "female", age: 33 },
    { id: 2, name: "Gijs", country: "NL", gender: "male", age: 36 },
    { id: 3, name: "Lotte", country: "BE", gender: "female", age: 31 },
  ]);
});

describe("a member's search", () => {
  it("starts from their own country and preference, and never shows themselves", async () => {
    const { browser, id } = await member("female");
    const r = await json<SearchResponse>(await browser.fetch("/api/search.php"));
    expect(r.query).toMatchObject({ gender: "male", country: "NL" });
    expect(r.profiles.every((p) => p.gender === "male")).toBe(true);
    expect(r.profiles.map((p) => p.id)).not.toContain(id);
    const everyone = await searchIds(browser, "?gender=any");
    expect(everyone).toContain(1);
    expect(everyone).toContain(2);
    expect(everyone).not.toContain(id);
  });

  it("follows the sexuality: lesbian women look for women, bi members for everyone", async () => {
    const lesbian = await member("female", "lesbian");
    expect((await json<SearchResponse>(await lesbian.browser.fetch("/api/search.php"))).query.gender).toBe("female");
    const bi = await member("male", "bi");
    expect((await json<SearchResponse>(await bi.browser.fetch("/api/search.php"))).query.gender).toBeNull();
  });

  it("is not limited by the site's visitor rules", async () => {
    const { browser } = await member("male");
    expect((await browser.fetch("/api/search.php?page=2")).status).toBe(200);
  });
});

describe("invisible mode", () => {
  it("hides the member from everyone's search until they are visible again", async () => {
    const shy = await member("female");
    const seeker = await member("male");
    expect(await searchIds(seeker.browser, "?gender=female")).toContain(shy.id);
    await shy.browser.put("/api/user.php", { invisible: true });
    expect(await searchIds(seeker.browser, "?gender=female")).not.toContain(shy.id);
    expect(await searchIds(new Browser(ORIGIN), "?gender=female")).not.toContain(shy.id);
    await shy.browser.put("/api/user.php", { invisible: false });
    expect(await searchIds(seeker.browser, "?gender=female")).toContain(shy.id);
  });
});

describe("blocking", () => {
  it("hides both from each other, removes their likes and the blocker's chats, and tells the blocked one", async () => {
    const a = await member("female");
    const b = await member("male");
    const now = Math.floor(Date.now() / 1000);
    await env.DB.batch([
      env.DB.prepare("INSERT INTO likes (liker_id, liked_id) VALUES (?, ?), (?, ?)").bind(a.id, b.id, b.id, a.id),
      env.DB.prepare("INSERT INTO conversations (id, created_at) VALUES (777, ?)").bind(now),
      env.DB.prepare("INSERT INTO conversation_members (conversation_id, profile_id) VALUES (777, ?), (777, ?)").bind(
        a.id,
        b.id,
      ),
    ]);
    expect(await searchIds(a.browser, "?gender=male")).toContain(b.id);

    const res = await a.browser.post("/api/block.php", { profile_id: b.id });
    expect(res.status).toBe(200);
    expect(await searchIds(a.browser, "?gender=male")).not.toContain(b.id);
    expect(await searchIds(b.browser, "?gender=female")).not.toContain(a.id);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM likes WHERE liker_id IN (?1, ?2) AND liked_id IN (?1, ?2)")
        .bind(a.id, b.id)
        .first(),
    ).toEqual({ n: 0 });
    const memberships = await env.DB.prepare(
      "SELECT profile_id, removed_at FROM conversation_members WHERE conversation_id = 777 ORDER BY profile_id",
    ).all<{ profile_id: number; removed_at: number | null }>();
    expect(memberships.results.find((m) => m.profile_id === a.id)!.removed_at).not.toBeNull();
    expect(memberships.results.find((m) => m.profile_id === b.id)!.removed_at).toBeNull();

    // The blocked member cannot open the blocker's profile, as a page or through the API.
    const api = await b.browser.fetch(`/api/profile.php?id=${a.id}`);
    expect(api.status).toBe(403);
    expect(await json(api)).toMatchObject({
      error: "blocked",
      message: `You're blocked by ${a.user.profile.name}. You do not have access to this page.`,
    });
    const page = await b.browser.fetch(`/members/${a.id}`);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain(
      `You&#x27;re blocked by ${a.user.profile.name}. You do not have access to this page.`,
    );

    // The blocker still sees the profile, marked as blocked, to unblock it.
    const own = await json<ProfileResponse>(await a.browser.fetch(`/api/profile.php?id=${b.id}`));
    expect(own.viewer).toMatchObject({ own: false, blocked: true, liked: false, liked_me: false });

    expect((await a.browser.delete("/api/block.php", { profile_id: b.id })).status).toBe(200);
    expect(await searchIds(a.browser, "?gender=male")).toContain(b.id);
    expect((await b.browser.fetch(`/api/profile.php?id=${a.id}`)).status).toBe(200);
  });

  it("leaves blocked members out of related profiles", async () => {
    const a = await member("male");
    await a.browser.post("/api/block.php", { profile_id: 3 });
    const related = (await json<ProfileResponse>(await a.browser.fetch("/api/profile.php?id=1"))).related.map(
      (p) => p.id,
    );
    expect(related).not.toContain(3);
    expect(related).not.toContain(a.id);
  });

  it("refuses blocking oneself, an unknown member, a visitor and a foreign page", async () => {
    const a = await member("female");
    expect((await a.browser.post("/api/block.php", { profile_id: a.id })).status).toBe(400);
    expect((await a.browser.post("/api/block.php", { profile_id: 999999 })).status).toBe(404);
    expect((await a.browser.post("/api/block.php", { profile_id: "2" })).status).toBe(400);
    expect((await new Browser(ORIGIN).post("/api/block.php", { profile_id: 2 })).status).toBe(403);
    const foreign = await a.browser.fetch("/api/block.php", {
      method: "POST",
      json: { profile_id: 2 },
      headers: { origin: "http://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM blocks WHERE blocker_id = ?").bind(a.id).first()).toEqual({
      n: 0,
    });
  });
});
