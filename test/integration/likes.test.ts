import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { purgeDeletedAccounts } from "../../src/server/services/accounts";
import { chatErasureIn } from "../../src/server/services/chats";
import { forgetPastSwipes, like, LIKE_BURST, nextSwipe, pass } from "../../src/server/services/likes";
import type { ProfileResponse, SearchResponse } from "../../src/shared/api";
import {
  NEW_LIKES_CAP,
  type AutoLikeResponse,
  type LikeResult,
  type LikesResponse,
  type SwipeResponse,
} from "../../src/shared/likes";
import { chatMember, creditsOf, type Member } from "../chat";
import { site, putSites } from "../fixtures";
import { Browser, fetchWorker, json } from "../http";

const ORIGIN = "http://likes.test";
const SITE = site("likes.test", { gift_credits: 15, time_zone: "Europe/Amsterdam" });
const db = databaseOf(env.DB);

// Every member here signs up (a password hash each): give a busy machine time.
vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await putSites(SITE);
});

const member = (options: Parameters<typeof chatMember>[1] = {}) => chatMember(ORIGIN, options);

async function likeOf(from: Member, to: { id: number }) {
  return from.browser.post("/api/like.php", { profile: { id: to.id } });
}

async function likes(m: Member, type = "received"): Promise<LikesResponse> {
  const res = await m.browser.fetch(`/api/likes.php?type=${type}`);
  expect(res.status).toBe(200);
  return json<LikesResponse>(res);
}

const ids = (r: LikesResponse) => r.profiles.map((p) => p.id);

let quiet = 0;
/** A member to be liked who never logs in: rows only, without the cost of a signup. */
async function likeable(country = "BE"): Promise<{ id: number }> {
  quiet++;
  const tag = `quiet${quiet}${Math.random().toString(36).slice(2, 8)}`;
  const user = await env.DB.prepare(
    "INSERT INTO users (email, username, status, site_domain) VALUES (?, ?, 'active', 'likes.test') RETURNING id",
  )
    .bind(`${tag}@example.invalid`, tag)
    .first<{ id: number }>();
  return (await env.DB.prepare(
    "INSERT INTO profiles (user_id, name, country, gender, birth_date) VALUES (?, ?, ?, 'female', '1990-01-01') RETURNING id",
  )
    .bind(user!.id, tag, country)
    .first<{ id: number }>())!;
}

async function likeRows(): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM likes").first<{ n: number }>())!.n;
}

async function expectRefused(res: Response, status: number, error: string, message: string) {
  expect(res.status).toBe(status);
  const body = await json<{ error: string; message: string }>(res);
  expect(body.error).toBe(error);
  expect(body.message).toEqual(message);
}

