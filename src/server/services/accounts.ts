/**
 * Accounts (SPEC §1, §4, §5): sign-up, activation, login with lockout, password reset and change,
 * e-mail change, invisible mode, deletion with a 14-day way back, and the erasure after it. Writes
 * that belong together go in one D1 batch, so a half-made account or a token used twice cannot exist.
 */
import { REACTIVATION_DAYS, sexualityFor, type SignupBody } from "../../shared/account";
import { isLanguage, type Language } from "../../shared/locales";
import type { CompanyInfo, SiteSettings } from "../../shared/settings";
import { hashPassword, verifyPassword } from "../auth/passwords";
import {
  accountKey,
  addressKey,
  ACCOUNT_FAILURES,
  ADDRESS_FAILURES,
  blockedFor,
  clearFailures,
  recordFailure,
} from "../auth/throttle";
import { newAccountToken, TOKEN_LIFETIME, TOKEN_LINKS, type TokenKind } from "../auth/account-tokens";
import { randomToken, tokenHash } from "../auth/tokens";
import {
  accountByEmail,
  accountById,
  accountsPendingDeletionSince,
  changeEmailByToken,
  confirmAccountByToken,
  createAccount,
  deleteAccounts,
  liveToken,
  liveTokenMember,
  markPendingDeletion,
  setInvisible as storeInvisible,
  setPromotionPages as storePromotionPages,
  setLanguage as storeLanguage,
  reactivateByToken,
  setPasswordByToken,
  setPasswordHash,
  spendToken as spendTokenRow,
  statusBeforeDeletion,
  tokensSentSince,
  usedTokenAccountStatus,
  usernameTaken,
} from "../db/accounts";
import type { Database } from "../db/database";
import { activeRetentionCode, insertRetentionCode } from "../db/discounts";
import { photoObjectsOfAccounts } from "../db/photos";
import { hideProfile, refreshSearchable } from "../db/profiles";
import { forgetMemberSubscriptions } from "../db/push-subscriptions";
import { revokeMemberSessions } from "../db/sessions";
import { selfieKeysOfAccounts } from "../db/verification";
import { AppError, fieldError, invalidFields } from "../errors";
import type { Tracking } from "../request-context";
import { i18nFor } from "../translations";
import type { Mailer } from "../mail/mailer";
import { composeMail, type MailKind } from "../mail/templates";
import { usernameKey } from "./account-rules";
import { termsVersion } from "../../shared/legal";
import {
  birthDateProblem,
  emailProblem,
  normaliseEmail,
  passwordProblem,
  type Problem,
  usernameProblem,
} from "../../shared/account-fields";

const RESET_MAILS_PER_DAY = 3;
const ACTIVATION_MAILS_PER_DAY = 5;
const HOUR = 3600;
const DAY = 24 * HOUR;

/** What account operations need besides the database: where links point, how mail leaves, the site. */
export type AccountContext = {
  db: Database;
  mailer: Mailer;
  origin: string;
  site: SiteSettings;
  company: CompanyInfo | null;
  now?: number;
};

const nowOf = (ctx: AccountContext) => ctx.now ?? Math.floor(Date.now() / 1000);

/** A new single-use token for the member's link, at the context's time. */
const newToken = (ctx: AccountContext, userId: number, kind: TokenKind, data: string | null = null) =>
  newAccountToken(ctx.db, userId, kind, nowOf(ctx), data);

const MAIL_OF: Record<TokenKind, MailKind> = {
  activation: "activation",
  password_reset: "reset",
  mail_change: "mail_change",
  reactivation: "deletion",
};

async function mailLink(
  ctx: AccountContext,
  account: { email: string; username: string; language: string },
  kind: TokenKind,
  token: string,
  values: Record<string, string | number> = {},
  to = account.email,
) {
  const language: Language = isLanguage(account.language) ? account.language : "en";
  const mail = composeMail(
    i18nFor(language, ctx.site.countries[0]).t,
    MAIL_OF[kind],
    { address: to, name: account.username },
    { name: ctx.site.name, company: ctx.company },
    ctx.origin + TOKEN_LINKS[kind](token),
    values,
  );
  await ctx.mailer.send(mail);
}

