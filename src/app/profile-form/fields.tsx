import { useId, type ReactNode } from "react";
import type { ProfileDetail } from "../../shared/api";
import { FieldError, FormMessage } from "../components/Form";
import type { SaveCallbacks } from "./save";

/** What a profile form hands to the screen's frame: its fields, whether it is saving, its own error and the save. */
type FrameProps = {
  /** A save is under way: the buttons wait. */
  busy: boolean;
  /** The form's own error (one that belongs to no field shown). */
  message: string | null;
  /** Save; absent while the form cannot save yet. */
  onSubmit?: (() => void) | undefined;
  children: ReactNode;
};

/**
 * How a screen wraps a profile form: the signup steps add Back, Later and Next; the profile screen a
 * Save button with its "Saved". A render function (not a component) so the fields keep their state.
 */
export type FormFrame = (props: FrameProps) => ReactNode;

/**
 * The form element of both frames: the fields show their own errors (no browser validation); while a
 * save is under way it is marked busy and a second submit is ignored. The form's own error stands
 * between the fields and the frame's buttons.
 */
export function FrameForm({
  className,
  busy,
  message,
  onSubmit,
  actions,
  children,
}: Omit<FrameProps, "message"> & { className: string; message: string | null | undefined; actions: ReactNode }) {
  return (
    <form
      className={className}
      noValidate
      aria-busy={busy || undefined}
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onSubmit?.();
      }}
    >
      {children}
      <FormMessage text={message} />
      {actions}
    </form>
  );
}

/** The props every profile form takes: the member's profile, the frame, and what to do on save and edit. */
export type ProfileFormProps = SaveCallbacks & { profile: ProfileDetail; frame: FormFrame };

/** A labelled select with the field's error below it. */
export function SelectField({
  label,
  name,
  value,
  error,
  disabled,
  onChange,
  children,
}: {
  label: string;
  name: string;
  value: string;
  error: string | undefined;
  disabled?: boolean;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className={error ? "field field--error" : "field"}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <select
        id={id}
        name={name}
        className="field__input field__select"
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}
