/**
 * Accounts: the users table, the single-use tokens mailed to members (auth_tokens) and the failed-login
 * counters (login_attempts). "The account is live" is written here once.
 */
import {
  and,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  sql,
  type SQL,
  type SQLWrapper,
} from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "./database";
import { authTokens, creditLedger, loginAttempts, photos, profiles, users } from "./schema";

type Account = typeof users.$inferSelect;
type AuthToken = typeof authTokens.$inferSelect;

const LIVE_STATUSES = ["active", "not_confirmed"] as const;

/**
 * The account is live: it may log in, be found and be written to (`active`, or `not_confirmed`
 * while the e-mail address waits for its confirmation). Written as literals, so SQLite plans it as
 * the text it is. `status` is the users.status column of the query (or an alias such as `u.status`).
 */
export function accountIsLive(status: SQLWrapper = users.status): SQL {
  return sql`${status} IN (${sql.raw(LIVE_STATUSES.map((s) => `'${s}'`).join(", "))})`;
}

/** The same rule for a status already read. */
export function isLiveAccountStatus(status: string): boolean {
  return (LIVE_STATUSES as readonly string[]).includes(status);
}

export async function accountByEmail(db: Database, email: string): Promise<Account | undefined> {
  return db.select().from(users).where(eq(users.email, email)).get();
}

export async function accountById(db: Database, id: number): Promise<Account | undefined> {
  return db.select().from(users).where(eq(users.id, id)).get();
}

export async function usernameTaken(db: Database, usernameKey: string): Promise<boolean> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.usernameKey, usernameKey)).get()) !== undefined;
}

type NewAccount = {
  user: Omit<typeof users.$inferInsert, "status">;
  profile: Omit<typeof profiles.$inferInsert, "userId" | "fictional" | "searchable">;
  signupCredits: number;
  activation: { tokenHash: string; createdAt: number; expiresAt: number };
};

/**
 * A new member in one batch: the account (not confirmed), the profile, the signup credits with their
 * ledger row and the activation token. The unique indexes refuse the whole batch on a taken address or name.
 */
export async function createAccount(db: Database, account: NewAccount): Promise<void> {
  const userId = sql`(SELECT id FROM users WHERE email = ${account.user.email})`;
  const { createdAt } = account.activation;
  await db.batch([
    db.insert(users).values({ ...account.user, status: "not_confirmed" }),
    db.insert(profiles).values({ ...account.profile, userId, fictional: false, searchable: 1 }),
    ...(account.signupCredits > 0
      ? [db.insert(creditLedger).values({ userId, delta: account.signupCredits, reason: "signup", createdAt })]
      : []),
    db.insert(authTokens).values({ ...account.activation, userId, kind: "activation" }),
  ]);
}

export function setPasswordHash(db: Database, userId: number, passwordHash: string) {
  return db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export async function setInvisible(db: Database, userId: number, invisible: boolean): Promise<void> {
  await db.update(users).set({ invisible }).where(eq(users.id, userId));
}

/** The member's choice to appear on the site's promotion pages, or not. */
export async function setPromotionPages(db: Database, userId: number, on: boolean): Promise<void> {
  await db.update(users).set({ promotionPages: on }).where(eq(users.id, userId));
}

export async function setLanguage(db: Database, userId: number, language: string): Promise<void> {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}

/** Mark the account pending deletion (the statement, for the deletion's batch); one pending already keeps its date. */
export function markPendingDeletion(db: Database, userId: number, now: number) {
  return db
    .update(users)
    .set({ status: "pending_deletion", deletionRequestedAt: now })
    .where(and(eq(users.id, userId), ne(users.status, "pending_deletion")));
}

/** Accounts whose time to come back has run out, for the erasure. */
export async function accountsPendingDeletionSince(db: Database, before: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.status, "pending_deletion"), lte(users.deletionRequestedAt, before)))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Erase accounts; everything else hangs off users with ON DELETE CASCADE. */
export async function deleteAccounts(db: Database, ids: number[]): Promise<void> {
  await db.delete(users).where(inArray(users.id, ids));
}