/** Tokens of a kind a member was sent in the last day (for the per-day limits). */
async function tokensSentToday(ctx: AccountContext, userId: number, kind: TokenKind): Promise<number> {
  return tokensSentSince(ctx.db, userId, kind, nowOf(ctx) - DAY);
}

/**
 * Use a mailed token once: `effect` builds the statements that do what the token is for, each
 * written on `liveTokenMember` so it changes nothing unless the token is still unused and unexpired.
 * They run in one batch with the token's use, so two clicks on the same link cannot both succeed.
 */
async function spendToken(
  ctx: AccountContext,
  token: string,
  kind: TokenKind,
  effect: (hash: string, now: number) => Parameters<typeof spendTokenRow>[3],
) {
  const hash = await tokenHash(token);
  const now = nowOf(ctx);
  const row = await liveToken(ctx.db, hash, kind, now);
  if (!row) return null;
  return (await spendTokenRow(ctx.db, hash, now, effect(hash, now))) ? row : null;
}

export async function signUp(
  ctx: AccountContext,
  input: SignupBody,
  options: { language: Language; country: string; tracking: Tracking | null },
) {
  const { site } = ctx;
  if (site.signups === "invite_only")
    throw new AppError({ status: 403, code: "invite_only", key: "errors.invite_only" });
  if (site.signups === "with_trafficsource" && !options.tracking)
    throw new AppError({ status: 403, code: "signup_closed", key: "errors.signup_closed" });

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

  if (await accountByEmail(ctx.db, email))
    throw fieldError({ status: 409, code: "email_exists", key: "validation.email_exists", field: "email" });
  const key = usernameKey(username);
  if (await usernameTaken(ctx.db, key))
    throw fieldError({ status: 409, code: "username_taken", key: "validation.username_taken", field: "username" });

  const now = nowOf(ctx);
  const passwordHash = await hashPassword(input.password);
  const tracking = options.tracking ?? {};
  const activationToken = randomToken();
  try {
    await createAccount(ctx.db, {
      user: {
        email,
        username,
        usernameKey: key,
        passwordHash,
        credits: site.signup_credits,
        language: options.language,
        siteDomain: site.domain,
        signupDate: now,
        termsAcceptedAt: now,
        termsVersion: termsVersion(ctx.company?.added),
        network: tracking.network ?? null,
        ref: tracking.ref ?? null,
        sub1: tracking.sub1 ?? null,
        sub2: tracking.sub2 ?? null,
        sub3: tracking.sub3 ?? null,
        lastActiveAt: now,
      },
      profile: {
        name: username,
        country: options.country,
        gender: input.gender,
        sexuality: sexualityFor(input.gender, input.looking_for ?? (input.gender === "male" ? "female" : "male")),
        birthDate: input.date_of_birth,
        lastActiveAt: now,
        createdAt: now,
      },
      signupCredits: site.signup_credits,
      activation: {
        tokenHash: await tokenHash(activationToken),
        createdAt: now,
        expiresAt: now + TOKEN_LIFETIME.activation,
      },
    });
  } catch (error) {
    // Another signup with the same address or name won the race: the unique indexes refused this one whole.
    if (String(error).includes("UNIQUE"))
      throw fieldError({ status: 409, code: "email_exists", key: "validation.email_exists", field: "email" });
    throw error;
  }
  const account = (await accountByEmail(ctx.db, email))!;
  await mailLink(ctx, account, "activation", activationToken);
  return account.id;
}

/** Activation link: the account leaves not_confirmed. False when the link is unknown, used or expired. */
export async function activate(ctx: AccountContext, token: string): Promise<"activated" | "already" | "failed"> {
  const used = await spendToken(ctx, token, "activation", (hash, now) => [confirmAccountByToken(ctx.db, hash, now)]);
  if (used !== null) return "activated";
  // A link clicked again once the address is confirmed is not a failure: the member is told it is done.
  const status = await usedTokenAccountStatus(ctx.db, await tokenHash(token), "activation");
  return status === "active" ? "already" : "failed";
}

