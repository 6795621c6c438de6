import { useState } from "react";
import { useSettings, useT } from "../page/page-context";
import { usePushState } from "../hooks/usePush";
import { useUser } from "../hooks/useUser";
import { turnOffPush, turnOnPush } from "../service-worker/push-state";

/**
 * Whether this browser gets the member's push notifications, with the button that changes it (the
 * choices per kind are the member's, on every browser; this is the browser's own subscription).
 * Nothing while push is unknown or not offered.
 */
export function PushOnThisBrowser() {
  const t = useT();
  const { user } = useUser();
  const { push_public_key: publicKey } = useSettings();
  const state = usePushState();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!user || state === "unknown" || state === "unsupported") return null;
  if (state === "denied") return <p className="settings__hint">{t("push_alert.denied")}</p>;
  const change = async () => {
    setBusy(true);
    setFailed(false);
    try {
      if (state === "subscribed") await turnOffPush(publicKey);
      else await turnOnPush(publicKey, user.profile.id);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="push-here" data-push-state={state}>
      <p className="settings__hint">{t(state === "subscribed" ? "push_alert.on_here" : "push_alert.off_here")}</p>
      {failed && <p className="form-message form-message--error">{t("push_alert.failed")}</p>}
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={busy}
        onClick={() => void change()}
      >
        {t(state === "subscribed" ? "push_alert.turn_off" : "push_alert.enable")}
      </button>
    </div>
  );
}
