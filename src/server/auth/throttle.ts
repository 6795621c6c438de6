/**
 * Failed-login counters in D1 (not KV: they must be exact under concurrent attempts). An account is
 * blocked for a while after a few failures in a row; an address that fails many times is refused
 * before any account is tried, so one attacker cannot cheaply lock everybody out.
 */
export const ACCOUNT_FAILURES = 5;
export const ADDRESS_FAILURES = 30;
const WINDOW_SECONDS = 15 * 60;
const BLOCK_SECONDS = 15 * 60;

export const accountKey = (userId: number) => `user:${userId}`;
export const addressKey = (address: string) => `ip:${address}`;

/** Seconds until a key may try again, or 0. */
export async function blockedFor(db: D1Database, key: string, now = Math.floor(Date.now() / 1000)): Promise<number> {
  const row = await db.prepare("SELECT blocked_until FROM login_attempts WHERE key = ?").bind(key).first<{ blocked_until: number | null }>();
  return row?.blocked_until && row.blocked_until > now ? row.blocked_until - now : 0;
}

/**
 * Count one failure atomically; a count that reaches `limit` within the window blocks the key.
 * Returns the seconds the key is now blocked for (0 when not blocked).
 */
export async function recordFailure(db: D1Database, key: string, limit: number, now = Math.floor(Date.now() / 1000)): Promise<number> {
  const row = await db
    .prepare(
      `INSERT INTO login_attempts (key, failures, window_start, blocked_until) VALUES (?1, 1, ?2, CASE WHEN ?3 <= 1 THEN ?2 + ?5 END)
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN window_start <= ?2 - ?4 THEN 1 ELSE failures + 1 END,
         window_start = CASE WHEN window_start <= ?2 - ?4 THEN ?2 ELSE window_start END,
         blocked_until = CASE WHEN (CASE WHEN window_start <= ?2 - ?4 THEN 1 ELSE failures + 1 END) >= ?3 THEN ?2 + ?5 ELSE blocked_until END
       RETURNING blocked_until`,
    )
    .bind(key, now, limit, WINDOW_SECONDS, BLOCK_SECONDS)
    .first<{ blocked_until: number | null }>();
  return row?.blocked_until && row.blocked_until > now ? row.blocked_until - now : 0;
}

/** A successful login clears the account's count. */
export async function clearFailures(db: D1Database, key: string): Promise<void> {
  await db.prepare("DELETE FROM login_attempts WHERE key = ?").bind(key).run();
}