export async function resendActivation(ctx: AccountContext, userId: number): Promise<void> {
  const resend = await activationResend(ctx, userId);
  if (!resend) return;
  await ctx.db.batch([resend.statement]);
  await resend.send();
}

/**
 * A new activation link for an unconfirmed account within the day's limit: the statement that stores
 * it (to run alone, or with an operator's audit row) and the mail to send once it is stored. Null
 * when the account is not waiting for its activation.
 */
export async function activationResend(ctx: AccountContext, userId: number) {
  const account = await accountById(ctx.db, userId);
  if (!account || account.status !== "not_confirmed") return null;
  if ((await tokensSentToday(ctx, userId, "activation")) >= ACTIVATION_MAILS_PER_DAY)
    throw new AppError({ status: 429, code: "too_many_mails", key: "errors.too_many_resets" });
  const { token, statement } = await newToken(ctx, userId, "activation");
  return { statement, send: () => mailLink(ctx, account, "activation", token) };
}

type LoginResult = { userId: number };

/**
 * Log in (SPEC §8 texts). The address is checked first, then the account's lockout, then the
 * password; every failure counts for the address and, when the account exists, for the account.
 */
export async function logIn(
  ctx: AccountContext,
  email: string,
  password: string,
  address: string,
): Promise<LoginResult> {
  const ipKey = addressKey(address);
  const addressWait = await blockedFor(ctx.db, ipKey);
  if (addressWait)
    throw new AppError({
      status: 429,
      code: "address_throttled",
      key: "errors.address_throttled",
      values: { count: Math.ceil(addressWait / 60) },
    });

  const account = await accountByEmail(ctx.db, normaliseEmail(email));
  const userKey = account ? accountKey(account.id) : null;
  if (userKey) {
    const wait = await blockedFor(ctx.db, userKey);
    if (wait)
      throw new AppError({
        status: 429,
        code: "account_blocked",
        key: "errors.account_blocked",
        values: { count: Math.ceil(wait / 60) },
      });
  }
  const { ok, rehash } = await verifyPassword(account?.passwordHash ?? null, password);
  // Only someone who knows the password learns that the account is disabled; anyone else is told the login failed.
  if (ok && account?.status === "disabled")
    throw new AppError({ status: 403, code: "account_disabled", key: "sessions.account_disabled" });
  if (!ok || !account) {
    await recordFailure(ctx.db, ipKey, ADDRESS_FAILURES);
    const blocked = userKey ? await recordFailure(ctx.db, userKey, ACCOUNT_FAILURES) : 0;
    if (blocked)
      throw new AppError({
        status: 429,
        code: "account_blocked",
        key: "errors.account_blocked",
        values: { count: Math.ceil(blocked / 60) },
      });
    throw new AppError({ status: 400, code: "login_failed", key: "errors.login_failed" });
  }
  await clearFailures(ctx.db, userKey!);
  if (rehash) await setPasswordHash(ctx.db, account.id, await hashPassword(password));
  if (account.status === "pending_deletion") {
    // The password was right: send a fresh link to keep the account instead of logging in. It
    // restores the status the account had before deletion, as the first link would have.
    const before = await statusBeforeDeletion(ctx.db, account.id);
    const { token, statement } = await newToken(ctx, account.id, "reactivation", before ?? "active");
    await statement;
    await mailLink(ctx, account, "reactivation", token, { count: REACTIVATION_DAYS });
    throw new AppError({ status: 403, code: "pending_deletion", key: "errors.pending_deletion" });
  }
  return { userId: account.id };
}

export async function requestPasswordReset(ctx: AccountContext, email: string): Promise<void> {
  const account = await accountByEmail(ctx.db, normaliseEmail(email));
  if (!account || account.status === "disabled")
    throw fieldError({ status: 404, code: "email_not_found", key: "errors.email_not_found", field: "email" });
  if ((await tokensSentToday(ctx, account.id, "password_reset")) >= RESET_MAILS_PER_DAY)
    throw new AppError({ status: 429, code: "too_many_resets", key: "errors.too_many_resets" });
  const { token, statement } = await newToken(ctx, account.id, "password_reset");
  await statement;
  await mailLink(ctx, account, "password_reset", token, { count: TOKEN_LIFETIME.password_reset / HOUR });
}

