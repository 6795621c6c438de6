import { useT } from "../../page/page-context";
import { PhotoUpload } from "../profile/PhotoUpload";
import { useOwnPhotos } from "../profile/ownPhotos";

/** Signup step 1: upload photos right away (the same upload as on the profile screen), or later. */
export function PhotoStep({
  profileId,
  title,
  text,
  onBack,
  onNext,
}: {
  profileId: number;
  title: string;
  text: string;
  onBack: () => void;
  onNext: () => void;
}) {
  const t = useT();
  const own = useOwnPhotos(profileId);
  const list = own.photos.data;
  const uploaded = list?.photos.filter((photo) => photo.status !== "rejected") ?? [];
  return (
    <div className="steps__body">
      <h1>{title}</h1>
      <p>{text}</p>
      {uploaded.length > 0 && (
        <ul className="signup-photos">
          {uploaded.map((photo) => (
            <li key={photo.id}>{photo.thumb && <img src={photo.thumb} alt="" width={72} height={90} />}</li>
          ))}
        </ul>
      )}
      {list && <PhotoUpload used={uploaded.length} limit={list.limit} actions={own} />}
      <div className="steps__actions">
        <button type="button" className="button button--ghost" onClick={onBack}>
          {t("complete_signup.back")}
        </button>
        <button type="button" className="button button--primary" onClick={onNext}>
          {uploaded.length > 0 ? t("complete_signup.next") : t("complete_signup.later")}
        </button>
      </div>
    </div>
  );
}
