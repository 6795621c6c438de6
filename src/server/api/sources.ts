/**
 * Read-only API calls that pages also render from. Each entry is the one place that parses the
 * call's query and loads its answer, used by GET /api/<name>.php and by the server renderer when it
 * embeds a page's data, so both always give the same shape.
 */
import type { Context } from "hono";
import { GeocodeQuery, ProfileQuery, RecordId, RegionsQuery, SearchQuery, ShowcaseQuery } from "../../shared/api";
import { visitorSearchAllowed } from "../../shared/search-visibility";
import * as v from "valibot";
import type { GiftsResponse } from "../../shared/chat";
import { creditValueFor } from "../services/chat-costs";
import { DEFAULT_CONFIRM_CREDITS_ABOVE } from "../../shared/send-costs";
import { giftImage, siteGifts } from "../../shared/gifts";
import type { AppEnv } from "../request-context";
import { peerIn } from "../db/conversations";
import { conversationRooms, invisibleWroteTo, listChats, loadChat } from "../services/chats";
import { requireChatMember } from "./chats";
import { AppError, invalidParameter } from "../errors";
import { listInterests, listRegions } from "../services/catalogue";
import { geocode } from "../services/geocode";
import { getProfile } from "../services/profiles";
import { isPromotable } from "../db/profiles";
import { resetLinkLive } from "../services/accounts";
import { searchMembers } from "../services/search";
import { loadSessions } from "./sessions";
import { showcase } from "../services/showcase";
import { legalPage } from "../services/legal-pages";
import { LEGAL_PAGES } from "../../shared/legal";
import { allowedPartner, PARTNER_REDIRECT_SECONDS } from "../../shared/partners";
import { parseQuery } from "./query";
import { LikesQuery, MatchFinderQuery } from "../../shared/likes";
import { autoLike, findMatches, listLikes, nextSwipe, openProfile } from "../services/likes";
import { outboxRetentionDays } from "../services/retention";
import { requireLikeMember } from "./likes";
import { publicSettings, searchModeFor, selectedCountry } from "./settings";
import { loadDiscount, loadPrices } from "./discounts";
import { loadRepeatOrder } from "./payments";
import { loadOrder, loadTransaction, loadTransactions } from "./transactions";
import { requireMember } from "../edge/signed-in-member";
import { notificationsAnswer } from "../services/notification-choices";
import { offeredMethods } from "../services/payment-methods";
import { buyerOf, paymentContext } from "./payments";
import { loadDecision } from "./decisions";

type Source = (c: Context<AppEnv>, params: URLSearchParams) => Promise<unknown>;

const BundleQuery = v.object({ bundle_id: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,5}$/), v.transform(Number)) });
const LegalQuery = v.object({ page: v.picklist(LEGAL_PAGES) });
const PartnerQuery = v.object({ name: v.pipe(v.string(), v.maxLength(64)) });
const ChatQuery = v.union([
  v.object({ profile: RecordId, before: v.optional(RecordId) }),
  v.object({ conversation: RecordId, before: v.optional(RecordId) }),
]);