function newPasswordProblems(password: string, repeat: string): Record<string, Problem> {
  const problems: Record<string, Problem> = {};
  const weak = passwordProblem(password);
  if (weak) problems.password = weak;
  if (password !== repeat) problems.password_repeat = { key: "validation.passwords_differ" };
  return problems;
}

/** Whether a mailed reset link can still be used, so its page says at once when it cannot (not after a new password is typed). */
export async function resetLinkLive(db: Database, token: string, now: number): Promise<boolean> {
  return token !== "" && (await liveToken(db, await tokenHash(token), "password_reset", now)) !== undefined;
}

/** New password through the mailed link; every session of the member ends. Answers whose password it was. */
export async function resetPassword(
  ctx: AccountContext,
  token: string,
  password: string,
  repeat: string,
): Promise<number> {
  const problems = newPasswordProblems(password, repeat);
  if (Object.keys(problems).length) throw invalidFields(problems);
  const hash = await hashPassword(password);
  const used = await spendToken(ctx, token, "password_reset", (tokenHashValue, now) => [
    setPasswordByToken(ctx.db, tokenHashValue, now, hash),
    revokeMemberSessions(ctx.db, liveTokenMember(ctx.db, tokenHashValue, now), now),
  ]);
  if (!used) throw fieldError({ status: 400, code: "link_expired", key: "errors.link_expired", field: "token" });
  return used.userId;
}

/** Change the password knowing the old one; every session ends (the caller starts a new one here). */
export async function changePassword(
  ctx: AccountContext,
  userId: number,
  oldPassword: string,
  password: string,
  repeat: string,
): Promise<void> {
  const account = await accountById(ctx.db, userId);
  const { ok } = await verifyPassword(account?.passwordHash ?? null, oldPassword);
  const problems: Record<string, Problem> = ok ? {} : { old_password: { key: "validation.old_password_wrong" } };
  Object.assign(problems, newPasswordProblems(password, repeat));
  if (Object.keys(problems).length) throw invalidFields(problems);
  await ctx.db.batch([
    setPasswordHash(ctx.db, userId, await hashPassword(password)),
    revokeMemberSessions(ctx.db, userId, nowOf(ctx)),
  ]);
}

/** Ask to move to a new address: the confirmation link goes to the new one. */
export async function requestMailChange(
  ctx: AccountContext,
  userId: number,
  newEmail: string,
  password: string,
): Promise<void> {
  const account = (await accountById(ctx.db, userId))!;
  const email = normaliseEmail(newEmail);
  const problems: Record<string, Problem> = {};
  const invalid = emailProblem(email);
  if (invalid) problems.email = invalid;
  else if (email === account.email) problems.email = { key: "validation.email_same" };
  else if (await accountByEmail(ctx.db, email)) problems.email = { key: "validation.email_exists" };
  if (!(await verifyPassword(account.passwordHash, password)).ok)
    problems.password = { key: "validation.old_password_wrong" };
  if (Object.keys(problems).length) throw invalidFields(problems);
  const { token, statement } = await newToken(ctx, userId, "mail_change", email);
  await statement;
  await mailLink(ctx, account, "mail_change", token, { email }, email);
}

/** Confirm the new address. Refused when the link is unknown, used, expired, or the address was taken meanwhile. */
export async function confirmMailChange(ctx: AccountContext, token: string): Promise<number> {
  try {
    const used = await spendToken(ctx, token, "mail_change", (hash, now) => [changeEmailByToken(ctx.db, hash, now)]);
    if (used) return used.userId;
  } catch (error) {
    if (!String(error).includes("UNIQUE")) throw error;
  }
  throw fieldError({ status: 400, code: "link_expired", key: "errors.link_expired", field: "token" });
}

export async function setInvisible(ctx: AccountContext, userId: number, invisible: boolean): Promise<void> {
  await storeInvisible(ctx.db, userId, invisible);
  await refreshSearchable(ctx.db, userId);
}

