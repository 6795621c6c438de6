import { useState } from "react";
import type { User } from "../../../shared/api";
import { apiSend } from "../../api";
import { FormMessage, formErrors } from "../../components/Form";
import { useT } from "../../page-context";
import { USER_KEY, useUser } from "../../hooks/useUser";

/** Invisible mode (SPEC §4): hidden from search, and others cannot message or like the member. */
export function InvisibleSection({ invisible }: { invisible: boolean }) {
  const t = useT();
  const { setUser } = useUser();
  // The switch moves at once; it goes back if the server refuses.
  const [pending, setPending] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);

  const toggle = async (next: boolean) => {
    setPending(next);
    setError(null);
    try {
      const { user } = await apiSend<{ user: User }>("PUT", USER_KEY, { invisible: next });
      await setUser(user);
    } catch (failure) {
      setError(formErrors(failure, [], t).message);
    } finally {
      setPending(null);
    }
  };

  return (
    <section className="settings__section" aria-labelledby="settings-invisible">
      <h2 id="settings-invisible">{t("settings.invisible.title")}</h2>
      <label className="toggle">
        <input type="checkbox" role="switch" checked={pending ?? invisible} disabled={pending !== null} onChange={(e) => void toggle(e.target.checked)} />
        <span className="toggle__track" aria-hidden="true" />
        <span className="toggle__label">{t("settings.invisible.label")}</span>
      </label>
      <p className="settings__hint">{t("settings.invisible.text")}</p>
      <FormMessage text={error} />
    </section>
  );
}

/** Everything held about the member, as a JSON file. */
export function MyDataSection() {
  const t = useT();
  return (
    <section className="settings__section" aria-labelledby="settings-data">
      <h2 id="settings-data">{t("settings.data.title")}</h2>
      <p className="settings__hint">{t("settings.data.text")}</p>
      <a className="button button--ghost" href="/api/my-data.php" download>
        {t("settings.data.download")}
      </a>
    </section>
  );
}
