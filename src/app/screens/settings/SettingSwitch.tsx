import { useState } from "react";
import { FormMessage, formErrors } from "../../components/Form";
import { useT } from "../../page/page-context";

/** A yes/no choice as the settings show it: a checkbox with the switch role, its track and its label. */
export function Switch({
  name,
  label,
  checked,
  disabled,
  className,
  onChange,
}: {
  name?: string;
  label: string;
  checked: boolean;
  disabled: boolean;
  className?: string;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className={className ? `toggle ${className}` : "toggle"}>
      <input
        type="checkbox"
        role="switch"
        name={name}
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className="toggle__track" aria-hidden="true" />
      <span className="toggle__label">{label}</span>
    </label>
  );
}

/**
 * A settings section of one switch saved at once: the switch moves when touched, goes back when the
 * server refuses, and the refusal's text shows under it. `ready` is false while the value is loading.
 */
export function SwitchSection({
  id,
  title,
  label,
  hint,
  value,
  ready = true,
  save,
}: {
  id: string;
  title: string;
  label: string;
  hint: string;
  value: boolean;
  ready?: boolean;
  save: (on: boolean) => Promise<void>;
}) {
  const t = useT();
  const [pending, setPending] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);

  const toggle = async (next: boolean) => {
    setPending(next);
    setError(null);
    try {
      await save(next);
    } catch (failure) {
      setError(formErrors(failure, [], t).message);
    } finally {
      setPending(null);
    }
  };

  return (
    <section className="settings__section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <Switch
        label={label}
        checked={pending ?? value}
        disabled={pending !== null || !ready}
        onChange={(on) => void toggle(on)}
      />
      <p className="settings__hint">{hint}</p>
      <FormMessage text={error} />
    </section>
  );
}
