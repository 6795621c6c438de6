import {
  createElement,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { mutate, preload, SWRConfig, useSWRConfig } from "swr";
import { apiFetch, LOGOUT_EVENT, swrConfig } from "./page/api";
import { newBuildWaiting } from "./service-worker/app-update";
import { isChunkLoadError, reloadForChunkError } from "./page/chunk-reload";
import { ErrorBoundary, ErrorPage } from "./components/ErrorPage";
import { loading } from "./components/LoadingBar";
import { I18nContext, PageContext, RouterContext, type Location, type Router } from "./page/page-context";
import { useHydrated } from "./hooks/useHydrated";
import { forgetMember } from "./hooks/useSignOut";
import { USER_KEY, useUser, type UserResponse } from "./hooks/useUser";
import { LAYOUTS } from "./layouts";
import { pageDataKeys } from "./page/page-data";
import type { PageError, PageState } from "./page/page-state";
import { matchRoute, type RouteMatch } from "../shared/routes";
import { loadedScreen, loadScreen } from "./screens";
import { type I18n } from "../shared/translator";

type View = { location: Location; match: RouteMatch | null; error: PageError | null };

const NOT_FOUND: PageError = { status: 404, message: null };

function locationOf(href: string): Location {
  const url = new URL(href, "http://app.local");
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

function viewOf(location: Location, error: PageError | null): View {
  const match = matchRoute(location.pathname);
  return { location, match, error: error ?? (match ? null : NOT_FOUND) };
}

/** The member channel and the match moment (components/MemberLive.tsx): their code is not part of the first download. */
const MemberLive = lazy(() => import("./components/MemberLive").then((module) => ({ default: module.MemberLive })));

/** The member's live channel once the page has hydrated (nothing of it is drawn by the server). */
function MemberChannel() {
  const { user } = useUser();
  const hydrated = useHydrated();
  return user && hydrated ? (
    <Suspense fallback={null}>
      <MemberLive />
    </Suspense>
  ) : null;
}

/**
 * The whole app for one page: shared by the server renderer and the client (hydration and
 * navigation). The server passes its per-isolate translator; the client makes its own from the page's texts file.
 */
export function App({ page, url, i18n }: { page: PageState; url: string; i18n: I18n }) {
  const [view, setView] = useState<View>(() => viewOf(locationOf(url), page.error));
  const navigation = useRef(0);
  const scrollPending = useRef(false);
  // Outside its own SWRConfig, so this is the shared default cache the screens' hooks use too.
  const { cache } = useSWRConfig();

  const show = useCallback(
    async (href: string, push: "push" | "replace" | "none") => {
      const target = new URL(href, window.location.href);
      // Another site, or a new deploy took over this page (decision 0019): the next page loads anew.
      if (target.origin !== window.location.origin || newBuildWaiting()) {
        window.location.assign(target.href);
        return;
      }
      const location: Location = { pathname: target.pathname, search: target.search, hash: target.hash };
      const next = viewOf(location, null);
      const id = ++navigation.current;
      if (next.match) {
        loading.start();
        try {
          // The member as now known (they may have logged in or out since the page was rendered).
          const known = cache.get(USER_KEY)?.data as UserResponse | undefined;
          const member = (known ? known.user : page.user) !== null;
          const keys = pageDataKeys(
            next.match,
            new URLSearchParams(location.search),
            page.settings.logged_out_search_mode,
            member,
          );
          // Errors of the data calls show on the screen itself; only the screen's code must arrive.
          keys.filter((k) => !k.infinite).forEach((k) => void preload(k.key, apiFetch).catch(() => undefined));
          await loadScreen(next.match.route.screen);
        } catch (error) {
          if (isChunkLoadError(error) && reloadForChunkError()) return;
          next.error = { status: 500, message: error instanceof Error ? error.message : null };
        } finally {
          loading.finish();
        }
      }
      if (id !== navigation.current) return;
      if (push === "push") window.history.pushState(null, "", target.href);
      if (push === "replace") window.history.replaceState(null, "", target.href);
      scrollPending.current = true;
      setView(next);
    },
    [page.settings.logged_out_search_mode, page.user, cache],
  );

  const router: Router = useMemo(
    () => ({
      location: view.location,
      match: view.match,
      navigate: (href, options) => show(href, options?.replace ? "replace" : "push"),
    }),
    [view, show],
  );

  useEffect(() => {
    // Marks the page as running (handlers attached): browser tests wait for it before clicking.
    document.documentElement.dataset.hydrated = "true";
  }, []);

  useEffect(() => {
    // The server ended the session: forget the member's data and go home as a visitor.
    const onLogout = () => {
      void forgetMember(mutate);
      void show("/", "push");
    };
    window.addEventListener(LOGOUT_EVENT, onLogout);
    return () => window.removeEventListener(LOGOUT_EVENT, onLogout);
  }, [show]);

  useEffect(() => {
    const onPopState = () => void show(window.location.href, "none");
    const onPreloadError = (event: Event) => {
      event.preventDefault();
      reloadForChunkError();
    };
    window.addEventListener("popstate", onPopState);
    window.addEventListener("vite:preloadError", onPreloadError);
    return () => {
      window.removeEventListener("popstate", onPopState);
      window.removeEventListener("vite:preloadError", onPreloadError);
    };
  }, [show]);

  useLayoutEffect(() => {
    if (!scrollPending.current) return;
    scrollPending.current = false;
    const target = view.location.hash ? document.getElementById(decodeURIComponent(view.location.hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [view]);

  const Layout = LAYOUTS[view.match?.route.layout ?? "default"];
  const Screen = view.match && !view.error ? loadedScreen(view.match.route.screen) : undefined;
  const query = new URLSearchParams(view.location.search);

  return (
    <PageContext.Provider value={page}>
      <I18nContext.Provider value={i18n}>
        <SWRConfig value={{ ...swrConfig, fallback: page.fallback }}>
          <RouterContext.Provider value={router}>
            <MemberChannel />
            <Layout>
              <ErrorBoundary resetKey={view.location.pathname + view.location.search}>
                {Screen && view.match ? (
                  createElement(Screen, { params: view.match.params, query, routeName: view.match.route.name })
                ) : (
                  <ErrorPage error={view.error ?? NOT_FOUND} />
                )}
              </ErrorBoundary>
            </Layout>
          </RouterContext.Provider>
        </SWRConfig>
      </I18nContext.Provider>
    </PageContext.Provider>
  );
}