// Tokens

/** A new single-use token's row (the statement, to run alone or in a batch). */
export function insertToken(db: Database, token: typeof authTokens.$inferInsert) {
  return db.insert(authTokens).values(token);
}

export async function tokensSentSince(db: Database, userId: number, kind: string, since: number): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(authTokens)
    .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, kind), gt(authTokens.createdAt, since)))
    .get();
  return row?.n ?? 0;
}

/** The status an account had before its deletion was asked, as the latest reactivation token keeps it. */
export async function statusBeforeDeletion(db: Database, userId: number): Promise<string | null> {
  const row = await db
    .select({ data: authTokens.data })
    .from(authTokens)
    .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, "reactivation"), isNotNull(authTokens.data)))
    .orderBy(desc(authTokens.createdAt))
    .limit(1)
    .get();
  return row?.data ?? null;
}

export async function liveToken(
  db: Database,
  tokenHash: string,
  kind: string,
  now: number,
): Promise<Pick<AuthToken, "userId" | "data"> | undefined> {
  return db
    .select({ userId: authTokens.userId, data: authTokens.data })
    .from(authTokens)
    .where(
      and(
        eq(authTokens.tokenHash, tokenHash),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .get();
}

/** The member of a token still unused and unexpired, as a subquery: an effect changes nothing once the token is spent. */
/** The account status of the member a token was sent to, once the token is used (a link clicked twice). */
export async function usedTokenAccountStatus(db: Database, tokenHash: string, kind: string): Promise<string | null> {
  const row = await db
    .select({ status: users.status })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(and(eq(authTokens.tokenHash, tokenHash), eq(authTokens.kind, kind), isNotNull(authTokens.usedAt)))
    .get();
  return row?.status ?? null;
}

export function liveTokenMember(db: Database, tokenHash: string, now: number) {
  return db
    .select({ userId: authTokens.userId })
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now)));
}

/** The token's data (the new address of a mail change, the status before a deletion), as a subquery. */
const tokenData = (tokenHash: string) =>
  sql`(SELECT ${authTokens.data} FROM ${authTokens} WHERE ${authTokens.tokenHash} = ${tokenHash})`;

/**
 * Spend a token once: `effects` (built on `liveTokenMember`) and the mark that uses the token run in
 * one batch, so two clicks on the same link cannot both succeed. True when this call used it.
 */
export async function spendToken(
  db: Database,
  tokenHash: string,
  now: number,
  effects: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]],
): Promise<boolean> {
  const use = db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.usedAt)));
  const [effect, ...more] = effects;
  const results = await db.batch([effect, ...more, use]);
  return (results[results.length - 1] as D1Result).meta.changes === 1;
}

/** Activation: the account leaves not_confirmed. */
export function confirmAccountByToken(db: Database, tokenHash: string, now: number) {
  return db
    .update(users)
    .set({ status: "active", confirmedAt: now })
    .where(and(eq(users.status, "not_confirmed"), inArray(users.id, liveTokenMember(db, tokenHash, now))));
}

export function setPasswordByToken(db: Database, tokenHash: string, now: number, passwordHash: string) {
  return db
    .update(users)
    .set({ passwordHash })
    .where(inArray(users.id, liveTokenMember(db, tokenHash, now)));
}

/** A confirmed mail change: the new address, which also confirms an unconfirmed account. */
export function changeEmailByToken(db: Database, tokenHash: string, now: number) {
  return db
    .update(users)
    .set({
      email: tokenData(tokenHash),
      status: sql`CASE ${users.status} WHEN 'not_confirmed' THEN 'active' ELSE ${users.status} END`,
    })
    .where(inArray(users.id, liveTokenMember(db, tokenHash, now)));
}

