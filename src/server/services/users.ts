import type { MainImage, User } from "../../shared/api";
import { accountView } from "../db/accounts";
import type { Database } from "../db/database";
import { mailStopsOf } from "../db/notification-choices";
import { disabledReasons } from "../../shared/notifications";

function ownMainImage(row: {
  photoKey: string | null;
  photoThumbKey: string | null;
  photoStatus: string | null;
}): MainImage | null {
  if (!row.photoKey || !row.photoThumbKey || !row.photoStatus) return null;
  return { filename: row.photoKey, thumb_filename: row.photoThumbKey, status: row.photoStatus, match: row.photoKey };
}

/** The member as GET /api/user.php answers it (SPEC §3 User), or null when there is no such account. */
export async function getUserView(db: Database, userId: number): Promise<User | null> {
  const [row, stops] = await Promise.all([accountView(db, userId), mailStopsOf(db, userId)]);
  if (!row) return null;
  return {
    status: row.status,
    email: row.email,
    invisible: row.invisible,
    promotion_pages: row.promotionPages,
    credits: row.credits,
    paid_user: row.paidUser,
    language: row.language,
    signup_date: row.signupDate,
    // Why mail to the member stopped: "bounce", "complaint", "unsubscribe" (details at /api/notifications.php).
    notifications_disabled: disabledReasons(stops),
    // The member's own main photo counts while it waits for approval (its status says so): the
    // profile-photo alert is for members who have none, not for one still pending.
    profile: {
      id: row.profileId,
      name: row.name,
      main_image: row.photoStatus === "rejected" ? null : ownMainImage(row),
    },
  };
}