describe("liking", () => {
  it("needs a login: a visitor is told so and nothing is stored", async () => {
    const b = await member();
    const before = await likeRows();
    const visitor = new Browser(ORIGIN);
    visitor.cookies.set("locale", "en");
    await expectRefused(
      await visitor.post("/api/like.php", { profile: { id: b.id } }),
      403,
      "authentication_required",
      "You need to be logged in to like",
    );
    await expectRefused(
      await visitor.fetch("/api/likes.php"),
      403,
      "authentication_required",
      "You need to be logged in to like",
    );
    await expectRefused(
      await visitor.post("/api/gift.php", { profile: { id: b.id }, gift: "rose", client_id: "gift-visitor-1" }),
      403,
      "authentication_required",
      "You need to be logged in to send a gift",
    );
    expect(await likeRows()).toBe(before);
  });

  it("refuses oneself, blocked members either way, invisible, deleted and disabled accounts, each with its text", async () => {
    const a = await member({ name: "Anna" });
    const blockedByA = await member({ name: "Bart" });
    const blockerOfA = await member({ name: "Cor" });
    const invisible = await member({ name: "Dirk" });
    const deleted = await member({ name: "Eva", status: "pending_deletion" });
    const disabled = await member({ name: "Frits", status: "disabled" });
    await a.browser.post("/api/block.php", { profile_id: blockedByA.id });
    await blockerOfA.browser.post("/api/block.php", { profile_id: a.id });
    await env.DB.prepare("UPDATE users SET invisible = 1 WHERE id = ?").bind(invisible.userId).run();
    await env.DB.prepare("UPDATE profiles SET searchable = 0 WHERE id IN (?, ?, ?)")
      .bind(invisible.id, deleted.id, disabled.id)
      .run();
    const before = await likeRows();

    await expectRefused(await likeOf(a, a), 400, "own_profile", "You cannot like your own profile.");
    await expectRefused(
      await likeOf(a, blockedByA),
      403,
      "blocked",
      "You have blocked Bart. Unblock them to like them.",
    );
    await expectRefused(
      await likeOf(a, blockerOfA),
      403,
      "blocked_by",
      "You're blocked by Cor. You do not have access to this page.",
    );
    for (const gone of [invisible, deleted, disabled, { id: 999_999 }]) {
      await expectRefused(await likeOf(a, gone), 404, "not_found", "This member cannot be liked.");
    }
    expect(await likeRows()).toBe(before);
  });

  it("answers a body it cannot read with a clear error and stores nothing", async () => {
    const a = await member();
    const before = await likeRows();
    for (const body of [
      {},
      { profile: {} },
      { profile: { id: 0 } },
      { profile: { id: "5" } },
      { profile: { id: 5 }, source: "robot" },
    ]) {
      const res = await a.browser.post("/api/like.php", body);
      expect(res.status).toBe(400);
      expect((await json<{ message: string }>(res)).message).toBeTruthy();
    }
    for (const [method, path, body] of [
      ["DELETE", "/api/like.php", { profile: { id: -1 } }],
      ["POST", "/api/swipe-pass.php", {}],
      ["POST", "/api/gift.php", { profile: { id: 5 }, gift: "rose" }],
      ["POST", "/api/gift.php", { profile: { id: 5 }, gift: "Rose!", client_id: "gift-bad-00001" }],
    ] as const) {
      const res = await a.browser.fetch(path, { method, json: body });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect((await json<{ message: string }>(res)).message).toBeTruthy();
    }
    await expectRefused(
      await a.browser.post("/api/swipe-pass.php", { profile: { id: 999_999 } }),
      404,
      "not_found",
      "This member cannot be liked.",
    );
    expect((await a.browser.fetch("/api/likes.php?type=everything")).status).toBe(400);
    expect((await a.browser.fetch("/api/likes.php?profile=5")).status).toBe(400);
    expect(await likeRows()).toBe(before);
  });

  it("counts liking twice as one like", async () => {
    const a = await member();
    const b = await member();
    const once = { profile: { id: b.id }, liked: true, match: false, matched: false };
    expect(await json<LikeResult>(await likeOf(a, b))).toEqual(once);
    expect(await json<LikeResult>(await likeOf(a, b))).toEqual(once);
    const received = await likes(b);
    expect(ids(received)).toEqual([a.id]);
    expect(received.new_likes).toBe(1);
    expect(received.liked_by).toEqual([{ id: a.id, like_new: true }]);
    expect(ids(await likes(a, "sent"))).toEqual([b.id]);
  });

  it("makes a match for both when two members like each other, and unliking undoes it", async () => {
    const a = await member();
    const b = await member();
    await likeOf(a, b);
    expect(await json<LikeResult>(await likeOf(b, a))).toEqual({
      profile: { id: a.id },
      liked: true,
      match: true,
      matched: true,
    });
    // Liking again is still a match, but not a new one: no second match moment.
    expect(await json<LikeResult>(await likeOf(b, a))).toMatchObject({ match: false, matched: true });
    expect(await json<LikeResult>(await likeOf(a, b))).toMatchObject({ match: false, matched: true });
    expect(ids(await likes(a, "matches"))).toEqual([b.id]);
    expect(ids(await likes(b, "matches"))).toEqual([a.id]);
    const sent = await likes(a, "sent");
    expect(sent.profiles[0]).toMatchObject({ id: b.id, liked: true, liked_me: true });

    expect(await json<LikeResult>(await a.browser.delete("/api/like.php", { profile: { id: b.id } }))).toEqual({
      profile: { id: b.id },
      liked: false,
      match: false,
      matched: false,
    });
    expect(ids(await likes(a, "matches"))).toEqual([]);
    expect(ids(await likes(b, "matches"))).toEqual([]);
    // B still likes A: A sees it received, not liked back.
    expect((await likes(a)).profiles.find((p) => p.id === b.id)).toMatchObject({ liked: false, liked_me: true });
    // Liking again makes the match again.
    expect((await json<LikeResult>(await likeOf(a, b))).match).toBe(true);
    expect(ids(await likes(b, "matches"))).toEqual([a.id]);
  });

  it("makes exactly one match of many likes at once, both ways and repeated, and tells it once to each side", async () => {
    const ctx = (told: { likerId: number; match: boolean }[]) => ({
      db,
      site: SITE,
      now: new Date(),
      liked: (news: { likerId: number; match: boolean }) => told.push(news),
    });
    for (let round = 0; round < 8; round++) {
      const a = await likeable();
      const b = await likeable();
      const told: { likerId: number; match: boolean }[] = [];
      const c = ctx(told);
      const attempts = [a, b, a, b, a, b].map((from) => {
        const to = from === a ? b : a;
        return like(c, from.id, to.id);
      });
      const results = await Promise.all(attempts);
      // Exactly one answer is the match moment.
      expect(results.filter((r) => r.match).length, `round ${round}`).toBe(1);
      // Each copy of a like after the first is no news: one like each way is told, one of them as the match.
      expect(told.length, `round ${round}`).toBe(2);
      expect(told.filter((t) => t.match).length, `round ${round}`).toBe(1);
      const rows = await env.DB.prepare(
        "SELECT liker_id, matched_at FROM likes WHERE (liker_id = ? AND liked_id = ?) OR (liker_id = ? AND liked_id = ?)",
      )
        .bind(a.id, b.id, b.id, a.id)
        .all<{ liker_id: number; matched_at: number | null }>();
      expect(rows.results.length).toBe(2);
      expect(rows.results.every((r) => r.matched_at !== null)).toBe(true);
      expect((await like(c, a.id, b.id)).match).toBe(false);
      expect(told.length).toBe(2);
    }
  });

  it("tells a member's search cards whom they like and match, and a visitor's cards nothing", async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    const d = await member();
    await likeOf(a, b);
    await likeOf(c, a);
    await likeOf(a, c);
    // The three come first in A's search (most recently active, none has a photo).
    const soon = Math.floor(Date.now() / 1000) + 1_000_000;
    await env.DB.prepare("UPDATE profiles SET last_active_at = ?, country = 'BE' WHERE id IN (?, ?, ?)")
      .bind(soon, b.id, c.id, d.id)
      .run();
    const res = await a.browser.fetch("/api/search.php?gender=any&country=BE");
    expect(res.status).toBe(200);
    const cards = (await json<SearchResponse>(res)).profiles;
    const card = (id: number) => cards.find((p) => p.id === id);
    expect(card(b.id)).toMatchObject({ liked: true, matched: false });
    expect(card(c.id)).toMatchObject({ liked: true, matched: true });
    expect(card(d.id)).toMatchObject({ liked: false, matched: false });
    // The search page renders them: a mark for B and C, a like button for D.
    const html = await (await a.browser.fetch("/members?gender=any&country=BE")).text();
    expect(html).toMatch(new RegExp(`data-like-state="${b.id}"[^>]*>Liked<`));
    expect(html).toMatch(new RegExp(`data-like-state="${c.id}"[^>]*>Matched<`));
    expect(html).not.toContain(`data-like="${c.id}"`);
    expect(html).toContain(`data-like="${d.id}"`);
    const visitor = await fetchWorker(`${ORIGIN}/api/search.php?gender=any&country=BE`);
    if (visitor.status === 200) expect((await json<SearchResponse>(visitor)).profiles[0]).not.toHaveProperty("liked");
  });

  it("gives every tab its count: new likes on Received, the members liked on Sent, the matches on Matches", async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    for (const q of [await likeable(), await likeable()]) await likeOf(a, q);
    await likeOf(a, b);
    await likeOf(c, a);
    // Every tab's page carries the same counts, so the tabs agree whichever one is open.
    for (const type of ["received", "sent", "matches"]) {
      const page = await likes(a, type);
      expect(page.new_likes, type).toBe(1);
      expect(page.counts, type).toEqual({ sent: 3, matches: 0 });
    }
    await likeOf(b, a);
    await likeOf(a, c);
    const after = await likes(a, "matches");
    expect(ids(after).toSorted()).toEqual([b.id, c.id].toSorted());
    expect(after.counts).toEqual({ sent: 4, matches: 2 });
    // B's like is new for A until A opens B's profile; C's too.
    expect(after.new_likes).toBe(2);
    await a.browser.delete("/api/like.php", { profile: { id: b.id } });
    expect((await likes(a)).counts).toEqual({ sent: 3, matches: 1 });
  });

  it("counts a tab up to the cap the badge shows as 99+", async () => {
    const a = await member();
    const many: number[] = [];
    for (let i = 0; i < NEW_LIKES_CAP + 5; i++) many.push((await likeable()).id);
    const now = Math.floor(Date.now() / 1000);
    await env.DB.batch(
      many.map((id) =>
        env.DB.prepare("INSERT INTO likes (liker_id, liked_id, is_new, created_at) VALUES (?, ?, 1, ?)").bind(
          a.id,
          id,
          now,
        ),
      ),
    );
    expect((await likes(a, "sent")).counts).toEqual({ sent: NEW_LIKES_CAP, matches: 0 });
  });

  it("clears like_new when the liked member opens the liker's profile, and the profile says how they stand", async () => {
    const a = await member();
    const b = await member();
    await likeOf(a, b);
    expect((await likes(b)).new_likes).toBe(1);
    // Someone else opening A's profile changes nothing.
    const other = await member();
    await other.browser.fetch(`/api/profile.php?id=${a.id}`);
    expect((await likes(b)).new_likes).toBe(1);
    const profile = await json<ProfileResponse>(await b.browser.fetch(`/api/profile.php?id=${a.id}`));
    expect(profile.viewer).toMatchObject({ liked: false, liked_me: true });
    const after = await likes(b);
    expect(after.new_likes).toBe(0);
    expect(after.liked_by).toEqual([{ id: a.id, like_new: false }]);
    expect(await json<AutoLikeResponse>(await b.browser.fetch("/api/auto-like.php"))).toBeNull();
  });

  it("refuses a burst of likes with a clear text and stores none of the refused ones", async () => {
    const a = await member();
    const targets: { id: number }[] = [];
    for (let i = 0; i <= LIKE_BURST.likes; i++) targets.push(await likeable());
    // A set clock: the whole burst falls in one window.
    const at = { db, site: SITE, now: new Date("2026-05-05T10:00:05Z") };
    for (const t of targets.slice(0, LIKE_BURST.likes)) expect((await like(at, a.id, t.id)).liked).toBe(true);
    const last = targets[LIKE_BURST.likes]!;
    await expect(like(at, a.id, last.id)).rejects.toMatchObject({ status: 429, code: "too_many_likes" });
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM likes WHERE liked_id = ?").bind(last.id).first<{ n: number }>())!
        .n,
    ).toBe(0);
    // A minute later the member may like again.
    expect((await like({ ...at, now: new Date("2026-05-05T10:01:05Z") }, a.id, last.id)).liked).toBe(true);
  });

  it("tells a member who likes too fast to wait, in their language", async () => {
    const a = await member();
    const b = await likeable();
    const window = Math.floor(Date.now() / 1000 / LIKE_BURST.seconds) * LIKE_BURST.seconds;
    await env.DB.prepare("INSERT INTO like_rate (profile_id, window_start, likes) VALUES (?, ?, ?)")
      .bind(a.id, window, LIKE_BURST.likes)
      .run();
    await expectRefused(
      await likeOf(a, b),
      429,
      "too_many_likes",
      `You are liking very fast. Wait ${LIKE_BURST.seconds} seconds and try again.`,
    );
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM likes WHERE liked_id = ?").bind(b.id).first<{ n: number }>())!.n,
    ).toBe(0);
  });
});

