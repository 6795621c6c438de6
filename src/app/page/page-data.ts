/**
 * The swr keys each screen reads. The server loads them before rendering and embeds the answers
 * as swr's fallback, so the first paint needs no request; the client uses the same keys.
 */
import { unstable_serialize } from "swr/infinite";
import type { LoggedOutSearchMode } from "../../shared/settings";
import type { RouteMatch } from "../../shared/routes";
import { visitorSearchAllowed } from "../../shared/search-visibility";
import { PAYMENT_METHODS } from "../../shared/payment-methods";

/** key: what is fetched; fallbackKey: where swr looks for it (an infinite list keeps its pages elsewhere). */
type DataKey = { key: string; fallbackKey: string; infinite: boolean };

const SEARCH_PARAMS = ["gender", "country", "country_region", "min_age", "max_age", "verified"] as const;

/** The search filters of a members URL, in a fixed order so equal searches share a key. */
export function searchFilters(query: URLSearchParams): URLSearchParams {
  const filters = new URLSearchParams();
  for (const name of SEARCH_PARAMS) {
    const value = query.get(name);
    if (value) filters.set(name, value);
  }
  return filters;
}

/** Key of one page of a search. */
export function searchPageKey(filters: URLSearchParams, page: number): string {
  const params = new URLSearchParams(filters);
  if (page > 1) params.set("page", String(page));
  const qs = params.toString();
  return `/api/search.php${qs ? `?${qs}` : ""}`;
}

/** The swr infinite key under which a search's pages live. */
export function searchInfiniteKey(filters: URLSearchParams): string {
  return unstable_serialize((index: number) => searchPageKey(filters, index + 1));
}

export const profileKey = (id: string | number) => `/api/profile.php?id=${id}`;
/** The profile as a member landing page shows it: answered only for a profile that may be promoted. */
export const landingProfileKey = (id: string | number) => `/api/profile.php?id=${id}&for=landing`;

/** GET /api/likes.php: the received tab's first page, which also carries the new-likes count of the badge. */
export const LIKES_KEY = "/api/likes.php";

/** Key of one page of a likes tab; the received tab's first page is LIKES_KEY itself. */
export function likesPageKey(type: string, page: number): string {
  const params = new URLSearchParams();
  if (type !== "received") params.set("type", type);
  if (page > 1) params.set("page", String(page));
  const qs = params.toString();
  return qs ? `${LIKES_KEY}?${qs}` : LIKES_KEY;
}

/** The swr infinite key under which a likes tab's pages live. */
const likesInfiniteKey = (type: string) => unstable_serialize((index: number) => likesPageKey(type, index + 1));

/** GET /api/swipe.php: the swipe game's next card. */
export const SWIPE_KEY = "/api/swipe.php";
/** GET /api/auto-like.php: the new-like popup's profile. */
export const AUTO_LIKE_KEY = "/api/auto-like.php";
export const REGIONS_KEY = "/api/regions.php";
/** GET /api/showcase.php: members for the landers; the map lander asks for their towns too. */
export const showcaseKey = (towns: boolean) => (towns ? "/api/showcase.php?towns=1" : "/api/showcase.php");
/** The first page of a search with the member's or the site's defaults (home page, first matches). */
export const FIRST_SEARCH_KEY = searchPageKey(new URLSearchParams(), 1);
/** GET /api/chats.php: the member's conversations (SPEC §7). */
export const CHATS_KEY = "/api/chats.php";
/** GET /api/notifications.php: the member's notification choices and why mail stopped. */
export const NOTIFICATIONS_KEY = "/api/notifications.php";
/** GET /api/gifts.php: the gifts this site sells. */
export const GIFTS_KEY = "/api/gifts.php";

/** GET /api/legal.php: a static page's text, filled in for the site. */
export const legalKey = (page: string) => `/api/legal.php?page=${page}`;
/** GET /api/partner.php: a partner of the site's allow-list. */
export const partnerKey = (name: string) => `/api/partner.php?name=${encodeURIComponent(name)}`;

/** A conversation as the chat screens name it: by the other member (/members/{id}/chat) or by its own id (/chats/{id}). */
export type ChatRef = { profile: string | number } | { conversation: string | number };

/** Key of a conversation's newest messages (GET /api/chat.php?profile=ID or ?conversation=ID). */
export function chatKey(ref: ChatRef): string {
  return "profile" in ref ? `/api/chat.php?profile=${ref.profile}` : `/api/chat.php?conversation=${ref.conversation}`;
}

/** Key of the page of a conversation's messages before a message: its history loads backwards page by page. */
export const olderChatKey = (key: string, before: number) => `${key}&before=${before}`;

/** GET /api/order.php?id=: one order's status (the pending page follows it). */
export const orderKey = (id: string | number) => `/api/order.php?id=${id}`;
export const paymentMethodsKey = (bundleId: string | number) => `/api/payment-methods.php?bundle_id=${bundleId}`;
/** GET /api/transactions.php: the member's orders and balance. */
export const TRANSACTIONS_KEY = "/api/transactions.php";
/** GET /api/transaction.php?id=: a receipt. */
export const transactionKey = (id: string | number) => `/api/transaction.php?id=${id}`;

