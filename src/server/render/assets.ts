import manifest from "virtual:client-manifest";
import type { ScreenName } from "../../shared/routes";

type ManifestChunk = {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  src?: string;
};
export type ClientManifest = Record<string, ManifestChunk>;

const ENTRY = "src/client/entry.tsx";
const SCREEN_SOURCES: Record<ScreenName, string> = {
  home: "src/app/screens/home/HomeScreen.tsx",
  members: "src/app/screens/members/MembersScreen.tsx",
  member: "src/app/screens/member/MemberScreen.tsx",
  placeholder: "src/app/screens/placeholder/PlaceholderScreen.tsx",
  "static-page": "src/app/screens/static-page/StaticPageScreen.tsx",
  "lang-config": "src/app/screens/lang-config/LangConfigScreen.tsx",
  login: "src/app/screens/login/LoginScreen.tsx",
  signup: "src/app/screens/signup/SignupScreen.tsx",
  "complete-signup": "src/app/screens/complete-signup/CompleteSignupScreen.tsx",
  "reset-password": "src/app/screens/reset-password/ResetPasswordScreen.tsx",
  "reset-password-do": "src/app/screens/reset-password-do/ResetPasswordDoScreen.tsx",
  activate: "src/app/screens/activate/ActivateScreen.tsx",
  "mail-change-do": "src/app/screens/mail-change-do/MailChangeDoScreen.tsx",
  "account-deleted": "src/app/screens/account-deleted/AccountDeletedScreen.tsx",
  settings: "src/app/screens/settings/SettingsScreen.tsx",
  profile: "src/app/screens/profile/ProfileScreen.tsx",
  chats: "src/app/screens/chats/ChatsScreen.tsx",
  chat: "src/app/screens/chats/ChatScreen.tsx",
  complaints: "src/app/screens/complaints/ComplaintsScreen.tsx",
  "partner-redirect": "src/app/screens/partner-redirect/PartnerRedirectScreen.tsx",
  likes: "src/app/screens/likes/LikesScreen.tsx",
  swipe: "src/app/screens/likes/SwipeScreen.tsx",
  "match-finder": "src/app/screens/likes/MatchFinderScreen.tsx",
  credits: "src/app/screens/credits/CreditsScreen.tsx",
  "credits-order": "src/app/screens/credits/OrderScreen.tsx",
  "credits-repeat": "src/app/screens/credits/RepeatOrderScreen.tsx",
  transactions: "src/app/screens/credits/TransactionsScreen.tsx",
  premium: "src/app/screens/credits/PremiumScreen.tsx",
  pricing: "src/app/screens/credits/PricingScreen.tsx",
  directdebit: "src/app/screens/credits/DirectDebitScreen.tsx",
  lander: "src/app/screens/landers/LanderScreen.tsx",
  "member-landing": "src/app/screens/member-landing/MemberLandingScreen.tsx",
  "signup-matches": "src/app/screens/signup-matches/SignupMatchesScreen.tsx",
  decision: "src/app/screens/decision/DecisionScreen.tsx",
};

export type PageAssets = { entry: string; styles: string[]; preloads: string[] };

function collect(m: ClientManifest, key: string, files: Set<string>, styles: Set<string>) {
  const chunk = m[key];
  if (!chunk || files.has(`/${chunk.file}`)) return;
  files.add(`/${chunk.file}`);
  chunk.css?.forEach((css) => styles.add(`/${css}`));
  chunk.imports?.forEach((imported) => collect(m, imported, files, styles));
}

/**
 * The scripts and styles a page needs, from the client build's manifest: the entry, the current
 * screen's chunk and their imports (preloaded so hydration waits for no extra round trip). Without
 * a build (Vite's dev server, tests) the entry is served from source.
 */
export function pageAssets(screen: ScreenName | null): PageAssets {
  if (!manifest) return { entry: `/${ENTRY}`, styles: [], preloads: [] };
  const files = new Set<string>();
  const styles = new Set<string>();
  collect(manifest, ENTRY, files, styles);
  const entry = `/${manifest[ENTRY]!.file}`;
  if (screen) collect(manifest, SCREEN_SOURCES[screen], files, styles);
  files.delete(entry);
  return { entry, styles: [...styles], preloads: [...files] };
}