describe("the likes pages", () => {
  it("render each tab on the server with its cards, and a visitor is asked to log in", async () => {
    const a = await member({ name: "Renske" });
    const b = await member({ name: "Pieter" });
    await likeOf(a, b);
    const received = await (await b.browser.fetch("/likes")).text();
    expect(received).toContain("Renske");
    expect(received).toContain(`/likes/m/${a.id}`);
    const sent = await (await a.browser.fetch("/likes/sent")).text();
    expect(sent).toContain("Pieter");
    expect(await (await a.browser.fetch("/likes/everything")).status).toBe(404);
    const visitor = new Browser(ORIGIN);
    visitor.cookies.set("locale", "en");
    const page = await visitor.fetch("/likes");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("You need to be logged in to like");
  });
});

describe("the new-like popup's profile", () => {
  it("is the newest liker the member has not seen, with the main image's match path", async () => {
    const b = await member();
    const first = await member({ name: "First" });
    const second = await member({ name: "Second" });
    await likeOf(first, b);
    await env.DB.prepare("UPDATE likes SET created_at = created_at - 10 WHERE liker_id = ?").bind(first.id).run();
    await likeOf(second, b);
    const popup = await json<AutoLikeResponse>(await b.browser.fetch("/api/auto-like.php"));
    expect(popup).toEqual({ id: second.id, name: "Second", main_image: null });
  });
});

