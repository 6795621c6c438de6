import { Link } from "../../components/Link";
import { MemberName, MemberPhoto, type ConceptProps } from "./parts";

/** /landers/collagelanding: members' photos in a collage of tiles of different sizes. */
export function Collage({ profiles, signup }: ConceptProps) {
  return (
    <ul className="collage">
      {profiles.slice(0, 9).map((profile, i) => (
        <li key={profile.id} className={`collage__tile collage__tile--${i % 5}`}>
          <Link href={signup} className="collage__link">
            <MemberPhoto profile={profile} large={i === 0} eager={i < 3} />
            <span className="collage__caption">
              <MemberName profile={profile} />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
