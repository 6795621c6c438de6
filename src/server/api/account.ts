/** The account calls: /api/user.php, /api/signup.php, /api/logout.php and the mailed-link calls. */
import { ACCOUNT_DELETED_COOKIE, ACCOUNT_DELETED_COOKIE_SECONDS } from "../../shared/account";
import { vValidator } from "@hono/valibot-validator";
import { Hono, type Context } from "hono";
import { setCookie } from "hono/cookie";
import {
  DeleteBody,
  LoginBody,
  MailChangeBody,
  PasswordChangeBody,
  ResetBody,
  ResetRequestBody,
  SignupBody,
  TokenBody,
  UserUpdateBody,
} from "../../shared/account";
import { isLanguage } from "../../shared/locales";
import { BlockBody, ProfileUpdateBody } from "../../shared/profile";
import { clearSessionCookie, startSession } from "../auth/session-cookie";
import { profileOfMember } from "../db/profiles";
import { forgetSessionSubscriptions } from "../db/push-subscriptions";
import { revokeSession, sessionsRevokedSince } from "../db/sessions";
import type { AppEnv } from "../request-context";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE } from "../edge/locale";
import { requireMember } from "../edge/signed-in-member";
import { AppError, fieldError } from "../errors";
import { mailerFor } from "../mail/mailer";
import { postMessage } from "./chats";
import { pushSubscriptionCall } from "./push-subscription";
import {
  acceptRetentionOffer,
  activate,
  changePassword,
  confirmMailChange,
  type AccountContext,
  logIn,
  reactivate,
  requestDeletion,
  requestMailChange,
  requestPasswordReset,
  resendActivation,
  resetPassword,
  setInvisible,
  setPromotionPages,
  setLanguage,
  signUp,
} from "../services/accounts";
import { block, unblock } from "../services/blocking";
import { blockedInChat, conversationRooms, exportChatMessages, memberChangedInChats } from "../services/chats";
import { tellBadgesChanged } from "../notices/tell";
import { exportMemberData } from "../services/my-data";
import { creditValueFor } from "../services/chat-costs";
import { updateOwnProfile } from "../services/own-profile";
import { getProfile } from "../services/profiles";
import { getUserView } from "../services/users";
import { closeSessionSockets } from "../services/sessions";
import { invalidBody } from "./body";
import { selectedCountry } from "./settings";

function accounts(c: Context<AppEnv>): AccountContext {
  return {
    db: c.get("db"),
    mailer: mailerFor(c.env, c.get("db")),
    origin: new URL(c.req.url).origin,
    site: c.get("site"),
    company: c.get("company"),
  };
}

async function userAnswer(c: Context<AppEnv>, userId: number, status: 200 | 201 = 200) {
  const user = await getUserView(c.get("db"), userId);
  if (!user)
    throw new AppError({ status: 403, code: "authentication_required", key: "errors.authentication_required" });
  return c.json({ user }, status);
}

/** The client's address for the login throttle (Cloudflare sets it; locally there is one client). */
export const clientAddress = (c: Context<AppEnv>) => c.req.header("cf-connecting-ip") ?? "local";

/**
 * The message a visitor wrote to a member before signing up (/members/{id}/signup, step 0) becomes
 * their first chat message. The account exists whatever happens to it; a refusal is logged.
 */
async function sendSignupMessage(c: Context<AppEnv>, userId: number, peer: number, text: string): Promise<void> {
  const profile = await profileOfMember(c.get("db"), userId);
  if (!profile || profile.id === peer) return;
  const member = {
    profileId: profile.id,
    userId,
    language: c.get("locale"),
    siteDomain: c.get("site").domain,
    country: c.get("country"),
    premium: false,
  };
  const reply = await postMessage(c, member, peer, {
    type: "send",
    client_id: `signup-${userId}`,
    kind: "text",
    body: text,
  });
  if (reply.type === "error")
    console.warn(
      JSON.stringify({ event: "signup_message_refused", requestId: c.get("requestId"), error: reply.error }),
    );
}

