/**
 * THE route table: every route of SPEC §2 with its exact name and path. The server registers each
 * entry with Hono; the client matches the same patterns for history-mode navigation. A parameter
 * that fails its check makes the route not match, which shows the 404 page.
 */
import { LEGAL_PAGES } from "./legal";
import { PAYMENT_METHODS } from "./payment-methods";
import { LANDER_VARIANTS } from "./landers";

export type LayoutName = "default" | "chat" | "lander" | "empty";

export type ScreenName =
  | "home"
  | "members"
  | "member"
  | "placeholder"
  | "static-page"
  | "lang-config"
  | "login"
  | "signup"
  | "complete-signup"
  | "reset-password"
  | "reset-password-do"
  | "activate"
  | "mail-change-do"
  | "account-deleted"
  | "settings"
  | "profile"
  | "chats"
  | "chat"
  | "complaints"
  | "partner-redirect"
  | "likes"
  | "swipe"
  | "match-finder"
  | "credits"
  | "credits-order"
  | "credits-repeat"
  | "transactions"
  | "premium"
  | "pricing"
  | "directdebit"
  | "lander"
  | "member-landing"
  | "signup-matches"
  | "decision";

export const LIKE_TABS = ["received", "sent", "matches"] as const;
export const LANDERS = [
  "alonetonight",
  "collagelanding",
  "gallery",
  "iconslanding",
  "maplanding",
  "socialnetwork",
  "transitionsvideolanding",
  "video",
] as const;
export const STATIC_PAGES = LEGAL_PAGES;

const ID = /^[1-9][0-9]{0,9}$/;

type ParamCheck = RegExp | readonly string[];

export type RouteDef = {
  name: string;
  /** SPEC notation: {id} required, {slug?} optional. */
  path: string;
  layout: LayoutName;
  screen: ScreenName;
  params?: Record<string, ParamCheck>;
  /** Areas and flags later screens use (alerts, back button, time bonus). */
  membersArea?: boolean;
};

const route = (
  name: string,
  path: string,
  screen: ScreenName = "placeholder",
  layout: LayoutName = "default",
  extra: Partial<RouteDef> = {},
): RouteDef => ({ name, path, screen, layout, ...extra });

export const ROUTES: readonly RouteDef[] = [
  route("index", "/", "home"),
  route("members", "/members", "members", "default", { membersArea: true }),
  route("members-id", "/members/{id}", "member", "default", { params: { id: ID }, membersArea: true }),
  route("likes-m-id", "/likes/m/{id}", "member", "default", { params: { id: ID }, membersArea: true }),
  route("members-id-chat", "/members/{id}/chat", "chat", "chat", { params: { id: ID } }),
  route("members-id-landing", "/members/{id}/landing", "member-landing", "lander", { params: { id: ID } }),
  route("members-id-signup", "/members/{id}/signup", "signup", "empty", { params: { id: ID } }),
  route("members-id-landing2-slug", "/members/{id}/landing2/{slug?}", "member-landing", "lander", {
    params: { id: ID, slug: LANDER_VARIANTS },
  }),
  route("members-id-landing3-slug", "/members/{id}/landing3/{slug?}", "member-landing", "lander", {
    params: { id: ID, slug: LANDER_VARIANTS },
  }),
  route("likes", "/likes", "likes", "default", { membersArea: true }),
  route("likes-type", "/likes/{type}", "likes", "default", { params: { type: LIKE_TABS }, membersArea: true }),
  route("chats", "/chats", "chats", "default", { membersArea: true }),
  route("chats-id", "/chats/{id}", "chats", "default", { params: { id: ID }, membersArea: true }),
  route("complaints", "/complaints", "complaints"),
  route("decisions-id", "/decisions/{id}", "decision", "default", { params: { id: ID } }),
  route("complete-signup", "/complete-signup", "complete-signup", "empty"),
  route("signup", "/signup", "signup", "empty"),
  route("signup-matches", "/signup-matches", "signup-matches", "empty"),
  route("login", "/login", "login"),
  route("reset-password", "/reset-password", "reset-password"),
  route("reset-password-do", "/reset-password/do", "reset-password-do"),
  route("account-deleted", "/account-deleted", "account-deleted"),
  route("activate-done", "/activate/done", "activate"),
  route("activate-error", "/activate/error", "activate"),
  route("mail-change-do", "/mail-change/do", "mail-change-do"),
  route("credits", "/credits", "credits"),
  route("credits-repeat-order", "/credits/repeat-order", "credits-repeat"),
  route("credits-id-paymentmethod", "/credits/{id}/{paymentmethod?}", "credits-order", "default", {
    params: { id: ID, paymentmethod: PAYMENT_METHODS },
  }),
  route("directdebit", "/directdebit", "directdebit"),
  route("transactions-id", "/transactions/{id?}", "transactions", "default", { params: { id: ID } }),
  route("premium", "/premium", "premium", "default", { membersArea: true }),
  route("pricing", "/pricing", "pricing"),
  route("profile", "/profile", "profile"),
  route("notifications", "/notifications", "settings"),
  route("lang-config", "/lang-config", "lang-config"),
  route("match-finder", "/match-finder", "match-finder"),
  route("swipe-game", "/swipe-game", "swipe"),
  route("landers-tinderswipe", "/landers/tinderswipe", "lander", "lander"),
  route("landers-lander-slug", "/landers/{lander}/{slug?}", "lander", "lander", {
    params: { lander: LANDERS, slug: LANDER_VARIANTS },
  }),
  route("pages-ban", "/pages/ban", "static-page"),
  route("pages-cookies", "/pages/cookies", "static-page"),
  route("pages-faq", "/pages/faq", "static-page"),
  route("pages-imprint", "/pages/imprint", "static-page"),
  route("pages-privacy", "/pages/privacy", "static-page"),
  route("pages-return-policy", "/pages/return-policy", "static-page"),
  route("pages-service", "/pages/service", "static-page"),
  route("pages-terms", "/pages/terms", "static-page"),
  // The redirect to a partner of the site's allow-list, with a countdown (SPEC §9).
  route("partner-redirect", "/out/{partner}", "partner-redirect", "empty", {
    params: { partner: /^[a-z0-9][a-z0-9-]{0,31}$/ },
  }),
  // {token}: a static page by its short name (/terms is /pages/terms). Last, so named routes win.
  route("token", "/{token}", "static-page", "default", { params: { token: STATIC_PAGES } }),
];

