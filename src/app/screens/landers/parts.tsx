import { useState, type CSSProperties, type ReactNode } from "react";
import type { ProfileCard, ShowcaseTown } from "../../../shared/api";
import { Link } from "../../components/Link";
import { InitialsPortrait } from "../../components/InitialsPortrait";
import { FictionalMark } from "../../components/ProfileCard";
import { useSettings, useT } from "../../page/page-context";

/** What every lander concept is given: real members of the site's country and where signup is. */
export type ConceptProps = { profiles: ProfileCard[]; towns: ShowcaseTown[]; signup: string };

/** A member's main photo (public to everyone, SPEC §6): the thumbnail, or the larger image for a big frame. */
export function MemberPhoto({
  profile,
  large = false,
  eager = false,
  className,
}: {
  profile: ProfileCard;
  large?: boolean;
  eager?: boolean;
  className?: string;
}) {
  const settings = useSettings();
  const image = profile.main_image;
  // Showcases put members with a photo first; only when too few have one does a member without show.
  if (!image) return <InitialsPortrait name={profile.name} className={className} />;
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
export function MemberName({
  profile,
  as: Tag = "span",
  className = "lander-name",
}: {
  profile: Pick<ProfileCard, "name" | "age" | "fictional">;
  as?: "span" | "p";
  className?: string;
}) {
  return (
    <Tag className={className}>
      <strong>
        {profile.name}, {profile.age}
      </strong>
      {profile.fictional && <FictionalMark />}
    </Tag>
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

/** A member's name and town under a photo that fills its frame. */
export function MemberCaption({ profile }: { profile: ProfileCard }) {
  return (
    <figcaption>
      <MemberName profile={profile} />
      <MemberTown profile={profile} />
    </figcaption>
  );
}

/**
 * A show of `shots` members, `seconds` each, that plays by CSS on its own (`--shots`, `--shot-seconds`),
 * with the button that pauses it (WCAG 2.2.2): the container gets `<block>--paused`, which the
 * stylesheet turns into `animation-play-state: paused`.
 */
export function PausableShow({
  block,
  shots,
  seconds,
  children,
}: {
  block: string;
  shots: number;
  seconds: number;
  children: ReactNode;
}) {
  const t = useT();
  const [paused, setPaused] = useState(false);
  return (
    <div
      className={`${block}${paused ? ` ${block}--paused` : ""}`}
      style={{ "--shots": shots, "--shot-seconds": `${seconds}s` } as CSSProperties}
    >
      {children}
      <button type="button" className="reel__toggle" onClick={() => setPaused((p) => !p)}>
        {paused ? t("landers.play") : t("landers.pause")}
      </button>
    </div>
  );
}

/** Members as a grid of photos, each leading to signup; the first `eager` photos load at once. */
export function MemberGallery({
  profiles,
  signup,
  eager,
  withTown = false,
}: {
  profiles: ProfileCard[];
  signup: string;
  eager: number;
  withTown?: boolean;
}) {
  return (
    <ul className="lander-gallery">
      {profiles.map((profile, i) => (
        <li key={profile.id} className="lander-gallery__item">
          <Link href={signup} className="lander-gallery__link">
            <MemberPhoto profile={profile} eager={i < eager} />
            <span className="lander-gallery__text">
              <MemberName profile={profile} />
              {withTown && <MemberTown profile={profile} />}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
