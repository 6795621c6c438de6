import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileResponse } from "../../src/shared/api";
import { loadProfiles, photoKeys, putSites, site } from "../fixtures";
import { fetchWorker, json } from "../http";

// Photo ids are given in order from 1001: Anna's main 1001, her second 1002, her pending 1003.
beforeAll(async () => {
  await putSites(site("nl.test"));
  await loadProfiles([
    {
      id: 1,
      name: "Anna",
      country: "NL",
      gender: "female",
      age: 30,
      region: "NL-NH",
      city: "Haarlem",
      photos: [{ status: "active", main: true }, { status: "active" }, { status: "pending" }],
    },
    {
      id: 2,
      name: "Bea",
      country: "NL",
      gender: "female",
      age: 32,
      region: "NL-ZH",
      photos: [{ status: "active", main: true }],
    },
    { id: 3, name: "Carl", country: "NL", gender: "male", age: 31 },
    {
      id: 4,
      name: "Gone",
      country: "NL",
      gender: "female",
      age: 30,
      status: "disabled",
      searchable: 0,
      photos: [{ status: "active", main: true }],
    },
  ]);
});

describe("GET /api/profile.php", () => {
  it("answers the profile with details, interests in the user's language, photos and related profiles", async () => {
    const body = await json<ProfileResponse>(await fetchWorker("http://nl.test/api/profile.php?id=1"));
    expect(body.profile).toMatchObject({
      id: 1,
      name: "Anna",
      age: 30,
      city: "Haarlem",
      region: "Noord-Holland",
      region_code: "NL-NH",
      fictional: true,
      about_me: "About Anna",
    });
    expect(body.profile.interests).toEqual([
      { slug: "travel", name: "Reizen" },
      { slug: "cooking", name: "Koken" },
    ]);
    expect(body.related).toHaveLength(1);
    expect(body.related[0]).toMatchObject({
      id: 2,
      name: "Bea",
      age: 32,
      region: "Zuid-Holland",
      country: "NL",
      fictional: true,
    });
    expect(body.related[0]!.main_image?.match).toBe(photoKeys(1004).key);
  });

  it("gives a visitor the main photo in full and every other photo only blurred, and no pending photo", async () => {
    const { photos } = await json<ProfileResponse>(await fetchWorker("http://nl.test/api/profile.php?id=1"));
    expect(photos).toHaveLength(2);
    const [main, other] = photos as [ProfileResponse["photos"][0], ProfileResponse["photos"][0]];
    expect(main).toMatchObject({
      main: true,
      locked: false,
      image: `/media/${photoKeys(1001).key}`,
      thumb: `/media/${photoKeys(1001).thumbKey}`,
    });
    expect(other).toMatchObject({
      main: false,
      locked: true,
      image: `/media/${photoKeys(1002).blurKey}`,
      thumb: `/media/${photoKeys(1002).blurKey}`,
    });
    const text = JSON.stringify(photos);
    expect(text).not.toContain(photoKeys(1002).key);
    expect(text).not.toContain(photoKeys(1002).thumbKey);
    expect(text).not.toContain(photoKeys(1003).blurKey);
  });

  it("does not find a disabled or unknown profile, and rejects a malformed id", async () => {
    expect((await fetchWorker("http://nl.test/api/profile.php?id=4")).status).toBe(404);
    expect((await fetchWorker("http://nl.test/api/profile.php?id=999")).status).toBe(404);
    for (const id of ["abc", "0", "-3", "1e3", ""]) {
      const res = await fetchWorker(`http://nl.test/api/profile.php?id=${id}`);
      expect(res.status, id).toBe(400);
      expect(await json(res)).toMatchObject({ field: "id" });
    }
  });
});

describe("GET /media/<key>", () => {
  const media = (key: string) => fetchWorker(`http://nl.test/media/${key}`);

  it("serves the main photo and its thumbnail to anyone, cacheable", async () => {
    const res = await media(photoKeys(1001).key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("cache-control")).toContain("public");
    expect(await res.text()).toBe(`bytes of ${photoKeys(1001).key}`);
    expect((await media(photoKeys(1001).thumbKey)).status).toBe(200);
  });

  it("never serves another photo's original or thumbnail to a visitor, only its blurred version", async () => {
    expect((await media(photoKeys(1002).key)).status).toBe(404);
    expect((await media(photoKeys(1002).thumbKey)).status).toBe(404);
    const blurred = await media(photoKeys(1002).blurKey);
    expect(blurred.status).toBe(200);
    expect(await blurred.text()).toBe(`bytes of ${photoKeys(1002).blurKey}`);
  });

  it("serves nothing of a pending photo or of a disabled profile", async () => {
    for (const key of Object.values(photoKeys(1003))) expect((await media(key)).status, key).toBe(404);
    expect((await media(photoKeys(1005).key)).status).toBe(404);
  });

  it("refuses keys that are not photo keys", async () => {
    for (const key of ["p/../../secret", "x/00000000000000000000000000000000.jpg", "p/abc.jpg", "p/"]) {
      expect((await media(key)).status, key).toBe(404);
    }
  });
});

describe("the profile page", () => {
  it("renders the profile from D1 with its main image and thumbnails", async () => {
    const res = await fetchWorker("http://nl.test/members/1", { headers: { cookie: "locale=en" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<title>Anna, 30 | Testwave nl.test</title>");
    expect(html).toContain(`src="/media/${photoKeys(1001).key}"`);
    expect(html).toContain(`src="/media/${photoKeys(1001).thumbKey}"`);
    expect(html).toContain(`src="/media/${photoKeys(1002).blurKey}"`);
    expect(html).toContain("Get Premium to see all photos");
    expect(html).toContain("About Anna");
  });

  it("is the same screen at /likes/m/{id}", async () => {
    const html = await (await fetchWorker("http://nl.test/likes/m/2")).text();
    expect(html).toContain("Bea, 32");
  });
});
