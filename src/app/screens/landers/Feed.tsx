import { Link } from "../../components/Link";
import { useT } from "../../page/page-context";
import { MemberName, MemberPhoto, MemberTown, type ConceptProps } from "./parts";

/** /landers/socialnetwork: members' photos as posts of a social feed; every action needs an account. */
export function Feed({ profiles, signup }: ConceptProps) {
  const t = useT();
  return (
    <ol className="feed">
      {profiles.slice(0, 6).map((profile, i) => (
        <li key={profile.id} className="feed__post">
          <header className="feed__head">
            <MemberPhoto profile={profile} className="feed__avatar" eager={i === 0} />
            <span className="feed__who">
              <MemberName profile={profile} />
              <span>{t("landers.socialnetwork.posted")}</span>
            </span>
          </header>
          <MemberPhoto profile={profile} large className="feed__photo" eager={i === 0} />
          <footer className="feed__actions">
            <MemberTown profile={profile} />
            <Link href={signup} className="button button--small button--ghost">
              <span aria-hidden="true">♥</span> {t("landers.socialnetwork.like")}
              <span className="visually-hidden"> {profile.name}</span>
            </Link>
            <Link href={signup} className="button button--small button--ghost">
              {t("landers.socialnetwork.reply")}
              <span className="visually-hidden"> {profile.name}</span>
            </Link>
          </footer>
        </li>
      ))}
    </ol>
  );
}
