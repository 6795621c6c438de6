import { useId, useRef, useState } from "react";
import { FormMessage } from "../../components/Form";
import { useT } from "../../page/page-context";
import { useErrorText } from "./OwnPhotoList";
import { PHOTO_ACCEPT, type OwnPhotos } from "./ownPhotos";

/**
 * Upload one photo: a button that opens the file picker (JPEG, PNG or WebP), "Uploading…" while it
 * is sent, the server's error under it, and how many of the allowed photos the member has.
 */
export function PhotoUpload({ used, limit, actions }: { used: number; limit: number; actions: OwnPhotos }) {
  const t = useT();
  const errorText = useErrorText();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const full = used >= limit;

  const send = async (file: File) => {
    setBusy(true);
    setError(null);
    try {
      await actions.upload(file);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <div className="photo-upload" aria-busy={busy || undefined}>
      <p className="photo-upload__count" id={`${inputId}-count`}>
        {t("profile_edit.photos.count", { n: used, count: limit })}
      </p>
      {full ? (
        <p className="notice">{t("profile_edit.photos.limit_reached", { count: limit })}</p>
      ) : (
        <>
          {/* The label is the button: it opens the file picker, and stays usable by keyboard through the input. */}
          <input
            ref={input}
            id={inputId}
            type="file"
            name="photo"
            accept={PHOTO_ACCEPT}
            className="photo-upload__input"
            disabled={busy}
            aria-describedby={`${inputId}-count ${inputId}-hint`}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void send(file);
            }}
          />
          <label
            htmlFor={inputId}
            className={
              busy
                ? "button button--primary photo-upload__button is-busy"
                : "button button--primary photo-upload__button"
            }
          >
            {busy ? t("profile_edit.photos.uploading") : t("profile_edit.photos.upload")}
          </label>
          <p className="field__hint" id={`${inputId}-hint`}>
            {t("profile_edit.photos.hint")}
          </p>
        </>
      )}
      {busy && <progress className="photo-upload__progress" aria-label={t("profile_edit.photos.uploading")} />}
      <FormMessage text={error} />
    </div>
  );
}
