import { useState } from "react";
import type { Gift } from "../../../shared/chat";
import { ApiRequestError, apiSend } from "../../page/api";
import { useT } from "../../page/page-context";
import { useUser } from "../../hooks/useUser";
import { GiftPicker } from "../chats/GiftPicker";

/**
 * The profile's gift button (SPEC §2): the chat's gift picker; the chosen gift is sent as a gift
 * message in the pair's conversation (POST /api/gift.php), at chat's price and with chat's refusals.
 */
export function GiftButton({ profileId, name }: { profileId: number; name: string }) {
  const t = useT();
  const { user, setUser } = useUser();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const send = async (gift: Gift) => {
    setOpen(false);
    setStatus(null);
    try {
      const clientId = crypto.randomUUID().replaceAll("-", "");
      const sent = await apiSend<{ credits: number }>("POST", "/api/gift.php", {
        profile: { id: profileId },
        gift: gift.slug,
        client_id: clientId,
      });
      if (user) void setUser({ ...user, credits: sent.credits });
      setStatus({ ok: true, text: t("likes.gift_sent", { name }) });
    } catch (error) {
      setStatus({ ok: false, text: error instanceof ApiRequestError ? error.message : t("errors.try_again_later") });
    }
  };
  return (
    <>
      <button type="button" className="button button--ghost" onClick={() => setOpen(true)}>
        {t("profile.gift")}
      </button>
      {status && (
        <p className={status.ok ? "notice" : "notice notice--error"} role={status.ok ? "status" : "alert"}>
          {status.text}
        </p>
      )}
      {open && <GiftPicker name={name} onPick={(gift) => void send(gift)} onClose={() => setOpen(false)} />}
    </>
  );
}
