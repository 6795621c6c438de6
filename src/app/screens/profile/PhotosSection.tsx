import type { ProfileDetail, ProfilePhoto } from "../../../shared/api";
import { Pending } from "../../components/Pending";
import { useSettings, useT } from "../../page/page-context";
import { OwnPhotoList } from "./OwnPhotoList";
import { useOwnPhotos } from "./ownPhotos";
import { PhotoUpload } from "./PhotoUpload";

/**
 * The member's photos (SPEC §2 profile edit): the main photo large (as GET /api/profile.php has it,
 * until the member's own list is loaded), then the own photos from GET /api/photos.php with their
 * status, "Make main photo" and delete, and the upload with "n of max".
 */
export function PhotosSection({ profile, photos }: { profile: ProfileDetail; photos: ProfilePhoto[] }) {
  const t = useT();
  const settings = useSettings();
  const own = useOwnPhotos(profile.id);
  const list = own.photos.data;
  const ownMain = list?.photos.find((photo) => photo.main && photo.image);
  const main = photos.find((photo) => photo.main);
  // A main photo not (yet) in the list, e.g. one still being checked, still shows as the main photo.
  const mainSrc = ownMain
    ? ownMain.image
    : main
      ? main.image
      : profile.main_image
        ? settings.cdn_prefix + profile.main_image.match
        : null;

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
        {!list && photos.length > 0 && (
          <ul className="profile-edit__thumbs" aria-label={t("profile_edit.photos.title")}>
            {photos.map((photo) => (
              <li key={photo.id} className={photo.main ? "profile-edit__thumb is-main" : "profile-edit__thumb"}>
                <img
                  src={photo.thumb}
                  alt={photo.main ? t("profile_edit.photos.main") : ""}
                  width={64}
                  height={80}
                  loading="lazy"
                />
              </li>
            ))}
          </ul>
        )}
      </div>
      {list ? (
        <>
          <OwnPhotoList photos={list.photos} actions={own} />
          <PhotoUpload
            used={list.photos.filter((photo) => photo.status !== "rejected").length}
            limit={list.limit}
            actions={own}
          />
        </>
      ) : (
        <Pending failed={Boolean(own.photos.error)} retry={() => void own.photos.mutate()} />
      )}
    </section>
  );
}
