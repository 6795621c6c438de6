/**
 * Verified people (docs/decisions/0040): a member takes a selfie in the pose the server drew for
 * them and keeps for a while (docs/decisions/0049), a moderator sees it beside the pose's drawing and
 * the member's approved photos and decides against the approved main photo shown; the badge shows
 * while the main photo is that one and approved. The selfie lives in R2 under a `v/` key,
 * which no member route serves (api/media.ts knows only photo and chat photo keys), and goes 30
 * days after the decision or with the account.
 */
import {
  isPose,
  POSE_NAMES,
  VERIFICATION_ATTEMPTS_PER_DAY,
  VERIFICATION_NEW_POSES_PER_DAY,
  VERIFICATION_POSE_SECONDS,
  VERIFICATION_REJECTIONS,
  type VerificationPose,
  type VerificationRejection,
  type VerificationState,
} from "../../shared/verification";
import { withAudit, type Actor } from "../db/audit-log";
import type { Database } from "../db/database";
import {
  verificationDecisionStatements,
  forgetSelfies,
  insertSelfie,
  keepAskedPose,
  keepPose,
  poseIsLive,
  selfiesPastRetention,
  setVerifiedOnly,
  suspendBadgeOnNewMainPhoto,
  verificationById,
  verificationsSince,
  verificationStanding,
} from "../db/verification";
import { AppError } from "../errors";
import { processPhoto } from "./images";
import { verificationStatement } from "./moderation";

type Member = { userId: number; profileId: number };

const refusal = (status: 400 | 403 | 404 | 409 | 429, code: string) =>
  new AppError({ status, code, key: `verification.errors.${code}` });

/** A pose chosen at random other than `not` (`random` in [0, 1), a parameter so tests can choose). */
export function randomPose(random: number = Math.random(), not?: string | null): VerificationPose {
  const names = POSE_NAMES.filter((name) => name !== not);
  return names[Math.min(names.length - 1, Math.floor(random * names.length))]!;
}

async function standingOf(db: Database, member: Member, now: number) {
  const standing = await verificationStanding(db, member.userId, member.profileId, now);
  if (!standing)
    throw new AppError({ status: 403, code: "authentication_required", key: "errors.authentication_required" });
  return standing;
}

type Standing = Awaited<ReturnType<typeof standingOf>>;

/** Where the member stands, with the live drawn pose (if any) when they may send a selfie now. */
function stateOf(standing: Standing, now: number): VerificationState {
  const last = standing.last;
  const attemptsLeft = Math.max(0, VERIFICATION_ATTEMPTS_PER_DAY - standing.attempts);
  const base = {
    reason: null,
    decided_at: last?.decidedAt ?? null,
    attempts_left: attemptsLeft,
    pose: null,
    pose_expires_at: null,
    new_poses_left: 0,
    verified_only: standing.verifiedOnly,
  };
  if (standing.fictional) return { ...base, status: "fictional", attempts_left: 0 };
  if (standing.verified) return { ...base, status: standing.hasPhoto ? "verified" : "paused" };
  if (last?.status === "pending") return { ...base, status: "pending" };
  const live = attemptsLeft > 0 && poseIsLive(standing.pose, now) && isPose(standing.pose.pose) ? standing.pose : null;
  const withPose = {
    ...base,
    pose: live ? (live.pose as VerificationPose) : null,
    pose_expires_at: live ? live.drawnAt + VERIFICATION_POSE_SECONDS : null,
    new_poses_left: attemptsLeft > 0 ? Math.max(0, VERIFICATION_NEW_POSES_PER_DAY - standing.posesAsked) : 0,
  };
  // Approved once, and the main photo since is one no moderator saw beside the selfie.
  if (standing.verifiedPhotoId !== null || last?.status === "approved") return { ...withPose, status: "suspended" };
  if (last?.status === "rejected")
    return {
      ...withPose,
      status: "rejected",
      reason: (last.reason as VerificationRejection | null) ?? null,
    };
  return { ...withPose, status: "none" };
}

const mayTakeSelfie = (state: VerificationState) =>
  (state.status === "none" || state.status === "rejected" || state.status === "suspended") && state.attempts_left > 0;

/**
 * Where the member stands, with the pose to take when they may send a selfie now: the one the
 * server drew and keeps for VERIFICATION_POSE_SECONDS, the same on every call meanwhile; a new one
 * drawn only once none is live (docs/decisions/0049).
 */
export async function verificationState(
  db: Database,
  member: Member,
  now: number,
  random?: number,
): Promise<VerificationState> {
  const state = stateOf(await standingOf(db, member, now), now);
  if (state.pose || !mayTakeSelfie(state)) return state;
  // Racing calls keep one pose: the first insert wins, every call answers the kept one.
  await keepPose(db, member.profileId, randomPose(random), now);
  return stateOf(await standingOf(db, member, now), now);
}