export type RouteMatch = {
  route: RouteDef;
  params: Record<string, string>;
};

type Compiled = { route: RouteDef; regex: RegExp; keys: string[] };

function compile(def: RouteDef): Compiled {
  const keys: string[] = [];
  let source = "";
  for (const segment of def.path.split("/").slice(1)) {
    const param = /^\{(\w+)(\?)?\}$/.exec(segment);
    if (!param) {
      source += "/" + segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      continue;
    }
    keys.push(param[1]!);
    source += param[2] ? "(?:/([^/]+))?" : "/([^/]+)";
  }
  return { route: def, regex: new RegExp(`^${source || "/"}/?$`), keys };
}

const COMPILED = ROUTES.map(compile);

function checkParam(check: ParamCheck | undefined, value: string): boolean {
  if (!check) return true;
  return check instanceof RegExp ? check.test(value) : check.includes(value);
}

/** The route a path belongs to with its parameters, or null (404) when none matches or a check fails. */
export function matchRoute(pathname: string): RouteMatch | null {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  for (const { route: def, regex, keys } of COMPILED) {
    const found = regex.exec(path);
    if (!found) continue;
    const params: Record<string, string> = {};
    let valid = true;
    keys.forEach((key, i) => {
      const value = found[i + 1];
      if (value === undefined) return;
      if (!checkParam(def.params?.[key], value)) valid = false;
      params[key] = value;
    });
    // A failed check on a matching path is a 404, not a fall-through to a later pattern.
    return valid ? { route: def, params } : null;
  }
  return null;
}

/** The path of a route with its parameters filled in: pathFor("members-id", { id: 5 }) -> /members/5. */
export function pathFor(name: string, params: Record<string, string | number> = {}): string {
  const def = ROUTES.find((r) => r.name === name);
  if (!def) throw new Error(`unknown route ${name}`);
  const path = def.path.replace(/\/\{(\w+)\??\}/g, (_, key: string) =>
    params[key] === undefined ? "" : `/${encodeURIComponent(String(params[key]))}`,
  );
  return path || "/";
}

/** The Hono path of a route: /members/{id} -> /members/:id, {slug?} -> :slug? */
export function honoPath(def: RouteDef): string {
  return def.path.replace(/\{(\w+)(\?)?\}/g, (_, key: string, optional?: string) => `:${key}${optional ?? ""}`);
}
