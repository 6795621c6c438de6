import type { ProfileDetail, ProfilePhoto } from "../../../shared/api";
import { useSettings, useT } from "../../context";

/**
 * The member's photos as GET /api/profile.php answers them: the main photo large, every photo as a
 * thumbnail with the main one marked.
 *
 * SLOT: photo upload and choosing the main photo (SPEC §2 profile edit) belong in this section,
 * `<section id="photos">`, under the current photos. They come with the photos API, which is being
 * built separately; until then the section only shows what is there.
 */
export function PhotosSection({ profile, photos }: { profile: ProfileDetail; photos: ProfilePhoto[] }) {
  const t = useT();
  const settings = useSettings();
  const main = photos.find((photo) => photo.main);
  // A main photo not (yet) in the list, e.g. one still being checked, still shows as the main photo.
  const mainSrc = main ? main.image : profile.main_image ? settings.cdn_prefix + profile.main_image.match : null;

  return (
    <section id="photos" className="profile-edit__section" aria-labelledby="profile-edit-photos">
      <h2 id="profile-edit-photos">{t("profile_edit.photos.title")}</h2>
      <div className="profile-edit__photos">
        <figure className="profile-edit__main-photo">
          {mainSrc ? (
            <img src={mainSrc} alt={profile.name} width={240} height={300} />
          ) : (
            <span className="profile-card__no-photo">{t("profile.no_photo")}</span>
          )}
          {mainSrc && <figcaption className="profile-edit__photo-badge">{t("profile_edit.photos.main")}</figcaption>}
        </figure>
        {photos.length > 0 && (
          <ul className="profile-edit__thumbs" aria-label={t("profile_edit.photos.title")}>
            {photos.map((photo) => (
              <li key={photo.id} className={photo.main ? "profile-edit__thumb is-main" : "profile-edit__thumb"}>
                <img src={photo.thumb} alt={photo.main ? t("profile_edit.photos.main") : ""} width={64} height={80} loading="lazy" />
              </li>
            ))}
          </ul>
        )}
      </div>
      {/* Photo upload and main-photo selection go here. */}
    </section>
  );
}
