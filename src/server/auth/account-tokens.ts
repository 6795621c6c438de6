/**
 * The single-use tokens mailed to a member (activation, password reset, e-mail change, the way
 * back from deletion): how long each lives, the link it is sent in, and a new one stored by hash.
 * The account service spends them (services/accounts.ts); the mail clock asks for a fresh
 * activation link (notices/mail-notices.ts).
 */
import { REACTIVATION_DAYS } from "../../shared/account";
import { insertToken } from "../db/accounts";
import type { Database } from "../db/database";
import { randomToken, tokenHash } from "./tokens";

const HOUR = 3600;
const DAY = 24 * HOUR;

export type TokenKind = "activation" | "password_reset" | "mail_change" | "reactivation";

export const TOKEN_LIFETIME: Record<TokenKind, number> = {
  activation: 7 * DAY,
  password_reset: 2 * HOUR,
  mail_change: DAY,
  reactivation: REACTIVATION_DAYS * DAY,
};

/** The path of the site a token's link opens. */
export const TOKEN_LINKS: Record<TokenKind, (token: string) => string> = {
  activation: (t) => `/api/activate.php?token=${t}`,
  password_reset: (t) => `/reset-password/do?token=${t}`,
  mail_change: (t) => `/mail-change/do?token=${t}`,
  reactivation: (t) => `/api/reactivate.php?token=${t}`,
};

/** A new single-use token: the statement that stores its hash, and the token for the link. */
export async function newAccountToken(
  db: Database,
  userId: number,
  kind: TokenKind,
  now: number,
  data: string | null = null,
) {
  const token = randomToken();
  const statement = insertToken(db, {
    tokenHash: await tokenHash(token),
    userId,
    kind,
    data,
    createdAt: now,
    expiresAt: now + TOKEN_LIFETIME[kind],
  });
  return { token, statement };
}

/** A fresh activation link (stored before it is answered), for the reminder the clock mails to a member who has not confirmed yet. */
export async function activationLink(db: Database, origin: string, userId: number, now: number): Promise<string> {
  const { token, statement } = await newAccountToken(db, userId, "activation", now);
  await statement;
  return origin + TOKEN_LINKS.activation(token);
}