/** Reactivation: the account is back with the status it had before (kept in the token). */
export function reactivateByToken(db: Database, tokenHash: string, now: number) {
  return db
    .update(users)
    .set({
      status: sql`CASE WHEN ${tokenData(tokenHash)} = 'not_confirmed' THEN 'not_confirmed' ELSE 'active' END`,
      deletionRequestedAt: null,
    })
    .where(and(eq(users.status, "pending_deletion"), inArray(users.id, liveTokenMember(db, tokenHash, now))));
}

/**
 * A deletion undone by a reversed appeal (docs/decisions/0061): the account is back with the status
 * its deletion link kept (an unconfirmed one stays unconfirmed), the link itself spent. Only while
 * the deletion is still pending: an erased account cannot come back.
 */
export function cancelDeletionQueries(db: Database, userId: number, now: number) {
  const before = sql`(SELECT ${authTokens.data} FROM ${authTokens} WHERE ${authTokens.userId} = ${userId} AND ${authTokens.kind} = 'reactivation' ORDER BY ${authTokens.createdAt} DESC LIMIT 1)`;
  return [
    db
      .update(users)
      .set({
        status: sql`CASE WHEN ${before} = 'not_confirmed' THEN 'not_confirmed' ELSE 'active' END`,
        deletionRequestedAt: null,
      })
      .where(and(eq(users.id, userId), eq(users.status, "pending_deletion"))),
    db
      .update(authTokens)
      .set({ usedAt: now })
      .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, "reactivation"), isNull(authTokens.usedAt))),
  ] as const;
}

// Failed logins

/** When a throttle key may try again (unix seconds), or null. */
export async function loginBlockedUntil(db: Database, key: string): Promise<number | null> {
  const row = await db
    .select({ blockedUntil: loginAttempts.blockedUntil })
    .from(loginAttempts)
    .where(eq(loginAttempts.key, key))
    .get();
  return row?.blockedUntil ?? null;
}

/**
 * Count one failure atomically; a count that reaches `limit` within `windowSeconds` blocks the key
 * for `blockSeconds`. Returns the key's blocked_until.
 */
export async function countLoginFailure(
  db: Database,
  key: string,
  limit: number,
  now: number,
  windowSeconds: number,
  blockSeconds: number,
): Promise<number | null> {
  const expired = sql`${loginAttempts.windowStart} <= ${now - windowSeconds}`;
  const failures = sql`CASE WHEN ${expired} THEN 1 ELSE ${loginAttempts.failures} + 1 END`;
  const row = await db
    .insert(loginAttempts)
    .values({ key, failures: 1, windowStart: now, blockedUntil: limit <= 1 ? now + blockSeconds : null })
    .onConflictDoUpdate({
      target: loginAttempts.key,
      set: {
        failures,
        windowStart: sql`CASE WHEN ${expired} THEN ${now} ELSE ${loginAttempts.windowStart} END`,
        blockedUntil: sql`CASE WHEN (${failures}) >= ${limit} THEN ${now + blockSeconds} ELSE ${loginAttempts.blockedUntil} END`,
      },
    })
    .returning({ blockedUntil: loginAttempts.blockedUntil })
    .get();
  return row?.blockedUntil ?? null;
}

export async function clearLoginFailures(db: Database, key: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, key));
}

/** What GET /api/user.php shows of a member: the account, the profile's id and name, and the main photo. */
export async function accountView(db: Database, userId: number) {
  return db
    .select({
      status: users.status,
      email: users.email,
      invisible: users.invisible,
      promotionPages: users.promotionPages,
      credits: users.credits,
      paidUser: users.paidUser,
      language: users.language,
      signupDate: users.signupDate,
      profileId: profiles.id,
      name: profiles.name,
      photoKey: photos.key,
      photoThumbKey: photos.thumbKey,
      photoStatus: photos.status,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
    .where(eq(users.id, userId))
    .get();
}
