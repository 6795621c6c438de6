import { useState } from "react";
import useSWR from "swr";
import type { ApiRequestError } from "../../api";
import { apiSend } from "../../api";
import { FormMessage, formErrors } from "../../components/Form";
import { useT } from "../../page-context";
import type { VerificationState } from "../../../shared/verification";

export const VERIFICATION_KEY = "/api/verification.php";

/** "Only verified members may write to me" (docs/decisions/0040): first messages from verified members only. */
export function VerifiedOnlySection() {
  const t = useT();
  const { data, mutate } = useSWR<{ verification: VerificationState }, ApiRequestError>(VERIFICATION_KEY);
  const [pending, setPending] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);

  const toggle = async (next: boolean) => {
    setPending(next);
    setError(null);
    try {
      await mutate(await apiSend<{ verification: VerificationState }>("PUT", VERIFICATION_KEY, { verified_only: next }), { revalidate: false });
    } catch (failure) {
      setError(formErrors(failure, [], t).message);
    } finally {
      setPending(null);
    }
  };

  return (
    <section className="settings__section" aria-labelledby="settings-verified-only">
      <h2 id="settings-verified-only">{t("verification.verified_only")}</h2>
      <label className="toggle">
        <input type="checkbox" role="switch" checked={pending ?? data?.verification.verified_only ?? false} disabled={pending !== null || !data} onChange={(e) => void toggle(e.target.checked)} />
        <span className="toggle__track" aria-hidden="true" />
        <span className="toggle__label">{t("verification.verified_only")}</span>
      </label>
      <p className="settings__hint">{t("verification.verified_only_hint")}</p>
      <FormMessage text={error} />
    </section>
  );
}