describe("rules that hold in every list", () => {
  it("blocking removes the pair's likes and match, and unblocking does not bring them back", async () => {
    const a = await member();
    const b = await member();
    await likeOf(a, b);
    await likeOf(b, a);
    expect(ids(await likes(a, "matches"))).toEqual([b.id]);
    expect((await a.browser.post("/api/block.php", { profile_id: b.id })).status).toBeLessThan(300);
    for (const [m, other] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const type of ["received", "sent", "matches"]) expect(ids(await likes(m, type))).not.toContain(other.id);
    }
    await a.browser.delete("/api/block.php", { profile_id: b.id });
    for (const type of ["received", "sent", "matches"]) expect(ids(await likes(a, type))).toEqual([]);
    expect((await likes(b)).new_likes).toBe(0);
  });

  it("shows no invisible or deleted member in another member's lists, and erasing an account removes its likes", async () => {
    const b = await member();
    const shy = await member();
    const leaving = await member();
    const fictional = await member({ name: "Fictional" });
    for (const m of [shy, leaving, fictional]) await likeOf(m, b);
    await likeOf(b, shy);
    await likeOf(b, leaving);
    await env.DB.prepare("UPDATE profiles SET fictional = 1 WHERE id = ?").bind(fictional.id).run();
    await env.DB.prepare("UPDATE users SET invisible = 1 WHERE id = ?").bind(shy.userId).run();
    await env.DB.prepare("UPDATE users SET status = 'pending_deletion', deletion_requested_at = 1 WHERE id = ?")
      .bind(leaving.userId)
      .run();
    await env.DB.prepare("UPDATE profiles SET searchable = 0 WHERE id IN (?, ?)").bind(shy.id, leaving.id).run();

    const received = await likes(b);
    expect(ids(received)).toEqual([fictional.id]);
    expect(received.profiles[0]!.fictional).toBe(true);
    expect(received.new_likes).toBe(1);
    expect(ids(await likes(b, "sent"))).toEqual([]);
    expect(ids(await likes(b, "matches"))).toEqual([]);
    // The tabs' counts leave them out as the lists do.
    expect(received.counts).toEqual({ sent: 0, matches: 0 });
    expect((await json<AutoLikeResponse>(await b.browser.fetch("/api/auto-like.php")))?.id).toBe(fictional.id);

    await purgeDeletedAccounts(db, env.PHOTOS, chatErasureIn(env));
    const left = await env.DB.prepare("SELECT count(*) AS n FROM likes WHERE liker_id = ?1 OR liked_id = ?1")
      .bind(leaving.id)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
  });

  it("lets nobody read another member's likes: each answer is the caller's own", async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    await likeOf(a, b);
    expect(ids(await likes(c))).toEqual([]);
    expect(ids(await likes(c, "sent"))).toEqual([]);
    expect((await c.browser.fetch(`/api/likes.php?type=received&profile=${b.id}`)).status).toBe(400);
  });
});

