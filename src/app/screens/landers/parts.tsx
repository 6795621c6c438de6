import type { ProfileCard, ShowcaseTown } from "../../../shared/api";
import { Link } from "../../components/Link";
import { FictionalMark } from "../../components/ProfileCard";
import { useSettings, useT } from "../../page-context";

/** What every lander concept is given: real members of the site's country and where signup is. */
export type ConceptProps = { profiles: ProfileCard[]; towns: ShowcaseTown[]; signup: string };

/** A member's main photo (public to everyone, SPEC §6): the thumbnail, or the larger image for a big frame. */
export function MemberPhoto({ profile, large = false, eager = false, className }: { profile: ProfileCard; large?: boolean; eager?: boolean; className?: string }) {
  const settings = useSettings();
  const image = profile.main_image!;
  return (
    <img
      className={className}
      src={settings.cdn_prefix + (large ? image.match : image.thumb_filename)}
      alt={profile.name}
      width={large ? 480 : 160}
      height={large ? 600 : 200}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      {...(eager ? { fetchPriority: "high" as const } : {})}
    />
  );
}

/** "Name, 34" with the site's fictional mark when the profile is one (SPEC §3 fictional_icon). */
export function MemberName({ profile }: { profile: ProfileCard }) {
  return (
    <span className="lander-name">
      <strong>
        {profile.name}, {profile.age}
      </strong>
      {profile.fictional && <FictionalMark />}
    </span>
  );
}

/** The member's town (and region), never anything finer. */
export function MemberTown({ profile }: { profile: ProfileCard }) {
  const place = [profile.city, profile.region].filter(Boolean).join(", ");
  return place ? <span className="lander-town">{place}</span> : null;
}

/** The way in: to the signup with the traffic source kept. */
export function SignupCta({ href, label, className = "" }: { href: string; label?: string; className?: string }) {
  const t = useT();
  return (
    <Link href={href} className={`button button--primary lander-cta ${className}`}>
      {label ?? t("landers.cta")}
    </Link>
  );
}
