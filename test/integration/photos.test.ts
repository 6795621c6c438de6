import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProfileResponse, User } from "../../src/shared/api";
import type { OwnPhoto, PhotoListResponse, PhotoUploadResponse } from "../../src/shared/photos";
import { decodeJpeg } from "../../src/server/services/codecs";
import { MAX_EDGE, MAX_PHOTO_BYTES } from "../../src/server/services/images";
import { databaseOf } from "../../src/server/db/database";
import { uploadPhoto } from "../../src/server/services/photos";
import { birthDateForAge, loadProfiles, putSites, site } from "../fixtures";
import { Browser, json } from "../http";
import { contains, jpeg, jpegMarkers, picture, png, webp, withExif, withPngSize } from "../images";

const ORIGIN = "http://nl.test";
let n = 0;

type Member = { browser: Browser; userId: number; profileId: number };

async function member(): Promise<Member> {
  n++;
  const browser = new Browser(ORIGIN);
  browser.cookies.set("locale", "en");
  const res = await browser.post("/api/signup.php", {
    email: `photo${n}@example.com`,
    username: `photo${n}`,
    password: "a good password",
    date_of_birth: birthDateForAge(30),
    gender: "female",
    terms: true,
  });
  expect(res.status).toBe(201);
  const { user } = await json<{ user: User }>(res);
  const row = await env.DB.prepare("SELECT user_id FROM profiles WHERE id = ?")
    .bind(user.profile.id)
    .first<{ user_id: number }>();
  return { browser, userId: row!.user_id, profileId: user.profile.id };
}

const makePremium = (m: Member) => env.DB.prepare("UPDATE users SET paid_user = 1 WHERE id = ?").bind(m.userId).run();

function upload(m: Member, file: Uint8Array<ArrayBuffer> | string, name = "photo.jpg", type = "image/jpeg") {
  const form = new FormData();
  form.append("photo", new File([file], name, { type }));
  return m.browser.fetch("/api/photos.php", { method: "POST", body: form });
}

async function uploaded(m: Member, file: Uint8Array<ArrayBuffer>, name?: string, type?: string): Promise<OwnPhoto> {
  const res = await upload(m, file, name, type);
  const body = await json<PhotoUploadResponse & { message?: string }>(res);
  expect(res.status, body.message).toBe(201);
  return body.photo;
}

/** Everything stored: objects in R2 and rows in photos. */
async function stored() {
  const objects = (await env.PHOTOS.list({ limit: 1000 })).objects.length;
  const rows = (await env.DB.prepare("SELECT COUNT(*) AS n FROM photos").first<{ n: number }>())!.n;
  return { objects, rows };
}