export const SOURCES: Record<string, Source> = {
  "/api/search.php": async (c, params) => {
    const query = parseQuery(SearchQuery, params);
    const site = c.get("site");
    if (!c.get("session") && !visitorSearchAllowed(searchModeFor(c), query.page ?? 1))
      throw new AppError({ status: 403, code: "login_required", key: "errors.login_to_search" });
    return searchMembers(c.get("db"), site, query, selectedCountry(c), c.get("session"));
  },
  "/api/profile.php": async (c, params) => {
    const { id, for: purpose } = parseQuery(ProfileQuery, params);
    // A landing page advertises the member: only a fictional profile or one whose member chose it.
    if (purpose === "landing" && !(await isPromotable(c.get("db"), id)))
      throw new AppError({ status: 404, code: "not_found", key: "errors.not_found" });
    const viewerId = c.get("session")?.profileId ?? null;
    const profile = getProfile(
      c.get("db"),
      id,
      c.get("locale"),
      c.get("site").cdn_prefix,
      viewerId,
      new Date(),
      c.get("site").countries[0],
    );
    if (viewerId === null || viewerId === id) return profile;
    // The like buttons show how the two stand; a new like of theirs is seen now (SPEC §4).
    const [answer, standing] = await Promise.all([profile, openProfile(c.get("db"), viewerId, id)]);
    // An invisible member cannot be liked, nor written to except where they wrote (docs/decisions/0051).
    const may = answer.invisible
      ? {
          can_like: false,
          can_message: await invisibleWroteTo(c.get("db"), conversationRooms(c.env.CONVERSATIONS), viewerId, id),
        }
      : { can_like: true, can_message: true };
    return { ...answer, viewer: { own: false, blocked: answer.viewer?.blocked ?? false, ...standing, ...may } };
  },
  // Main photos are public (SPEC §6: visitors see them), so the landers show them whatever logged_out_search says.
  "/api/showcase.php": async (c, params) => {
    const { towns } = parseQuery(ShowcaseQuery, params);
    return showcase(c.get("db"), selectedCountry(c), towns === "1");
  },
  "/api/regions.php": async (c, params) => {
    const { country } = parseQuery(RegionsQuery, params);
    const countries = c.get("site").countries;
    if (country && !countries.includes(country)) throw invalidParameter("country");
    return listRegions(c.get("db"), country ? [country] : countries);
  },
  "/api/interests.php": async (c) => listInterests(c.get("db"), c.get("locale"), c.get("site").countries[0]),
  "/api/geocode.php": async (c, params) => {
    const { lat, lon } = parseQuery(GeocodeQuery, params);
    const place = await geocode(c.get("db"), lat, lon);
    if (!place) throw new AppError({ status: 404, code: "not_found", key: "errors.place_not_found" });
    return place;
  },
  "/api/companyinfo.php": async (c) => {
    const company = c.get("company");
    if (!company) throw new AppError({ status: 404, code: "not_found", key: "errors.not_found" });
    return company;
  },
  "/api/settings.php": async (c, params) => publicSettings(c, params),
  "/api/sessions.php": loadSessions,
  "/api/chats.php": async (c) => listChats(c.get("db"), requireChatMember(c).profileId),
  "/api/chat.php": async (c, params) => {
    const session = requireChatMember(c);
    const query = parseQuery(ChatQuery, params);
    const peer = "profile" in query ? query.profile : await peerIn(c.get("db"), query.conversation, session.profileId);
    if (peer === null)
      throw new AppError({ status: 404, code: "not_found", key: "errors.chat_not_found", field: "conversation" });
    return loadChat(
      c.get("db"),
      conversationRooms(c.env.CONVERSATIONS),
      c.get("site"),
      c.get("t"),
      { userId: session.userId, profileId: session.profileId, country: c.get("country") },
      peer,
      query.before ?? null,
    );
  },
  "/api/legal.php": async (c, params) => {
    const { page } = parseQuery(LegalQuery, params);
    return legalPage(page, c.get("t"), c.get("locale"), c.get("site"), c.get("company"), outboxRetentionDays(c.env));
  },
  "/api/partner.php": async (c, params) => {
    const { name } = parseQuery(PartnerQuery, params);
    const partner = allowedPartner(c.get("site"), name);
    if (!partner) throw new AppError({ status: 404, code: "not_found", key: "errors.not_found" });
    return { partner: { name: partner.name, url: partner.url, seconds: PARTNER_REDIRECT_SECONDS } };
  },
  "/api/likes.php": async (c, params) => {
    const { type, page } = parseQuery(LikesQuery, params);
    return listLikes(c.get("db"), requireLikeMember(c).profileId, type ?? "received", page ?? 1);
  },
  "/api/auto-like.php": async (c) => autoLike(c.get("db"), requireLikeMember(c).profileId),
  "/api/swipe.php": async (c) =>
    nextSwipe({ db: c.get("db"), site: c.get("site"), now: new Date() }, requireLikeMember(c)),
  "/api/match-finder.php": async (c, params) => {
    const session = requireLikeMember(c);
    return findMatches(c.get("db"), c.get("site"), session, parseQuery(MatchFinderQuery, params));
  },
  "/api/order.php": loadOrder,
  "/api/decision.php": loadDecision,
  /** Whether the mailed reset link in the page's address can still be used (the password form shows only then). */
  "/api/password-reset.php": async (c, params) => ({
    live: await resetLinkLive(c.get("db"), params.get("token") ?? "", Math.floor(Date.now() / 1000)),
  }),
  "/api/payment-methods.php": async (c, params) => {
    const session = requireMember(c);
    const { bundle_id } = parseQuery(BundleQuery, params);
    return offeredMethods(paymentContext(c), c.env.SETTINGS, await buyerOf(c, session), bundle_id);
  },
  "/api/transactions.php": loadTransactions,
  "/api/transaction.php": loadTransaction,
  "/api/discountcode.php": (c, params) => loadDiscount(c, params),
  "/api/prices.php": (c, params) => loadPrices(c, params),
  "/api/repeat-order.php": (c) => loadRepeatOrder(c),
  "/api/notifications.php": async (c) => notificationsAnswer(c.get("db"), requireMember(c).userId),
  "/api/gifts.php": async (c): Promise<GiftsResponse> => {
    const t = c.get("t");
    const session = c.get("session");
    const site = c.get("site");
    return {
      credit_value: await creditValueFor(c.get("db"), site, session?.userId ?? null, c.get("country")),
      confirm_above: site.confirm_credits_above ?? DEFAULT_CONFIRM_CREDITS_ABOVE,
      gifts: siteGifts(c.get("site")).map((gift) => ({
        ...gift,
        name: t(`gifts.${gift.slug}`),
        image: giftImage(gift.slug),
      })),
    };
  },
};

/** Load the answer of a source by its URL path and query (a swr key such as /api/profile.php?id=5). */
export async function loadSource(c: Context<AppEnv>, key: string): Promise<unknown> {
  const url = new URL(key, "http://internal");
  const source = SOURCES[url.pathname];
  if (!source) throw new AppError({ status: 404, code: "not_found", key: "errors.not_found" });
  return source(c, url.searchParams);
}
