/**
 * Verified people (issue 28, docs/decisions/0040): the selfie reaches no member, the badge follows
 * a moderator's decision and the main photo they saw, fictional profiles are never verified,
 * "only verified members may write to me" refuses an unverified first message without charging,
 * and selfies go 30 days after the decision.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { SearchResponse } from "../../src/shared/api";
import type { ChatResponse } from "../../src/shared/chat";
import {
  POSE_NAMES,
  VERIFICATION_NEW_POSES_PER_DAY,
  VERIFICATION_POSE_SECONDS,
  type VerificationState,
} from "../../src/shared/verification";
import { databaseOf } from "../../src/server/db/database";
import { runRetention } from "../../src/server/services/retention";
import { removeProfileContentQueries } from "../../src/server/db/moderation";
import {
  askForAnotherPose,
  decideOnVerification,
  takeSelfie,
  verificationFigures,
  verificationState,
} from "../../src/server/services/verification";
import { ChatSocket, chatMember, clientId, creditsOf, type Member } from "../chat";
import { asOperator, operator } from "../console";
import { putSites, site } from "../fixtures";
import { Browser, fetchWorker, json } from "../http";
import { jpeg, picture } from "../images";
import en from "../../locales/en.json" with { type: "json" };

const ORIGIN = "http://verify.test";
const db = databaseOf(env.DB);
const DAY = 86_400;
/** A moderator deciding outside the console (the console test decides through its screen). */
const MOD = { operatorId: null, name: "command:verification-test" };
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  await putSites(site("verify.test", { countries: ["NL"], free_conversations: 0, free_messages: 0 }));
});

let selfie: Uint8Array<ArrayBuffer>;
beforeAll(async () => {
  selfie = await jpeg(picture(320, 400));
});

/** The selfie, in the pose the server drew for the member unless the test names another. */
async function sendSelfie(m: Member, pose?: string) {
  const form = new FormData();
  form.append("photo", new File([selfie], "selfie.jpg", { type: "image/jpeg" }));
  const taken = pose ?? (await stateOf(m)).pose ?? "left_ear";
  return m.browser.fetch(`/api/verification.php?pose=${taken}`, { method: "POST", body: form });
}

async function stateOf(m: Member): Promise<VerificationState> {
  return (await json<{ verification: VerificationState }>(await m.browser.fetch("/api/verification.php"))).verification;
}

async function waiting(m: Member) {
  return env.DB.prepare(
    "SELECT id, selfie_key, kind, photo_id, pose FROM verifications WHERE profile_id = ? AND status = 'pending'",
  )
    .bind(m.id)
    .first<{ id: number; selfie_key: string; kind: string; photo_id: number | null; pose: string }>();
}

/** A member with an active main photo, as the moderator would compare the selfie with. */
async function withPhoto(m: Member): Promise<number> {
  const row = await env.DB.prepare(
    "INSERT INTO photos (profile_id, key, thumb_key, blur_key, status, width, height) VALUES (?, ?, ?, ?, 'active', 10, 10) RETURNING id",
  )
    .bind(
      m.id,
      `p/${crypto.randomUUID().replaceAll("-", "")}.jpg`,
      `t/${crypto.randomUUID().replaceAll("-", "")}.jpg`,
      `b/${crypto.randomUUID().replaceAll("-", "")}.jpg`,
    )
    .first<{ id: number }>();
  await env.DB.prepare("UPDATE profiles SET main_photo_id = ? WHERE id = ?").bind(row!.id, m.id).run();
  return row!.id;
}

async function verified(m: Member): Promise<void> {
  const photo = await withPhoto(m);
  expect((await sendSelfie(m)).status).toBe(201);
  await decideOnVerification(db, (await waiting(m))!.id, { approve: true, seenPhotoId: photo }, MOD, now());
}

