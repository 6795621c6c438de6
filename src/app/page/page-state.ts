import type { Language } from "../../shared/locales";
import type { User } from "../../shared/api";
import type { CompanyInfo, PublicSettings } from "../../shared/settings";

export type SessionUser = User;

/** What the server hands the client in the page: enough to hydrate without another request. */
export type PageState = {
  locale: Language;
  /**
   * Where the page's texts are (GET /texts/<tag>.<hash>.json: the language's and its regional variant's
   * own, de-CH, nl-BE ...): the browser fetches them before hydrating and keeps them (decision 0042).
   */
  texts: string;
  settings: PublicSettings;
  company: CompanyInfo | null;
  /** The signed-in member, or null for a visitor. */
  user: SessionUser | null;
  /** swr fallback: the data of this page under the keys its hooks ask for. */
  fallback: Record<string, unknown>;
  /** Set when the server answered with an error page. */
  error: PageError | null;
  /** When the server drew the page (Unix seconds): the clock of countdowns until the page has hydrated. */
  rendered_at: number;
  /** Whether this is a development build (shows the dev notices). */
  development: boolean;
};

export type PageError = { status: number; message: string | null };

export type ScreenProps = {
  params: Record<string, string>;
  query: URLSearchParams;
  routeName: string;
};