export const accountRoutes = new Hono<AppEnv>()
  .get("/api/user.php", async (c) => userAnswer(c, requireMember(c).userId))
  .post("/api/user.php", pushSubscriptionCall)
  .post("/api/user.php", vValidator("json", LoginBody, invalidBody), async (c) => {
    const { email, password } = c.req.valid("json");
    const { userId } = await logIn(accounts(c), email, password, clientAddress(c));
    await startSession(c, userId);
    return userAnswer(c, userId);
  })
  .put("/api/user.php", vValidator("json", UserUpdateBody, invalidBody), async (c) => {
    const { userId } = requireMember(c);
    const { language, invisible, promotion_pages } = c.req.valid("json");
    if (language !== undefined) {
      if (!isLanguage(language))
        throw fieldError({
          status: 400,
          code: "invalid_parameter",
          key: "errors.invalid_parameter",
          values: { field: "language" },
          field: "language",
        });
      await setLanguage(accounts(c), userId, language);
      setCookie(c, LOCALE_COOKIE, language, {
        path: "/",
        maxAge: LOCALE_COOKIE_MAX_AGE,
        sameSite: "Lax",
        secure: new URL(c.req.url).protocol === "https:",
      });
    }
    if (promotion_pages !== undefined) await setPromotionPages(accounts(c), userId, promotion_pages);
    if (invisible !== undefined) {
      await setInvisible(accounts(c), userId, invisible);
      if (invisible)
        await memberChangedInChats(c.get("db"), conversationRooms(c.env.CONVERSATIONS), requireMember(c).profileId);
    }
    return userAnswer(c, userId);
  })
  .delete("/api/user.php", vValidator("json", DeleteBody, invalidBody), async (c) => {
    const { userId, profileId } = requireMember(c);
    const since = Math.floor(Date.now() / 1000);
    await requestDeletion(accounts(c), userId, c.req.valid("json").password);
    await memberChangedInChats(c.get("db"), conversationRooms(c.env.CONVERSATIONS), profileId);
    await closeSessionSockets(c.env.MEMBERS, profileId, await sessionsRevokedSince(c.get("db"), userId, since));
    clearSessionCookie(c);
    setCookie(c, ACCOUNT_DELETED_COOKIE, "1", {
      path: "/",
      maxAge: ACCOUNT_DELETED_COOKIE_SECONDS,
      sameSite: "Lax",
      secure: new URL(c.req.url).protocol === "https:",
    });
    return c.json({ ok: true });
  })
  .get("/api/logout.php", async (c) => {
    const current = c.get("session");
    if (current) {
      // A browser that logged out shows nobody's pushes (a shared computer, a borrowed phone).
      await forgetSessionSubscriptions(c.get("db"), current.userId, current.id);
      await revokeSession(c.get("db"), current.userId, current.id, Math.floor(Date.now() / 1000));
      // The chats this browser has open elsewhere (another tab) stop with it.
      if (current.publicId) await closeSessionSockets(c.env.MEMBERS, current.profileId, [current.publicId]);
    }
    clearSessionCookie(c);
    // A plain link (no script) comes back to the home page; the client's fetch gets JSON.
    if ((c.req.header("accept") ?? "").includes("text/html")) return c.redirect("/", 302);
    return c.json({ ok: true });
  })
  .post("/api/signup.php", vValidator("json", SignupBody, invalidBody), async (c) => {
    const body = c.req.valid("json");
    const userId = await signUp(accounts(c), body, {
      language: c.get("locale"),
      country: selectedCountry(c),
      tracking: c.get("trafficSource"),
    });
    await startSession(c, userId);
    if (body.profile_id && body.signup_message?.trim())
      await sendSignupMessage(c, userId, body.profile_id, body.signup_message);
    return userAnswer(c, userId, 201);
  })
  .get("/api/activate.php", async (c) => {
    const outcome = await activate(accounts(c), c.req.query("token") ?? "");
    const to = { activated: "/activate/done", already: "/activate/done?already=1", failed: "/activate/error" };
    return c.redirect(to[outcome], 302);
  })
  .post("/api/activation-mail.php", async (c) => {
    await resendActivation(accounts(c), requireMember(c).userId);
    return c.json({ ok: true });
  })
  .post("/api/password-reset.php", vValidator("json", ResetRequestBody, invalidBody), async (c) => {
    await requestPasswordReset(accounts(c), c.req.valid("json").email);
    return c.json({ ok: true });
  })
  .put("/api/password-reset.php", vValidator("json", ResetBody, invalidBody), async (c) => {
    const { token, password, password_repeat } = c.req.valid("json");
    const since = Math.floor(Date.now() / 1000);
    const userId = await resetPassword(accounts(c), token, password, password_repeat);
    // Whoever knew the old password is out, the sockets they opened included.
    const profile = await profileOfMember(c.get("db"), userId);
    if (profile)
      await closeSessionSockets(c.env.MEMBERS, profile.id, await sessionsRevokedSince(c.get("db"), userId, since));
    clearSessionCookie(c);
    return c.json({ ok: true });
  })
  .post("/api/password.php", vValidator("json", PasswordChangeBody, invalidBody), async (c) => {
    const { userId, profileId } = requireMember(c);
    const { old_password, password, password_repeat } = c.req.valid("json");
    const since = Math.floor(Date.now() / 1000);
    await changePassword(accounts(c), userId, old_password, password, password_repeat);
    // Every session ended with the old password, and the sockets they opened close; this browser carries on with a new one.
    await closeSessionSockets(c.env.MEMBERS, profileId, await sessionsRevokedSince(c.get("db"), userId, since));
    await startSession(c, userId);
    return c.json({ ok: true });
  })
  .post("/api/mail-change.php", vValidator("json", MailChangeBody, invalidBody), async (c) => {
    const { email, password } = c.req.valid("json");
    await requestMailChange(accounts(c), requireMember(c).userId, email, password);
    return c.json({ ok: true });
  })
  .put("/api/mail-change.php", vValidator("json", TokenBody, invalidBody), async (c) => {
    const userId = await confirmMailChange(accounts(c), c.req.valid("json").token);
    return userAnswer(c, userId);
  })
  .get("/api/reactivate.php", async (c) => {
    const userId = await reactivate(accounts(c), c.req.query("token") ?? "");
    if (userId === null) return c.redirect("/activate/error", 302);
    await startSession(c, userId);
    return c.redirect("/members", 302);
  })
  .put("/api/profile.php", vValidator("json", ProfileUpdateBody, invalidBody), async (c) => {
    const profileId = await updateOwnProfile(c.get("db"), requireMember(c).userId, c.req.valid("json"));
    return c.json(
      await getProfile(
        c.get("db"),
        profileId,
        c.get("locale"),
        c.get("site").cdn_prefix,
        profileId,
        new Date(),
        c.get("site").countries[0],
      ),
    );
  })
  .post("/api/block.php", vValidator("json", BlockBody, invalidBody), async (c) => {
    const { profileId } = requireMember(c);
    const blocked = c.req.valid("json").profile_id;
    await block(c.get("db"), profileId, blocked);
    await blockedInChat(c.get("db"), conversationRooms(c.env.CONVERSATIONS), profileId, blocked);
    // The conversation leaves both chat lists, and its unread messages both badges.
    c.executionCtx.waitUntil(tellBadgesChanged(c.env, [profileId, blocked]));
    return c.json({ blocked: true });
  })
  .delete("/api/block.php", vValidator("json", BlockBody, invalidBody), async (c) => {
    const { profileId } = requireMember(c);
    const unblocked = c.req.valid("json").profile_id;
    await unblock(c.get("db"), profileId, unblocked);
    c.executionCtx.waitUntil(tellBadgesChanged(c.env, [profileId, unblocked]));
    return c.json({ blocked: false });
  })
  .post("/api/retention.php", async (c) =>
    c.json({ discount: await acceptRetentionOffer(accounts(c), requireMember(c).userId) }),
  )
  .get("/api/my-data.php", async (c) => {
    const { userId } = requireMember(c);
    const archive = await exportMemberData(
      c.get("db"),
      userId,
      (profileId) => exportChatMessages(c.get("db"), conversationRooms(c.env.CONVERSATIONS), profileId),
      await creditValueFor(c.get("db"), c.get("site"), userId, c.get("country")),
    );
    return c.body(JSON.stringify(archive, null, 2), 200, {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${c
        .get("site")
        .name.replace(/[^\w-]+/g, "-")
        .toLowerCase()}-data-${new Date().toISOString().slice(0, 10)}.json"`,
      "cache-control": "private, no-store",
    });
  });