describe("the verification selfie", () => {
  it("is stored for a moderator and served to no member: not another member, a visitor, nor the owner in any session", async () => {
    const owner = await chatMember(ORIGIN);
    const before = await stateOf(owner);
    expect(before.status).toBe("none");
    expect(before.pose).not.toBeNull();
    const res = await sendSelfie(owner, before.pose!);
    expect(res.status).toBe(201);
    expect((await json<{ verification: VerificationState }>(res)).verification.status).toBe("pending");
    const row = (await waiting(owner))!;
    expect(row.selfie_key).toMatch(/^v\/[0-9a-f]{32}\.jpg$/);
    expect(await env.PHOTOS.get(row.selfie_key)).not.toBeNull();

    const other = await chatMember(ORIGIN);
    const secondSession = new Browser(ORIGIN);
    const login = await secondSession.fetch("/api/user.php", {
      method: "POST",
      json: { email: owner.user.email, password: "a good password" },
    });
    expect(login.status).toBe(200);
    for (const viewer of [other.browser, new Browser(ORIGIN), secondSession, owner.browser]) {
      const media = await viewer.fetch(`/media/${row.selfie_key}`);
      expect(media.status).toBe(404);
      expect(media.headers.get("content-type") ?? "").not.toContain("image/");
    }
    // Nor anything a member reads says where it is.
    expect(JSON.stringify(await stateOf(owner))).not.toContain(row.selfie_key);
  });

  it("takes one waiting selfie however many are sent at once, and three a day at most", async () => {
    const m = await chatMember(ORIGIN);
    const pose = (await stateOf(m)).pose!;
    const answers = await Promise.all(Array.from({ length: 6 }, () => sendSelfie(m, pose)));
    expect(answers.map((r) => r.status).toSorted()).toEqual([201, 409, 409, 409, 409, 409]);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM verifications WHERE profile_id = ?")
      .bind(m.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
    // The refused uploads left no object behind.
    const objects = (await env.PHOTOS.list({ prefix: "v/" })).objects.map((o) => o.key);
    expect(objects).toContain((await waiting(m))!.selfie_key);

    for (let attempt = 2; attempt <= 3; attempt++) {
      await decideOnVerification(
        db,
        (await waiting(m))!.id,
        { approve: false, reason: "face_not_visible" },
        MOD,
        now(),
      );
      expect((await stateOf(m)).status).toBe("rejected");
      expect((await sendSelfie(m)).status).toBe(201);
    }
    await decideOnVerification(db, (await waiting(m))!.id, { approve: false, reason: "pose_not_done" }, MOD, now());
    const state = await stateOf(m);
    expect(state).toMatchObject({ status: "rejected", reason: "pose_not_done", attempts_left: 0, pose: null });
    const fourth = await sendSelfie(m);
    expect(fourth.status).toBe(429);
    expect((await json<{ message: string }>(fourth)).message).toBe(
      "You've used your three selfies for today. Try again tomorrow.",
    );
  });

  it("refuses a pose that is not on the list", async () => {
    const m = await chatMember(ORIGIN);
    expect((await sendSelfie(m, "cartwheel")).status).toBe(400);
    expect(await waiting(m)).toBeNull();
  });

  it("is refused for a fictional profile, and a fictional profile is never verified by a decision either", async () => {
    const demo = await chatMember(ORIGIN);
    await env.DB.prepare("UPDATE profiles SET fictional = 1 WHERE id = ?").bind(demo.id).run();
    const res = await sendSelfie(demo);
    expect(res.status).toBe(403);
    expect((await json<{ message: string }>(res)).message).toBe("Demo profiles can't be verified.");
    expect((await stateOf(demo)).status).toBe("fictional");
    expect(await waiting(demo)).toBeNull();

    // A selfie taken before the profile became fictional: the decision refuses, no badge.
    const later = await chatMember(ORIGIN);
    const photo = await withPhoto(later);
    expect((await sendSelfie(later)).status).toBe(201);
    await env.DB.prepare("UPDATE profiles SET fictional = 1 WHERE id = ?").bind(later.id).run();
    await expect(
      decideOnVerification(db, (await waiting(later))!.id, { approve: true, seenPhotoId: photo }, MOD, now()),
    ).rejects.toThrow("fictional");
    expect(
      (await env.DB.prepare("SELECT verified FROM profiles WHERE id = ?").bind(later.id).first<{ verified: number }>())!
        .verified,
    ).toBe(0);
  });
});

describe("the pose (issue 37)", () => {
  const asMember = (m: Member) => ({ userId: m.userId, profileId: m.id });
  const askAgain = (m: Member) => m.browser.fetch("/api/verification.php?action=new_pose", { method: "POST" });

  it("is the server's: the same on every GET while it lives, and a selfie for another pose is refused", async () => {
    const m = await chatMember(ORIGIN);
    const first = await stateOf(m);
    expect(first.pose).not.toBeNull();
    expect(first.pose_expires_at).toBeGreaterThan(now());
    const again = await Promise.all(Array.from({ length: 5 }, () => stateOf(m)));
    expect(new Set(again.map((state) => state.pose))).toEqual(new Set([first.pose]));
    const other = POSE_NAMES.find((pose) => pose !== first.pose)!;
    const refused = await sendSelfie(m, other);
    expect(refused.status).toBe(409);
    expect((await json<{ message: string }>(refused)).message).toBe(
      "That isn't the pose we asked you for. Take the pose shown on your profile.",
    );
    expect(await waiting(m)).toBeNull();
    expect((await sendSelfie(m, first.pose!)).status).toBe(201);
    expect((await waiting(m))!.pose).toBe(first.pose);
  });

  it("is refused once expired, and GET then draws the pose to take", async () => {
    const m = await chatMember(ORIGIN);
    const t0 = now();
    const drawn = await verificationState(db, asMember(m), t0, 0);
    expect(drawn.pose).toBe(POSE_NAMES[0]);
    // The same pose for the whole time it lives, whatever the random draw.
    expect((await verificationState(db, asMember(m), t0 + VERIFICATION_POSE_SECONDS - 1, 0.99)).pose).toBe(
      POSE_NAMES[0],
    );
    const later = t0 + VERIFICATION_POSE_SECONDS;
    await expect(
      takeSelfie({ db, bucket: env.PHOTOS }, { ...asMember(m), siteDomain: "verify.test" }, drawn.pose!, selfie, later),
    ).rejects.toThrow("pose_expired");
    expect(await waiting(m)).toBeNull();
    const next = await verificationState(db, asMember(m), later, 0.99);
    expect(next.pose).toBe(POSE_NAMES.at(-1));
    expect(next.pose_expires_at).toBe(later + VERIFICATION_POSE_SECONDS);
  });

  it("is drawn anew when the member asks again, never the same one, a few times a day however many ask at once", async () => {
    const m = await chatMember(ORIGIN);
    const before = await stateOf(m);
    expect(before.new_poses_left).toBe(VERIFICATION_NEW_POSES_PER_DAY);
    const asked = await askAgain(m);
    expect(asked.status).toBe(200);
    const after = (await json<{ verification: VerificationState }>(asked)).verification;
    expect(after.pose).not.toBe(before.pose);
    expect(after.new_poses_left).toBe(VERIFICATION_NEW_POSES_PER_DAY - 1);
    // The old pose is no longer accepted, the new one is kept.
    expect((await stateOf(m)).pose).toBe(after.pose);
    expect((await sendSelfie(m, before.pose!)).status).toBe(409);

    const answers = await Promise.all(Array.from({ length: 6 }, () => askAgain(m)));
    expect(answers.map((r) => r.status).toSorted()).toEqual([200, 200, 429, 429, 429, 429]);
    const refused = await askAgain(m);
    expect(refused.status).toBe(429);
    expect((await json<{ message: string }>(refused)).message).toBe(
      "You can't ask for another pose today. Take the pose shown, or try again tomorrow.",
    );
    const asks = await env.DB.prepare("SELECT COUNT(*) AS n FROM verification_poses WHERE profile_id = ? AND asked = 1")
      .bind(m.id)
      .first<{ n: number }>();
    expect(asks!.n).toBe(VERIFICATION_NEW_POSES_PER_DAY);
    const last = await stateOf(m);
    expect(last.new_poses_left).toBe(0);
    expect((await sendSelfie(m, last.pose!)).status).toBe(201);
    // A day later the member may ask again (the clock is a parameter).
    const tomorrow = now() + DAY + 1;
    await env.DB.prepare("UPDATE verifications SET status = 'rejected', decided_at = ? WHERE profile_id = ?")
      .bind(now(), m.id)
      .run();
    expect((await askForAnotherPose(db, asMember(m), tomorrow)).new_poses_left).toBe(
      VERIFICATION_NEW_POSES_PER_DAY - 1,
    );
  });

  it("is drawn once however many first GETs race", async () => {
    const m = await chatMember(ORIGIN);
    const states = await Promise.all(
      Array.from({ length: 6 }, (_, i) => verificationState(db, asMember(m), now(), i / 6)),
    );
    expect(new Set(states.map((state) => state.pose)).size).toBe(1);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM verification_poses WHERE profile_id = ?")
      .bind(m.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});

describe("approval (issue 37)", () => {
  it("is impossible without an approved photo the moderator was shown: no photo, or an unapproved main photo", async () => {
    const moderator = await operator("moderator");
    const bare = await chatMember(ORIGIN, { name: "Bare" });
    expect((await sendSelfie(bare)).status).toBe(201);
    const bareRow = (await waiting(bare))!;
    expect(bareRow.photo_id).toBeNull();
    const page = (await (await asOperator(moderator, "/verifications")).text()).replaceAll("<!-- -->", "");
    const section = page.slice(page.indexOf(`data-verification="${bareRow.id}"`));
    const item = section.slice(0, section.indexOf("</section>"));
    expect(item).toContain("No approved main photo: nothing to approve against.");
    expect(item).not.toContain(`/verifications/${bareRow.id}/approve`);
    const refused = await asOperator(moderator, `/verifications/${bareRow.id}/approve`, {
      form: { seen_photo_id: "" },
    });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("nothing to approve");
    await expect(
      decideOnVerification(db, bareRow.id, { approve: true, seenPhotoId: null }, MOD, now()),
    ).rejects.toThrow("no_approved_photo");

    // A verified member's new main photo that no moderator approved yet: the check waits, Approve is refused.
    const m = await chatMember(ORIGIN, { name: "Fresh" });
    await verified(m);
    const pending = await env.DB.prepare(
      "INSERT INTO photos (profile_id, key, thumb_key, blur_key, status, width, height, position) VALUES (?, ?, ?, ?, 'pending', 10, 10, 1) RETURNING id",
    )
      .bind(m.id, `p/${crypto.randomUUID()}.jpg`, `t/${crypto.randomUUID()}.jpg`, `b/${crypto.randomUUID()}.jpg`)
      .first<{ id: number }>();
    expect((await m.browser.put("/api/photos.php", { photo_id: pending!.id, main: true })).status).toBe(200);
    const check = (await waiting(m))!;
    expect(check).toMatchObject({ kind: "photo_check", photo_id: null });
    const checkPage = (await (await asOperator(moderator, "/verifications")).text()).replaceAll("<!-- -->", "");
    const checkSection = checkPage.slice(checkPage.indexOf(`data-verification="${check.id}"`));
    expect(checkSection.slice(0, checkSection.indexOf("</section>"))).not.toContain("/approve");
    const forged = await asOperator(moderator, `/verifications/${check.id}/approve`, {
      form: { seen_photo_id: String(pending!.id) },
    });
    expect(forged.status).toBe(409);
    // Another member's approved photo is no seen photo either.
    const stranger = await chatMember(ORIGIN);
    const theirs = await withPhoto(stranger);
    await expect(
      decideOnVerification(db, check.id, { approve: true, seenPhotoId: theirs }, MOD, now()),
    ).rejects.toThrow("no_approved_photo");
    expect((await stateOf(m)).status).toBe("pending");
    // Once the photo is approved, the moderator is shown it and may approve against it.
    await env.DB.prepare("UPDATE photos SET status = 'active' WHERE id = ?").bind(pending!.id).run();
    await decideOnVerification(db, check.id, { approve: true, seenPhotoId: pending!.id }, MOD, now());
    expect((await stateOf(m)).status).toBe("verified");
    const decided = await env.DB.prepare("SELECT photo_id FROM verifications WHERE id = ?")
      .bind(check.id)
      .first<{ photo_id: number }>();
    expect(decided!.photo_id).toBe(pending!.id);
  });

  it("pauses the badge once every photo was removed: the profile says not verified and verified-only members are not written to", async () => {
    const m = await chatMember(ORIGIN, { credits: 100 });
    await verified(m);
    const viewer = await chatMember(ORIGIN);
    const profile = async () =>
      (
        await json<{ profile: { verified: boolean; main_image: unknown } }>(
          await viewer.browser.fetch(`/api/profile.php?id=${m.id}`),
        )
      ).profile;
    expect(await profile()).toMatchObject({ verified: true });
    await db.batch(removeProfileContentQueries(db, m.id) as never);
    expect(await profile()).toMatchObject({ verified: false, main_image: null });
    const search = await json<SearchResponse>(
      await viewer.browser.fetch(`/api/search.php?gender=any&min_age=18&max_age=99&verified=1`),
    );
    expect(search.profiles.some((p) => p.id === m.id)).toBe(false);
    expect((await stateOf(m)).status).toBe("paused");

    const choosy = await chatMember(ORIGIN, { name: "Choosy" });
    await choosy.browser.put("/api/verification.php", { verified_only: true });
    const chat = await json<ChatResponse>(await m.browser.fetch(`/api/chat.php?profile=${choosy.id}`));
    expect(chat.blocked_reason).toBe("verified_only");
    const socket = await ChatSocket.open(m, choosy.id);
    const id = clientId();
    socket.sendText(id, "hello");
    expect(await socket.error(id)).toMatchObject({ error: "verified_only" });
    expect(await creditsOf(m)).toBe(100);
    socket.close();
  });
});

describe("the badge", () => {
  it("shows once a moderator approved, is paused by a new main photo until a moderator saw it beside the selfie", async () => {
    const m = await chatMember(ORIGIN);
    await verified(m);
    const viewer = await chatMember(ORIGIN);
    const card = async () => {
      const search = await json<SearchResponse>(
        await viewer.browser.fetch(`/api/search.php?gender=any&min_age=18&max_age=99`),
      );
      return search.profiles.find((p) => p.id === m.id);
    };
    expect((await card())?.verified).toBe(true);
    expect((await stateOf(m)).status).toBe("verified");

    // A second photo made the main one through the member's own API.
    const second = await env.DB.prepare(
      "INSERT INTO photos (profile_id, key, thumb_key, blur_key, status, width, height, position) VALUES (?, ?, ?, ?, 'active', 10, 10, 1) RETURNING id",
    )
      .bind(
        m.id,
        `p/${"e".repeat(31)}${m.id % 10}.jpg`,
        `t/${"e".repeat(31)}${m.id % 10}.jpg`,
        `b/${"e".repeat(31)}${m.id % 10}.jpg`,
      )
      .first<{ id: number }>();
    expect((await m.browser.put("/api/photos.php", { photo_id: second!.id, main: true })).status).toBe(200);
    expect((await card())?.verified).toBe(false);
    expect((await stateOf(m)).status).toBe("pending");
    const check = (await waiting(m))!;
    expect(check).toMatchObject({ kind: "photo_check", photo_id: second!.id });

    await decideOnVerification(db, check.id, { approve: true, seenPhotoId: second!.id }, MOD, now());
    expect((await card())?.verified).toBe(true);
  });

  it("is on the profile, the chat header and search can ask for verified members only", async () => {
    const m = await chatMember(ORIGIN);
    await verified(m);
    const plain = await chatMember(ORIGIN);
    const viewer = await chatMember(ORIGIN);
    const profile = await json<{ profile: { verified: boolean } }>(
      await viewer.browser.fetch(`/api/profile.php?id=${m.id}`),
    );
    expect(profile.profile.verified).toBe(true);
    const chat = await json<ChatResponse>(await viewer.browser.fetch(`/api/chat.php?profile=${m.id}`));
    expect(chat.profile.verified).toBe(true);
    const only = await json<SearchResponse>(await viewer.browser.fetch(`/api/search.php?gender=any&verified=1`));
    const ids = only.profiles.map((p) => p.id);
    expect(ids).toContain(m.id);
    expect(ids).not.toContain(plain.id);
    expect(only.profiles.every((p) => p.verified)).toBe(true);
    expect(only.query.verified).toBe(true);
  });
});

describe("only verified members may write to me", () => {
  it("refuses an unverified member's first message without charging, tells why beforehand, and lets a verified member through", async () => {
    const choosy = await chatMember(ORIGIN, { name: "Choosy" });
    const set = await choosy.browser.put("/api/verification.php", { verified_only: true });
    expect(set.status).toBe(200);
    expect((await json<{ verification: VerificationState }>(set)).verification.verified_only).toBe(true);

    const stranger = await chatMember(ORIGIN, { credits: 100 });
    const chat = await json<ChatResponse>(await stranger.browser.fetch(`/api/chat.php?profile=${choosy.id}`));
    expect(chat.blocked_reason).toBe("verified_only");
    const ledgerRows = () =>
      env.DB.prepare("SELECT COUNT(*) AS n FROM credit_ledger WHERE user_id = ?")
        .bind(stranger.userId)
        .first<{ n: number }>();
    const rowsBefore = (await ledgerRows())!.n;
    const socket = await ChatSocket.open(stranger, choosy.id);
    const id = clientId();
    socket.sendText(id, "hello");
    const refused = await socket.error(id);
    expect(refused).toMatchObject({
      error: "verified_only",
      message: "Choosy only takes first messages from verified members.",
    });
    expect(await creditsOf(stranger)).toBe(100);
    expect((await ledgerRows())!.n).toBe(rowsBefore);
    const conversations = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM conversations WHERE (profile_a = ? AND profile_b = ?) AND last_message_id IS NOT NULL",
    )
      .bind(Math.min(stranger.id, choosy.id), Math.max(stranger.id, choosy.id))
      .first<{ n: number }>();
    expect(conversations!.n).toBe(0);
    socket.close();

    const trusted = await chatMember(ORIGIN, { credits: 100 });
    await verified(trusted);
    const trustedSocket = await ChatSocket.open(trusted, choosy.id);
    const ok = clientId();
    trustedSocket.sendText(ok, "hello");
    await trustedSocket.ack(ok);
    expect(await creditsOf(trusted)).toBe(95);
    trustedSocket.close();
  });

  it("lets a conversation under way continue", async () => {
    const choosy = await chatMember(ORIGIN, { credits: 100 });
    const friend = await chatMember(ORIGIN, { credits: 100 });
    const mine = await ChatSocket.open(choosy, friend.id);
    const first = clientId();
    mine.sendText(first, "hi there");
    await mine.ack(first);
    mine.close();
    await choosy.browser.put("/api/verification.php", { verified_only: true });
    const theirs = await ChatSocket.open(friend, choosy.id);
    const reply = clientId();
    theirs.sendText(reply, "hello back");
    await theirs.ack(reply);
    expect(await creditsOf(friend)).toBe(95);
    theirs.close();
  });
});

describe("the clock work and the figures", () => {
  it("deletes selfies 30 days after their decision, keeps younger ones and waiting ones, and counts the decisions", async () => {
    const old = await chatMember(ORIGIN);
    const young = await chatMember(ORIGIN);
    const open = await chatMember(ORIGIN);
    for (const m of [old, young, open]) expect((await sendSelfie(m)).status).toBe(201);
    const t = now();
    const oldRow = (await waiting(old))!;
    const youngRow = (await waiting(young))!;
    const openRow = (await waiting(open))!;
    await env.DB.prepare("UPDATE verifications SET asked_at = ? WHERE id = ?")
      .bind(t - 32 * DAY, oldRow.id)
      .run();
    await decideOnVerification(db, oldRow.id, { approve: false, reason: "photo_of_photo" }, MOD, t - 31 * DAY);
    await decideOnVerification(db, youngRow.id, { approve: false, reason: "not_the_person" }, MOD, t - 29 * DAY);

    const result = await runRetention(db, t, { outboxDays: 30, photos: env.PHOTOS });
    expect(result.deleted.selfies).toBeGreaterThanOrEqual(1);
    expect(await env.PHOTOS.get(oldRow.selfie_key)).toBeNull();
    expect(
      (await env.DB.prepare("SELECT selfie_key, status FROM verifications WHERE id = ?").bind(oldRow.id).first())!,
    ).toEqual({ selfie_key: null, status: "rejected" });
    expect(await env.PHOTOS.get(youngRow.selfie_key)).not.toBeNull();
    expect(await env.PHOTOS.get(openRow.selfie_key)).not.toBeNull();

    const figures = await verificationFigures(db, t - 40 * DAY);
    const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
    const on = (d: string) => figures.find((f) => f.site === "verify.test" && f.day === d);
    expect(on(day(t - 32 * DAY))).toMatchObject({ asked: 1 });
    expect(on(day(t - 31 * DAY))).toMatchObject({ rejected: 1, median_decision_seconds: DAY });

    // The console's dashboard shows the same figures on the site's days.
    const { dashboard, periodOf } = await import("../../src/server/services/dashboard");
    const board = await dashboard(db, "verify.test", periodOf(day(t - 33 * DAY), day(t - 29 * DAY))!, t);
    const row = (d: string) => board.days.find((shown) => shown.day === d)!.verifications;
    expect(row(day(t - 32 * DAY)).asked).toBeGreaterThanOrEqual(1);
    expect(row(day(t - 31 * DAY))).toMatchObject({ rejected: 1, medianDecisionSeconds: DAY });
    expect(row(day(t - 29 * DAY))).toMatchObject({ rejected: 1 });
    expect(row(day(t - 30 * DAY))).toEqual({ asked: 0, approved: 0, rejected: 0, medianDecisionSeconds: null });
  });
});

describe("erasure", () => {
  it("takes the selfie with the account at once", async () => {
    const m = await chatMember(ORIGIN);
    expect((await sendSelfie(m)).status).toBe(201);
    const key = (await waiting(m))!.selfie_key;
    const { purgeDeletedAccounts } = await import("../../src/server/services/accounts");
    await env.DB.prepare("UPDATE users SET status = 'pending_deletion', deletion_requested_at = ? WHERE id = ?")
      .bind(now() - 15 * DAY, m.userId)
      .run();
    await purgeDeletedAccounts(db, env.PHOTOS, async (ids) => ids);
    expect(await env.PHOTOS.get(key)).toBeNull();
  });
});

// The search page renders cards with the badge's accessible label (the component test of the screens).
describe("search page", () => {
  it("renders the badge with its label on a verified member's card", async () => {
    const m = await chatMember(ORIGIN, { name: "Vera" });
    await verified(m);
    const html = await (await fetchWorker(`${ORIGIN}/members?gender=any`, { headers: { cookie: "locale=en" } })).text();
    expect(
      /<strong class="profile-card__name">Vera, 30<\/strong>[^]*?aria-label="Verified member: a moderator compared their selfie with their photos"/.test(
        html.replaceAll("<!-- -->", ""),
      ),
    ).toBe(true);
  });
});

describe("the console's verification queue", () => {
  it("shows moderators the waiting selfies oldest first with the pose and the public photos, serves the selfie only there", async () => {
    const moderator = await operator("moderator");
    const first = await chatMember(ORIGIN, { name: "Early" });
    const second = await chatMember(ORIGIN, { name: "Later" });
    await withPhoto(first);
    const pose = (await stateOf(first)).pose!;
    expect((await sendSelfie(first)).status).toBe(201);
    expect((await sendSelfie(second)).status).toBe(201);
    await env.DB.prepare("UPDATE verifications SET asked_at = asked_at - 100 WHERE profile_id = ?")
      .bind(first.id)
      .run();
    const page = (await (await asOperator(moderator, "/verifications")).text()).replaceAll("<!-- -->", "");
    const a = page.indexOf(`Early (profile ${first.id}`);
    const b = page.indexOf(`Later (profile ${second.id}`);
    expect(a).toBeGreaterThan(-1);
    expect(b).toBeGreaterThan(a);
    expect(page).toContain(`Pose: ${en.verification.poses[pose]}`);
    expect(page).toContain("Main photo");
    const row = (await waiting(first))!;
    const selfieAnswer = await asOperator(moderator, `/verifications/${row.id}/selfie`);
    expect(selfieAnswer.status).toBe(200);
    expect(selfieAnswer.headers.get("content-type")).toBe("image/jpeg");
    // A support operator is not a moderator; a member's own site never answers the console's paths.
    expect((await asOperator(await operator("support"), `/verifications/${row.id}/selfie`)).status).toBe(403);
    expect((await first.browser.fetch(`/verifications/${row.id}/selfie`)).status).toBe(404);
  });

  it("approves once however many moderators press at the same time, with one audit row, and rejects with a statement the member reads", async () => {
    const moderators = await Promise.all(Array.from({ length: 5 }, () => operator("moderator")));
    const m = await chatMember(ORIGIN);
    const photo = await withPhoto(m);
    expect((await sendSelfie(m)).status).toBe(201);
    const id = (await waiting(m))!.id;
    const answers = await Promise.all(
      moderators.map((email) =>
        asOperator(email, `/verifications/${id}/approve`, { form: { seen_photo_id: String(photo) } }),
      ),
    );
    expect(answers.map((r) => r.status).toSorted()).toEqual([200, 409, 409, 409, 409]);
    const audit = await env.DB.prepare(
      "SELECT action, reason FROM audit_log WHERE target_kind = 'verification' AND target_id = ?",
    )
      .bind(String(id))
      .all();
    expect(audit.results).toEqual([{ action: "verification.approve", reason: null }]);
    expect((await stateOf(m)).status).toBe("verified");

    const other = await chatMember(ORIGIN);
    expect((await sendSelfie(other)).status).toBe(201);
    const otherId = (await waiting(other))!.id;
    const moderator = moderators[0]!;
    expect(
      (await asOperator(moderator, `/verifications/${otherId}/reject`, { form: { reason: "because" } })).status,
    ).toBe(400);
    expect(
      (await asOperator(moderator, `/verifications/${otherId}/reject`, { form: { reason: "not_the_person" } })).status,
    ).toBe(200);
    expect(await stateOf(other)).toMatchObject({ status: "rejected", reason: "not_the_person", attempts_left: 2 });
    const rejected = await env.DB.prepare(
      "SELECT action, reason FROM audit_log WHERE target_kind = 'verification' AND target_id = ?",
    )
      .bind(String(otherId))
      .all();
    expect(rejected.results).toEqual([{ action: "verification.reject", reason: "not_the_person" }]);
    // The statement of reasons of the console's decisions (decision 0035): what, why, by a person, nothing to appeal.
    const statement = await env.DB.prepare(
      "SELECT outcome, facts, restricts, automated, appeal_until FROM moderation_decisions WHERE user_id = ? AND source = 'verification'",
    )
      .bind(other.userId)
      .all();
    expect(statement.results).toEqual([
      {
        outcome: "reject_verification",
        facts: "The person in the selfie doesn't look like the person in your photos.",
        restricts: 0,
        automated: 0,
        appeal_until: null,
      },
    ]);
  });
});
