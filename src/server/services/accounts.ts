/**
 * Accounts (SPEC §1, §4, §5): sign-up, activation, login with lockout, password reset and change,
 * e-mail change, invisible mode, deletion with a 14-day way back, and the erasure after it. Writes
 * that belong together go in one D1 batch, so a half-made account or a token used twice cannot exist.
 */
import { REACTIVATION_DAYS, type SignupBody } from "../../shared/account";
import { isLanguage, type Language } from "../../shared/locales";
import type { CompanyInfo, SiteSettings } from "../../shared/settings";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { accountKey, addressKey, ACCOUNT_FAILURES, ADDRESS_FAILURES, blockedFor, clearFailures, recordFailure } from "../auth/throttle";
import { randomToken, tokenHash } from "../auth/tokens";
import { AppError, fieldError, invalidFields } from "../errors";
import { i18nFor } from "../i18n";
import type { Mailer } from "../mail/mailer";
import { composeMail, type MailKind } from "../mail/templates";
import type { Tracking } from "../edge/tracking";
import {
  birthDateProblem,
  emailProblem,
  normaliseEmail,
  passwordProblem,
  type Problem,
  termsVersion,
  usernameKey,
  usernameProblem,
} from "./account-rules";

export const RESET_MAILS_PER_DAY = 3;
export const ACTIVATION_MAILS_PER_DAY = 5;
const HOUR = 3600;
const DAY = 24 * HOUR;
const TOKEN_LIFETIME: Record<TokenKind, number> = {
  activation: 7 * DAY,
  password_reset: 2 * HOUR,
  mail_change: DAY,
  reactivation: REACTIVATION_DAYS * DAY,
};

export type TokenKind = "activation" | "password_reset" | "mail_change" | "reactivation";

/** What account operations need besides the database: where links point, how mail leaves, the site. */
export type AccountContext = {
  db: D1Database;
  mailer: Mailer;
  origin: string;
  site: SiteSettings;
  company: CompanyInfo | null;
  now?: number;
};

const nowOf = (ctx: AccountContext) => ctx.now ?? Math.floor(Date.now() / 1000);

type AccountRow = { id: number; email: string; username: string; password_hash: string | null; status: string; language: string; invisible: number };

async function accountByEmail(db: D1Database, email: string): Promise<AccountRow | null> {
  return db.prepare("SELECT id, email, username, password_hash, status, language, invisible FROM users WHERE email = ?").bind(email).first<AccountRow>();
}

async function accountById(db: D1Database, id: number): Promise<AccountRow | null> {
  return db.prepare("SELECT id, email, username, password_hash, status, language, invisible FROM users WHERE id = ?").bind(id).first<AccountRow>();
}

