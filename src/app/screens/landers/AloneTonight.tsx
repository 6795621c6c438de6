import { Link } from "../../components/Link";
import { useT } from "../../page/page-context";
import { MemberName, MemberPhoto, MemberTown, type ConceptProps } from "./parts";

/** /landers/alonetonight: a night sky and a list of members who are up for a chat. */
export function AloneTonight({ profiles, signup }: ConceptProps) {
  const t = useT();
  return (
    <div className="night">
      <div className="night__sky" aria-hidden="true">
        <span className="night__moon" />
      </div>
      <ul className="night__list">
        {profiles.slice(0, 8).map((profile, i) => (
          <li key={profile.id} className="night__member">
            <MemberPhoto profile={profile} className="night__avatar" eager={i < 2} />
            <span className="night__text">
              <MemberName profile={profile} />
              {/* No "online now": the lander knows nothing of who is online, and claims only what is true. */}
              <MemberTown profile={profile} />
            </span>
            <Link
              href={signup}
              className="button button--small night__chat"
              aria-label={t("landers.chat_with", { name: profile.name })}
            >
              {t("landers.chat")}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