/**
 * The member asks for another pose than the one drawn: a new one (never the same), at most
 * VERIFICATION_NEW_POSES_PER_DAY a day, however many requests race. Answers the new state.
 */
export async function askForAnotherPose(
  db: Database,
  member: Member,
  now: number,
  random?: number,
): Promise<VerificationState> {
  const standing = await standingOf(db, member, now);
  const state = stateOf(standing, now);
  await refuseSelfie(state);
  if (state.new_poses_left === 0) throw refusal(429, "new_poses");
  const current = poseIsLive(standing.pose, now) ? standing.pose.pose : null;
  if (!(await keepAskedPose(db, member.profileId, randomPose(random, current), now))) throw refusal(429, "new_poses");
  return verificationState(db, member, now, random);
}

/** A fresh selfie key: `v/` and 128 random bits (never a key /media/ answers). */
function newSelfieKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `v/${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}.jpg`;
}

/**
 * Store a member's selfie for a moderator: checked and remade like a photo (metadata stripped),
 * put to R2, then its row, which the database refuses for a fictional or verified profile, a second
 * waiting selfie or a fourth in 24 hours (the object is then deleted again). Answers the new state.
 */
export async function takeSelfie(
  store: { db: Database; bucket: R2Bucket },
  member: Member & { siteDomain: string },
  pose: string,
  bytes: Uint8Array,
  now: number,
): Promise<VerificationState> {
  if (!isPose(pose))
    throw new AppError({
      status: 400,
      code: "invalid_parameter",
      key: "errors.invalid_parameter",
      values: { field: "pose" },
      field: "pose",
    });
  const standing = await standingOf(store.db, member, now);
  await refuseSelfie(stateOf(standing, now));
  refuseOtherPose(standing, pose, now);
  const processed = await processPhoto(bytes);
  const key = newSelfieKey();
  await store.bucket.put(key, processed.original, { httpMetadata: { contentType: "image/jpeg" } });
  const stored = await insertSelfie(store.db, {
    profileId: member.profileId,
    siteDomain: member.siteDomain,
    pose,
    selfieKey: key,
    now,
  }).catch(async (error: unknown) => {
    await store.bucket.delete(key);
    throw error;
  });
  if (!stored) {
    await store.bucket.delete(key);
    // Another request got there first: its state says why.
    const after = await standingOf(store.db, member, now);
    await refuseSelfie(stateOf(after, now));
    refuseOtherPose(after, pose, now);
    throw refusal(409, "pending");
  }
  return verificationState(store.db, member, now);
}

/** A selfie only for the pose the server drew and still keeps (docs/decisions/0049). */
function refuseOtherPose(standing: Standing, pose: string, now: number): void {
  const drawn = standing.pose;
  if (!drawn || drawn.pose !== pose || drawn.usedAt !== null) throw refusal(409, "pose_not_given");
  if (!poseIsLive(drawn, now)) throw refusal(409, "pose_expired");
}

async function refuseSelfie(state: VerificationState): Promise<void> {
  if (state.status === "fictional") throw refusal(403, "fictional");
  if (state.status === "verified" || state.status === "paused") throw refusal(409, "already_verified");
  if (state.status === "pending") throw refusal(409, "pending");
  if (state.attempts_left === 0) throw refusal(429, "attempts");
}

/** "Only verified members may write to me", on or off. */
export async function chooseVerifiedOnly(db: Database, userId: number, on: boolean): Promise<void> {
  await setVerifiedOnly(db, userId, on);
}

/** After the main photo changed: a verified member's badge waits for a moderator to see the new one beside the selfie. */
export async function checkBadgeAfterMainPhoto(db: Database, profileId: number, now: number): Promise<void> {
  await suspendBadgeOnNewMainPhoto(db, profileId, now);
}

/** Whether the photo a moderator was shown is the member's approved main photo now. */
function seenIsApprovedMain(found: { mainPhotoId: number | null; hasPhoto: boolean }, seenPhotoId: number | null) {
  return seenPhotoId !== null && found.hasPhoto && found.mainPhotoId === seenPhotoId;
}

export type VerificationDecision =
  | { approve: true; seenPhotoId: number | null }
  | { approve: false; reason: VerificationRejection };

/**
 * A moderator's decision on a waiting verification, with its audit row in the same batch (written
 * only when the decision took effect: docs/decisions/0034). Refuses a fictional profile (never
 * verified), a reason not on the list, and a verification decided already (the first of racing
 * decisions wins). Answers the member's profile and user ids.
 */
