import { useState } from "react";
import type { OwnPhoto } from "../../../shared/photos";
import { ApiRequestError } from "../../page/api";
import { FormMessage } from "../../components/Form";
import { useT } from "../../page/page-context";
import type { OwnPhotos } from "./ownPhotos";

/** The message of a failed photo call: the server's own (translated) text, else "try again later". */
export function useErrorText() {
  const t = useT();
  return (error: unknown) =>
    error instanceof ApiRequestError && error.body.message ? error.body.message : t("errors.try_again_later");
}

/**
 * The member's own photos, each with its status (pending ones "waiting for approval"), "Make main
 * photo" on the others, and delete behind a confirmation.
 */
export function OwnPhotoList({ photos, actions }: { photos: OwnPhoto[]; actions: OwnPhotos }) {
  const t = useT();
  if (photos.length === 0) return <p className="notice">{t("profile_edit.photos.none")}</p>;
  return (
    <ul className="own-photos" aria-label={t("profile_edit.photos.yours")}>
      {photos.map((photo, index) => (
        <OwnPhotoItem key={photo.id} photo={photo} index={index} last={index === photos.length - 1} actions={actions} />
      ))}
    </ul>
  );
}

function statusText(t: ReturnType<typeof useT>, status: string) {
  if (status === "pending") return t("profile_edit.photos.status_pending");
  if (status === "rejected") return t("profile_edit.photos.status_rejected");
  return t("profile_edit.photos.status_active");
}

function OwnPhotoItem({
  photo,
  index,
  last,
  actions,
}: {
  photo: OwnPhoto;
  index: number;
  last: boolean;
  actions: OwnPhotos;
}) {
  const t = useT();
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<unknown>) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
      return;
    }
    setBusy(false);
    setConfirming(false);
  };

  const label = t("profile_edit.photos.photo_n", { n: index + 1 });
  return (
    <li
      className={photo.main ? "own-photo is-main" : "own-photo"}
      data-photo-id={photo.id}
      data-status={photo.status}
      aria-label={label}
      aria-busy={busy || undefined}
    >
      <div className="own-photo__image">
        {photo.thumb ? (
          <img src={photo.thumb} alt={label} width={96} height={120} loading="lazy" />
        ) : (
          <span className="profile-card__no-photo">{t("profile.no_photo")}</span>
        )}
        {photo.main && (
          <span className="profile-edit__photo-badge own-photo__main">{t("profile_edit.photos.main")}</span>
        )}
      </div>
      <div className="own-photo__body">
        <p className={`own-photo__status own-photo__status--${photo.status}`}>{statusText(t, photo.status)}</p>
        {confirming ? (
          <div className="own-photo__actions" role="group" aria-label={t("profile_edit.photos.delete_confirm")}>
            <p className="own-photo__confirm">{t("profile_edit.photos.delete_confirm")}</p>
            <button
              type="button"
              className="button button--danger"
              disabled={busy}
              onClick={() => void run(() => actions.remove(photo.id))}
            >
              {t("profile_edit.photos.delete_yes")}
            </button>
            <button type="button" className="button button--ghost" disabled={busy} onClick={() => setConfirming(false)}>
              {t("profile_edit.photos.cancel")}
            </button>
          </div>
        ) : (
          <div className="own-photo__actions">
            {!photo.main && photo.status !== "rejected" && (
              <button
                type="button"
                className="button button--ghost"
                disabled={busy}
                onClick={() => void run(() => actions.makeMain(photo.id))}
              >
                {t("profile_edit.photos.make_main")}
              </button>
            )}
            {index > 0 && (
              <button
                type="button"
                className="button button--ghost"
                disabled={busy}
                onClick={() => void run(() => actions.move(photo.id, index - 1))}
              >
                {t("profile_edit.photos.move_earlier")}
              </button>
            )}
            {!last && (
              <button
                type="button"
                className="button button--ghost"
                disabled={busy}
                onClick={() => void run(() => actions.move(photo.id, index + 1))}
              >
                {t("profile_edit.photos.move_later")}
              </button>
            )}
            <button
              type="button"
              className="button button--ghost button--danger"
              disabled={busy}
              onClick={() => setConfirming(true)}
            >
              {t("profile_edit.photos.delete")}
            </button>
          </div>
        )}
        <FormMessage text={error} />
      </div>
    </li>
  );
}