/** A new single-use token: the statement that stores its hash, and the token for the link. */
async function newToken(ctx: AccountContext, userId: number, kind: TokenKind, data: string | null = null) {
  const token = randomToken();
  const statement = ctx.db
    .prepare("INSERT INTO auth_tokens (token_hash, user_id, kind, data, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(await tokenHash(token), userId, kind, data, nowOf(ctx), nowOf(ctx) + TOKEN_LIFETIME[kind]);
  return { token, statement };
}

const LINKS: Record<TokenKind, (token: string) => string> = {
  activation: (t) => `/api/activate.php?token=${t}`,
  password_reset: (t) => `/reset-password/do?token=${t}`,
  mail_change: (t) => `/mail-change/do?token=${t}`,
  reactivation: (t) => `/api/reactivate.php?token=${t}`,
};
const MAIL_OF: Record<TokenKind, MailKind> = { activation: "activation", password_reset: "reset", mail_change: "mail_change", reactivation: "deletion" };

async function mailLink(ctx: AccountContext, account: { email: string; username: string; language: string }, kind: TokenKind, token: string, values: Record<string, string | number> = {}, to = account.email) {
  const language: Language = isLanguage(account.language) ? account.language : "en";
  const mail = composeMail(i18nFor(language).t, MAIL_OF[kind], { address: to, name: account.username }, ctx.site.name, ctx.origin + LINKS[kind](token), values);
  await ctx.mailer.send(mail);
}

/** Tokens of a kind a member was sent in the last day (for the per-day limits). */
async function tokensSentToday(ctx: AccountContext, userId: number, kind: TokenKind): Promise<number> {
  const row = await ctx.db
    .prepare("SELECT count(*) AS n FROM auth_tokens WHERE user_id = ? AND kind = ? AND created_at > ?")
    .bind(userId, kind, nowOf(ctx) - DAY)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Use a mailed token once: `effect` is the statement that does what the token is for, written so it
 * changes nothing unless the token is still unused and unexpired (it can read the token row by hash).
 * Both run in one batch, so two clicks on the same link cannot both succeed.
 */
async function spendToken(ctx: AccountContext, token: string, kind: TokenKind, effect: (hash: string, now: number) => D1PreparedStatement[]) {
  const hash = await tokenHash(token);
  const now = nowOf(ctx);
  const row = await ctx.db
    .prepare("SELECT user_id, data FROM auth_tokens WHERE token_hash = ? AND kind = ? AND used_at IS NULL AND expires_at > ?")
    .bind(hash, kind, now)
    .first<{ user_id: number; data: string | null }>();
  if (!row) return null;
  const results = await ctx.db.batch([
    ...effect(hash, now),
    ctx.db.prepare("UPDATE auth_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL").bind(now, hash),
  ]);
  return results[results.length - 1]!.meta.changes === 1 ? row : null;
}

/** The live-token condition the effects of spendToken repeat, so they act only on an unused token. */
const LIVE_TOKEN = "SELECT user_id FROM auth_tokens WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2";

export async function signUp(ctx: AccountContext, input: SignupBody, options: { language: Language; country: string; tracking: Tracking | null }) {
  const { site } = ctx;
  if (site.signups === "invite_only") throw new AppError(403, "invite_only", "errors.invite_only");
  if (site.signups === "with_trafficsource" && !options.tracking) throw new AppError(403, "signup_closed", "errors.signup_closed");

  const email = normaliseEmail(input.email);
  const username = input.username.normalize("NFKC").trim();
  const problems: Record<string, Problem> = {};
  const check = (field: string, problem: Problem | null) => {
    if (problem) problems[field] = problem;
  };
  check("email", emailProblem(email));
  check("username", usernameProblem(username, email));
  check("password", passwordProblem(input.password));
  check("date_of_birth", birthDateProblem(input.date_of_birth));
  if (Object.keys(problems).length) throw invalidFields(problems);

  if (await accountByEmail(ctx.db, email)) throw fieldError(409, "email_exists", "email", "validation.email_exists");
  const key = usernameKey(username);
  if (await ctx.db.prepare("SELECT 1 FROM users WHERE username_key = ?").bind(key).first()) throw fieldError(409, "username_taken", "username", "validation.username_taken");

  const now = nowOf(ctx);
  const passwordHash = await hashPassword(input.password);
  const credits = site.signup_credits;
  const byEmail = "(SELECT id FROM users WHERE email = ?)";
  const tracking = options.tracking ?? {};
  const activationToken = randomToken();
  try {
    await ctx.db.batch([
      ctx.db
        .prepare(
          `INSERT INTO users (email, username, username_key, password_hash, status, credits, language, site_domain, signup_date, terms_accepted_at, terms_version, network, ref, sub1, sub2, sub3, last_active_at)
           VALUES (?, ?, ?, ?, 'not_confirmed', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(email, username, key, passwordHash, credits, options.language, site.domain, now, now, termsVersion(ctx.company?.added), tracking.network ?? null, tracking.ref ?? null, tracking.sub1 ?? null, tracking.sub2 ?? null, tracking.sub3 ?? null, now),
      ctx.db
        .prepare(`INSERT INTO profiles (user_id, name, country, gender, sexuality, birth_date, fictional, searchable, last_active_at, created_at) VALUES (${byEmail}, ?, ?, ?, 'hetero', ?, 0, 1, ?, ?)`)
        .bind(email, username, options.country, input.gender, input.date_of_birth, now, now),
      ...(credits > 0 ? [ctx.db.prepare(`INSERT INTO credit_ledger (user_id, delta, reason, created_at) VALUES (${byEmail}, ?, 'signup', ?)`).bind(email, credits, now)] : []),
      ctx.db
        .prepare(`INSERT INTO auth_tokens (token_hash, user_id, kind, created_at, expires_at) VALUES (?, ${byEmail}, 'activation', ?, ?)`)
        .bind(await tokenHash(activationToken), email, now, now + TOKEN_LIFETIME.activation),
    ]);
  } catch (error) {
    // Another signup with the same address or name won the race: the unique indexes refused this one whole.
    if (String(error).includes("UNIQUE")) throw fieldError(409, "email_exists", "email", "validation.email_exists");
    throw error;
  }
  const account = (await accountByEmail(ctx.db, email))!;
  await mailLink(ctx, account, "activation", activationToken);
  return account.id;
}

/** Activation link: the account leaves not_confirmed. False when the link is unknown, used or expired. */
export async function activate(ctx: AccountContext, token: string): Promise<boolean> {
  const used = await spendToken(ctx, token, "activation", (hash, now) => [
    ctx.db.prepare(`UPDATE users SET status = 'active' WHERE status = 'not_confirmed' AND id = (${LIVE_TOKEN})`).bind(hash, now),
  ]);
  return used !== null;
}

export async function resendActivation(ctx: AccountContext, userId: number): Promise<void> {
  const account = await accountById(ctx.db, userId);
  if (!account || account.status !== "not_confirmed") return;
  if ((await tokensSentToday(ctx, userId, "activation")) >= ACTIVATION_MAILS_PER_DAY) throw new AppError(429, "too_many_mails", "errors.too_many_resets");
  const { token, statement } = await newToken(ctx, userId, "activation");
  await statement.run();
  await mailLink(ctx, account, "activation", token);
}

export type LoginResult = { userId: number };

/**
 * Log in (SPEC §8 texts). The address is checked first, then the account's lockout, then the
 * password; every failure counts for the address and, when the account exists, for the account.
 */
export async function logIn(ctx: AccountContext, email: string, password: string, address: string): Promise<LoginResult> {
  const ipKey = addressKey(address);
  const addressWait = await blockedFor(ctx.db, ipKey);
  if (addressWait) throw new AppError(429, "address_throttled", "errors.address_throttled", { minutes: Math.ceil(addressWait / 60) });

  const account = await accountByEmail(ctx.db, normaliseEmail(email));
  const userKey = account ? accountKey(account.id) : null;
  if (userKey) {
    const wait = await blockedFor(ctx.db, userKey);
    if (wait) throw new AppError(429, "account_blocked", "errors.account_blocked", { minutes: Math.ceil(wait / 60) });
  }
  const { ok, rehash } = await verifyPassword(account?.password_hash ?? null, password);
  if (!ok || !account || account.status === "disabled") {
    await recordFailure(ctx.db, ipKey, ADDRESS_FAILURES);
    const blocked = userKey ? await recordFailure(ctx.db, userKey, ACCOUNT_FAILURES) : 0;
    if (blocked) throw new AppError(429, "account_blocked", "errors.account_blocked", { minutes: Math.ceil(blocked / 60) });
    throw new AppError(400, "login_failed", "errors.login_failed");
  }
  await clearFailures(ctx.db, userKey!);
  if (rehash) await ctx.db.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(await hashPassword(password), account.id).run();
  if (account.status === "pending_deletion") {
    // The password was right: send a fresh link to keep the account instead of logging in. It
    // restores the status the account had before deletion, as the first link would have.
    const before = await ctx.db
      .prepare("SELECT data FROM auth_tokens WHERE user_id = ? AND kind = 'reactivation' AND data IS NOT NULL ORDER BY created_at DESC LIMIT 1")
      .bind(account.id)
      .first<{ data: string }>();
    const { token, statement } = await newToken(ctx, account.id, "reactivation", before?.data ?? "active");
    await statement.run();
    await mailLink(ctx, account, "reactivation", token, { days: REACTIVATION_DAYS });
    throw new AppError(403, "pending_deletion", "errors.pending_deletion");
  }
  return { userId: account.id };
}

export async function requestPasswordReset(ctx: AccountContext, email: string): Promise<void> {
  const account = await accountByEmail(ctx.db, normaliseEmail(email));
  if (!account || account.status === "disabled") throw fieldError(404, "email_not_found", "email", "errors.email_not_found");
  if ((await tokensSentToday(ctx, account.id, "password_reset")) >= RESET_MAILS_PER_DAY) throw new AppError(429, "too_many_resets", "errors.too_many_resets");
  const { token, statement } = await newToken(ctx, account.id, "password_reset");
  await statement.run();
  await mailLink(ctx, account, "password_reset", token, { hours: TOKEN_LIFETIME.password_reset / HOUR });
}

function newPasswordProblems(password: string, repeat: string): Record<string, Problem> {
  const problems: Record<string, Problem> = {};
  const weak = passwordProblem(password);
  if (weak) problems.password = weak;
  if (password !== repeat) problems.password_repeat = { key: "validation.passwords_differ" };
  return problems;
}

/** New password through the mailed link; every session of the member ends. */
export async function resetPassword(ctx: AccountContext, token: string, password: string, repeat: string): Promise<void> {
  const problems = newPasswordProblems(password, repeat);
  if (Object.keys(problems).length) throw invalidFields(problems);
  const hash = await hashPassword(password);
  const used = await spendToken(ctx, token, "password_reset", (tokenHashValue, now) => [
    ctx.db.prepare(`UPDATE users SET password_hash = ?3 WHERE id = (${LIVE_TOKEN})`).bind(tokenHashValue, now, hash),
    ctx.db.prepare(`UPDATE sessions SET revoked_at = ?2 WHERE revoked_at IS NULL AND user_id = (${LIVE_TOKEN})`).bind(tokenHashValue, now),
  ]);
  if (!used) throw fieldError(400, "link_expired", "token", "errors.link_expired");
}

/** Change the password knowing the old one; every session ends (the caller starts a new one here). */
export async function changePassword(ctx: AccountContext, userId: number, oldPassword: string, password: string, repeat: string): Promise<void> {
  const account = await accountById(ctx.db, userId);
  const { ok } = await verifyPassword(account?.password_hash ?? null, oldPassword);
  const problems: Record<string, Problem> = ok ? {} : { old_password: { key: "validation.old_password_wrong" } };
  Object.assign(problems, newPasswordProblems(password, repeat));
  if (Object.keys(problems).length) throw invalidFields(problems);
  await ctx.db.batch([
    ctx.db.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(await hashPassword(password), userId),
    ctx.db.prepare("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(nowOf(ctx), userId),
  ]);
}

/** Ask to move to a new address: the confirmation link goes to the new one. */
export async function requestMailChange(ctx: AccountContext, userId: number, newEmail: string, password: string): Promise<void> {
  const account = (await accountById(ctx.db, userId))!;
  const email = normaliseEmail(newEmail);
  const problems: Record<string, Problem> = {};
  const invalid = emailProblem(email);
  if (invalid) problems.email = invalid;
  else if (email === account.email) problems.email = { key: "validation.email_same" };
  else if (await accountByEmail(ctx.db, email)) problems.email = { key: "validation.email_exists" };
  if (!(await verifyPassword(account.password_hash, password)).ok) problems.password = { key: "validation.old_password_wrong" };
  if (Object.keys(problems).length) throw invalidFields(problems);
  const { token, statement } = await newToken(ctx, userId, "mail_change", email);
  await statement.run();
  await mailLink(ctx, account, "mail_change", token, { email }, email);
}

/** Confirm the new address. Refused when the link is unknown, used, expired, or the address was taken meanwhile. */
export async function confirmMailChange(ctx: AccountContext, token: string): Promise<number> {
  try {
    const used = await spendToken(ctx, token, "mail_change", (hash, now) => [
      ctx.db
        .prepare(`UPDATE users SET email = (SELECT data FROM auth_tokens WHERE token_hash = ?1), status = CASE status WHEN 'not_confirmed' THEN 'active' ELSE status END WHERE id = (${LIVE_TOKEN})`)
        .bind(hash, now),
    ]);
    if (used) return used.user_id;
  } catch (error) {
    if (!String(error).includes("UNIQUE")) throw error;
  }
  throw fieldError(400, "link_expired", "token", "errors.link_expired");
}

/** searchable follows from status and invisible (see the profiles table). */
const SEARCHABLE = "CASE WHEN u.status IN ('active', 'not_confirmed') AND u.invisible = 0 THEN 1 ELSE 0 END";

async function refreshSearchable(db: D1Database, userId: number) {
  await db.prepare(`UPDATE profiles SET searchable = (SELECT ${SEARCHABLE} FROM users u WHERE u.id = profiles.user_id) WHERE user_id = ?`).bind(userId).run();
}

export async function setInvisible(ctx: AccountContext, userId: number, invisible: boolean): Promise<void> {
  await ctx.db.prepare("UPDATE users SET invisible = ? WHERE id = ?").bind(invisible ? 1 : 0, userId).run();
  await refreshSearchable(ctx.db, userId);
}

export async function setLanguage(ctx: AccountContext, userId: number, language: Language): Promise<void> {
  await ctx.db.prepare("UPDATE users SET language = ? WHERE id = ?").bind(language, userId).run();
}

/**
 * Delete the account: it is pending for 14 days (hidden, logged out everywhere), a mailed link
 * brings it back, and the daily job erases it after that.
 */
export async function requestDeletion(ctx: AccountContext, userId: number, password: string): Promise<void> {
  const account = (await accountById(ctx.db, userId))!;
  if (!(await verifyPassword(account.password_hash, password)).ok) throw fieldError(400, "invalid_parameter", "password", "validation.old_password_wrong");
  const now = nowOf(ctx);
  const { token, statement } = await newToken(ctx, userId, "reactivation", account.status);
  await ctx.db.batch([
    ctx.db.prepare("UPDATE users SET status = 'pending_deletion', deletion_requested_at = ? WHERE id = ?").bind(now, userId),
    ctx.db.prepare("UPDATE profiles SET searchable = 0 WHERE user_id = ?").bind(userId),
    ctx.db.prepare("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(now, userId),
    statement,
  ]);
  await mailLink(ctx, account, "reactivation", token, { days: REACTIVATION_DAYS });
}

/** The mailed link within 14 days: the account is back as it was. */
export async function reactivate(ctx: AccountContext, token: string): Promise<number | null> {
  const used = await spendToken(ctx, token, "reactivation", (hash, now) => [
    ctx.db
      .prepare(
        `UPDATE users SET status = CASE WHEN (SELECT data FROM auth_tokens WHERE token_hash = ?1) = 'not_confirmed' THEN 'not_confirmed' ELSE 'active' END,
         deletion_requested_at = NULL WHERE status = 'pending_deletion' AND id = (${LIVE_TOKEN})`,
      )
      .bind(hash, now),
  ]);
  if (!used) return null;
  await refreshSearchable(ctx.db, used.user_id);
  return used.user_id;
}

/** The retention offer (the company's delete_discount): a personal code once, the same code if asked again. */
export async function acceptRetentionOffer(ctx: AccountContext, userId: number): Promise<{ code: string; percentage: number }> {
  const percentage = ctx.company?.delete_discount ?? 0;
  if (percentage <= 0) throw new AppError(404, "not_found", "errors.not_found");
  const existing = await ctx.db
    .prepare("SELECT code, percentage FROM discount_codes WHERE user_id = ? AND code LIKE 'STAY-%' AND status = 'active'")
    .bind(userId)
    .first<{ code: string; percentage: number }>();
  if (existing) return existing;
  const code = `STAY-${randomToken(6).toUpperCase().replace(/[^A-Z0-9]/g, "7")}`;
  await ctx.db
    .prepare("INSERT INTO discount_codes (code, percentage, user_id, expires_at, status, validity) VALUES (?, ?, ?, ?, 'active', 'once_per_user')")
    .bind(code, percentage, userId, nowOf(ctx) + 30 * DAY)
    .run();
  return { code, percentage };
}

/**
 * Erase accounts whose 14 days have passed: their chat messages from the conversations' objects,
 * their photos from R2, then their rows (everything else hangs off users with ON DELETE CASCADE).
 * Called by the daily cron trigger.
 */
export async function purgeDeletedAccounts(
  db: D1Database,
  photos: R2Bucket,
  eraseChatMessages: (userIds: number[]) => Promise<number[]>,
  now = Math.floor(Date.now() / 1000),
  limit = 100,
): Promise<number> {
  const due = await db
    .prepare("SELECT id FROM users WHERE status = 'pending_deletion' AND deletion_requested_at <= ? LIMIT ?")
    .bind(now - REACTIVATION_DAYS * DAY, limit)
    .all<{ id: number }>();
  // Their messages live in the conversations' objects: an account whose objects could not all be
  // reached waits for the next run, so that no message outlives its account.
  const ids = await eraseChatMessages(due.results.map((r) => r.id));
  if (!ids.length) return 0;
  const marks = ids.map(() => "?").join(",");
  const keys = await db
    .prepare(
      `SELECT ph.key, ph.thumb_key, ph.blur_key FROM photos ph JOIN profiles p ON p.id = ph.profile_id WHERE p.user_id IN (${marks})
       UNION ALL
       SELECT cp.key, cp.thumb_key, cp.blur_key FROM chat_photos cp JOIN profiles p ON p.id = cp.profile_id WHERE p.user_id IN (${marks})`,
    )
    .bind(...ids, ...ids)
    .all<{ key: string; thumb_key: string; blur_key: string }>();
  const objects = keys.results.flatMap((k) => [k.key, k.thumb_key, k.blur_key]);
  for (let i = 0; i < objects.length; i += 1000) await photos.delete(objects.slice(i, i + 1000));
  await db.prepare(`DELETE FROM users WHERE id IN (${marks})`).bind(...ids).run();
  return ids.length;
}
