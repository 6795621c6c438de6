import useSWR from "swr";
import useSWRInfinite from "swr/infinite";
import type { RegionsResponse, SearchCard, SearchResponse } from "../../../shared/api";
import { ApiRequestError } from "../../page/api";
import { NextStepNotice } from "../../components/NextStepNotice";
import { ProfileGrid } from "../../components/ProfileCard";
import { CardLike } from "../../components/LikeButton";
import { Title } from "../../components/Title";
import { usePage, useT } from "../../page/page-context";
import { REGIONS_KEY, searchFilters, searchPageKey } from "../../page/page-data";
import { visitorSearchAllowed } from "../../../shared/search-visibility";
import type { ScreenProps } from "../../page/page-state";
import { SearchForm } from "./SearchForm";
import { useUser } from "../../hooks/useUser";

/** Member search (SPEC §2, §4): filters, results added page by page, similar results when few. */
/** Under each result a member's like button, or "Liked" / "Matched" once they like it. */
const likeAction = (profile: SearchCard) => <CardLike profile={profile} />;

export default function MembersScreen({ query }: ScreenProps) {
  const { settings } = usePage();
  const { user } = useUser();
  const t = useT();
  const filters = searchFilters(query);
  const allowed = user !== null || visitorSearchAllowed(settings.logged_out_search_mode, 1);
  const firstPageOnly = user === null && settings.logged_out_search_mode === "first_page";
  const regions = useSWR<RegionsResponse>(REGIONS_KEY);
  const search = useSWRInfinite<SearchResponse, ApiRequestError>(
    (index, previous: SearchResponse | null) =>
      !allowed || (previous && !previous.has_more) ? null : searchPageKey(filters, index + 1),
    { revalidateFirstPage: false },
  );
  const pages = search.data ?? [];
  const profiles = pages.flatMap((page) => page.profiles);
  const similar = pages[0]?.similar ?? [];
  const hasMore = pages.length > 0 && pages[pages.length - 1]!.has_more;
  const loadingMore = search.isValidating && search.size > pages.length;

  return (
    <section className="members">
      <Title text={t("search.title")} />
      <h1>{t("search.title")}</h1>
      <SearchForm
        key={query.toString()}
        query={query}
        regions={regions.data?.regions ?? []}
        applied={pages[0]?.query}
      />
      {!allowed ? (
        <NextStepNotice text={t("search.login_needed")} href="/login" action={t("nav.login")} />
      ) : search.error ? (
        <p className="notice notice--error" role="alert">
          {search.error.message}
        </p>
      ) : search.data === undefined ? (
        <p className="notice" aria-busy="true">
          {t("search.loading")}
        </p>
      ) : (
        <>
          {profiles.length === 0 ? (
            <p className="notice">{t("search.no_results")}</p>
          ) : (
            <ProfileGrid profiles={profiles} eagerCount={4} action={user ? likeAction : undefined} />
          )}
          {hasMore &&
            (firstPageOnly ? (
              <NextStepNotice text={t("search.signup_for_more")} href="/signup" action={t("nav.signup")} />
            ) : (
              <button
                type="button"
                className="button button--primary members__more"
                disabled={loadingMore}
                onClick={() => void search.setSize(search.size + 1)}
              >
                {loadingMore ? t("search.loading") : t("search.more")}
              </button>
            ))}
          {similar.length > 0 && (
            <>
              <h2>{t("search.similar")}</h2>
              <ProfileGrid profiles={similar} />
            </>
          )}
        </>
      )}
    </section>
  );
}