/** GET /api/prices.php: the prices the member is shown, with a typed code (else their active offer), for every bundle or one (and its method). */
export function pricesKey(
  query: { code?: string | null; bundleId?: string | number | null; method?: string | null } = {},
): string {
  const params = new URLSearchParams();
  if (query.code) params.set("code", query.code);
  if (query.bundleId) params.set("bundle_id", String(query.bundleId));
  if (query.method) params.set("method", query.method);
  const text = params.toString();
  return text ? `/api/prices.php?${text}` : "/api/prices.php";
}
/** GET /api/discountcode.php?welcome=true: the member's welcome discount and time bonus (the page carries it for a member who never paid). */
export const WELCOME_KEY = "/api/discountcode.php?welcome=true";
/** GET /api/repeat-order.php: what a repeat order buys and charges. */
export const REPEAT_ORDER_KEY = "/api/repeat-order.php";

/** GET /api/decision.php: a moderation decision's statement of reasons, for its member (session or the mailed key). */
export const decisionKey = (id: string | number, key: string | null) =>
  `/api/decision.php?id=${id}${key ? `&key=${encodeURIComponent(key)}` : ""}`;

/** GET /api/password-reset.php?token=: whether a mailed reset link can still be used. */
export const resetLinkKey = (token: string) => `/api/password-reset.php?token=${encodeURIComponent(token)}`;

/** GET /api/sessions.php: the member's logged-in devices (settings screen). */
export const SESSIONS_KEY = "/api/sessions.php";

/** The discount code in a credits address (?discount=), as the screens pass it on. */
export const typedCode = (query: URLSearchParams): string | null => query.get("discount")?.trim() || null;

const plain = (key: string): DataKey => ({ key, fallbackKey: key, infinite: false });

/**
 * The data a page embeds. `member` says whether someone is logged in: a visitor's chat screens show
 * the login prompt and load nothing (the chat calls answer a visitor with 403).
 */
export function pageDataKeys(
  match: RouteMatch,
  query: URLSearchParams,
  searchMode: LoggedOutSearchMode,
  member = true,
): DataKey[] {
  switch (match.route.screen) {
    case "members": {
      const filters = searchFilters(query);
      const search = { key: searchPageKey(filters, 1), fallbackKey: searchInfiniteKey(filters), infinite: true };
      return visitorSearchAllowed(searchMode, 1) ? [search, plain(REGIONS_KEY)] : [plain(REGIONS_KEY)];
    }
    case "member":
      return [plain(profileKey(match.params.id!))];
    case "chats":
      if (!member) return [];
      return match.params.id
        ? [plain(CHATS_KEY), plain(chatKey({ conversation: match.params.id }))]
        : [plain(CHATS_KEY)];
    case "chat":
      return member ? [plain(chatKey({ profile: match.params.id! }))] : [];
    case "likes": {
      if (!member) return [];
      const type = match.params.type ?? "received";
      return [{ key: likesPageKey(type, 1), fallbackKey: likesInfiniteKey(type), infinite: true }];
    }
    case "swipe":
      return member ? [plain(SWIPE_KEY)] : [];
    case "credits": {
      return member ? [plain(pricesKey({ code: typedCode(query) }))] : [];
    }
    case "credits-order": {
      if (!member) return [];
      const order = query.get("order");
      if (order) return /^[1-9][0-9]{0,9}$/.test(order) ? [plain(orderKey(order))] : [];
      const method = match.params.paymentmethod;
      return [
        plain(
          pricesKey({
            code: typedCode(query),
            bundleId: match.params.id,
            method: method && (PAYMENT_METHODS as readonly string[]).includes(method) ? method : null,
          }),
        ),
      ];
    }
    case "transactions":
      if (!member) return [];
      return match.params.id ? [plain(transactionKey(match.params.id))] : [plain(TRANSACTIONS_KEY)];
    case "credits-repeat":
      return member ? [plain(REPEAT_ORDER_KEY)] : [];
    case "settings":
      return member ? [plain(SESSIONS_KEY), plain(NOTIFICATIONS_KEY)] : [];
    case "signup":
      // /members/{id}/signup names the member the visitor signs up for.
      return match.params.id ? [plain(profileKey(match.params.id))] : [];
    case "member-landing":
      return [plain(landingProfileKey(match.params.id!))];
    case "lander":
      return [plain(showcaseKey(match.params.lander === "maplanding"))];
    case "home":
      // The row of recent members shows only when visitors may search (SPEC §1: logged_out_search).
      return visitorSearchAllowed(searchMode, 1) ? [plain(FIRST_SEARCH_KEY)] : [];
    case "signup-matches":
      return member ? [plain(FIRST_SEARCH_KEY)] : [];
    case "static-page":
      return [plain(legalKey(match.params.token ?? match.route.name.replace(/^pages-/, "")))];
    case "partner-redirect":
      return [plain(partnerKey(match.params.partner!))];
    case "decision":
      return [plain(decisionKey(match.params.id!, query.get("key")))];
    case "reset-password-do":
      return query.get("token") ? [plain(resetLinkKey(query.get("token")!))] : [];
    default:
      return [];
  }
}
