import { VerifiedBadge } from "./VerifiedBadge";
import type { ReactNode } from "react";
import type { ProfileCard as Card } from "../../shared/api";
import { useSettings, useT } from "../page/page-context";
import { InitialsPortrait } from "./InitialsPortrait";
import { Link } from "./Link";
import { PremiumBadge } from "./PremiumBadge";

/** The fictional marker: the site's icon with its warning as the accessible text. */
export function FictionalMark() {
  const settings = useSettings();
  const t = useT();
  const label =
    settings.fictional_singular[settings.locale as keyof typeof settings.fictional_singular] ?? t("profile.fictional");
  return (
    <img className="fictional-mark" src={settings.fictional_icon} alt={label} title={label} width={18} height={18} />
  );
}

/**
 * One search or related result: the main photo full-bleed (or the member's initials where there is
 * none), with name, age and place over a gradient at its foot; links to the profile (or `href`).
 * `mark` lies over the photo (a "new" label), `children` are its actions.
 */
export function ProfileCard({
  profile,
  eager = false,
  href = `/members/${profile.id}`,
  mark,
  className = "profile-card",
  children,
}: {
  profile: Card;
  eager?: boolean;
  href?: string;
  mark?: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  const settings = useSettings();
  const image = profile.main_image;
  return (
    <li className={className} data-profile={profile.id}>
      <Link href={href} className="profile-card__link">
        <div className="profile-card__photo">
          {image ? (
            <img
              src={settings.cdn_prefix + image.thumb_filename}
              srcSet={`${settings.cdn_prefix + image.thumb_filename} 160w, ${settings.cdn_prefix + image.match} 480w`}
              sizes="(min-width: 992px) 220px, (min-width: 576px) 30vw, 45vw"
              width={160}
              height={200}
              alt={profile.name}
              loading={eager ? "eager" : "lazy"}
              decoding="async"
              className={profile.premium ? "is-premium" : undefined}
            />
          ) : (
            <InitialsPortrait name={profile.name} />
          )}
          {mark}
        </div>
        <div className="profile-card__text">
          {/* One text, not three: no separators between the name, the comma and the age in the markup. */}
          <strong className="profile-card__name">{`${profile.name}, ${profile.age}`}</strong>
          {profile.fictional && <FictionalMark />}
          {profile.premium && <PremiumBadge />}
          {profile.verified && <VerifiedBadge compact />}
          <span className="profile-card__place">{[profile.city, profile.region].filter(Boolean).join(", ")}</span>
        </div>
      </Link>
      {children && <div className="profile-card__actions">{children}</div>}
    </li>
  );
}

export function ProfileGrid({
  profiles,
  eagerCount = 0,
  action,
}: {
  profiles: Card[];
  eagerCount?: number;
  action?: (profile: Card) => ReactNode;
}) {
  return (
    <ul className="profile-grid">
      {profiles.map((profile, i) => (
        <ProfileCard key={profile.id} profile={profile} eager={i < eagerCount}>
          {action?.(profile)}
        </ProfileCard>
      ))}
    </ul>
  );
}