describe("the swipe game", () => {
  const ctx = (now: string) => ({ db, site: SITE, now: new Date(now) });

  it("gives 4 likes a day in the site's time zone: the 5th is refused with a text, the next day there are 4 again", async () => {
    const a = await member();
    const targets: { id: number }[] = [];
    for (let i = 0; i < 6; i++) targets.push(await likeable());
    // 22:30 UTC on 1 March is 23:30 in Amsterdam: still 1 March there.
    const day1 = "2026-03-01T22:30:00Z";
    for (const [i, t] of targets.slice(0, 4).entries()) {
      expect((await like(ctx(day1), a.id, t.id, "swipe")).swipe_left).toBe(3 - i);
    }
    await expect(like(ctx(day1), a.id, targets[4]!.id, "swipe")).rejects.toMatchObject({
      status: 429,
      code: "swipe_limit",
    });
    expect(
      (await nextSwipe(ctx(day1), { profileId: a.id, gender: "male", sexuality: "hetero", country: "NL" })).likes_left,
    ).toBe(0);
    // 23:10 UTC is past midnight in Amsterdam: a new day.
    const day2 = "2026-03-01T23:10:00Z";
    expect((await like(ctx(day2), a.id, targets[4]!.id, "swipe")).swipe_left).toBe(3);
    // Likes from a profile do not count against the game.
    expect((await like(ctx(day2), a.id, targets[5]!.id, "profile")).swipe_left).toBeUndefined();
    expect(
      (await nextSwipe(ctx(day2), { profileId: a.id, gender: "male", sexuality: "hetero", country: "NL" })).likes_left,
    ).toBe(3);
  });

  it("takes one of the day's likes for a like sent many times at once, and stores it once", async () => {
    const now = "2026-03-02T10:00:00Z";
    for (let round = 0; round < 5; round++) {
      const a = await member();
      const t = await likeable();
      // More copies than the day has likes: a copy may find them all taken for a moment and be refused.
      const answers = await Promise.allSettled(Array.from({ length: 6 }, () => like(ctx(now), a.id, t.id, "swipe")));
      for (const answer of answers)
        if (answer.status === "rejected") expect(answer.reason).toMatchObject({ code: "swipe_limit" });
        else expect(answer.value.liked).toBe(true);
      expect(answers.some((answer) => answer.status === "fulfilled")).toBe(true);
      const stored = await env.DB.prepare("SELECT count(*) AS n FROM likes WHERE liker_id = ? AND liked_id = ?")
        .bind(a.id, t.id)
        .first<{ n: number }>();
      expect(stored!.n).toBe(1);
      // Whatever copy answered last, the game now has 3 of its 4 likes left.
      expect(
        (await nextSwipe(ctx(now), { profileId: a.id, gender: "male", sexuality: "hetero", country: "NL" })).likes_left,
      ).toBe(3);
    }
  });

  it("says so over HTTP when no likes are left today", async () => {
    const a = await member();
    const targets: { id: number }[] = [];
    for (let i = 0; i < 5; i++) targets.push(await likeable());
    for (const t of targets.slice(0, 4))
      expect((await a.browser.post("/api/like.php", { profile: { id: t.id }, source: "swipe" })).status).toBe(200);
    await expectRefused(
      await a.browser.post("/api/like.php", { profile: { id: targets[4]!.id }, source: "swipe" }),
      429,
      "swipe_limit",
      "You have used your 4 likes of today. Come back tomorrow for more.",
    );
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM likes WHERE liked_id = ?")
        .bind(targets[4]!.id)
        .first<{ n: number }>())!.n,
    ).toBe(0);
  });

  it("shows one card at a time from the member's search, never one they like or passed today", async () => {
    await env.DB.prepare("UPDATE profiles SET searchable = 0 WHERE country = 'NL'").run();
    const a = await member();
    // A hetero man in the Netherlands: his game shows Dutch women.
    await env.DB.prepare("UPDATE profiles SET gender = 'male', sexuality = 'hetero', country = 'NL' WHERE id = ?")
      .bind(a.id)
      .run();
    const women = [await likeable("NL"), await likeable("NL")];
    await env.DB.prepare("UPDATE profiles SET last_active_at = 2000000000 WHERE id = ?").bind(women[0]!.id).run();
    await env.DB.prepare("UPDATE profiles SET last_active_at = 1900000000 WHERE id = ?").bind(women[1]!.id).run();
    const searcher = { profileId: a.id, gender: "male", sexuality: "hetero", country: "NL" };
    const day = "2026-04-02T10:00:00Z";
    const first = await json<SwipeResponse>(await a.browser.fetch("/api/swipe.php"));
    expect(first.profile?.id).toBe(women[0]!.id);
    expect(first.likes_left).toBe(4);
    await pass(ctx(day), a.id, women[0]!.id);
    expect((await nextSwipe(ctx(day), searcher)).profile?.id).toBe(women[1]!.id);
    await like(ctx(day), a.id, women[1]!.id, "swipe");
    expect((await nextSwipe(ctx(day), searcher)).profile?.id).not.toBe(women[1]!.id);
    // A profile passed yesterday comes back.
    expect((await nextSwipe(ctx("2026-04-03T10:00:00Z"), searcher)).profile?.id).toBe(women[0]!.id);
  });
});

