import type { ComponentType } from "react";
import type { ScreenProps } from "../page/page-state";
import type { ScreenName } from "../../shared/routes";

type ScreenModule = { default: ComponentType<ScreenProps> };

/** Each screen is its own chunk, so a page loads only the code it shows. */
const loaders: Record<ScreenName, () => Promise<ScreenModule>> = {
  home: () => import("./home/HomeScreen"),
  members: () => import("./members/MembersScreen"),
  member: () => import("./member/MemberScreen"),
  placeholder: () => import("./placeholder/PlaceholderScreen"),
  "static-page": () => import("./static-page/StaticPageScreen"),
  "lang-config": () => import("./lang-config/LangConfigScreen"),
  login: () => import("./login/LoginScreen"),
  signup: () => import("./signup/SignupScreen"),
  "complete-signup": () => import("./complete-signup/CompleteSignupScreen"),
  "reset-password": () => import("./reset-password/ResetPasswordScreen"),
  "reset-password-do": () => import("./reset-password-do/ResetPasswordDoScreen"),
  activate: () => import("./activate/ActivateScreen"),
  "mail-change-do": () => import("./mail-change-do/MailChangeDoScreen"),
  "account-deleted": () => import("./account-deleted/AccountDeletedScreen"),
  settings: () => import("./settings/SettingsScreen"),
  profile: () => import("./profile/ProfileScreen"),
  chats: () => import("./chats/ChatsScreen"),
  chat: () => import("./chats/ChatScreen"),
  complaints: () => import("./complaints/ComplaintsScreen"),
  "partner-redirect": () => import("./partner-redirect/PartnerRedirectScreen"),
  likes: () => import("./likes/LikesScreen"),
  swipe: () => import("./likes/SwipeScreen"),
  "match-finder": () => import("./likes/MatchFinderScreen"),
  credits: () => import("./credits/CreditsScreen"),
  "credits-order": () => import("./credits/OrderScreen"),
  "credits-repeat": () => import("./credits/RepeatOrderScreen"),
  transactions: () => import("./credits/TransactionsScreen"),
  premium: () => import("./credits/PremiumScreen"),
  pricing: () => import("./credits/PricingScreen"),
  directdebit: () => import("./credits/DirectDebitScreen"),
  lander: () => import("./landers/LanderScreen"),
  "member-landing": () => import("./member-landing/MemberLandingScreen"),
  "signup-matches": () => import("./signup-matches/SignupMatchesScreen"),
  decision: () => import("./decision/DecisionScreen"),
};

const loaded = new Map<ScreenName, ComponentType<ScreenProps>>();

/** Load a screen's code (once); render it with `loadedScreen` after this resolves. */
export async function loadScreen(name: ScreenName): Promise<ComponentType<ScreenProps>> {
  const cached = loaded.get(name);
  if (cached) return cached;
  const module = await loaders[name]();
  loaded.set(name, module.default);
  return module.default;
}

export function loadedScreen(name: ScreenName): ComponentType<ScreenProps> | undefined {
  return loaded.get(name);
}
