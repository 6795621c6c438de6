import { createContext, useContext } from "react";
import type { PageState } from "./page-state";
import type { RouteMatch } from "../../shared/routes";
import { type I18n } from "../../shared/translator";
import { textsLocale } from "../../shared/locales";

export const PageContext = createContext<PageState | null>(null);
export const I18nContext = createContext<I18n | null>(null);

export type Location = { pathname: string; search: string; hash: string };

export type Router = {
  location: Location;
  match: RouteMatch | null;
  /** Go to a path of this site without a document reload (history mode); settles once the screen shows. */
  navigate: (href: string, options?: { replace?: boolean }) => Promise<void>;
};

export const RouterContext = createContext<Router | null>(null);

function required<T>(value: T | null, name: string): T {
  if (value === null) throw new Error(`${name} is not provided`);
  return value;
}

export const usePage = () => required(useContext(PageContext), "PageContext");
export const useSettings = () => usePage().settings;
export const useRouter = () => required(useContext(RouterContext), "RouterContext");

/** The translate function of the page's language. */
export function useT() {
  return required(useContext(I18nContext), "I18nContext").t;
}

/** The locale the page writes its dates and numbers in: the language, or its regional variant on a site of that country (de-AT: "Jänner"). */
export function useWritingLocale(): string {
  const { locale, settings } = usePage();
  return textsLocale(locale, settings.countries[0]!);
}
