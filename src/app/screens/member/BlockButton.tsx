import { useState } from "react";
import type { KeyedMutator } from "swr";
import type { ProfileResponse } from "../../../shared/api";
import { apiSend } from "../../page/api";
import { useT } from "../../page/page-context";

/** Block or unblock this member (SPEC §4, §6); the page shows the result at once. */
export function BlockButton({ data, mutate }: { data: ProfileResponse; mutate: KeyedMutator<ProfileResponse> }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const blocked = data.viewer?.blocked ?? false;

  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    try {
      await apiSend(blocked ? "DELETE" : "POST", "/api/block.php", { profile_id: data.profile.id });
      await mutate({ ...data, viewer: { own: false, blocked: !blocked } }, { revalidate: false });
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="button button--ghost" disabled={busy} onClick={() => void toggle()}>
        {blocked ? t("profile.unblock") : t("profile.block")}
      </button>
      {blocked && <p className="notice member__blocked">{t("profile.blocked_notice", { name: data.profile.name })}</p>}
      {failed && (
        <p className="notice notice--error" role="alert">
          {t("errors.try_again_later")}
        </p>
      )}
    </>
  );
}