export async function decideOnVerification(
  db: Database,
  id: number,
  decision: VerificationDecision,
  actor: Actor,
  now: number,
  /** The Worker's bindings: a rejection by an operator then carries its statement of reasons (docs/decisions/0035), mailed to the member. */
  env?: Env,
): Promise<{ profileId: number; userId: number; name: string }> {
  const found = await verificationById(db, id);
  if (!found || found.verification.status !== "pending")
    throw new AppError({ status: 409, code: "already_decided", key: "verification.errors.already_decided" });
  if (found.fictional) throw refusal(403, "fictional");
  // Only against the approved main photo the moderator was shown beside the selfie (docs/decisions/0049).
  if (decision.approve && !seenIsApprovedMain(found, decision.seenPhotoId)) throw refusal(409, "no_approved_photo");
  if (!decision.approve && !VERIFICATION_REJECTIONS.includes(decision.reason))
    throw new AppError({
      status: 400,
      code: "invalid_parameter",
      key: "errors.invalid_parameter",
      values: { field: "reason" },
      field: "reason",
    });
  const statements = verificationDecisionStatements(db, {
    id,
    profileId: found.verification.profileId,
    approve: decision.approve,
    reason: decision.approve ? null : decision.reason,
    operator: actor.name,
    seenPhotoId: decision.approve ? decision.seenPhotoId : null,
    now,
  });
  const entry = {
    action: decision.approve ? "verification.approve" : "verification.reject",
    target: { kind: "verification", id },
    before: {
      status: "pending",
      kind: found.verification.kind,
      profile_id: found.verification.profileId,
      main_photo_id: found.mainPhotoId,
    },
    after: decision.approve
      ? { status: "approved", seen_photo_id: decision.seenPhotoId }
      : { status: "rejected", reason: decision.reason },
    reason: decision.approve ? null : decision.reason,
  };
  const operatorId = actor.operatorId;
  const statement =
    !decision.approve && env && operatorId !== null
      ? await verificationStatement(
          { env, db, actor: { ...actor, operatorId }, now },
          found.verification.profileId,
          decision.reason,
        )
      : null;
  const [first] = await db.batch(withAudit(db, actor, entry, statements, now, true));
  const done = ((first as { meta?: { changes?: number } }).meta?.changes ?? 0) > 0;
  if (!done) {
    // The photo may have changed between the read and the batch: say which refusal it was.
    const current = await verificationById(db, id);
    if (
      current?.verification.status === "pending" &&
      decision.approve &&
      !seenIsApprovedMain(current, decision.seenPhotoId)
    )
      throw refusal(409, "no_approved_photo");
    throw new AppError({ status: 409, code: "already_decided", key: "verification.errors.already_decided" });
  }
  if (statement) {
    // Only the moderator whose decision took effect writes the statement, so it follows the batch
    // (the decision's guard cannot reach an insert of values); the member's profile shows the
    // rejection from the verification row whatever happens to the mail.
    await db.batch([statement.statement]);
    await statement.tell();
  }
  return { profileId: found.verification.profileId, userId: found.userId, name: found.name };
}

/** The clock work: selfies decided SELFIE_RETENTION_DAYS ago leave R2, in one batch. Answers how many went. */
export async function deleteOldSelfies(db: Database, bucket: R2Bucket, now: number, batch: number): Promise<number> {
  const rows = await selfiesPastRetention(db, now, batch);
  const keys = [...new Set(rows.map((r) => r.selfieKey))];
  if (!keys.length) return 0;
  await bucket.delete(keys);
  await forgetSelfies(db, keys);
  return rows.length;
}

export type VerificationFigures = {
  site: string;
  day: string;
  asked: number;
  approved: number;
  rejected: number;
  median_decision_seconds: number | null;
};

const dayOf = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);

function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = values.toSorted((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

/**
 * For the dashboard: per site and UTC day from `from` (unix seconds), the selfies asked that day,
 * those approved and rejected that day, and the median seconds from asking to a decision of the
 * decisions made that day. Photo checks are decisions too, counted as approved or rejected.
 */
export async function verificationFigures(db: Database, from: number): Promise<VerificationFigures[]> {
  const rows = await verificationsSince(db, from);
  const byKey = new Map<string, VerificationFigures & { waits: number[] }>();
  const entry = (site: string, day: string) => {
    const key = `${site} ${day}`;
    let found = byKey.get(key);
    if (!found)
      byKey.set(
        key,
        (found = { site, day, asked: 0, approved: 0, rejected: 0, median_decision_seconds: null, waits: [] }),
      );
    return found;
  };
  for (const row of rows) {
    if (row.askedAt >= from && row.kind === "selfie") entry(row.siteDomain, dayOf(row.askedAt)).asked++;
    if (row.decidedAt !== null && row.decidedAt >= from && (row.status === "approved" || row.status === "rejected")) {
      const day = entry(row.siteDomain, dayOf(row.decidedAt));
      day[row.status]++;
      day.waits.push(row.decidedAt - row.askedAt);
    }
  }
  return [...byKey.values()]
    .map(({ waits, ...figures }) => ({ ...figures, median_decision_seconds: median(waits) }))
    .toSorted((a, b) => a.site.localeCompare(b.site) || a.day.localeCompare(b.day));
}
