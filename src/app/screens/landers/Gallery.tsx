import { Link } from "../../components/Link";
import { MemberName, MemberPhoto, MemberTown, type ConceptProps } from "./parts";

/** /landers/gallery: a tidy grid of the newest members, each leading to signup. */
export function Gallery({ profiles, signup }: ConceptProps) {
  return (
    <ul className="lander-gallery">
      {profiles.map((profile, i) => (
        <li key={profile.id} className="lander-gallery__item">
          <Link href={signup} className="lander-gallery__link">
            <MemberPhoto profile={profile} eager={i < 4} />
            <span className="lander-gallery__text">
              <MemberName profile={profile} />
              <MemberTown profile={profile} />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
