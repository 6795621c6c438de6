/**
 * Verified people (docs/decisions/0040): the poses a member is asked for, the reasons a moderator
 * may reject a selfie with, the limits, and the shapes of /api/verification.php.
 *
 * GET answers the member's VerificationState, with the pose the server drew for them when they may
 * take a selfie: kept with the member for VERIFICATION_POSE_SECONDS, the same on every GET meanwhile
 * (docs/decisions/0049). POST `?action=new_pose` draws another (VERIFICATION_NEW_POSES_PER_DAY a
 * day). POST uploads the selfie as multipart/form-data (the file in the field `photo`, the pose in the
 * query: `?pose=left_ear`), accepted only for the live pose drawn, and answers the new state with 201.
 */
import * as v from "valibot";

/**
 * The poses, each with a simple line drawing (SVG inside a 0 0 100 100 box: a head, shoulders and
 * the hand where the pose puts it). The drawing is the member's left on the picture's right, as a
 * mirror shows them.
 */
export const VERIFICATION_POSES = {
  left_ear:
    "M34 40a16 20 0 1 0 32 0a16 20 0 1 0-32 0M22 100c2-22 14-32 28-32s26 10 28 32M80 100l-4-30-10-24M66 46l-2-8M70 44l-1-8",
  thumb_up:
    "M34 40a16 20 0 1 0 32 0a16 20 0 1 0-32 0M22 100c2-22 14-32 28-32s26 10 28 32M26 100l-6-30v-12M15 50h12v10H15zM21 50v-12",
  peace:
    "M34 40a16 20 0 1 0 32 0a16 20 0 1 0-32 0M22 100c2-22 14-32 28-32s26 10 28 32M76 100l6-30v-12M76 52h12v8H76zM79 52l-3-14M85 52l3-14",
  hand_on_head:
    "M34 40a16 20 0 1 0 32 0a16 20 0 1 0-32 0M22 100c2-22 14-32 28-32s26 10 28 32M86 100l4-44-8-34-16-4M50 18l16-2",
  chin: "M34 40a16 20 0 1 0 32 0a16 20 0 1 0-32 0M22 100c2-22 14-32 28-32s26 10 28 32M66 100l-4-26-8-10M42 60h16v6H42z",
} as const;

export type VerificationPose = keyof typeof VERIFICATION_POSES;
export const POSE_NAMES = Object.keys(VERIFICATION_POSES) as VerificationPose[];

export function isPose(value: unknown): value is VerificationPose {
  return typeof value === "string" && Object.hasOwn(VERIFICATION_POSES, value);
}

/** The reasons a moderator may reject a selfie with. */
export const VERIFICATION_REJECTIONS = [
  "pose_not_done",
  "face_not_visible",
  "not_the_person",
  "photo_of_photo",
] as const;
export type VerificationRejection = (typeof VERIFICATION_REJECTIONS)[number];

/** Selfies a member may send in a day (rolling 24 hours). */
export const VERIFICATION_ATTEMPTS_PER_DAY = 3;
/** Seconds a drawn pose stays the one to take (docs/decisions/0049). */
export const VERIFICATION_POSE_SECONDS = 15 * 60;
/** Other poses a member may ask for in a day (rolling 24 hours). */
export const VERIFICATION_NEW_POSES_PER_DAY = 3;
/** Days a selfie is kept after its decision. */
export const SELFIE_RETENTION_DAYS = 30;

export const VerificationQuery = v.object({ pose: v.picklist(POSE_NAMES) });

/**
 * Where a member stands:
 * - none: never verified; `pose` to take.
 * - pending: a moderator has the selfie (or a new main photo beside it).
 * - verified: the badge shows.
 * - paused: approved, but the member has no approved main photo now; the badge shows again once the
 *   main photo a moderator saw is public again (or after a new check against another one).
 * - suspended: verified before, but the main photo now is one no moderator saw beside the selfie; a
 *   new selfie brings the badge back.
 * - rejected: the last selfie was rejected with `reason`; another may be taken (`pose`) while
 *   `attempts_left` > 0.
 * - fictional: a demo profile, never verified.
 */
export type VerificationStatus = "none" | "pending" | "verified" | "paused" | "suspended" | "rejected" | "fictional";

export type VerificationState = {
  status: VerificationStatus;
  reason: VerificationRejection | null;
  decided_at: number | null;
  attempts_left: number;
  /** The pose the server drew to take now; null when no selfie can be taken now. */
  pose: VerificationPose | null;
  /** When that pose stops being accepted (unix seconds); null without a pose. */
  pose_expires_at: number | null;
  /** Other poses the member may still ask for today. */
  new_poses_left: number;
  /** Whether the member accepts first messages from verified members only. */
  verified_only: boolean;
};

/** PUT /api/verification.php */
export const VerificationSettingsBody = v.object({ verified_only: v.boolean() });
