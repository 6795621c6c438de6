import type { ProfileCard as Card } from "../../shared/api";
import { useSettings, useT } from "../page-context";
import { Link } from "./Link";

/** The fictional marker: the site's icon with its warning as the accessible text. */
export function FictionalMark() {
  const settings = useSettings();
  const t = useT();
  const label = settings.fictional_singular[settings.locale as keyof typeof settings.fictional_singular] ?? t("profile.fictional");
  return <img className="fictional-mark" src={settings.fictional_icon} alt={label} title={label} width={18} height={18} />;
}

/** One search or related result: main photo, name, age and place; links to the profile. */
function ProfileCard({ profile, eager = false }: { profile: Card; eager?: boolean }) {
  const settings = useSettings();
  const t = useT();
  const image = profile.main_image;
  return (
    <li className="profile-card">
      <Link href={`/members/${profile.id}`} className="profile-card__link">
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
            />
          ) : (
            <span className="profile-card__no-photo">{t("profile.no_photo")}</span>
          )}
        </div>
        <div className="profile-card__text">
          <strong className="profile-card__name">
            {profile.name}, {profile.age}
          </strong>
          {profile.fictional && <FictionalMark />}
          <span className="profile-card__place">{[profile.city, profile.region].filter(Boolean).join(", ")}</span>
        </div>
      </Link>
    </li>
  );
}

export function ProfileGrid({ profiles, eagerCount = 0 }: { profiles: Card[]; eagerCount?: number }) {
  return (
    <ul className="profile-grid">
      {profiles.map((profile, i) => (
        <ProfileCard key={profile.id} profile={profile} eager={i < eagerCount} />
      ))}
    </ul>
  );
}