/** Whether the member's profile may appear on the site's promotion pages (off unless they choose it). */
export async function setPromotionPages(ctx: AccountContext, userId: number, on: boolean): Promise<void> {
  await storePromotionPages(ctx.db, userId, on);
}

export async function setLanguage(ctx: AccountContext, userId: number, language: Language): Promise<void> {
  await storeLanguage(ctx.db, userId, language);
}

/**
 * Delete the account: it is pending for 14 days (hidden, logged out everywhere), a mailed link
 * brings it back, and the daily job erases it after that.
 */
export async function requestDeletion(ctx: AccountContext, userId: number, password: string): Promise<void> {
  const account = (await accountById(ctx.db, userId))!;
  if (!(await verifyPassword(account.passwordHash, password)).ok)
    throw fieldError({
      status: 400,
      code: "invalid_parameter",
      key: "validation.old_password_wrong",
      field: "password",
    });
  const deletion = await accountDeletion(ctx, account);
  await ctx.db.batch(deletion.statements);
  await deletion.send();
}

/**
 * What deleting an account is (the member's own deletion and an operator's): its statements, the
 * pending mark first (it changes a row only for an account not pending already), for one batch, and
 * the mail with the way back to send after it.
 */
export async function accountDeletion(
  ctx: AccountContext,
  account: { id: number; status: string; email: string; username: string; language: string },
) {
  const now = nowOf(ctx);
  const { token, statement } = await newToken(ctx, account.id, "reactivation", account.status);
  const statements = [
    markPendingDeletion(ctx.db, account.id, now),
    hideProfile(ctx.db, account.id),
    revokeMemberSessions(ctx.db, account.id, now),
    forgetMemberSubscriptions(ctx.db, account.id),
    statement,
  ] as const;
  return { statements, send: () => mailLink(ctx, account, "reactivation", token, { count: REACTIVATION_DAYS }) };
}

/** The mailed link within 14 days: the account is back as it was. */
export async function reactivate(ctx: AccountContext, token: string): Promise<number | null> {
  const used = await spendToken(ctx, token, "reactivation", (hash, now) => [reactivateByToken(ctx.db, hash, now)]);
  if (!used) return null;
  await refreshSearchable(ctx.db, used.userId);
  return used.userId;
}

/** The retention offer (the company's delete_discount): a personal code once, the same code if asked again. */
export async function acceptRetentionOffer(
  ctx: AccountContext,
  userId: number,
): Promise<{ code: string; percentage: number }> {
  const percentage = ctx.company?.delete_discount ?? 0;
  if (percentage <= 0) throw new AppError({ status: 404, code: "not_found", key: "errors.not_found" });
  const existing = await activeRetentionCode(ctx.db, userId);
  if (existing) return existing;
  const code = `STAY-${randomToken(6)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "7")}`;
  await insertRetentionCode(ctx.db, { code, percentage, userId, expiresAt: nowOf(ctx) + 30 * DAY });
  return { code, percentage };
}

/**
 * Erase accounts whose 14 days have passed: their chat messages from the conversations' objects,
 * their photos from R2, then their rows (everything else hangs off users with ON DELETE CASCADE).
 * Called by the daily cron trigger.
 */
export async function purgeDeletedAccounts(
  db: Database,
  photos: R2Bucket,
  eraseChatMessages: (userIds: number[]) => Promise<number[]>,
  now = Math.floor(Date.now() / 1000),
  limit = 100,
): Promise<number> {
  // Their messages live in the conversations' objects: an account whose objects could not all be
  // reached waits for the next run, so that no message outlives its account.
  const ids = await eraseChatMessages(await accountsPendingDeletionSince(db, now - REACTIVATION_DAYS * DAY, limit));
  if (!ids.length) return 0;
  // Verification selfies go with the account, whatever their age (docs/decisions/0040).
  const objects = [
    ...(await photoObjectsOfAccounts(db, ids)).flatMap((k) => [k.key, k.thumbKey, k.blurKey]),
    ...(await selfieKeysOfAccounts(db, ids)),
  ];
  for (let i = 0; i < objects.length; i += 1000) await photos.delete(objects.slice(i, i + 1000));
  await deleteAccounts(db, ids);
  return ids.length;
}
