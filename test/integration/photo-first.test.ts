import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { databaseOf } from "../../src/server/db/database";
import { deletePhotoRow, setMainPhoto } from "../../src/server/db/photos";
import { findMatches, nextSwipe } from "../../src/server/services/likes";
import type { Searcher } from "../../src/server/services/search";
import type { SearchResponse, ShowcaseResponse } from "../../src/shared/api";
import { type FixtureProfile, loadProfiles, putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";

// Photo first (issue 23, docs/decisions/0038): members with a public main photo come before those
// without, then the most recently active; the stored has_photo follows every way a photo changes.
const SITE = site("nl.test");
const db = databaseOf(env.DB);

const WITH_PHOTO = Array.from({ length: 15 }, (_, i) => 500 + i);
const WITHOUT_PHOTO = Array.from({ length: 10 }, (_, i) => 600 + i);
const PENDING = 700;
const REJECTED = 701;
const VIEWER = 800;

const profiles: FixtureProfile[] = [
  // Members with an approved main photo were active longest ago...
  ...WITH_PHOTO.map((id, i): FixtureProfile => ({
    id,
    name: `Photo${i}`,
    country: "NL",
    gender: "female",
    age: 25 + i,
    region: "NL-NH",
    lastActiveAt: 1_000_000 - i,
    photos: [{ status: "active", main: true }],
  })),
  // ...members without one more recently, and the ones whose main photo waits or was refused most recently.
  ...WITHOUT_PHOTO.map((id, i): FixtureProfile => ({
    id,
    name: `Blank${i}`,
    country: "NL",
    gender: "female",
    age: 25 + i,
    region: "NL-NH",
    lastActiveAt: 2_000_000 - i,
  })),
  {
    id: PENDING,
    name: "Waiting",
    country: "NL",
    gender: "female",
    age: 30,
    region: "NL-NH",
    lastActiveAt: 3_000_001,
    photos: [{ status: "pending", main: true }],
  },
  {
    id: REJECTED,
    name: "Refused",
    country: "NL",
    gender: "female",
    age: 30,
    region: "NL-NH",
    lastActiveAt: 3_000_000,
    photos: [{ status: "rejected", main: true }],
  },
  { id: VIEWER, name: "Viewer", country: "NL", gender: "male", age: 35, region: "NL-NH", lastActiveAt: 1 },
];

beforeAll(async () => {
  await putSites(SITE);
});
beforeEach(async () => {
  await loadProfiles(profiles);
});

const searcher: Searcher = { profileId: VIEWER, gender: "male", sexuality: "hetero", country: "NL" };

async function search(query = "?gender=female"): Promise<SearchResponse> {
  const res = await fetchWorker(`http://nl.test/api/search.php${query}`);
  expect(res.status).toBe(200);
  return json<SearchResponse>(res);
}

async function showcase(): Promise<ShowcaseResponse> {
  const res = await fetchWorker("http://nl.test/api/showcase.php");
  expect(res.status).toBe(200);
  return json<ShowcaseResponse>(res);
}

const mainPhotoOf = async (profileId: number) =>
  (await env.DB.prepare("SELECT main_photo_id AS id FROM profiles WHERE id = ?")
    .bind(profileId)
    .first<{ id: number }>())!.id;
/** What the operators' photo script runs (scripts/photos.ts). */
const moderate = (photoId: number, status: "active" | "rejected") =>
  env.DB.prepare(`UPDATE photos SET status = ? WHERE status = 'pending' AND id = ?`).bind(status, photoId).run();

describe("photo first", () => {
  it("search shows members with a public main photo first, each group by latest activity", async () => {
    const r = await search();
    const ids = r.profiles.map((p) => p.id);
    expect(ids.slice(0, 15)).toEqual(WITH_PHOTO);
    // A main photo still waiting for approval, or refused, is no photo: those come after, by activity.
    expect(ids.slice(15)).toEqual([PENDING, REJECTED, ...WITHOUT_PHOTO.slice(0, 7)]);
    expect(r.profiles.slice(0, 15).every((p) => p.main_image !== null)).toBe(true);
    expect(r.profiles.slice(15).every((p) => p.main_image === null)).toBe(true);
    const second = await search("?gender=female&page=2");
    expect(second.profiles.map((p) => p.id)).toEqual(WITHOUT_PHOTO.slice(7));
  });

  it("a main photo approved by the operators moves its member up; a refused one leaves them where they were", async () => {
    await moderate(await mainPhotoOf(PENDING), "active");
    expect((await search()).profiles[0]).toMatchObject({ id: PENDING, main_image: { status: "active" } });
    // Back to pending by hand, then refused: no photo again.
    await env.DB.prepare("UPDATE photos SET status = 'pending' WHERE id = ?")
      .bind(await mainPhotoOf(PENDING))
      .run();
    expect((await search()).profiles[0]!.id).toBe(WITH_PHOTO[0]);
    await moderate(await mainPhotoOf(PENDING), "rejected");
    expect((await search()).profiles.map((p) => p.id).indexOf(PENDING)).toBe(15);
  });

  it("deleting the main photo, or choosing a photo still waiting as main, takes the member out of the photo group", async () => {
    const first = WITH_PHOTO[0]!;
    await deletePhotoRow(db, first, await mainPhotoOf(first));
    let ids = (await search()).profiles.map((p) => p.id);
    expect(ids.slice(0, 15)).toEqual([...WITH_PHOTO.slice(1), PENDING]);

    const second = WITH_PHOTO[1]!;
    const waiting = (await env.DB.prepare(
      "INSERT INTO photos (profile_id, key, thumb_key, blur_key, status, position, width, height) VALUES (?, 'k-second', 't-second', 'b-second', 'pending', 1, 480, 600) RETURNING id",
    )
      .bind(second)
      .first<{ id: number }>())!.id;
    expect(await setMainPhoto(db, second, waiting)).toBe(true);
    ids = (await search()).profiles.map((p) => p.id);
    expect(ids.slice(0, 13)).toEqual(WITH_PHOTO.slice(2));
    // Approving it brings the member back among those with a photo.
    await moderate(waiting, "active");
    expect((await search()).profiles.map((p) => p.id).slice(0, 14)).toEqual(WITH_PHOTO.slice(1));
  });

  it("the region search and the any-gender search order photo first too", async () => {
    const region = await search("?gender=female&country_region=NL-NH");
    expect(region.profiles.map((p) => p.id).slice(0, 15)).toEqual(WITH_PHOTO);
    const anyGender = await search("?gender=any");
    expect(anyGender.profiles.map((p) => p.id).slice(0, 15)).toEqual(WITH_PHOTO);
  });
});

describe("showcases (home page and landers)", () => {
  it("show only members with a photo while enough of them exist, most recently active first", async () => {
    const r = await showcase();
    expect(r.profiles.map((p) => p.id)).toEqual(WITH_PHOTO.slice(0, 12));
    expect(r.profiles.every((p) => p.main_image !== null)).toBe(true);
  });

  it("with too few photos, fill up with members without one after those with", async () => {
    // Refuse all but three of the main photos.
    await env.DB.prepare(
      `UPDATE photos SET status = 'rejected' WHERE profile_id >= ${WITH_PHOTO[3]} AND profile_id <= ${WITH_PHOTO.at(-1)}`,
    ).run();
    const r = await showcase();
    expect(r.profiles).toHaveLength(12);
    expect(r.profiles.slice(0, 3).map((p) => p.id)).toEqual(WITH_PHOTO.slice(0, 3));
    expect(r.profiles.slice(3).every((p) => p.main_image === null)).toBe(true);
  });
});

describe("the swipe game and the match-finder", () => {
  const ctx = { db, site: SITE, now: new Date("2026-06-01T12:00:00Z") };

  it("the swipe game deals members with a photo first, though others were active more recently", async () => {
    const next = await nextSwipe(ctx, searcher);
    expect(next.profile).toMatchObject({ id: WITH_PHOTO[0], main_image: { status: "active" } });
  });

  it("the match-finder ranks members with a photo before those without", async () => {
    const { profiles: found } = await findMatches(db, SITE, searcher, {}, ctx.now);
    const withPhoto = found.filter((p) => p.main_image !== null).length;
    expect(withPhoto).toBe(15);
    expect(found.slice(0, withPhoto).every((p) => p.main_image !== null)).toBe(true);
    expect(found.slice(withPhoto).every((p) => p.main_image === null)).toBe(true);
  });
});
