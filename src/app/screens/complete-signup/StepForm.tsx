import type { ReactNode } from "react";
import { FrameForm } from "../../profile-form/fields";
import { useT } from "../../page/page-context";

type Props = {
  title: string;
  text: string;
  /** A save is under way: every button waits. */
  busy?: boolean;
  /** The form's own error (one that belongs to no field shown). */
  message?: string | null;
  onBack: () => void;
  onLater: () => void;
  /** Save and move on; without it (the data is still loading) "Next" is off. */
  onSubmit?: (() => void) | undefined;
  children: ReactNode;
};

/** A profile step: title, intro, its fields, then Back, Later (skip without saving) and Next (save). */
export function StepForm({ title, text, busy = false, message, onBack, onLater, onSubmit, children }: Props) {
  const t = useT();
  return (
    <div className="steps__body">
      <h1>{title}</h1>
      <p>{text}</p>
      <FrameForm
        className="form steps__form"
        busy={busy}
        message={message}
        onSubmit={onSubmit}
        actions={
          <div className="steps__actions steps__actions--form">
            <button type="button" className="button button--ghost" onClick={onBack} disabled={busy}>
              {t("complete_signup.back")}
            </button>
            <button type="button" className="button button--ghost" onClick={onLater} disabled={busy}>
              {t("complete_signup.later")}
            </button>
            <button type="submit" className="button button--primary" disabled={busy || !onSubmit}>
              {busy ? t("complete_signup.saving") : t("complete_signup.next")}
            </button>
          </div>
        }
      >
        {children}
      </FrameForm>
    </div>
  );
}
