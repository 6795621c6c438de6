import { useId, useState, type ReactNode } from "react";
import { useT } from "../../page/page-context";
import { FrameForm, type FormFrame } from "../../profile-form/fields";
import type { SaveCallbacks } from "../../profile-form/save";

type Props = {
  /** The section's id (a link to /profile#location scrolls to it). */
  id: string;
  title: string;
  /** Read-only lines shown above the form. */
  intro?: ReactNode;
  /** The section's form, given the frame and the save callbacks. */
  children: (props: SaveCallbacks & { frame: FormFrame }) => ReactNode;
};

/**
 * One section of the profile screen: a heading and a form that saves on its own with a Save button,
 * the form's error under it and a short "Saved" next to the button until the member edits again.
 */
export function EditSection({ id, title, intro, children }: Props) {
  const t = useT();
  const titleId = useId();
  const [saved, setSaved] = useState(false);

  const frame: FormFrame = (form) => (
    <FrameForm
      {...form}
      className="form profile-edit__form"
      actions={
        <div className="profile-edit__actions">
          <button type="submit" className="button button--primary" disabled={form.busy || !form.onSubmit}>
            {form.busy ? t("profile_edit.saving") : t("profile_edit.save")}
          </button>
          {/* Always in the page, so screen readers announce the text when it appears. */}
          <p className="profile-edit__saved" role="status">
            {saved && !form.busy ? t("profile_edit.saved") : ""}
          </p>
        </div>
      }
    />
  );

  return (
    <section id={id} className="profile-edit__section" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {intro}
      {children({ frame, onSaved: () => setSaved(true), onEdit: () => setSaved(false) })}
    </section>
  );
}
