import useSWR from "swr";
import type { SearchResponse } from "../../../shared/api";
import { Link } from "../../components/Link";
import { ProfileGrid } from "../../components/ProfileCard";
import { Title } from "../../components/Title";
import { useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import { FIRST_SEARCH_KEY } from "../../page/page-data";
import type { ScreenProps } from "../../page/page-state";
import SignupScreen from "../signup/SignupScreen";

/** How many first matches the page shows before sending the member on to the search. */
const FIRST_MATCHES = 12;

/**
 * /signup-matches (SPEC §2): right after signup, a first set of matches (the members the new
 * member's own search would show first); a visitor is asked to sign up to see them.
 */
export default function SignupMatchesScreen(props: ScreenProps) {
  const t = useT();
  const { user } = useUser();
  const { data } = useSWR<SearchResponse>(user ? FIRST_SEARCH_KEY : null);
  if (!user) return <SignupScreen {...props} />;
  return (
    <section className="signup-matches">
      <Title text={t("matches.title")} />
      <h1>{t("matches.title")}</h1>
      <p>{t("matches.intro", { name: user.profile.name })}</p>
      {data ? (
        data.profiles.length > 0 ? (
          <ProfileGrid profiles={data.profiles.slice(0, FIRST_MATCHES)} eagerCount={4} />
        ) : (
          <p className="notice">{t("search.no_results")}</p>
        )
      ) : (
        <p aria-busy="true">{t("search.loading")}</p>
      )}
      <Link href="/members" className="button button--primary">
        {t("matches.more")}
      </Link>
    </section>
  );
}