async function r2Bytes(path: string): Promise<Uint8Array> {
  const object = await env.PHOTOS.get(path.replace(/^\/media\//, ""));
  expect(object, path).not.toBeNull();
  return new Uint8Array(await object!.arrayBuffer());
}

const keyOf = (path: string) => path.replace(/^\/media\//, "");

async function photoRow(id: number) {
  return env.DB.prepare("SELECT key, thumb_key, blur_key, status, width, height FROM photos WHERE id = ?")
    .bind(id)
    .first<{ key: string; thumb_key: string; blur_key: string; status: string; width: number; height: number }>();
}

beforeAll(async () => {
  await putSites(site("nl.test"));
  await loadProfiles([]);
});

describe("POST /api/photos.php", () => {
  it("stores a JPEG as three re-encoded JPEGs under unguessable keys, pending, and makes the first one the main photo", async () => {
    const m = await member();
    const before = await stored();
    const started = Date.now();
    const photo = await uploaded(m, await jpeg(picture(1200, 900)));
    console.info(`one upload of a 1200x900 JPEG: ${Date.now() - started} ms`);
    expect(photo).toMatchObject({ status: "pending", main: true, width: 1200, height: 900 });
    expect(photo.image).toMatch(/^\/media\/p\/[0-9a-f]{32}\.jpg$/);
    expect(photo.thumb).toMatch(/^\/media\/t\/[0-9a-f]{32}\.jpg$/);
    expect(await stored()).toEqual({ objects: before.objects + 3, rows: before.rows + 1 });

    const row = (await photoRow(photo.id))!;
    expect(row.blur_key).toMatch(/^b\/[0-9a-f]{32}\.jpg$/);
    // Three independent random keys: no part of one is in another.
    const hex = [row.key, row.thumb_key, row.blur_key].map((k) => k.slice(2, 34));
    expect(new Set(hex).size).toBe(3);
    for (const key of [row.key, row.thumb_key, row.blur_key]) {
      const object = await env.PHOTOS.get(key);
      expect(object?.httpMetadata?.contentType, key).toBe("image/jpeg");
      const bytes = new Uint8Array(await object!.arrayBuffer());
      expect([...bytes.subarray(0, 3)], key).toEqual([0xff, 0xd8, 0xff]);
    }
    const thumb = await decodeJpeg((await r2Bytes(row.thumb_key)).slice().buffer);
    expect([thumb.width, thumb.height]).toEqual([320, 240]);

    const profile = await env.DB.prepare("SELECT main_photo_id FROM profiles WHERE id = ?")
      .bind(m.profileId)
      .first<{ main_photo_id: number }>();
    expect(profile!.main_photo_id).toBe(photo.id);
    // The member's main_image shows once the photo is active (public).
    await env.DB.prepare("UPDATE photos SET status = 'active' WHERE id = ?").bind(photo.id).run();
    const { user } = await json<{ user: User }>(await m.browser.fetch("/api/user.php"));
    expect(user.profile.main_image).toMatchObject({ status: "active", match: row.key, thumb_filename: row.thumb_key });
  });

  it("takes PNG (transparency onto white) and WebP, and keeps at most 1600 px on the long side", async () => {
    const m = await member();
    const fromPng = await uploaded(m, await png(picture(2000, 1000, { alpha: 0 })), "x.png", "image/png");
    expect([fromPng.width, fromPng.height]).toEqual([MAX_EDGE, 800]);
    const image = await decodeJpeg((await r2Bytes(fromPng.image!)).slice().buffer);
    expect([image.width, image.height]).toEqual([1600, 800]);
    expect(Math.min(image.data[0]!, image.data[1]!, image.data[2]!)).toBeGreaterThan(245); // fully transparent became white

    const fromWebp = await uploaded(m, await webp(picture(300, 400)), "y.webp", "image/webp");
    expect([fromWebp.width, fromWebp.height, fromWebp.main]).toEqual([300, 400, false]);
  });

  it("takes a 12-megapixel phone photo and stores it at 1600 px", { timeout: 30_000 }, async () => {
    const m = await member();
    const file = await jpeg(picture(4032, 3024));
    const started = Date.now();
    const photo = await uploaded(m, file);
    console.info(`one upload of a 4032x3024 JPEG (${Math.round(file.length / 1024)} KiB): ${Date.now() - started} ms`);
    expect([photo.width, photo.height]).toEqual([1600, 1200]);
  });

  it("judges the type by the content, not by the name or content type", async () => {
    const m = await member();
    const photo = await uploaded(m, await png(picture(40, 40)), "holiday.txt", "text/plain");
    expect(photo.width).toBe(40);
  });

  it("drops EXIF, GPS and every other metadata from the stored files, after turning the image as EXIF says", async () => {
    const m = await member();
    const file = withExif(await jpeg(picture(40, 20)), { orientation: 6, note: "GPS 52.3676N 4.9041E" });
    expect(contains(file, "GPS")).toBe(true);
    expect(contains(file, "Exif")).toBe(true);
    const photo = await uploaded(m, file);
    expect([photo.width, photo.height]).toEqual([20, 40]); // orientation 6: turned a quarter
    const row = (await photoRow(photo.id))!;
    for (const key of [row.key, row.thumb_key, row.blur_key]) {
      const bytes = await r2Bytes(key);
      expect(contains(bytes, "GPS"), key).toBe(false);
      expect(contains(bytes, "Exif"), key).toBe(false);
      expect(contains(bytes, "52.3676"), key).toBe(false);
      // Nothing but the image itself: no APP1..APP15 (EXIF, XMP, ICC ...) and no comment segment.
      const markers = jpegMarkers(bytes);
      expect(markers.at(-1), key).toBe(0xda);
      expect(
        markers.filter((marker) => (marker >= 0xe1 && marker <= 0xef) || marker === 0xfe),
        key,
      ).toEqual([]);
    }
  });

  it("blurs on the server: the blurred file shows nothing of the picture's detail", async () => {
    const m = await member();
    const photo = await uploaded(m, await png(picture(480, 600, { square: 12 })), "c.png", "image/png");
    const row = (await photoRow(photo.id))!;
    const sharp = await decodeJpeg((await r2Bytes(row.key)).slice().buffer);
    const blurred = await decodeJpeg((await r2Bytes(row.blur_key)).slice().buffer);
    // Largest step in brightness between neighbouring pixels: the checkerboard's edges in the
    // original, smooth colour fields in the blurred version.
    const step = (img: { data: Uint8ClampedArray; width: number; height: number }) => {
      let max = 0;
      for (let y = 0; y < img.height; y++) {
        for (let x = 1; x < img.width; x++) {
          const i = (y * img.width + x) * 4;
          max = Math.max(
            max,
            Math.abs(
              img.data[i]! +
                img.data[i + 1]! +
                img.data[i + 2]! -
                img.data[i - 4]! -
                img.data[i - 3]! -
                img.data[i - 2]!,
            ) / 3,
          );
        }
      }
      return max;
    };
    expect(step(sharp)).toBeGreaterThan(100);
    expect(step(blurred)).toBeLessThan(12);
    expect(blurred.width).toBeGreaterThanOrEqual(400);
  });

  describe("refuses, with a clear error and nothing stored in R2 or D1", () => {
    let m: Member;
    beforeAll(async () => {
      m = await member();
    });

    async function refused(
      file: Uint8Array<ArrayBuffer> | string,
      name: string,
      type: string,
      status: number,
      error: string,
      message: RegExp,
    ) {
      const before = await stored();
      const res = await upload(m, file, name, type);
      const body = await json<{ error: string; message: string; field?: string }>(res);
      expect(res.status, body.message).toBe(status);
      expect(body).toMatchObject({ error, field: "photo" });
      expect(body.message).toMatch(message);
      expect(await stored()).toEqual(before);
    }

    it("a file that is not an image", async () => {
      await refused(
        "just some words",
        "notes.txt",
        "text/plain",
        400,
        "invalid_photo",
        /^This file is not a JPEG, PNG or WebP image$/,
      );
    });

    it("a text file renamed to .jpg", async () => {
      await refused(
        "GIF89a or whatever this is pretending",
        "photo.jpg",
        "image/jpeg",
        400,
        "invalid_photo",
        /not a JPEG, PNG or WebP image/,
      );
      await refused(
        new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"),
        "photo.png",
        "image/png",
        400,
        "invalid_photo",
        /not a JPEG, PNG or WebP/,
      );
    });

    it("a file over the size limit, before decoding", async () => {
      const big = new Uint8Array(MAX_PHOTO_BYTES + 1);
      big.set(await jpeg(picture(16, 16)));
      await refused(big, "big.jpg", "image/jpeg", 413, "photo_too_large", /at most 10 MB/);
      // Far over: cut off while the body is read.
      await refused(
        new Uint8Array(MAX_PHOTO_BYTES * 2),
        "huge.jpg",
        "image/jpeg",
        413,
        "photo_too_large",
        /at most 10 MB/,
      );
    });

    it("a pixel flood: a tiny PNG whose header claims 30000 x 30000", async () => {
      const flood = withPngSize(await png(picture(8, 8)), 30000, 30000);
      expect(flood.length).toBeLessThan(1000);
      await refused(
        flood,
        "tiny.png",
        "image/png",
        400,
        "photo_too_many_pixels",
        /too many pixels: at most 16 megapixels/,
      );
    });

    it("a JPEG that does not decode", async () => {
      const file = await jpeg(picture(64, 64));
      await refused(file.subarray(0, 200), "cut.jpg", "image/jpeg", 400, "invalid_photo", /could not be read/);
    });

    it("a 4th photo of a free member; a premium member may have 25", async () => {
      const file = await jpeg(picture(32, 32));
      for (let i = 0; i < 3; i++) await uploaded(m, file);
      await refused(file, "fourth.jpg", "image/jpeg", 400, "photo_limit", /^You can upload up to 3 photos$/);
      const list = await json<PhotoListResponse>(await m.browser.fetch("/api/photos.php"));
      expect([list.photos.length, list.limit]).toEqual([3, 3]);
      // Rejected photos do not count.
      await env.DB.prepare("UPDATE photos SET status = 'rejected' WHERE id = ?").bind(list.photos[2]!.id).run();
      await uploaded(m, file);
      await makePremium(m);
      expect((await json<PhotoListResponse>(await m.browser.fetch("/api/photos.php"))).limit).toBe(25);
      await uploaded(m, file);
    });

    it("a visitor's upload, and a request without a photo", async () => {
      const visitor = new Browser(ORIGIN);
      const form = new FormData();
      form.append("photo", new File([await jpeg(picture(8, 8))], "a.jpg"));
      const res = await visitor.fetch("/api/photos.php", { method: "POST", body: form });
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({ error: "authentication_required" });

      const before = await stored();
      const empty = await m.browser.fetch("/api/photos.php", { method: "POST", body: new FormData() });
      expect(empty.status).toBe(400);
      expect(await json(empty)).toMatchObject({
        error: "invalid_photo",
        field: "photo",
        message: "Choose a photo to upload",
      });
      const raw = await m.browser.fetch("/api/photos.php", {
        method: "POST",
        body: await jpeg(picture(8, 8)),
        headers: { "content-type": "image/jpeg" },
      });
      expect(raw.status).toBe(400);
      expect(await stored()).toEqual(before);
    });
  });

  describe("on a failure after the checks, takes back what it stored", () => {
    it("deletes the objects already put when R2 fails on one of them", async () => {
      const m = await member();
      const before = await stored();
      let puts = 0;
      const bucket = new Proxy(env.PHOTOS, {
        get(target, prop) {
          if (prop === "put") {
            return async (...args: Parameters<R2Bucket["put"]>) => {
              puts++;
              if (puts === 3) throw new Error("R2 is down");
              return target.put(...args);
            };
          }
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      await expect(
        uploadPhoto({ db: databaseOf(env.DB), bucket }, m.userId, m.profileId, await jpeg(picture(64, 64)), "/media/"),
      ).rejects.toThrow("R2 is down");
      expect(puts).toBe(3);
      expect(await stored()).toEqual(before);
    });

    it("deletes the objects when the row cannot be written", async () => {
      const m = await member();
      const before = await stored();
      const db = new Proxy(env.DB, {
        get(target, prop) {
          if (prop === "batch") return async () => Promise.reject(new Error("D1 is down"));
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      await expect(
        uploadPhoto(
          { db: databaseOf(db), bucket: env.PHOTOS },
          m.userId,
          m.profileId,
          await jpeg(picture(64, 64)),
          "/media/",
        ),
      ).rejects.toThrow("D1 is down");
      expect(await stored()).toEqual(before);
    });

    it("lets only one of two parallel uploads take a free member's last place", async () => {
      const m = await member();
      const file = await jpeg(picture(48, 48));
      await uploaded(m, file);
      await uploaded(m, file);
      const before = await stored();
      const answers = await Promise.all([upload(m, file), upload(m, file)]);
      expect(answers.map((r) => r.status).toSorted()).toEqual([201, 400]);
      expect(await stored()).toEqual({ objects: before.objects + 3, rows: before.rows + 1 });
    });
  });
});

describe("who gets which bytes (GET /media/<key>)", () => {
  let owner: Member;
  let free: Member;
  let premium: Member;
  let blocked: Member;
  const photos: Record<"main" | "other" | "pending", { p: string; t: string; b: string }> = {} as never;

  beforeAll(async () => {
    [owner, free, premium, blocked] = [await member(), await member(), await member(), await member()];
    await makePremium(premium);
    await makePremium(blocked); // premium, but blocked by the owner
    const main = await uploaded(owner, await jpeg(picture(200, 250)));
    const other = await uploaded(owner, await png(picture(220, 180)), "o.png", "image/png");
    const pending = await uploaded(owner, await webp(picture(150, 150)), "p.webp", "image/webp");
    expect([main.main, other.main, pending.main]).toEqual([true, false, false]);
    // Moderation makes the first two public; the third stays pending.
    await env.DB.prepare("UPDATE photos SET status = 'active' WHERE id IN (?, ?)").bind(main.id, other.id).run();
    for (const [name, photo] of [
      ["main", main],
      ["other", other],
      ["pending", pending],
    ] as const) {
      const row = (await photoRow(photo.id))!;
      photos[name] = { p: row.key, t: row.thumb_key, b: row.blur_key };
    }
    expect((await owner.browser.post("/api/block.php", { profile_id: blocked.profileId })).status).toBe(200);
  });

  type Viewer = "visitor" | "free" | "premium" | "owner" | "blocked";
  const viewers: Viewer[] = ["visitor", "free", "premium", "owner", "blocked"];
  const browserOf = (viewer: Viewer) =>
    ({
      visitor: new Browser(ORIGIN),
      free: free.browser,
      premium: premium.browser,
      owner: owner.browser,
      blocked: blocked.browser,
    })[viewer];

  /** Who may have each variant: "public" for everyone (cacheable), else the list of viewers (private). */
  const RULES: Record<"main" | "other" | "pending", Record<"p" | "t" | "b", "public" | Viewer[]>> = {
    main: { p: "public", t: "public", b: "public" },
    other: { p: ["premium", "owner"], t: ["premium", "owner"], b: "public" },
    pending: { p: ["owner"], t: ["owner"], b: ["owner"] },
  };

  for (const photo of ["main", "other", "pending"] as const) {
    for (const variant of ["p", "t", "b"] as const) {
      const rule = RULES[photo][variant];
      it(`${photo} photo, ${{ p: "original", t: "thumbnail", b: "blurred" }[variant]}: ${rule === "public" ? "everyone" : rule.join(" and ") + " only"}`, async () => {
        const key = photos[photo][variant];
        const inR2 = await r2Bytes(key);
        for (const viewer of viewers) {
          const res = await browserOf(viewer).fetch(`/media/${key}`);
          const allowed = rule === "public" || rule.includes(viewer);
          const body = new Uint8Array(await res.arrayBuffer());
          if (allowed) {
            expect(res.status, viewer).toBe(200);
            expect(body, viewer).toEqual(inR2);
            expect(res.headers.get("content-type"), viewer).toBe("image/jpeg");
            if (rule === "public") {
              expect(res.headers.get("cache-control"), viewer).toBe("public, max-age=31536000, immutable");
            } else {
              expect(res.headers.get("cache-control"), viewer).toMatch(/^private, max-age=\d+$/);
              expect(res.headers.get("vary"), viewer).toMatch(/cookie/i);
            }
          } else {
            expect(res.status, viewer).toBe(404);
            expect(body.length, viewer).toBe(0);
            expect(res.headers.get("cache-control"), viewer).toBe("private, no-store");
          }
        }
      });
    }
  }

  it("the profile answer gives premium members and the owner full paths, others blurred ones, and is never cached publicly", async () => {
    const profileFor = async (viewer: Viewer) => {
      const res = await browserOf(viewer).fetch(`/api/profile.php?id=${owner.profileId}`);
      expect(res.headers.get("cache-control"), viewer).toBe("private, no-store");
      return json<ProfileResponse>(res);
    };
    for (const viewer of ["premium", "owner"] as const) {
      const { photos: shown } = await profileFor(viewer);
      expect(
        shown.map((p) => [keyOf(p.image), keyOf(p.thumb), p.locked]),
        viewer,
      ).toEqual([
        [photos.main.p, photos.main.t, false],
        [photos.other.p, photos.other.t, false],
      ]);
    }
    for (const viewer of ["visitor", "free"] as const) {
      const { photos: shown } = await profileFor(viewer);
      expect(
        shown.map((p) => [keyOf(p.image), keyOf(p.thumb), p.locked]),
        viewer,
      ).toEqual([
        [photos.main.p, photos.main.t, false],
        [photos.other.b, photos.other.b, true],
      ]);
      expect(JSON.stringify(shown)).not.toContain(photos.other.p);
      expect(JSON.stringify(shown)).not.toContain(photos.pending.b);
    }
    expect((await browserOf("blocked").fetch(`/api/profile.php?id=${owner.profileId}`)).status).toBe(403);

    const page = await browserOf("premium").fetch(`/members/${owner.profileId}`);
    expect(page.headers.get("cache-control")).toMatch(/^private/);
    expect(await page.text()).toContain(photos.other.t);
  });

  it("serves nothing once the session is logged out, and nothing of a rejected photo, not even to the owner", async () => {
    const m = await member();
    await makePremium(m);
    expect((await m.browser.fetch(`/media/${photos.other.p}`)).status).toBe(200);
    await m.browser.fetch("/api/logout.php");
    expect((await m.browser.fetch(`/media/${photos.other.p}`)).status).toBe(404);

    const own = await member();
    const photo = await uploaded(own, await jpeg(picture(32, 32)));
    await env.DB.prepare("UPDATE photos SET status = 'rejected' WHERE id = ?").bind(photo.id).run();
    const row = (await photoRow(photo.id))!;
    for (const key of [row.key, row.thumb_key, row.blur_key])
      expect((await own.browser.fetch(`/media/${key}`)).status, key).toBe(404);
  });
});

describe("GET, PUT and DELETE /api/photos.php", () => {
  it("shows the member their own pending main photo, so the profile-photo alert goes away", async () => {
    const m = await member();
    const before = await json<{ user: User }>(await m.browser.fetch("/api/user.php"));
    expect(before.user.profile.main_image).toBeNull();
    await uploaded(m, await jpeg(picture(400, 500)));
    const after = await json<{ user: User }>(await m.browser.fetch("/api/user.php"));
    expect(after.user.profile.main_image).toMatchObject({ status: "pending" });
  });

  it("lists the member's own photos, pending ones included", async () => {
    const m = await member();
    const a = await uploaded(m, await jpeg(picture(64, 64)));
    const b = await uploaded(m, await jpeg(picture(64, 48)));
    await env.DB.prepare("UPDATE photos SET status = 'active' WHERE id = ?").bind(a.id).run();
    const list = await json<PhotoListResponse>(await m.browser.fetch("/api/photos.php"));
    expect(list.photos.map((p) => [p.id, p.status, p.main])).toEqual([
      [a.id, "active", true],
      [b.id, "pending", false],
    ]);
    expect(list.limit).toBe(3);
    expect((await new Browser(ORIGIN).fetch("/api/photos.php")).status).toBe(403);
  });

  it("chooses the main photo among the member's own photos", async () => {
    const m = await member();
    const a = await uploaded(m, await jpeg(picture(64, 64)));
    const b = await uploaded(m, await jpeg(picture(64, 64)));
    await env.DB.prepare("UPDATE photos SET status = 'active' WHERE profile_id = ?").bind(m.profileId).run();
    const res = await m.browser.put("/api/photos.php", { photo_id: b.id, main: true });
    expect(res.status).toBe(200);
    expect((await json<PhotoListResponse>(res)).photos.map((p) => [p.id, p.main])).toEqual([
      [a.id, false],
      [b.id, true],
    ]);
    const { user } = await json<{ user: User }>(await m.browser.fetch("/api/user.php"));
    expect(user.profile.main_image?.match).toBe(keyOf(b.image!));

    // A rejected photo cannot be chosen; a body without `main: true` is refused.
    await env.DB.prepare("UPDATE photos SET status = 'rejected' WHERE id = ?").bind(a.id).run();
    expect((await m.browser.put("/api/photos.php", { photo_id: a.id, main: true })).status).toBe(404);
    expect((await m.browser.put("/api/photos.php", { photo_id: b.id })).status).toBe(400);
  });

  it("stops serving even the main photo of an account its owner deleted", async () => {
    const m = await member();
    const photo = await uploaded(m, await jpeg(picture(64, 64)));
    await env.DB.prepare("UPDATE photos SET status = 'active' WHERE id = ?").bind(photo.id).run();
    expect((await new Browser(ORIGIN).fetch(photo.image!)).status).toBe(200);
    expect((await m.browser.delete("/api/user.php", { password: "a good password" })).status).toBe(200);
    expect((await new Browser(ORIGIN).fetch(photo.image!)).status).toBe(404);
  });

  it("orders the member's photos, and the profile shows them in that order", async () => {
    const m = await member();
    const a = await uploaded(m, await jpeg(picture(64, 64)));
    const b = await uploaded(m, await jpeg(picture(64, 64)));
    const c = await uploaded(m, await jpeg(picture(64, 64)));
    const moved = await m.browser.put("/api/photos.php", { photo_id: c.id, position: 0 });
    expect(moved.status).toBe(200);
    expect((await json<PhotoListResponse>(moved)).photos.map((p) => p.id)).toEqual([c.id, a.id, b.id]);
    const later = await json<PhotoListResponse>(
      await m.browser.put("/api/photos.php", { photo_id: c.id, position: 9 }),
    );
    expect(later.photos.map((p) => p.id)).toEqual([a.id, b.id, c.id]);
    await env.DB.prepare("UPDATE photos SET status = 'active' WHERE profile_id = ?").bind(m.profileId).run();
    await m.browser.put("/api/photos.php", { photo_id: b.id, position: 0 });
    const profile = await json<ProfileResponse>(await m.browser.fetch(`/api/profile.php?id=${m.profileId}`));
    expect(profile.photos.map((p) => p.id)).toEqual([b.id, a.id, c.id]);
    // Another member cannot move it; a position out of range is refused.
    const other = await member();
    expect((await other.browser.put("/api/photos.php", { photo_id: a.id, position: 0 })).status).toBe(404);
    expect((await m.browser.put("/api/photos.php", { photo_id: a.id, position: -1 })).status).toBe(400);
  });

  it("deletes a photo: its three objects, its row and the main photo choice", async () => {
    const m = await member();
    const a = await uploaded(m, await jpeg(picture(64, 64)));
    const b = await uploaded(m, await jpeg(picture(64, 64)));
    const row = (await photoRow(a.id))!;
    const before = await stored();
    const res = await m.browser.delete("/api/photos.php", { photo_id: a.id });
    expect(res.status).toBe(200);
    expect((await json<PhotoListResponse>(res)).photos.map((p) => p.id)).toEqual([b.id]);
    expect(await stored()).toEqual({ objects: before.objects - 3, rows: before.rows - 1 });
    for (const key of [row.key, row.thumb_key, row.blur_key]) expect(await env.PHOTOS.head(key), key).toBeNull();
    const profile = await env.DB.prepare("SELECT main_photo_id FROM profiles WHERE id = ?")
      .bind(m.profileId)
      .first<{ main_photo_id: number | null }>();
    expect(profile!.main_photo_id).toBeNull();
    // The next upload becomes the main photo again.
    expect((await uploaded(m, await jpeg(picture(64, 64)))).main).toBe(true);
  });

  it("does not let another member delete or choose someone else's photo", async () => {
    const owner = await member();
    const other = await member();
    const a = await uploaded(owner, await jpeg(picture(64, 64)));
    const b = await uploaded(owner, await jpeg(picture(64, 64)));
    await uploaded(other, await jpeg(picture(64, 64)));
    const before = await stored();

    const del = await other.browser.delete("/api/photos.php", { photo_id: a.id });
    expect(del.status).toBe(404);
    expect(await json(del)).toMatchObject({ error: "not_found", message: "This photo could not be found" });
    expect((await other.browser.put("/api/photos.php", { photo_id: b.id, main: true })).status).toBe(404);
    expect(await stored()).toEqual(before);
    const main = await env.DB.prepare("SELECT id, main_photo_id FROM profiles WHERE id IN (?, ?) ORDER BY id")
      .bind(owner.profileId, other.profileId)
      .all<{ id: number; main_photo_id: number }>();
    expect(main.results[0]!.main_photo_id).toBe(a.id);
    expect(main.results[1]!.main_photo_id).not.toBe(b.id);
    // Without the page's headers (a cross-site form), nothing is even tried.
    const forged = await other.browser.fetch("/api/photos.php", {
      method: "DELETE",
      headers: { "x-request-type": "", origin: "http://evil.test" },
      body: JSON.stringify({ photo_id: a.id }),
    });
    expect(forged.status).toBe(403);
  });
});