describe("the daily clock", () => {
  it("forgets the swipe game's counts and passes of past days, and keeps those of the last two", async () => {
    const a = await member();
    const b = await likeable();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO swipe_days (profile_id, day, likes) VALUES (?1, '2026-06-07', 4), (?1, '2026-06-08', 2), (?1, '2026-06-10', 1)",
      ).bind(a.id),
      env.DB.prepare("INSERT INTO swipe_passes (profile_id, passed_id, day) VALUES (?, ?, '2026-06-07')").bind(
        a.id,
        b.id,
      ),
    ]);
    await forgetPastSwipes(db, new Date("2026-06-10T03:00:00Z"));
    const days = await env.DB.prepare("SELECT day FROM swipe_days WHERE profile_id = ? ORDER BY day")
      .bind(a.id)
      .all<{ day: string }>();
    expect(days.results.map((r) => r.day)).toEqual(["2026-06-08", "2026-06-10"]);
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM swipe_passes WHERE profile_id = ?")
        .bind(a.id)
        .first<{ n: number }>())!.n,
    ).toBe(0);
  });
});

describe("a gift from the profile", () => {
  it("is sent as a gift message in the pair's conversation at chat's price, and refused without credits", async () => {
    const a = await member({ credits: 20 });
    const b = await member();
    const res = await a.browser.post("/api/gift.php", {
      profile: { id: b.id },
      gift: "rose",
      client_id: "gift-rose-0001",
    });
    expect(res.status).toBe(200);
    const sent = await json<{ message: { kind: string; gift: { slug: string } }; credits: number }>(res);
    expect(sent.message.kind).toBe("gift");
    expect(sent.message.gift.slug).toBe("rose");
    expect(sent.credits).toBe(5);
    expect(await creditsOf(a)).toBe(5);
    await expectRefused(
      await a.browser.post("/api/gift.php", { profile: { id: b.id }, gift: "rose", client_id: "gift-rose-0002" }),
      402,
      "insufficient_credits",
      expect.stringContaining("You do not have enough credits") as unknown as string,
    );
    expect(await creditsOf(a)).toBe(5);
    await expectRefused(
      await a.browser.post("/api/gift.php", { profile: { id: b.id }, gift: "unicorn", client_id: "gift-unicorn-01" }),
      404,
      "gift_not_found",
      expect.any(String) as unknown as string,
    );
    expect(await creditsOf(a)).toBe(5);
    await expectRefused(
      await a.browser.post("/api/gift.php", { profile: { id: a.id }, gift: "rose", client_id: "gift-rose-0003" }),
      400,
      "own_profile",
      "You cannot send a gift to yourself.",
    );
  });
});

