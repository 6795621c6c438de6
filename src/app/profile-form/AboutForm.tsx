import { useId, useState } from "react";
import { ABOUT_ME_MAX } from "../../shared/profile";
import { FieldError } from "../components/Form";
import { useT } from "../page/page-context";
import type { ProfileFormProps } from "./fields";
import { useProfileSave } from "./save";

const FIELDS = ["about_me"] as const;

/** A few lines about the member (up to 2000 characters, counted as they type). */
export function AboutForm({ profile, frame, onSaved, onEdit }: ProfileFormProps) {
  const t = useT();
  const id = useId();
  const [aboutMe, setAboutMe] = useState(profile.about_me ?? "");
  const { form, save, edit } = useProfileSave(FIELDS, profile.id, { about_me: profile.about_me }, { onSaved, onEdit });
  const error = form.errors.fields.about_me;
  const count = aboutMe.length;

  // The server counts as the textarea's maxLength does (UTF-16 units), so the count does too.
  const submit = () => void save({ about_me: aboutMe.trim() || null });

  return frame({
    busy: form.busy,
    message: form.errors.message,
    onSubmit: submit,
    children: (
      <div className={error ? "field field--error" : "field"}>
        <label htmlFor={id} className="field__label">
          {t("profile.about_me")}
        </label>
        <textarea
          id={id}
          name="about_me"
          className="field__input field__textarea steps__about"
          rows={6}
          maxLength={ABOUT_ME_MAX}
          value={aboutMe}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint ${id}-count${error ? ` ${id}-error` : ""}`}
          onChange={(event) => {
            setAboutMe(event.target.value);
            edit("about_me");
          }}
        />
        <div className="steps__about-meta">
          <p id={`${id}-hint`} className="field__hint">
            {t("complete_signup.about.hint")}
          </p>
          <p id={`${id}-count`} className={count > ABOUT_ME_MAX ? "steps__char-count is-over" : "steps__char-count"}>
            {`${count}/${ABOUT_ME_MAX}`}
          </p>
        </div>
        <FieldError id={`${id}-error`} text={error} />
      </div>
    ),
  });
}
