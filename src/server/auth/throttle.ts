/**
 * Failed-login counters in D1 (not KV: they must be exact under concurrent attempts). An account is
 * blocked for a while after a few failures in a row; an address that fails many times is refused
 * before any account is tried, so one attacker cannot cheaply lock everybody out.
 */
import { clearLoginFailures, countLoginFailure, loginBlockedUntil } from "../db/accounts";
import type { Database } from "../db/database";

export const ACCOUNT_FAILURES = 5;
export const ADDRESS_FAILURES = 30;
const WINDOW_SECONDS = 15 * 60;
const BLOCK_SECONDS = 15 * 60;

export const accountKey = (userId: number) => `user:${userId}`;
export const addressKey = (address: string) => `ip:${address}`;

const secondsLeft = (blockedUntil: number | null, now: number) =>
  blockedUntil && blockedUntil > now ? blockedUntil - now : 0;

/** Seconds until a key may try again, or 0. */
export async function blockedFor(db: Database, key: string, now = Math.floor(Date.now() / 1000)): Promise<number> {
  return secondsLeft(await loginBlockedUntil(db, key), now);
}

/**
 * Count one failure atomically; a count that reaches `limit` within the window blocks the key.
 * Returns the seconds the key is now blocked for (0 when not blocked).
 */
export async function recordFailure(
  db: Database,
  key: string,
  limit: number,
  now = Math.floor(Date.now() / 1000),
): Promise<number> {
  return secondsLeft(await countLoginFailure(db, key, limit, now, WINDOW_SECONDS, BLOCK_SECONDS), now);
}

/** A successful login clears the account's count. */
export async function clearFailures(db: Database, key: string): Promise<void> {
  await clearLoginFailures(db, key);
}