describe("the match-finder", () => {
  it("ranks by shared interests, then the chosen region, then recent activity, and leaves out blocked members", async () => {
    await env.DB.batch([
      env.DB.prepare(
        "INSERT OR IGNORE INTO regions (id, country, code, name) VALUES (1, 'NL', 'NL-NH', 'Noord-Holland')",
      ),
    ]);
    const seeker = await member({ name: "Seeker" });
    const women: Member[] = [];
    while (women.length < 4) {
      const m = await member();
      if (
        (await env.DB.prepare("SELECT gender FROM profiles WHERE id = ?").bind(m.id).first<{ gender: string }>())!
          .gender === "female"
      )
        women.push(m);
    }
    const [both, oneInRegion, none, blocked] = women as [Member, Member, Member, Member];
    await env.DB.prepare("UPDATE profiles SET gender = 'male', sexuality = 'hetero' WHERE id = ?")
      .bind(seeker.id)
      .run();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO profile_interests (profile_id, interest_id) SELECT v.column1, i.id FROM (VALUES (?1, 'travel'), (?1, 'cooking'), (?2, 'cooking'), (?2, 'music'), (?3, 'music'), (?4, 'travel'), (?4, 'cooking')) AS v JOIN interests i ON i.slug = v.column2",
      ).bind(both.id, oneInRegion.id, none.id, blocked.id),
      env.DB.prepare("UPDATE profiles SET region_id = 1 WHERE id = ?").bind(oneInRegion.id),
      env.DB.prepare("UPDATE profiles SET last_active_at = unixepoch() + 100 WHERE id = ?").bind(none.id),
    ]);
    await blocked.browser.post("/api/block.php", { profile_id: seeker.id });
    await likeOf(seeker, both);
    // A match: the card says so, and offers no like that would replay the match moment.
    await likeOf(oneInRegion, seeker);
    await likeOf(seeker, oneInRegion);
    const res = await seeker.browser.fetch(
      "/api/match-finder.php?gender=female&min_age=18&max_age=99&country_region=NL-NH&interests=travel,cooking",
    );
    expect(res.status).toBe(200);
    const { profiles } = await json<{
      profiles: { id: number; shared_interests: number; liked: boolean; matched: boolean }[];
    }>(res);
    const mine = profiles.filter((p) => [both.id, oneInRegion.id, none.id, blocked.id].includes(p.id));
    expect(mine.map((p) => p.id)).toEqual([both.id, oneInRegion.id, none.id]);
    expect(mine.map((p) => p.shared_interests)).toEqual([2, 1, 0]);
    expect(mine.map((p) => p.liked)).toEqual([true, true, false]);
    expect(mine.map((p) => p.matched)).toEqual([false, true, false]);
    expect(profiles.map((p) => p.id)).not.toContain(seeker.id);
  });

  it("refuses a query it cannot read, naming the field", async () => {
    const seeker = await member();
    for (const [query, field] of [
      ["interests=a,b,c,d,e,f", "interests"],
      ["country_region=XX-1", "country_region"],
      ["gender=robot", "gender"],
    ]) {
      const res = await seeker.browser.fetch(`/api/match-finder.php?${query}`);
      expect(res.status, query).toBe(400);
      expect((await json<{ field: string }>(res)).field).toBe(field);
    }
    // An age range the wrong way round is told as the search form tells it, not by a field's name.
    const reversed = await seeker.browser.fetch("/api/match-finder.php?min_age=40&max_age=30");
    expect(reversed.status).toBe(400);
    expect(await json(reversed)).toMatchObject({ error: "age_range_reversed", field: "max_age" });
  });
});
