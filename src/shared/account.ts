/**
 * Request bodies of the account calls, shared by the Worker (which validates them) and the client
 * (which builds them). Field names are what the forms send. Texts of the errors live in locales/.
 */
import * as v from "valibot";
import { GENDERS, SEXUALITIES } from "./api";

/** Whom a member is looking for, as sign-up asks it: men, women or both. */
export const LOOKING_FOR = ["male", "female", "both"] as const;
export type LookingFor = (typeof LOOKING_FOR)[number];

/**
 * The sexual preference (SPEC's profile field, which search, first matches and the swipe game follow)
 * that a member's gender and whom they look for give: a man looking for women is hetero, for men gay;
 * a woman looking for women lesbian; anyone looking for both bi.
 */
export function sexualityFor(gender: (typeof GENDERS)[number], lookingFor: LookingFor): (typeof SEXUALITIES)[number] {
  if (lookingFor === "both") return "bi";
  if (lookingFor === gender) return gender === "male" ? "gay" : "lesbian";
  return "hetero";
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 24;
export const EMAIL_MAX = 254;
/** SPEC §4, §9: a deleted account can be reactivated by the mailed link within 14 days. */
export const REACTIVATION_DAYS = 14;

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));

/** POST /api/user.php: log in. */
export const LoginBody = v.object({ email: text(EMAIL_MAX), password: text(PASSWORD_MAX) });

/** POST /api/signup.php. `profile_id` and `signup_message` come from /members/{id}/signup. */
export const SignupBody = v.object({
  email: text(EMAIL_MAX),
  username: text(100),
  password: text(PASSWORD_MAX),
  /** YYYY-MM-DD */
  date_of_birth: text(10),
  gender: v.picklist(GENDERS),
  /** Whom the member looks for (the form always asks; without it, the other gender). */
  looking_for: v.optional(v.picklist(LOOKING_FOR)),
  terms: v.literal(true),
  profile_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  signup_message: v.optional(text(2000)),
});
export type SignupBody = v.InferOutput<typeof SignupBody>;

/** PUT /api/user.php: the member's own settings. */
export const UserUpdateBody = v.object({
  language: v.optional(v.string()),
  invisible: v.optional(v.boolean()),
  promotion_pages: v.optional(v.boolean()),
});

/** POST /api/password-reset.php: ask for a reset mail. */
export const ResetRequestBody = v.object({ email: text(EMAIL_MAX) });
/** PUT /api/password-reset.php: set a new password with the mailed token. */
export const ResetBody = v.object({
  token: text(200),
  password: text(PASSWORD_MAX),
  password_repeat: text(PASSWORD_MAX),
});
/** POST /api/password.php: change the password. */
export const PasswordChangeBody = v.object({
  old_password: text(PASSWORD_MAX),
  password: text(PASSWORD_MAX),
  password_repeat: text(PASSWORD_MAX),
});
/** POST /api/mail-change.php: ask to change the e-mail address (a link goes to the new one). */
export const MailChangeBody = v.object({ email: text(EMAIL_MAX), password: text(PASSWORD_MAX) });
/** PUT /api/mail-change.php and /api/activate.php and /api/reactivate.php: use a mailed token. */
export const TokenBody = v.object({ token: text(200) });
/** DELETE /api/user.php: delete the account (pending for REACTIVATION_DAYS). */
export const DeleteBody = v.object({ password: text(PASSWORD_MAX), reason: v.optional(text(500)) });

/** Common mistyped e-mail domains and what was meant. */
const KNOWN_DOMAINS = [
  "gmail.com",
  "googlemail.com",
  "hotmail.com",
  "hotmail.nl",
  "hotmail.de",
  "hotmail.fr",
  "hotmail.it",
  "hotmail.es",
  "hotmail.co.uk",
  "outlook.com",
  "live.com",
  "live.nl",
  "live.be",
  "msn.com",
  "yahoo.com",
  "yahoo.de",
  "yahoo.fr",
  "yahoo.co.uk",
  "icloud.com",
  "me.com",
  "ziggo.nl",
  "kpnmail.nl",
  "xs4all.nl",
  "planet.nl",
  "home.nl",
  "telenet.be",
  "skynet.be",
  "proximus.be",
  "web.de",
  "gmx.de",
  "gmx.net",
  "t-online.de",
  "freenet.de",
  "bluewin.ch",
  "gmx.ch",
  "orange.fr",
  "free.fr",
  "laposte.net",
  "libero.it",
  "virgilio.it",
  "wp.pl",
  "onet.pl",
  "o2.pl",
  "interia.pl",
  "telia.com",
  "online.no",
  "gmx.at",
  "aon.at",
  "btinternet.com",
  "sky.com",
  "eircom.net",
  "protonmail.com",
  "proton.me",
];

function distance(a: string, b: string): number {
  // Damerau-Levenshtein (optimal string alignment): a swapped pair of letters is one typo.
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** "Did you mean …?" for an address whose domain is one or two typos from a common one. */
export function suggestEmail(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 1) return null;
  const domain = email.slice(at + 1).toLowerCase();
  if (!domain || KNOWN_DOMAINS.includes(domain)) return null;
  let best: { domain: string; d: number } | null = null;
  for (const known of KNOWN_DOMAINS) {
    const d = distance(domain, known);
    if (d <= 2 && (!best || d < best.d)) best = { domain: known, d };
  }
  return best ? `${email.slice(0, at)}@${best.domain}` : null;
}

/** A plausible e-mail address: one @, a dotted domain, no spaces, within the length limits. */
export function isEmail(email: string): boolean {
  return email.length <= EMAIL_MAX && /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/.test(email) && !/\.\./.test(email);
}

/**
 * Set by the deletion (DELETE /api/user.php) for a few minutes, readable by the page: /account-deleted
 * says "you have been logged out" only to the browser that just deleted its account, and to anyone else
 * shows a neutral page.
 */
export const ACCOUNT_DELETED_COOKIE = "account_deleted";
export const ACCOUNT_DELETED_COOKIE_SECONDS = 600;
