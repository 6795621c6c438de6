import { useState } from "react";
import type { KeyedMutator } from "swr";
import type { ProfileResponse } from "../../../shared/api";
import { apiSend } from "../../page/api";
import { useT } from "../../page/page-context";

/**
 * Block or unblock this member (SPEC §4, §6); the page shows the result at once. Blocking ends the
 * chat and the likes for good, so it asks first and says so; unblocking loses nothing and does not.
 */
export function BlockButton({ data, mutate }: { data: ProfileResponse; mutate: KeyedMutator<ProfileResponse> }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const blocked = data.viewer?.blocked ?? false;
  const name = data.profile.name;

  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    setConfirming(false);
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
      {!confirming && (
        <button
          type="button"
          className="button button--ghost"
          disabled={busy}
          onClick={() => (blocked ? void toggle() : setConfirming(true))}
        >
          {blocked ? t("profile.unblock") : t("profile.block")}
        </button>
      )}
      {confirming && (
        <div className="confirm-inline" role="group" aria-label={t("profile.block")}>
          <p>{t("profile.block_confirm", { name })}</p>
          <div className="confirm-inline__actions">
            <button type="button" className="button button--danger" disabled={busy} onClick={() => void toggle()}>
              {t("profile.block")}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setConfirming(false)}>
              {t("profile.block_cancel")}
            </button>
          </div>
        </div>
      )}
      {blocked && <p className="notice member__blocked">{t("profile.blocked_notice", { name })}</p>}
      {failed && (
        <p className="notice notice--error" role="alert">
          {t("errors.try_again_later")}
        </p>
      )}
    </>
  );
}
