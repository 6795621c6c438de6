import type { MainImage, User } from "../../shared/api";

function ownMainImage(row: { photo_key: string | null; photo_thumb_key: string | null; photo_status: string | null }): MainImage | null {
  if (!row.photo_key || !row.photo_thumb_key || !row.photo_status) return null;
  return { filename: row.photo_key, thumb_filename: row.photo_thumb_key, status: row.photo_status, match: row.photo_key };
}

type UserRow = {
  status: string;
  email: string;
  invisible: number;
  credits: number;
  paid_user: number;
  language: string;
  signup_date: number;
  profile_id: number;
  name: string;
  photo_key: string | null;
  photo_thumb_key: string | null;
  photo_status: string | null;
  blocks: string | null;
};

/** The member as GET /api/user.php answers it (SPEC §3 User), or null when there is no such account. */
export async function getUserView(db: D1Database, userId: number): Promise<User | null> {
  const row = await db
    .prepare(
      `SELECT u.status, u.email, u.invisible, u.credits, u.paid_user, u.language, u.signup_date,
              p.id AS profile_id, p.name, ph.key AS photo_key, ph.thumb_key AS photo_thumb_key, ph.status AS photo_status,
              (SELECT group_concat(reason) FROM notification_blocks nb WHERE nb.user_id = u.id) AS blocks
       FROM users u JOIN profiles p ON p.user_id = u.id LEFT JOIN photos ph ON ph.id = p.main_photo_id
       WHERE u.id = ?`,
    )
    .bind(userId)
    .first<UserRow>();
  if (!row) return null;
  return {
    status: row.status,
    email: row.email,
    invisible: row.invisible === 1,
    credits: row.credits,
    paid_user: row.paid_user === 1,
    language: row.language,
    signup_date: row.signup_date,
    notifications_disabled: row.blocks ? row.blocks.split(",").toSorted() : [],
    // The member's own main photo counts while it waits for approval (its status says so): the
    // profile-photo alert is for members who have none, not for one still pending.
    profile: { id: row.profile_id, name: row.name, main_image: row.photo_status === "rejected" ? null : ownMainImage(row) },
  };
}
